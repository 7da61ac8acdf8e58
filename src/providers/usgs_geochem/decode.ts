/**
 * A slice of the DS 801 table (./rows.ts) read into typed sites and observations
 * (docs/decisions.md#geochem). Censoring is read exactly as for laboratory pedons (the one reader,
 * src/domain/censored.ts, docs/decisions.md#censored): `<1` is value null, qualifier
 * less_than, reporting limit 1, never the limit as the value. `N.S.` (no sample) is no observation.
 */
import { findProperty } from "../../catalog/properties";
import type { Transformation } from "../../catalog/model";
import type { SampleSite } from "../../domain/sample-site";
import type { GeochemObservation } from "../../domain/sample-site";
import type { SiteReading } from "../provider";
import { parseReported } from "../../domain/censored";
import { ELEMENTS, elementColumn } from "./elements";
import { GEOCHEM_PROVIDER_ID, type GeochemRows } from "./rows";
import { SITE_COLUMNS } from "./file";
import { DS801_SHORT_CITATION } from "./catalog";

/** The file's marker of a missing sample (either not collected or lost in shipping). */
export const NO_SAMPLE = "N.S.";

interface UnitChange {
  factor: number;
  transformation: Transformation | null;
}

/**
 * From the unit row's unit to the vocabulary's standard unit of the property (docs/decisions.md#units):
 * `wt. %` is mass percent, the vocabulary's `%`, so it is relabelled with the value unchanged; mg/kg and
 * % convert by 10,000. A unit the table does not know is served as the file states it.
 */
function unitChange(fileUnit: string, standard: string | null): { unit: string; change: UnitChange } {
  const to = standard ?? fileUnit;
  const from = fileUnit === "wt. %" ? "%" : fileUnit;
  const step = (factor: number, operation: string, formula: string): UnitChange => ({ factor, transformation: { operation, from_unit: fileUnit, to_unit: to, formula } });
  if (fileUnit === to) return { unit: to, change: { factor: 1, transformation: null } };
  if (from === to) return { unit: to, change: step(1, "relabel_unit", `${to} = ${fileUnit} (mass percent; the value is unchanged)`) };
  if (from === "%" && to === "mg/kg") return { unit: to, change: step(10_000, "convert_unit", `mg/kg = ${fileUnit} x 10000`) };
  if (from === "mg/kg" && to === "%") return { unit: to, change: step(1e-4, "convert_unit", "% = mg/kg / 10000") };
  return { unit: fileUnit, change: { factor: 1, transformation: null } };
}

const scaled = (value: number | null, factor: number) => (value === null || factor === 1 ? value : Number((value * factor).toPrecision(12)));

export const MEASUREMENT_METHOD = "Total or near-total content of the <2 mm fraction (USGS DS 801: most elements by near-total four-acid digestion; the element's method is in Appendix 5, not served).";

/**
 * Cells read once per distinct text: a page reads the same few hundred dates and one depth a thousand
 * times. Bounded: the file has at most 4,857 distinct values of each, and the maps start over beyond that.
 */
function remembered<T>(read: (cell: string) => T): (cell: string) => T {
  const known = new Map<string, T>();
  return (cell) => {
    let value = known.get(cell);
    if (value === undefined) {
      if (known.size >= 8192) known.clear();
      value = read(cell);
      known.set(cell, value);
    }
    return value;
  };
}

/** MM/DD/YY (2007-2010 in the file) as an ISO date; null when the cell is not one. */
export const isoDate = remembered((cell: string): string | null => {
  const m = /^(\d{2})\/(\d{2})\/(\d{2})$/.exec(cell);
  if (!m) return null;
  const [, mm, dd, yy] = m;
  return `${Number(yy) < 70 ? "20" : "19"}${yy}-${mm}-${dd}`;
});

const orNull = (cell: string | undefined) => (cell === undefined || cell === "" || cell === NO_SAMPLE ? null : cell);

/** Where the site columns are in a slice (looked up once per answer, not per row). */
function sitePositions(rows: GeochemRows): number[] {
  return SITE_COLUMNS.map((name) => rows.position.get(name)!);
}

/** A depth cell (`0-5`) in cm; every site was to be sampled at 0-5 cm, so a site without a sample (N.S.) keeps the design's depth. */
const depthCells = remembered((cell: string): [number, number] => {
  const depth = /^(\d+)-(\d+)$/.exec(cell);
  return depth ? [Number(depth[1]), Number(depth[2])] : [0, 5];
});

function depthOf(cell: string): { top_cm: number; bottom_cm: number } {
  const [top_cm, bottom_cm] = depthCells(cell);
  return { top_cm, bottom_cm };
}

/** The sample site of a row; `at` are the positions of SITE_COLUMNS in its slice. */
export function readSite(rows: GeochemRows, row: readonly string[], at: readonly number[] = sitePositions(rows)): SampleSite {
  // In SITE_COLUMNS order: LabID, SiteID, StateID, Latitude, Longitude, CollDate, LandCover1, LandCover2, Depth.
  return {
    context: "sample",
    site_id: Number(row[at[1]!]),
    lab_id: orNull(row[at[0]!]),
    state: orNull(row[at[2]!]),
    latitude: Number(row[at[3]!]),
    longitude: Number(row[at[4]!]),
    collection_date: isoDate(row[at[5]!]!),
    land_cover_primary: orNull(row[at[6]!]),
    land_cover_secondary: orNull(row[at[7]!]),
    depth: depthOf(row[at[8]!]!),
  };
}

/** The sites of an answer, with the results of the asked properties (served ids) in file order. */
export function readSites(rows: GeochemRows, properties: readonly string[]): SiteReading[] {
  const asked = new Set(properties);
  const elements = ELEMENTS.filter((el) => asked.has(el.property) && rows.position.has(elementColumn(el))).map((el) => {
    const column = elementColumn(el);
    const position = rows.position.get(column)!;
    const fileUnit = rows.units[position]!;
    const record = findProperty(el.property);
    const { unit, change } = unitChange(fileUnit, record?.standard_unit ?? null);
    return { el, column, position, fileUnit, unit, factor: change.factor, transformations: change.transformation ? [change.transformation] : [], name: record?.name ?? el.name };
  });
  const units = Object.fromEntries(elements.map((e) => [e.el.property, e.unit]));
  const at = sitePositions(rows);
  return rows.rows.map((row, i) => {
    const observations: GeochemObservation[] = [];
    const noSample: string[] = [];
    for (const e of elements) {
      const cell = row[e.position]!;
      if (cell === NO_SAMPLE || cell.trim() === "") {
        noSample.push(e.el.property);
        continue;
      }
      const result = parseReported(cell);
      observations.push({
        property: { id: e.el.property, name: e.name },
        value: scaled(result.value, e.factor),
        reported_value: cell,
        value_qualifier: result.value_qualifier,
        reporting_limit: scaled(result.reporting_limit, e.factor),
        unit: e.unit,
        data_kind: "observed",
        measurement_method: MEASUREMENT_METHOD,
        source: { provider: GEOCHEM_PROVIDER_ID, column: e.column, original_value: cell, original_unit: e.fileUnit, citation: DS801_SHORT_CITATION, retrieved_at: rows.retrieved_at },
        transformations: e.transformations,
        warnings: result.warning ? [result.warning] : [],
      });
    }
    const reading: SiteReading = { site: readSite(rows, row, at), observations, noSample, units };
    const km = rows.distances?.[i];
    if (km !== undefined) reading.distanceKm = km;
    return reading;
  });
}
