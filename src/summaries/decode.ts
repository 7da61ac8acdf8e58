/**
 * The map-unit answer (SDA-style: column names plus rows of string | null, as SDA sends them and
 * the snapshot source renders them) decoded into the typed map unit the summaries take. Every
 * component is kept, with or without horizons.
 */
import type { SummaryComponent, SummaryHorizon } from "./component-values";
import { SUMMARY_HORIZON_COLUMNS } from "./properties";

type Cell = string | null;

export interface DecodedMapUnit {
  area_symbol: string | null;
  area_name: string | null;
  /** sacatalog.saversion / saverest: the survey version a citation names. */
  survey_version: string | null;
  survey_version_date: string | null;
  map_unit_key: string;
  map_unit_symbol: string | null;
  map_unit_name: string | null;
  /** Highest percent first (tie: lowest key), as the query orders them. */
  components: SummaryComponent[];
}

const number = (v: Cell): number | null => {
  if (v === null || v.trim() === "") return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};
const text = (v: Cell): string | null => (v === null || v.trim() === "" ? null : v.trim());

/**
 * Decode the rows of one map unit; null when there are none (an unknown mukey: the caller's 404).
 * Throws when a column the summaries need is missing, which means the query and this decoder disagree.
 */
export function decodeMapUnit(columns: readonly string[], rows: readonly (readonly Cell[])[]): DecodedMapUnit | null {
  const at = new Map(columns.map((name, i) => [name, i]));
  const get = (row: readonly Cell[], name: string): Cell => {
    const i = at.get(name);
    if (i === undefined) throw new Error(`map unit answer has no column ${name}`);
    return row[i] ?? null;
  };
  const first = rows[0];
  if (!first) return null;
  const components = new Map<string, SummaryComponent & { horizons: SummaryHorizon[] }>();
  for (const row of rows) {
    const cokey = text(get(row, "cokey"));
    if (cokey === null) continue;
    let component = components.get(cokey);
    if (!component) {
      component = {
        key: cokey,
        name: text(get(row, "compname")) ?? "",
        kind: text(get(row, "compkind")),
        percent: number(get(row, "comppct_r")),
        major: text(get(row, "majcompflag")) === "Yes",
        taxonomic_class: text(get(row, "taxclname")),
        slope: number(get(row, "slope_r")),
        drainage_class: text(get(row, "drainagecl")),
        hydrologic_group: text(get(row, "hydgrp")),
        horizons: [],
      };
      components.set(cokey, component);
    }
    const chkey = text(get(row, "chkey"));
    // A second representative texture group of one horizon would repeat it: the first row wins.
    if (chkey === null || component.horizons.some((h) => h.key === chkey)) continue;
    component.horizons.push({
      key: chkey,
      name: text(get(row, "hzname")),
      top: number(get(row, "hzdept_r")),
      bottom: number(get(row, "hzdepb_r")),
      values: Object.fromEntries(SUMMARY_HORIZON_COLUMNS.map((c) => [c, number(get(row, c))])),
      texture: text(get(row, "texture")),
    });
  }
  return {
    area_symbol: text(get(first, "areasymbol")),
    area_name: text(get(first, "areaname")),
    survey_version: text(get(first, "saversion")),
    survey_version_date: text(get(first, "saverest")),
    map_unit_key: text(get(first, "mukey")) ?? "",
    map_unit_symbol: text(get(first, "musym")),
    map_unit_name: text(get(first, "muname")),
    components: [...components.values()],
  };
}
