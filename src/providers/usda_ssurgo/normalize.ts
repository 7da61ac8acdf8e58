/**
 * SSURGO point answer → SoilObservations (docs/decisions.md#provenance). Pure functions: the same
 * typed rows from SDA or from the snapshot give the same observations; nothing here parses text
 * (docs/decisions.md#decode-once).
 */
import type { Static } from "elysia";
import { findProperty } from "../../catalog/properties";
import { retrievedAt } from "../../domain/retrieved-at";
import { PRECISION_RULE, roundDerived } from "../../domain/precision";
import { isoDay } from "../../upstream/sda/dates";
import { dateIn, numberIn, rowRecords, textIn, trimmedIn, type RowAnswer, type Value } from "../../upstream/sda/rows";
import type { SoilObservation } from "../../domain/observation";
import type { NormalizedPoint, PointValuesContext, PointMapUnit } from "../provider";
import { SSURGO_PROPERTY_BY_ID, type SsurgoProperty } from "./columns";
import { SSURGO_ID, SSURGO_LICENSE, SSURGO_ORGANIZATION, SSURGO_SCOPE, SSURGO_SOURCE_URL, SSURGO_SPATIAL_RESOLUTION } from "./catalog";
import { pointWithoutMapUnit } from "../../domain/coverage";

export const MAPPED_SURVEY_WARNING =
  "Mapped survey data are not a laboratory observation at the queried point: this is a representative value estimated for a component of the map unit that contains the point.";
const MINOR_COMPONENT_WARNING =
  "Minor component (majcompflag No): it makes up a small share of the map unit and is often not mapped separately at this scale.";
/** Exact miscellaneous-area warnings (docs/decisions.md#miscellaneous-areas): a zero fraction is a placeholder; any other value may not describe soil. */
const MISCELLANEOUS_AREA_WARNING =
  "Miscellaneous area (compkind 'Miscellaneous area', e.g. Beaches, Rubble land): may not be soil; this value is SSURGO's estimate for the area's material, not for a soil.";
const PLACEHOLDER_WARNING =
  "Miscellaneous area (compkind 'Miscellaneous area', e.g. Rubble land): this zero is a placeholder, not a fine-earth estimate; SSURGO fills the particle-size fractions of miscellaneous areas with placeholders.";
const RANGE_METHOD =
  "SSURGO low (_l) and high (_h) typical values of the component horizon: the range a soil scientist expects for most of the component, not a statistical confidence interval.";

const isMiscellaneousArea = (row: Row) => trimmedIn(row.compkind)?.toLowerCase() === "miscellaneous area";

/** A miscellaneous area's zero sand, silt or clay: SSURGO's placeholder. */
const isPlaceholder = (mapping: SsurgoProperty, original: number) => mapping.fraction === true && original === 0;

type Row = Record<string, Value>;

/** A division (e.g. 3.5 / 1.724) at the documented precision (docs/decisions.md#precision). */
const tidy = roundDerived;

function citation(row: Row, retrievedAt: string): string {
  const saversion = textIn(row.saversion);
  const version = saversion ? `survey area version ${saversion}` : "survey area version unknown";
  const versionDate = dateIn(row.saverest);
  const date = versionDate ? ` of ${isoDay(versionDate)}` : "";
  return `Soil Survey Staff, Natural Resources Conservation Service, United States Department of Agriculture. Soil Survey Geographic (SSURGO) Database for ${textIn(row.areaname) ?? textIn(row.areasymbol)} (${textIn(row.areasymbol)}), ${version}${date}. Available online at ${SSURGO_SOURCE_URL}. Retrieved ${retrievedAt.slice(0, 10)}.`;
}

