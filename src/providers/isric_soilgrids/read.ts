/**
 * A SoilGrids answer as observations (docs/decisions.md#isric-soilgrids): one per asked property and
 * SoilGrids depth overlapping the interval; value = the mean, uncertainty = Q0.05 to Q0.95, every
 * statistic in grid_context; the mapped-unit integer as original_value and the d_factor division as a
 * transformation. Masked (null) predictions, the clip's NoData and missing statistics are no value,
 * each said in a warning.
 */
import type { Static } from "elysia";
import type { GridObservation } from "../../domain/observation";
import { retrievedAt } from "../../domain/retrieved-at";
import { findProperty } from "../../catalog/properties";
import type { PointValuesContext, PointValuesReading } from "../provider";
import type { DecodedDepth, DecodedLayer, SoilGridsAnswer } from "./answer";
import { CLIPS_RETRIEVED_AT, SOILGRIDS_CITATION, SOILGRIDS_FILES, SOILGRIDS_ID, SOILGRIDS_LICENSE, SOILGRIDS_MODEL, SOILGRIDS_ORGANIZATION, SOILGRIDS_RELEASE, SOILGRIDS_RESOLUTION_M } from "./catalog";
import { askedDepth, plausibleValues } from "./checks";
import { depthsOverlapping, layerOfProperty, STATISTICS, toServed, UNCERTAINTY_FACTOR, type SoilGridsLayer } from "./layers";

export const MODELED_WARNING =
  "Modeled values, not observations: SoilGrids 2.0 predicts each value from soil profiles and environmental covariates with machine learning (quantile random forests); nothing was measured at this point.";
export const CELL_WARNING =
  "Each value describes a 250 m grid cell of SoilGrids, not the queried point: soil varies within a cell, and the cell's value smooths it.";
export const INTERVAL_WARNING =
  "Where an observation has them (not a depth-weighted average, whose uncertainty.method says why it has none), uncertainty.lower and uncertainty.upper are Q0.05 and Q0.95 of SoilGrids' own prediction distribution (the model's 90 % prediction interval): the model's estimate of its uncertainty, not a measurement error. grid_context.statistics.uncertainty, where served, is SoilGrids' (Q0.95 - Q0.05) / Q0.5, a ratio without unit; SoilGrids stores it x10 for every property (ISRIC's conversion table lists no factor for it; soilDB documents the x10), so Loam divides by 10.";
export const CLIP_WARNING =
  "Offline values come from clips of SoilGrids 2.0 that a third party (the mapme.biodiversity R package, with terra) reprojected from SoilGrids' native 250 m Homolosine grid to EPSG:4326: a clip cell is resampled, so its value need not equal any native SoilGrids cell.";
export const METHOD_WARNING =
  "SoilGrids' predictions are not laboratory results: the model was trained on profiles measured by many laboratories and methods, harmonized only approximately, so a value is not specific to the method the property's vocabulary entry names.";
export const INTERVAL_METHOD =
  "Q0.05 to Q0.95: the 90 % prediction interval of SoilGrids' quantile random forest model (the model's own, not a measurement error)";
const MEASUREMENT_METHOD = "SoilGrids 2.0 digital soil mapping prediction (quantile random forest); the mean of the prediction distribution";

const extentText = ([w, s, e, n]: [number, number, number, number]) => `longitude ${w.toFixed(4)} to ${e.toFixed(4)}, latitude ${s.toFixed(4)} to ${n.toFixed(4)}`;

/** The statistics of a depth in the served unit (uncertainty: the ratio, stored x10 for every layer). */
function statistics(layer: SoilGridsLayer, decoded: DecodedLayer, depth: DecodedDepth): Partial<Record<string, number | null>> {
  const out: Partial<Record<string, number | null>> = {};
  for (const statistic of STATISTICS) {
    const value = depth.values[statistic];
    if (value === undefined) continue;
    out[statistic] = value === null ? null : statistic === "uncertainty" ? value / UNCERTAINTY_FACTOR : toServed(layer, value, decoded.dFactor);
  }
  return out;
}

