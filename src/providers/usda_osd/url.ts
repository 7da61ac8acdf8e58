/**
 * OSD_URL, the variable usda_osd declares of itself (docs/architecture.md#providers): the live OSD files'
 * address, a URL pattern. SoilKnowledgeBase keeps the parsed OSDs at `inst/extdata/OSD/<first letter>/<NAME>.json`,
 * name upper-cased with spaces as `_` (CLARION, CABO_ROJO) (docs/decisions.md#series).
 */
import type { SettingDeclaration } from "../../config";

export const DEFAULT_OSD_URL = "https://raw.githubusercontent.com/ncss-tech/SoilKnowledgeBase/main/inst/extdata/OSD/{letter}/{name}.json";

/** The file URL of a series key (already reduced to letters and `_`) in an OSD_URL pattern. */
export function osdUrl(pattern: string, key: string): string {
  return pattern.replaceAll("{letter}", encodeURIComponent(key.charAt(0))).replaceAll("{name}", encodeURIComponent(key));
}

/** Why an OSD_URL pattern cannot be used, or null (the config reader's check at start). */
export function osdUrlProblem(pattern: string): string | null {
  if (!pattern.includes("{name}")) return "must contain {name} (and usually {letter}), e.g. " + DEFAULT_OSD_URL;
  let parsed: URL;
  try {
    parsed = new URL(osdUrl(pattern, "CLARION"));
  } catch {
    return `expected an http(s) URL pattern, got '${pattern}'`;
  }
  return parsed.protocol === "http:" || parsed.protocol === "https:" ? null : `expected an http(s) URL pattern, got '${pattern}'`;
}

export const OSD_URL_SETTING = {
  name: "OSD_URL",
  kind: "url-pattern",
  default: DEFAULT_OSD_URL,
  check: osdUrlProblem,
  help: "series descriptions, a pattern with {letter} and {name} (live mode)",
} as const satisfies SettingDeclaration;