function observe(row: Row, propertyId: string, mapping: SsurgoProperty, context: PointValuesContext, top: number, bottom: number) {
  const original = numberIn(row[`${mapping.column}_r`]);
  if (original === null) return null;
  const low = numberIn(row[`${mapping.column}_l`]);
  const high = numberIn(row[`${mapping.column}_h`]);
  const derive = mapping.derivedFrom;
  const convert = (value: number | null) => (value === null ? null : derive ? tidy(value / derive.factor) : value);
  const minor = trimmedIn(row.majcompflag) !== "Yes";
  const retrieved = retrievedAtOf(context);
  const warnings = [MAPPED_SURVEY_WARNING];
  if (derive) warnings.push(derive.warning);
  if (minor) warnings.push(MINOR_COMPONENT_WARNING);
  if (isMiscellaneousArea(row)) warnings.push(isPlaceholder(mapping, original) ? PLACEHOLDER_WARNING : MISCELLANEOUS_AREA_WARNING);
  return {
    property: { id: propertyId, name: findProperty(propertyId)?.name ?? propertyId },
    value: derive ? tidy(original / derive.factor) : original,
    unit: mapping.unit,
    depth: { top_cm: top, bottom_cm: bottom },
    data_kind: derive ? ("derived" as const) : ("mapped_survey" as const),
    measurement_method: mapping.method,
    source: {
      provider: SSURGO_ID,
      organization: SSURGO_ORGANIZATION,
      record_id: textIn(row.chkey),
      retrieved_at: retrieved,
      original_property_name: `chorizon.${mapping.column}_r`,
      original_value: original,
      original_unit: mapping.originalUnit,
      original_depth: { top_cm: top, bottom_cm: bottom },
      original_measurement_method: "SSURGO representative value (_r) of the component horizon",
      citation: citation(row, retrieved),
      source_url: SSURGO_SOURCE_URL,
      spatial_resolution: SSURGO_SPATIAL_RESOLUTION,
    },
    location: { latitude: context.latitude, longitude: context.longitude, horizontal_accuracy_m: null },
    uncertainty:
      low === null && high === null ? { lower: null, upper: null, method: null } : { lower: convert(low), upper: convert(high), method: RANGE_METHOD },
    license: SSURGO_LICENSE,
    transformations: derive
      ? [{ operation: derive.operation, from_unit: mapping.originalUnit, to_unit: mapping.unit, formula: `${derive.formula}; ${PRECISION_RULE}` }]
      : [],
    warnings,
    survey_context: {
      area_symbol: textIn(row.areasymbol) ?? "",
      map_unit_key: textIn(row.mukey) ?? "",
      map_unit_symbol: textIn(row.musym) ?? "",
      map_unit_name: textIn(row.muname) ?? "",
      component_key: textIn(row.cokey) ?? "",
      component_name: textIn(row.compname) ?? "",
      component_percent: numberIn(row.comppct_r),
      horizon_key: textIn(row.chkey) ?? "",
      horizon_name: textIn(row.hzname),
    },
  };
}

/** When Loam's source read the values: the snapshot build, or the upstream call (docs/decisions.md#retrieved-at). */
function retrievedAtOf(context: PointValuesContext): string {
  return retrievedAt(context.source, context.storedAt);
}

/** The survey's own version date, said once per survey area (it is not a retrieval date). */
export function surveyVersionWarning(areaSymbol: string, areaName: string | null, version: string | null, versionDate: Date | null): string {
  const area = areaName ? `${areaName} (${areaSymbol})` : areaSymbol;
  const date = versionDate ? isoDay(versionDate) : null;
  // Each combination reads as a sentence (MH936 states a date but no version number).
  const asOf =
    version && date ? `its version ${version} of ${date}` : version ? `its version ${version} (date not stated)` : date ? `its version of ${date} (version number not stated)` : "a version it does not state";
  return `Survey area ${area} is served as of ${asOf} (the survey's own version date); source.retrieved_at is when Loam's source read the data.`;
}

