/**
 * An Official Series Description as SoilKnowledgeBase parses it (one JSON object per series) into
 * the parts of a series answer. Both sources hand this the same JSON text: the snapshot stores the
 * files byte-exact, live mode fetches them.
 *
 * SoilKnowledgeBase quirks this undoes: `HORIZONS` is a list holding one list; a missing value is the
 * string "NA", in text and numeric fields alike, and is never passed on as a value; `top`/`bottom`
 * are centimetres even when the OSD line states inches first ("A--0 to 10 inches" is top 0, bottom
 * 25); each section's `content` repeats its heading ("TAXONOMIC CLASS: Fine-loamy, ...").
 */
import { centimetres, originalDepth, type OriginalDepth } from "./depth";
import { UpstreamError } from "../../errors";
import { formatMunsell, munsellToSrgb, type MunsellTable } from "./munsell";

export interface SeriesColor {
  hue: string;
  value: number;
  /** 0 for a neutral (N) colour whose chroma the OSD leaves out ("N 2.5/"). */
  chroma: number;
  notation: string;
  srgb_hex: string | null;
}

export interface SeriesHorizon {
  name: string;
  /** Centimetres; bottom_cm null where the OSD gives no lower depth (typically R or Cr: bedrock). */
  depth: { top_cm: number; bottom_cm: number | null };
  /** The depth as the OSD line states it (inches or centimetres) and the conversion; null when the line states none. */
  original_depth: OriginalDepth | null;
  moist_color: SeriesColor | null;
  dry_color: SeriesColor | null;
  texture_class: string | null;
  structure: string | null;
  ph_class: string | null;
  narrative: string | null;
}

export interface SeriesSection {
  name: string;
  text: string;
}

export interface SeriesHeader {
  name: string;
  status: string | null;
  taxonomic_class: string | null;
  states: string[];
  /** The OSD revision as YYYY-MM (REVDATE "10/2005" -> "2005-10"); null when absent or unreadable. */
  revised: string | null;
  overview: string | null;
}

export interface ParsedOsd {
  series: SeriesHeader;
  sections: SeriesSection[];
  horizons: SeriesHorizon[];
  /** REVDATE and BYREV exactly as the OSD states them, for the citation. */
  revision: { date: string | null; by: string | null };
  warnings: string[];
}

/** Header keys of a SoilKnowledgeBase OSD object; every other object-valued key is a text section. */
const HEADER_KEYS = new Set(["SERIES", "STATUS", "BYREV", "REVDATE", "STATES", "OVERVIEW", "SITE", "HORIZONS"]);

const SERIES_NAME_PATTERN = /^[A-Za-z]+(?:[ _][A-Za-z]+){0,3}$/;
export const SERIES_NAME_MAX_LENGTH = 40;

/**
 * The series key for a name as a user writes it (case-insensitive; words joined by spaces or `_`):
 * "new cambria" and "New_Cambria" are both NEW_CAMBRIA, the file name SoilKnowledgeBase uses.
 * Null for anything else: the name reaches a file path and a URL, so only letters pass.
 */
export function seriesKey(name: string): string | null {
  if (name.length === 0 || name.length > SERIES_NAME_MAX_LENGTH || !SERIES_NAME_PATTERN.test(name)) return null;
  return name.toUpperCase().replace(/ /g, "_");
}

/** "NA" (SoilKnowledgeBase's missing value), empty and whitespace-only strings are absent. */
function text(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed === "" || trimmed === "NA" ? null : trimmed;
}

function number(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  return null;
}

/** "10/2005" -> "2005-10"; two-digit years ("02/97", "8/86") are of the 1900s from 50 up. */
export function revisionMonth(revdate: string | null): string | null {
  const match = revdate ? /^(\d{1,2})\/(\d{2}|\d{4})$/.exec(revdate) : null;
  if (!match) return null;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return null;
  const yy = Number(match[2]);
  const year = match[2]!.length === 4 ? yy : yy >= 50 ? 1900 + yy : 2000 + yy;
  return `${year}-${String(month).padStart(2, "0")}`;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The section text without the heading SoilKnowledgeBase leaves at its start. */
function sectionText(heading: string, key: string, content: string): string {
  for (const h of [heading, key]) {
    const match = new RegExp(`^${escapeRegExp(h)}\\s*:\\s*`).exec(content);
    if (match) return content.slice(match[0].length).trim();
  }
  return content.trim();
}

function color(
  horizon: Record<string, unknown>,
  prefix: "moist" | "dry",
  table: MunsellTable,
  warnings: string[],
): SeriesColor | null {
  const hue = text(horizon[`${prefix}_hue`]);
  if (hue === null) return null;
  const value = number(horizon[`${prefix}_value`]);
  const statedChroma = number(horizon[`${prefix}_chroma`]);
  const neutral = hue.toUpperCase() === "N";
  const name = text(horizon.name) ?? "?";
  if (value === null || (statedChroma === null && !neutral)) {
    warnings.push(`Horizon ${name}: the ${prefix} colour is incomplete in the parsed description (hue ${hue}); see the horizon narrative.`);
    return null;
  }
  const chroma = statedChroma ?? 0;
  const converted = munsellToSrgb(table, { hue: neutral ? "N" : hue, value, chroma });
  if (converted.warning) warnings.push(`Horizon ${name}: ${converted.warning}`);
  return { hue, value, chroma, notation: formatMunsell(hue, value, statedChroma), srgb_hex: converted.srgb_hex };
}

/** SoilKnowledgeBase's horizon fields a SeriesHorizon carries (the rest are named in a warning). */
const SERVED_HORIZON_FIELDS = new Set(["name", "top", "bottom", "narrative", "texture_class", "structure", "pH_class", "moist_hue", "moist_value", "moist_chroma", "dry_hue", "dry_value", "dry_chroma"]);

/** The parsed fields with a value in some horizon that no SeriesHorizon member carries, in first-seen order. */
function fieldsLeftOut(parsed: readonly unknown[]): string[] {
  const left = new Set<string>();
  for (const raw of parsed) {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) continue;
    for (const [key, value] of Object.entries(raw)) if (!SERVED_HORIZON_FIELDS.has(key) && (number(value) !== null || text(value) !== null)) left.add(key);
  }
  return [...left];
}

