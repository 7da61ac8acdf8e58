/**
 * The test's own reading of USGS DS 801 Appendix 2b (not Loam's reader): the file split on CRLF and
 * tabs, the header and unit rows, and each site row as {column: cell}. Expected answers come from here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR } from "../support/server";

export interface ReferenceSite {
  cells: Record<string, string>;
}

export interface Reference {
  header: string[];
  units: Record<string, string>;
  sites: Map<number, Record<string, string>>;
}

/** docs/decisions.md#geochem-vocabulary: the property id of each element column. */
export const ELEMENT_IDS: Record<string, string> = {
  Ag: "silver", Al: "aluminum", As: "arsenic", Ba: "barium", Be: "beryllium", Bi: "bismuth", Ca: "calcium_total",
  Cd: "cadmium", Ce: "cerium", Co: "cobalt", Cr: "chromium", Cs: "cesium", Cu: "copper_total", Fe: "iron_total",
  Ga: "gallium", Hg: "mercury", In: "indium", K: "potassium_total", La: "lanthanum", Li: "lithium", Mg: "magnesium_total",
  Mn: "manganese_total", Mo: "molybdenum", Na: "sodium_total", Nb: "niobium", Ni: "nickel", P: "phosphorus_total",
  Pb: "lead", Rb: "rubidium", S: "sulfur", Sb: "antimony", Sc: "scandium", Se: "selenium", Sn: "tin", Sr: "strontium",
  Te: "tellurium", Th: "thorium", Ti: "titanium", Tl: "thallium", U: "uranium", V: "vanadium", W: "tungsten", Y: "yttrium",
  Zn: "zinc_total",
};

let kept: Reference | undefined;

export function reference(): Reference {
  if (kept) return kept;
  const lines = readFileSync(join(DATA_DIR, "geochem/Appendix_2b_Top5_18Sept2013.txt"), "latin1").split("\r\n");
  const at = lines.findIndex((line) => line.split("\t")[0] === "Top5_LabID");
  const header = lines[at]!.split("\t");
  const unitCells = lines[at + 1]!.split("\t");
  const units = Object.fromEntries(header.map((name, i) => [name, unitCells[i] ?? ""]));
  const sites = new Map<number, Record<string, string>>();
  for (const line of lines.slice(at + 2)) {
    if (line.trim() === "") continue;
    const cells = line.split("\t");
    sites.set(Number(cells[1]), Object.fromEntries(header.map((name, i) => [name, cells[i]!])));
  }
  kept = { header, units, sites };
  return kept;
}

/** What an element cell must be served as: a number, a censored result, or no observation (N.S.). */
export function expectedCell(cell: string, fileUnit: string) {
  const unit = fileUnit === "wt. %" ? "%" : fileUnit;
  if (cell === "N.S.") return { observed: false as const, reported_value: "N.S.", value: null, value_qualifier: null, reporting_limit: null, unit, original_unit: fileUnit };
  if (cell.startsWith("<")) return { observed: true as const, reported_value: cell, value: null, value_qualifier: "less_than", reporting_limit: Number(cell.slice(1)), unit, original_unit: fileUnit };
  return { observed: true as const, reported_value: cell, value: Number(cell), value_qualifier: null, reporting_limit: null, unit, original_unit: fileUnit };
}