/** Every component of the map unit, each once, whether or not it has horizons (Urban land, Water). */
function listComponent(mapUnit: PointMapUnit, row: Row): void {
  const cokey = textIn(row.cokey);
  if (!cokey) return;
  const hasHorizon = !!textIn(row.chkey);
  const listed = mapUnit.components.find((c) => c.component_key === cokey);
  if (listed) {
    listed.has_horizon_data ||= hasHorizon;
    return;
  }
  mapUnit.components.push({
    component_key: cokey,
    component_name: textIn(row.compname) ?? "",
    component_kind: trimmedIn(row.compkind),
    component_percent: numberIn(row.comppct_r),
    has_horizon_data: hasHorizon,
  });
}

export function normalizePoint(answer: RowAnswer, context: PointValuesContext): NormalizedPoint {
  const records = rowRecords(answer.typed);
  const mapUnits = new Map<string, PointMapUnit>();
  const observations: Static<typeof SoilObservation>[] = [];
  let hasMinorComponents = false;
  let hasMiscellaneousValues = false;
  let hasPlaceholders = false;
  for (const row of records) {
    const mukey = textIn(row.mukey);
    if (!mukey) continue;
    let mapUnit = mapUnits.get(mukey);
    if (!mapUnit) {
      mapUnit = { area_symbol: textIn(row.areasymbol) ?? "", map_unit_key: mukey, map_unit_symbol: textIn(row.musym) ?? "", map_unit_name: textIn(row.muname) ?? "", components: [] };
      mapUnits.set(mukey, mapUnit);
    }
    listComponent(mapUnit, row);
    if (!textIn(row.chkey)) continue;
    const top = numberIn(row.hzdept_r);
    const bottom = numberIn(row.hzdepb_r);
    // A horizon without depths cannot be placed in the interval; one that only touches it does not overlap.
    if (top === null || bottom === null || top >= context.depthBottom || bottom <= context.depthTop) continue;
    for (const id of context.properties) {
      const mapping = SSURGO_PROPERTY_BY_ID.get(id);
      if (!mapping) continue;
      const observation = observe(row, id, mapping, context, top, bottom);
      if (!observation) continue;
      if (trimmedIn(row.majcompflag) !== "Yes") hasMinorComponents = true;
      if (isMiscellaneousArea(row)) {
        hasMiscellaneousValues = true;
        hasPlaceholders ||= observation.warnings.includes(PLACEHOLDER_WARNING);
      }
      observations.push(observation);
    }
  }
  const warnings: string[] = [];
  const areas = new Map<string, string>();
  for (const row of records) {
    const symbol = textIn(row.areasymbol);
    if (symbol && !areas.has(symbol)) {
      areas.set(symbol, surveyVersionWarning(symbol, textIn(row.areaname), textIn(row.saversion), dateIn(row.saverest)));
    }
  }
  warnings.push(...areas.values());
  if (mapUnits.size === 0) {
    // One sentence on every route (docs/decisions.md#coverage-messages).
    warnings.push(pointWithoutMapUnit(SSURGO_ID, SSURGO_SCOPE, context.source, context.latitude, context.longitude));
  }
  if (hasMiscellaneousValues) {
    const placeholders = hasPlaceholders ? "; their zero sand, silt or clay values are placeholders" : "";
    warnings.push(`Some observations come from miscellaneous areas (Beaches, Rubble land, ...), which may not be soil${placeholders} (see each observation's warnings).`);
  }
  if (hasMinorComponents) warnings.push("Minor components (majcompflag No) are included; each carries a warning and a small component_percent.");
  if (context.properties.includes("organic_carbon") && observations.some((o) => o.data_kind === "derived")) {
    const derived = SSURGO_PROPERTY_BY_ID.get("organic_carbon")?.derivedFrom?.factor;
    warnings.push(`organic_carbon is derived from SSURGO organic matter (om_r / ${derived}), not reported by SSURGO; see each observation's transformations.`);
  }
  return { observations, mapUnits: [...mapUnits.values()], warnings };
}


