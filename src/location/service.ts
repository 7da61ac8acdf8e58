/**
 * The mapped-location point query on the point_values shape (docs/architecture.md#shapes): the shape's
 * generic service asks the provider and builds the answer; this file holds what GET /v1/soil/location
 * says of a mapped survey's values (components, not the point; summary-only properties; the spec's map
 * units) and the role's way in. Works with any mapped_location provider; knows nothing of HTTP.
 */
import type { Static } from "elysia";
import { rawWarnings, sourceWarnings, type DataAnswer, type DataDeps } from "../answer";
import type { NormalizedPoint, PointMapUnit, PointProvider } from "../providers/provider";
import { rawValuesAtPoint, valuesAtPoint, valuesOf, type PointValuesRoute } from "../shapes/point_values/service";
import type { CachedAnswer } from "../upstream/cache";
import type { LocationQuery, LocationResponse, RawProviderResponse } from "./model";

export type EffectiveLocationQuery = Static<typeof LocationQuery>;

const COMPONENTS_WARNING =
  "Components are constituents of the map unit, in the proportions of component_percent; none of them is located at the queried point, and which one occurs at the point is unknown.";

/**
 * Requested properties the provider's observations cannot carry but its map-unit summaries can
 * (classes such as drainage_class, and available_water_storage, a sum over an interval): the warning
 * names the summary endpoint instead of saying the provider does not report them.
 */
function summaryOnlyWarnings(provider: PointProvider, query: EffectiveLocationQuery): { warnings: string[]; rest: string[] } {
  const observed = new Set(provider.columns.map((c) => c.property));
  const warnings: string[] = [];
  const rest: string[] = [];
  for (const id of query.properties) {
    const summary = observed.has(id) ? undefined : provider.mapUnits?.properties.find((p) => p.id === id);
    if (!summary) {
      rest.push(id);
      continue;
    }
    const what = summary.kind === "class" ? "a class (category), and an observation's value is a number" : "a sum over a depth interval, not a horizon value";
    warnings.push(
      `'${id}' is ${what}: ${provider.id} gives it per map unit in GET /v1/soil/summary?latitude=${query.latitude}&longitude=${query.longitude}&properties=${id} (or GET /v1/soil/mapunits/{map_unit_key}).`,
    );
  }
  return { warnings, rest };
}

/**
 * A map unit whose components include some without horizon data (Urban land, Water, Beaches) is
 * described by its observations only in part: the warning names them, their percents and the map
 * unit's own URL, where every component is listed (docs/decisions.md#location-map-units).
 */
export function bareComponentWarning(mapUnit: PointMapUnit): string | null {
  const bare = mapUnit.components.filter((c) => !c.has_horizon_data);
  if (bare.length === 0) return null;
  const share = bare.reduce((sum, c) => sum + (c.component_percent ?? 0), 0);
  const list = bare.map((c) => `${c.component_name} (${c.component_percent ?? "unknown"} %${c.component_kind ? `, ${c.component_kind}` : ""})`).join(", ");
  return `Map unit ${mapUnit.map_unit_key} (${mapUnit.map_unit_name}): ${list} ${bare.length === 1 ? "has" : "have"} no horizon data, so no observation describes ${share} % of the map unit; every component is listed at /v1/soil/mapunits/${mapUnit.map_unit_key}.`;
}

/** The no-data word of a map unit whose horizons hold none of the asked properties in the interval. */
const noHorizonWarning = (query: EffectiveLocationQuery) =>
  `No horizon of the map unit's components reports the requested properties within ${query.depth_top_cm}–${query.depth_bottom_cm} cm.`;

/** What a mapped survey's values are, said before the provider's own warnings: components, not the point. */
function componentWarnings(reading: NormalizedPoint, query: EffectiveLocationQuery): string[] {
  if (reading.mapUnits.length === 0) return [];
  const bare = reading.mapUnits.map(bareComponentWarning).filter((w): w is string => w !== null);
  return [COMPONENTS_WARNING, ...bare, ...(reading.observations.length === 0 ? [noHorizonWarning(query)] : [])];
}

/**
 * GET /v1/soil/location's way through the point_values shape: a mapped_location provider is asked by the
 * point alone (one answer holds every property and depth there), its normalizer gives the observations
 * and the map units holding the point, and the spec's body adds those map units (MapUnitSummary: exactly
 * four fields; components belong to /v1/soil/mapunits/{key}).
 */
const MAPPED: PointValuesRoute<PointProvider, EffectiveLocationQuery, NormalizedPoint, Pick<Static<typeof LocationResponse>, "map_units">> = {
  name: "location",
  path: "/v1/soil/location",
  seam: (provider) => ({
    part: provider.point,
    params: ({ latitude, longitude }) => ({ latitude, longitude }),
    read: (answer, context) => provider.point.normalize(answer, context),
  }),
  lead: componentWarnings,
  elsewhere: summaryOnlyWarnings,
  members: (reading) => ({
    map_units: reading.mapUnits.map((m) => ({ area_symbol: m.area_symbol, map_unit_key: m.map_unit_key, map_unit_symbol: m.map_unit_symbol, map_unit_name: m.map_unit_name })),
  }),
  sourceWarnings,
  rawWarnings: (_provider, _query, source, cache) => rawWarnings(source, cache, []),
};

export function soilAtPoint(deps: DataDeps, provider: PointProvider, query: EffectiveLocationQuery): Promise<DataAnswer<Static<typeof LocationResponse>>> {
  return valuesAtPoint(deps, provider, MAPPED, query);
}

/** The same answer from the provider's point answer already in hand (read out of a wider answer: docs/decisions.md#evidence). */
export function soilFromAnswer(deps: DataDeps, provider: PointProvider, query: EffectiveLocationQuery, cached: CachedAnswer<unknown>): DataAnswer<Static<typeof LocationResponse>> {
  return valuesOf(deps, provider, MAPPED, query, cached);
}

export function rawAtPoint(deps: DataDeps, provider: PointProvider, query: EffectiveLocationQuery): Promise<DataAnswer<Static<typeof RawProviderResponse>>> {
  return rawValuesAtPoint(deps, provider, MAPPED, query);
}
