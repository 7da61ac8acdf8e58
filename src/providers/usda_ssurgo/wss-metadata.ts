/**
 * Survey-area version facts (sacatalog.saversion / saverest) from what a WSS download carries.
 *
 * Preference: `tabular/sacatlog.txt` (whole-area downloads; imported as a table, not here), then the
 * WSS `readme.txt` ("SSA version: 26", "SSA version est.: 06/10/2020 02:56:26 AM", one block per
 * survey area of an AOI export), then the FGDC metadata. FGDC metadata states no version number;
 * its date is the last process step that "added a system assigned version number and date stamp"
 * (the certification that created the current version), else the citation's publication date.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface SurveyAreaVersion {
  areasymbol: string;
  saversion: number | null;
  /** ISO local date-time, e.g. 2020-06-10T02:56:26. */
  saverest: string | null;
  /** File the facts came from. */
  source: string;
}

const pad = (n: number | string, w = 2) => String(n).padStart(w, "0");

/**
 * WSS / SQL Server date-times (`06/10/2020 02:56:26 AM`, `6/10/2020 14:56:26`), FGDC dates
 * (`20250909`) and ISO strings, as ISO `YYYY-MM-DDTHH:MM:SS`; null when unrecognised.
 */
export function normalizeDateTime(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const s = raw.trim();
  let m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*([AaPp][Mm])?)?$/.exec(s);
  if (m) {
    let hour = Number(m[4] ?? 0);
    const ampm = m[7]?.toUpperCase();
    if (ampm === "PM" && hour < 12) hour += 12;
    if (ampm === "AM" && hour === 12) hour = 0;
    return `${m[3]}-${pad(m[1]!)}-${pad(m[2]!)}T${pad(hour)}:${m[5] ?? "00"}:${m[6] ?? "00"}`;
  }
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}T00:00:00`;
  m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}T${m[4] ?? "00"}:${m[5] ?? "00"}:${m[6] ?? "00"}`;
  return null;
}

/** Blocks of "SSA symbol / SSA version / SSA version est." in a WSS export readme. */
export function parseWssReadme(text: string, source = "readme.txt"): SurveyAreaVersion[] {
  const out: SurveyAreaVersion[] = [];
  let current: SurveyAreaVersion | null = null;
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*SSA (symbol|version est\.|version):\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    const [, key, value = ""] = m;
    if (key === "symbol") {
      current = { areasymbol: value.toUpperCase(), saversion: null, saverest: null, source };
      out.push(current);
    } else if (current && key === "version") {
      current.saversion = /^\d+$/.test(value) ? Number(value) : null;
    } else if (current) {
      current.saverest = normalizeDateTime(value);
    }
  }
  return out;
}

const CERTIFY = /version number and date stamp/i;

/** FGDC metadata (XML as gSSURGO stores it, or the indented text WSS ships). */
export function parseFgdcMetadata(text: string, areasymbol: string, source: string): SurveyAreaVersion {
  let certified: string | null = null;
  let published: string | null = null;
  if (text.trimStart().startsWith("<")) {
    for (const m of text.matchAll(/<procstep>([\s\S]*?)<\/procstep>/g)) {
      const step = m[1] ?? "";
      const date = /<procdate>\s*(\d{8})\s*<\/procdate>/.exec(step)?.[1];
      if (date && CERTIFY.test(step) && (!certified || date > certified)) certified = date;
    }
    published = /<pubdate>\s*(\d{8})\s*<\/pubdate>/.exec(text)?.[1] ?? null;
  } else {
    for (const step of text.split(/^\s*Process_Step:\s*$/m).slice(1)) {
      const date = /Process_Date:\s*(\d{8})/.exec(step)?.[1];
      if (date && CERTIFY.test(step.replace(/\s+/g, " ")) && (!certified || date > certified)) certified = date;
    }
    published = /Publication_Date:\s*(\d{8})/.exec(text)?.[1] ?? null;
  }
  return { areasymbol, saversion: null, saverest: normalizeDateTime(certified ?? published), source };
}

/** Everything the folder says about its survey areas' versions, keyed by area symbol. */
export function readSurveyAreaVersions(folder: string): Map<string, SurveyAreaVersion> {
  const found = new Map<string, SurveyAreaVersion>();
  const readme = join(folder, "readme.txt");
  if (existsSync(readme)) {
    for (const v of parseWssReadme(readFileSync(readme, "latin1"), "readme.txt")) found.set(v.areasymbol, v);
  }
  for (const name of readdirSync(folder)) {
    const m = /^soil_metadata_([a-z]{2}[0-9a-z]{3})\.(xml|txt)$/i.exec(name);
    if (!m?.[1]) continue;
    const areasymbol = m[1].toUpperCase();
    const fgdc = parseFgdcMetadata(readFileSync(join(folder, name), "latin1"), areasymbol, name);
    const known = found.get(areasymbol);
    if (!known) found.set(areasymbol, fgdc);
    else if (!known.saverest && fgdc.saverest) known.saverest = fgdc.saverest;
  }
  return found;
}
