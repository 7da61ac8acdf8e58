/**
 * SSURGO point answer → SoilObservations (spec §2.5–2.6, DESIGN §3–4). Pure functions: the same
 * table from SDA or from the snapshot gives the same observations.
 */
import { tableRecords, type Cell, type UpstreamTable } from "../upstream/table";
import { findProperty } from "../catalog/properties";
import {
  SSURGO_LICENSE,
  SSURGO_ORGANIZATION,
  SSURGO_PROPERTIES,
  SSURGO_PROVIDER,
  SSURGO_SOURCE_URL,
  SSURGO_SPATIAL_RESOLUTION,
  type SsurgoProperty,
} from "../providers/ssurgo";
import type { Static } from "elysia";
import { isoDay, parseSdaDateTime } from "../shared/dates";
import type { MapUnitSummary, SoilObservation } from "./model";

export const MAPPED_SURVEY_WARNING =
  "Mapped survey data are not a laboratory observation at the queried point: this is a representative value estimated for a component of the map unit that contains the point.";
const MINOR_COMPONENT_WARNING =
  "Minor component (majcompflag No): it makes up a small share of the map unit and is often not mapped separately at this scale.";
const RANGE_METHOD =
  "SSURGO low (_l) and high (_h) typical values of the component horizon: the range a soil scientist expects for most of the component, not a statistical confidence interval.";

export interface LocationContext {
  latitude: number;
  longitude: number;
  properties: string[];
  depthTop: number;
  depthBottom: number;
  /** ISO date-time: when the values were retrieved (the export date for the snapshot). */
  retrievedAt: (row: Record<string, Cell>) => string;
}

export interface NormalizedLocation {
  observations: Static<typeof SoilObservation>[];
  mapUnits: Static<typeof MapUnitSummary>[];
  /** Components had at least one minor (majcompflag No) member among the answered observations. */
  hasMinorComponents: boolean;
  /** Requested properties this provider does not carry. */
  unsupported: string[];
}

function num(cell: Cell | undefined): number | null {
  if (cell === null || cell === undefined || cell.trim() === "") return null;
  const value = Number(cell);
  return Number.isFinite(value) ? value : null;
}

/** Round away binary noise of a division (e.g. 3.5 / 1.724) without claiming more precision than the input. */
function tidy(value: number): number {
  return Number(value.toPrecision(6));
}

function citation(row: Record<string, Cell>, retrievedAt: string): string {
  const version = row.saversion ? `survey area version ${row.saversion}` : "survey area version unknown";
  const versionDate = parseSdaDateTime(row.saverest);
  const date = versionDate ? ` of ${isoDay(versionDate)}` : "";
  return `Soil Survey Staff, Natural Resources Conservation Service, United States Department of Agriculture. Soil Survey Geographic (SSURGO) Database for ${row.areaname ?? row.areasymbol} (${row.areasymbol}), ${version}${date}. Available online at ${SSURGO_SOURCE_URL}. Retrieved ${retrievedAt.slice(0, 10)}.`;
}

function observe(row: Record<string, Cell>, propertyId: string, mapping: SsurgoProperty, context: LocationContext) {
  const original = num(row[`${mapping.column}_r`]);
  if (original === null) return null;
  const top = num(row.hzdept_r) as number;
  const bottom = num(row.hzdepb_r) as number;
  const low = num(row[`${mapping.column}_l`]);
  const high = num(row[`${mapping.column}_h`]);
  const derive = mapping.derivedFrom;
  const convert = (value: number | null) => (value === null ? null : derive ? tidy(value / derive.factor) : value);
  const minor = row.majcompflag?.trim() !== "Yes";
  const retrievedAt = context.retrievedAt(row);
  const warnings = [MAPPED_SURVEY_WARNING];
  if (derive) warnings.push(derive.warning);
  if (minor) warnings.push(MINOR_COMPONENT_WARNING);
  return {
    property: { id: propertyId, name: findProperty(propertyId)?.name ?? propertyId },
    value: convert(original) as number,
    unit: mapping.unit,
    depth: { top_cm: top, bottom_cm: bottom },
    data_kind: derive ? ("derived" as const) : ("mapped_survey" as const),
    measurement_method: mapping.method,
    source: {
      provider: SSURGO_PROVIDER,
      organization: SSURGO_ORGANIZATION,
      record_id: row.chkey ?? null,
      retrieved_at: retrievedAt,
      original_property_name: `chorizon.${mapping.column}_r`,
      original_value: original,
      original_unit: mapping.originalUnit,
      original_depth: { top_cm: top, bottom_cm: bottom },
      original_measurement_method: "SSURGO representative value (_r) of the component horizon",
      citation: citation(row, retrievedAt),
      source_url: SSURGO_SOURCE_URL,
      spatial_resolution: SSURGO_SPATIAL_RESOLUTION,
    },
    location: { latitude: context.latitude, longitude: context.longitude, horizontal_accuracy_m: null },
    uncertainty:
      low === null && high === null ? { lower: null, upper: null, method: null } : { lower: convert(low), upper: convert(high), method: RANGE_METHOD },
    license: SSURGO_LICENSE,
    transformations: derive
      ? [{ operation: derive.operation, from_unit: mapping.originalUnit, to_unit: mapping.unit, formula: derive.formula }]
      : [],
    warnings,
    survey_context: {
      area_symbol: row.areasymbol ?? "",
      map_unit_key: row.mukey ?? "",
      map_unit_symbol: row.musym ?? "",
      map_unit_name: row.muname ?? "",
      component_key: row.cokey ?? "",
      component_name: row.compname ?? "",
      component_percent: num(row.comppct_r),
      horizon_key: row.chkey ?? "",
      horizon_name: row.hzname ?? null,
    },
  };
}

export function normalizeLocation(table: UpstreamTable, context: LocationContext): NormalizedLocation {
  const records = tableRecords(table);
  const mapUnits = new Map<string, Static<typeof MapUnitSummary>>();
  const observations: Static<typeof SoilObservation>[] = [];
  let hasMinorComponents = false;
  const unsupported = context.properties.filter((id) => !(id in SSURGO_PROPERTIES));
  for (const row of records) {
    if (row.mukey && !mapUnits.has(row.mukey)) {
      mapUnits.set(row.mukey, { area_symbol: row.areasymbol ?? "", map_unit_key: row.mukey, map_unit_symbol: row.musym ?? "", map_unit_name: row.muname ?? "" });
    }
    if (!row.chkey) continue;
    const top = num(row.hzdept_r);
    const bottom = num(row.hzdepb_r);
    // A horizon without depths cannot be placed in the interval; one that only touches it does not overlap.
    if (top === null || bottom === null || top >= context.depthBottom || bottom <= context.depthTop) continue;
    for (const id of context.properties) {
      const mapping = SSURGO_PROPERTIES[id];
      if (!mapping) continue;
      const observation = observe(row, id, mapping, context);
      if (!observation) continue;
      if (row.majcompflag?.trim() !== "Yes") hasMinorComponents = true;
      observations.push(observation);
    }
  }
  return { observations, mapUnits: [...mapUnits.values()], hasMinorComponents, unsupported };
}
