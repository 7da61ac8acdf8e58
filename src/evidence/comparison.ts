/**
 * The comparison of GET /v1/soil/evidence (docs/decisions.md#evidence): per asked property, the
 * GlobalSoilMap depths clipped to the asked interval, and on each depth one cell per source that has a
 * value there, side by side, each saying how it was derived. The survey's cell is the map unit's
 * summary as GET /v1/soil/mapunits/{key} computes it (src/aggregation); the model's is its own depth,
 * or GET /v1/soil/modeled's weighted average where the asked interval cuts one; the pedon's is the
 * thickness-weighted mean of its layers. Never an average across sources.
 */
import type { Static } from "elysia";
import { planSummaries, summarizeMapUnit, type MapUnitProvider } from "../aggregation/plan";
import { DEFAULT_SUMMARY_OPTIONS } from "../aggregation/options";
import { findProperty } from "../catalog/properties";
import { PRECISION_RULE, roundDerived } from "../domain/precision";
import type { GridObservation } from "../domain/observation";
import type { LabLayer } from "../domain/lab";
import type { MapUnitData, OperationalProvider } from "../providers/provider";
import { geodesicKm } from "../geometry/geodesic";
import { weightedAverages } from "../shapes/point_values/average";
import type { ComparisonCell, EffectiveEvidenceQuery, EvidenceSite, PropertyComparison } from "./model";

type Obs = Static<typeof GridObservation>;
type Layer = Static<typeof LabLayer>;
type Depth = { top_cm: number; bottom_cm: number };
type Site = Static<typeof EvidenceSite>;

/** GlobalSoilMap's standard depths, cm (Arrouays et al. 2014), the model's own. */
export const GSM_DEPTHS: readonly Depth[] = [
  { top_cm: 0, bottom_cm: 5 },
  { top_cm: 5, bottom_cm: 15 },
  { top_cm: 15, bottom_cm: 30 },
  { top_cm: 30, bottom_cm: 60 },
  { top_cm: 60, bottom_cm: 100 },
  { top_cm: 100, bottom_cm: 200 },
];

/** The standard depths clipped to [top, bottom): those that overlap it, cut to it. */
export function comparisonDepths(top: number, bottom: number): Depth[] {
  return GSM_DEPTHS.map((d) => ({ top_cm: Math.max(d.top_cm, top), bottom_cm: Math.min(d.bottom_cm, bottom) })).filter((d) => d.bottom_cm > d.top_cm);
}

/**
 * What the comparison reads of each source, every provider of a role in the registry's order (a
 * provider not served, left out or with nothing to compare is absent): docs/decisions.md#provider-links.
 */
export interface ComparisonInputs {
  surveys: { provider: MapUnitProvider; mapUnit: MapUnitData }[];
  models: { provider: OperationalProvider; observations: Obs[] }[];
  pedons: { provider: OperationalProvider; key: string; distanceKm: number; layers: Layer[] }[];
  /** The listed sample sites, nearest first, with the asked elements' results. */
  sites: { provider: OperationalProvider; sites: Site[] }[];
}

export const noInputs = (): ComparisonInputs => ({ surveys: [], models: [], pedons: [], sites: [] });

const label = (d: Depth) => `${d.top_cm}-${d.bottom_cm} cm`;

function surveyCell(inputs: ComparisonInputs["surveys"][number], property: string, depth: Depth): ComparisonCell | null {
  const { provider, mapUnit } = inputs;
  const summarizable = provider.mapUnits.properties.find((p) => p.id === property);
  if (!summarizable || summarizable.kind !== "numeric") return null;
  // The map-unit route's own summary: the property's default method, NRCS's component options.
  const plan = planSummaries(provider.mapUnits.properties, [property], null, depth, DEFAULT_SUMMARY_OPTIONS);
  const summary = summarizeMapUnit(mapUnit, plan)[0];
  if (!summary || summary.value === null) return null;
  return {
    provider: provider.id,
    role: provider.role,
    data_kind: "derived",
    value: summary.value,
    unit: summary.unit,
    lower: null,
    upper: null,
    distance_km: 0,
    describes: `map unit ${mapUnit.map_unit_key} (${summary.method}, ${summary.percent_of_map_unit} % of the map unit)`,
    transformations: summary.transformations,
    warnings: summary.warnings,
  };
}

function modelCell(inputs: ComparisonInputs["models"][number], property: string, depth: Depth, query: EffectiveEvidenceQuery): ComparisonCell | null {
  const own = inputs.observations.filter((o) => o.property.id === property && o.depth.top_cm < depth.bottom_cm && o.depth.bottom_cm > depth.top_cm);
  if (own.length === 0) return null;
  const exact = own.length === 1 && own[0]!.depth.top_cm === depth.top_cm && own[0]!.depth.bottom_cm === depth.bottom_cm ? own[0]! : null;
  // A depth the asked interval cuts is GET /v1/soil/modeled's weighted average over the cut (mean only).
  const averaged = exact ? null : weightedAverages(own, depth.top_cm, depth.bottom_cm);
  const o = exact ?? averaged?.observations[0];
  if (!o || o.value === null) return null;
  const centre = o.grid_context.cell_center;
  return {
    provider: inputs.provider.id,
    role: inputs.provider.role,
    data_kind: o.data_kind,
    value: o.value,
    unit: o.unit,
    lower: o.uncertainty?.lower ?? null,
    upper: o.uncertainty?.upper ?? null,
    distance_km: centre ? Math.round(geodesicKm(query.latitude, query.longitude, centre.latitude, centre.longitude) * 1000) / 1000 : null,
    describes: `the ${o.grid_context.resolution_m} m cell holding the point (${o.grid_context.depth_label})`,
    transformations: o.transformations,
    warnings: [...o.warnings, ...(averaged?.warnings ?? [])],
  };
}