function transformations(layer: SoilGridsLayer, decoded: DecodedLayer) {
  const steps = [
    {
      operation: "d_factor",
      from_unit: decoded.mappedUnit,
      to_unit: layer.toUnit ? layer.toUnit.from : layer.unit,
      formula: `value = mapped integer / ${decoded.dFactor} (SoilGrids' conversion factor, d_factor)`,
    },
  ];
  if (layer.toUnit) steps.push({ operation: "unit_conversion", from_unit: layer.toUnit.from, to_unit: layer.unit, formula: `value = ${layer.toUnit.from} / ${layer.toUnit.divisor}` });
  return steps;
}

interface Gaps {
  masked: string[];
  nodata: string[];
  /** The NoData values those clips hold. */
  nodataValues: Set<number>;
  missing: Map<string, string[]>;
  absent: string[];
  /** Values the answer holds that cannot be right, dropped (./checks.ts). */
  refused: string[];
}

function observation(layer: SoilGridsLayer, decoded: DecodedLayer, depth: DecodedDepth, mean: number, answer: SoilGridsAnswer, context: PointValuesContext): Static<typeof GridObservation> {
  const stats = statistics(layer, decoded, depth);
  const record = findProperty(layer.property);
  return {
    property: { id: layer.property, name: record?.name ?? layer.property },
    value: toServed(layer, mean, decoded.dFactor),
    unit: layer.unit,
    depth: { top_cm: depth.top, bottom_cm: depth.bottom },
    data_kind: "modeled",
    measurement_method: MEASUREMENT_METHOD,
    source: {
      provider: SOILGRIDS_ID,
      organization: SOILGRIDS_ORGANIZATION,
      record_id: null,
      retrieved_at: retrievedAt(context.source, context.storedAt, CLIPS_RETRIEVED_AT),
      original_property_name: `${decoded.name}_${depth.label}_mean`,
      original_value: mean,
      original_unit: decoded.mappedUnit,
      original_depth: { top_cm: depth.top, bottom_cm: depth.bottom },
      original_measurement_method: null,
      citation: SOILGRIDS_CITATION,
      // Offline the snapshot's file path is Loam's own business: the source is ISRIC's layer folder.
      source_url: context.source.kind === "snapshot" ? `${SOILGRIDS_FILES}${decoded.name}/` : context.source.location,
      spatial_resolution: `${SOILGRIDS_RESOLUTION_M} m`,
    },
    location: { latitude: context.latitude, longitude: context.longitude, horizontal_accuracy_m: null },
    uncertainty: { lower: stats["Q0.05"] ?? null, upper: stats["Q0.95"] ?? null, method: INTERVAL_METHOD },
    license: { ...SOILGRIDS_LICENSE },
    transformations: transformations(layer, decoded),
    warnings: [METHOD_WARNING, ...(layer.note ? [layer.note] : []), ...(record ? [record.method_dependency_warning] : [])],
    grid_context: {
      cell_center: answer.cell,
      resolution_m: SOILGRIDS_RESOLUTION_M,
      model: SOILGRIDS_MODEL,
      release: SOILGRIDS_RELEASE,
      depth_label: depth.label,
      statistics: stats,
    },
  };
}