function horizon(raw: unknown, table: MunsellTable, warnings: string[]): SeriesHorizon | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const h = raw as Record<string, unknown>;
  const name = text(h.name);
  const top = number(h.top);
  if (name === null || top === null) {
    warnings.push("A parsed horizon without a name or top depth was left out; the typical pedon section holds the full description.");
    return null;
  }
  const narrative = text(h.narrative);
  // The line's own depth wins over SoilKnowledgeBase's whole centimetres (docs/decisions.md#osd-depths).
  const original = originalDepth(narrative);
  const depth = original ? centimetres(original) : { top_cm: top, bottom_cm: number(h.bottom) };
  if (original && original.bottom === null && number(h.bottom) !== null) depth.bottom_cm = number(h.bottom);
  if (depth.bottom_cm === null) warnings.push(`Horizon ${name}: the description gives no lower depth (bottom_cm is null).`);
  return {
    name,
    depth,
    original_depth: original,
    moist_color: color(h, "moist", table, warnings),
    dry_color: color(h, "dry", table, warnings),
    texture_class: text(h.texture_class),
    structure: text(h.structure),
    ph_class: text(h.pH_class),
    narrative,
  };
}

/**
 * Parse one OSD object (JSON text or the parsed value). Throws UpstreamError when it is not an OSD:
 * no SERIES name, or HORIZONS not a list of lists.
 */
export function parseOsd(input: string | unknown, table: MunsellTable): ParsedOsd {
  let json: unknown = input;
  if (typeof input === "string") {
    try {
      json = JSON.parse(input);
    } catch {
      throw new UpstreamError("The series description is not valid JSON (truncated or malformed).");
    }
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new UpstreamError("The series description is not a JSON object.");
  const osd = json as Record<string, unknown>;
  const name = text(osd.SERIES);
  if (name === null) throw new UpstreamError("The series description names no series (SERIES is missing).");
  const horizonLists = osd.HORIZONS ?? [];
  if (!Array.isArray(horizonLists) || !horizonLists.every(Array.isArray)) {
    throw new UpstreamError(`The series description of ${name} has HORIZONS in an unknown shape (expected a list of lists).`);
  }

  const warnings: string[] = [];
  const sections: SeriesSection[] = [];
  let taxonomicClass: string | null = null;
  for (const [key, value] of Object.entries(osd)) {
    if (HEADER_KEYS.has(key) || typeof value !== "object" || value === null || Array.isArray(value)) continue;
    const section = value as { section?: unknown; content?: unknown };
    const content = text(section.content);
    if (content === null) continue;
    const heading = text(section.section) ?? key;
    const body = sectionText(heading, key, content);
    if (body === "" || body === "NA") continue;
    sections.push({ name: heading, text: body });
    if (key === "TAXONOMIC CLASS") taxonomicClass = body;
  }

  // SoilKnowledgeBase wraps the typical pedon in one more list; only the first holds horizons.
  const parsed = (horizonLists as unknown[][])[0] ?? [];
  const horizons = parsed.map((raw) => horizon(raw, table, warnings)).filter((h): h is SeriesHorizon => h !== null);
  const leftOut = fieldsLeftOut(parsed);
  if (leftOut.length > 0) {
    warnings.push(`The parsed horizons also give ${leftOut.join(", ")}, which Loam does not serve as fields; each horizon's narrative states them as the description does.`);
  }
  const revdate = text(osd.REVDATE);
  const states = (text(osd.STATES) ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "" && s !== "NA");

  return {
    series: {
      name,
      status: text(osd.STATUS),
      taxonomic_class: taxonomicClass,
      states,
      revised: revisionMonth(revdate),
      overview: text(osd.OVERVIEW),
    },
    sections,
    horizons,
    revision: { date: revdate, by: text(osd.BYREV) },
    warnings,
  };
}