/** The pedon's layers over a depth, each weighted by the centimetres it overlaps it. */
function pedonCell(inputs: ComparisonInputs["pedons"][number], property: string, depth: Depth): ComparisonCell | null {
  const parts = inputs.layers.flatMap((layer) => {
    const o = layer.observations.find((x) => x.property.id === property);
    const top = Math.max(layer.depth.top_cm, depth.top_cm);
    const bottom = Math.min(layer.depth.bottom_cm, depth.bottom_cm);
    return o && o.value !== null && bottom > top ? [{ layer, o, cm: bottom - top }] : [];
  });
  if (parts.length === 0 || new Set(parts.map((p) => p.o.unit)).size > 1) return null;
  const weight = parts.reduce((s, p) => s + p.cm, 0);
  const value = roundDerived(parts.reduce((s, p) => s + p.cm * p.o.value!, 0) / weight);
  const unit = parts[0]!.o.unit;
  const terms = parts.map((p) => `${p.layer.horizon_designation ?? p.layer.layer_key} ${p.layer.depth.top_cm}-${p.layer.depth.bottom_cm} cm (${p.cm} cm)`).join(", ");
  const thickness = depth.bottom_cm - depth.top_cm;
  return {
    provider: inputs.provider.id,
    role: inputs.provider.role,
    data_kind: "derived",
    value,
    unit,
    lower: null,
    upper: null,
    distance_km: inputs.distanceKm,
    describes: `pedon ${inputs.key}`,
    transformations: [
      {
        operation: "depth_weighted_average",
        from_unit: unit,
        to_unit: unit,
        formula: `value = Σ(overlap_cm × value) / Σ overlap_cm over the layers ${terms}; ${PRECISION_RULE}`,
      },
    ],
    warnings: weight < thickness ? [`The pedon's layers with a value cover ${weight} of the ${thickness} cm of ${label(depth)}.`] : [],
  };
}

/** The nearest site's result, on a depth its sample spans (a 0-5 cm sample describes 0-5 cm, no deeper). */
function siteCell(inputs: ComparisonInputs["sites"][number], property: string, depth: Depth): ComparisonCell | null {
  for (const site of inputs.sites) {
    const o = site.elements.find((e) => e.property.id === property);
    if (!o || o.value === null) continue;
    if (depth.top_cm < site.depth.top_cm || depth.bottom_cm > site.depth.bottom_cm) return null;
    return {
      provider: inputs.provider.id,
      role: inputs.provider.role,
      data_kind: "observed",
      value: o.value,
      unit: o.unit,
      lower: null,
      upper: null,
      distance_km: site.distance_km,
      describes: `sample site ${site.site_id} (${site.depth.top_cm}-${site.depth.bottom_cm} cm)`,
      transformations: o.transformations,
      warnings: o.warnings,
    };
  }
  return null;
}

/** Where a source's value lies outside a model's interval, said plainly (each model's interval in turn). */
function statements(property: string, depth: Depth, cells: readonly ComparisonCell[], models: readonly ComparisonCell[]): string[] {
  return models.flatMap((model) => (model.lower === null || model.upper === null ? [] : outside(property, depth, cells, model)));
}

function outside(property: string, depth: Depth, cells: readonly ComparisonCell[], model: ComparisonCell): string[] {
  return cells.flatMap((cell) => {
    if (cell === model || cell.value === null || cell.unit !== model.unit) return [];
    const side = cell.value < model.lower! ? "below" : cell.value > model.upper! ? "above" : null;
    if (side === null) return [];
    return [`${cell.provider}'s ${property} at ${label(depth)} (${cell.value} ${cell.unit}, ${cell.describes}) lies ${side} ${model.provider}'s interval ${model.lower}-${model.upper} ${model.unit} for the cell.`];
  });
}

export function compare(query: EffectiveEvidenceQuery, inputs: ComparisonInputs): Static<typeof PropertyComparison>[] {
  const depths = comparisonDepths(query.depth_top_cm, query.depth_bottom_cm);
  return query.properties.map((property) => ({
    property: { id: property, name: findProperty(property)?.name ?? property },
    depths: depths.map((depth) => {
      const present = (c: ComparisonCell | null): c is ComparisonCell => c !== null;
      const models = inputs.models.map((m) => modelCell(m, property, depth, query)).filter(present);
      // Role by role (survey, model, pedon, sample site), each role's providers in the registry's order.
      const cells = [
        ...inputs.surveys.map((s) => surveyCell(s, property, depth)).filter(present),
        ...models,
        ...inputs.pedons.map((p) => pedonCell(p, property, depth)).filter(present),
        ...inputs.sites.map((s) => siteCell(s, property, depth)).filter(present),
      ];
      return { ...depth, cells, statements: statements(property, depth, cells, models) };
    }),
  }));
}