function readLayer(layer: SoilGridsLayer, answer: SoilGridsAnswer, context: PointValuesContext, gaps: Gaps): Static<typeof GridObservation>[] {
  const decoded = answer.layers.find((l) => l.name === layer.name);
  const wanted = depthsOverlapping(layer, context.depthTop, context.depthBottom);
  const out: Static<typeof GridObservation>[] = [];
  for (const want of wanted) {
    const candidates = decoded?.depths.filter((d) => d.label === want.label) ?? [];
    const found = askedDepth(candidates, want, layer.name, gaps.refused);
    if (!decoded || !found) {
      if (candidates.length === 0) gaps.absent.push(`${layer.name} ${want.label}`);
      continue;
    }
    const missing = STATISTICS.filter((s) => found.values[s] === undefined);
    if (missing.length > 0 && !(answer.origin === "clip" && found.nodata !== undefined)) gaps.missing.set(`${layer.name} ${found.label}`, missing);
    const depth = { ...found, values: plausibleValues(layer, found, gaps.refused) };
    const mean = depth.values.mean;
    if (mean === null || mean === undefined) {
      if (mean === null) (depth.nodata !== undefined ? gaps.nodata : gaps.masked).push(`${layer.name} ${depth.label}`);
      if (mean === null && depth.nodata !== undefined) gaps.nodataValues.add(depth.nodata);
      continue;
    }
    out.push(observation(layer, decoded, depth, mean, answer, context));
  }
  return out;
}

function gapWarnings(gaps: Gaps, answer: SoilGridsAnswer): string[] {
  const warnings: string[] = [];
  if (gaps.masked.length > 0) {
    warnings.push(`SoilGrids has no prediction here (null) for ${gaps.masked.join(", ")}: the model masks water, built-up land and areas outside its soil mask, so no observation is served for them.`);
  }
  if (gaps.nodata.length > 0) warnings.push(`The offline clip holds NoData (${[...gaps.nodataValues].join(", ")}) in this cell for ${gaps.nodata.join(", ")}: no observation is served for them.`);
  if (gaps.missing.size > 0) {
    const list = [...gaps.missing].map(([where, stats]) => `${where}: ${stats.join(", ")}`).join("; ");
    warnings.push(
      `Statistics absent from ${answer.origin === "clip" ? "the offline clip" : "SoilGrids' answer"} (${list}); they are left out of grid_context.statistics, and uncertainty.lower or upper is null where Q0.05 or Q0.95 is absent.`,
    );
  }
  if (gaps.refused.length > 0) {
    warnings.push(`Values in ${answer.origin === "clip" ? "the offline clip" : "SoilGrids' answer"} that cannot be right were dropped, not served: ${gaps.refused.join("; ")}.`);
  }
  if (gaps.absent.length > 0 && answer.origin === "clip" && !answer.outside) {
    const held = [...new Set(answer.held.map((h) => `${h.layer} ${h.depth} ${h.statistic}`))].join(", ");
    warnings.push(`The offline snapshot holds no SoilGrids clip for ${gaps.absent.join(", ")} (it holds ${held}); set LOAM_UPSTREAM=sda to ask SoilGrids' REST API live.`);
  } else if (gaps.absent.length > 0 && answer.origin === "rest") {
    warnings.push(`SoilGrids' answer has no value for ${gaps.absent.join(", ")} (SoilGrids serves organic carbon stock at 0-30 cm only).`);
  }
  return warnings;
}

export function readSoilGrids(answer: SoilGridsAnswer, context: PointValuesContext): PointValuesReading<Static<typeof GridObservation>> {
  const gaps: Gaps = { masked: [], nodata: [], nodataValues: new Set(), missing: new Map(), absent: [], refused: [] };
  const observations = context.properties.flatMap((property) => {
    const layer = layerOfProperty(property);
    return layer ? readLayer(layer, answer, context, gaps) : [];
  });
  const warnings = [MODELED_WARNING, CELL_WARNING, INTERVAL_WARNING];
  if (answer.origin === "clip") {
    warnings.push(CLIP_WARNING);
    if (answer.outside) {
      warnings.push(
        `The point lies outside the offline snapshot's SoilGrids clips (${answer.extent ? extentText(answer.extent) : "none imported"}; Sierra de Neiba, Dominican Republic): no offline value here. Set LOAM_UPSTREAM=sda to ask SoilGrids' REST API live (SOILGRIDS_URL).`,
      );
    }
  }
  warnings.push(...gapWarnings(gaps, answer));
  return { observations, warnings };
}
