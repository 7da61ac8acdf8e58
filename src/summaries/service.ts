/**
 * Map-unit summaries (docs/decisions.md#summaries): effective query → the provider's map-unit answer (cache → transport) → one
 * summary per property (src/aggregation), with the map unit and every component. Works with any
 * mapped_location provider that declares `mapUnits`; knows nothing of HTTP (it returns a DataAnswer,
 * which the response pipeline sends). The building blocks other features share (`planSummaries`,
 * `loadMapUnit`, `summarizeMapUnit`) are the aggregation room's (src/aggregation/plan.ts).
 */
import type { Static } from "elysia";
import { loadMapUnit, planSummaries, summarizeMapUnit, type MapUnitProvider, type SummaryPlan } from "../aggregation/plan";
import { NotFoundError } from "../errors";
import { cacheMetadata, describeCache, sourceWarnings, type CacheDescriptor, type DataAnswer, type DataDeps } from "../answer";
import type { CachedAnswer } from "../upstream/cache";
import type { SourceDescription } from "../upstream/transport";
import { pointWithoutMapUnit } from "../domain/coverage";
import type { MapUnitData } from "../providers/provider";
import { VERSION } from "../version";
import type { SeriesLinker } from "../providers/provider";
import { componentClassificationWarnings, componentSeries, seriesLinker } from "../answer/series-links";
import { isMiscellaneousArea, type DepthInterval } from "../domain/component";
import type { MapUnitComponent, SummaryQuery, SummaryResponse } from "./model";
import type { SummaryOptions } from "../aggregation/options";

export type EffectiveSummaryQuery = Static<typeof SummaryQuery>;

const MAP_UNIT_WARNING =
  "Map-unit summaries are derived from the representative values of the map unit's components, weighted as each method states; they are not measurements, and none of the components is located at a particular point.";

/** Every component of the map unit, as listed in the body. */
export function listComponents(mapUnit: MapUnitData, link: SeriesLinker = () => null): Static<typeof MapUnitComponent>[] {
  return mapUnit.components.map((c) => ({
    component_key: c.key,
    component_name: c.name,
    component_kind: c.kind,
    component_percent: c.percent,
    major_component: c.major,
    taxonomic_class: c.taxonomic_class,
    slope_percent: c.slope,
    drainage_class: c.drainage_class,
    hydrologic_group: c.hydrologic_group,
    has_horizon_data: c.horizons.length > 0,
    series: componentSeries(link, { component_name: c.name, component_kind: c.kind }),
  }));
}

function mapUnitWarnings(mapUnit: MapUnitData): string[] {
  const warnings = [MAP_UNIT_WARNING];
  if (mapUnit.source.survey_version) warnings.push(mapUnit.source.survey_version);
  const bare = mapUnit.components.filter((c) => c.horizons.length === 0);
  if (bare.length > 0) {
    warnings.push(
      `Component(s) without horizon data: ${bare.map((c) => `${c.name} (${c.percent ?? "?"} %)`).join(", ")}; they are listed (has_horizon_data false) and count in the summaries only where a method says so.`,
    );
  }
  const miscellaneous = mapUnit.components.filter(isMiscellaneousArea);
  if (miscellaneous.length > 0) {
    warnings.push(
      `Miscellaneous area(s) ${miscellaneous.map((c) => c.name).join(", ")}: may not be soil; each summary they contribute to says whether their values are estimates for the area's material or placeholders (zero sand, silt or clay).`,
    );
  }
  return warnings;
}

function unsupportedWarning(provider: MapUnitProvider, unsupported: readonly string[]): string[] {
  if (unsupported.length === 0) return [];
  return [`${provider.id} map-unit summaries do not cover ${unsupported.map((id) => `'${id}'`).join(", ")}; they cover ${provider.mapUnits.properties.map((p) => p.id).join(", ")}.`];
}

/** The one body of both routes. */
function summaryBody(
  deps: DataDeps,
  provider: MapUnitProvider,
  query: EffectiveSummaryQuery,
  plan: SummaryPlan,
  mapUnit: MapUnitData | null,
  cache: CacheDescriptor,
  source: SourceDescription,
  leading: readonly string[],
  link: SeriesLinker = () => null,
  classification: readonly string[] = [],
): Static<typeof SummaryResponse> {
  return {
    api_version: VERSION,
    status: "experimental",
    query,
    data_kind: "derived",
    map_unit: mapUnit === null ? null : { provider: mapUnit.provider, area_symbol: mapUnit.area_symbol, map_unit_key: mapUnit.map_unit_key, map_unit_symbol: mapUnit.map_unit_symbol, map_unit_name: mapUnit.map_unit_name, components: listComponents(mapUnit, link) },
    summaries: mapUnit === null ? [] : summarizeMapUnit(mapUnit, plan),
    cache: cacheMetadata(cache, deps.now()),
    warnings: [...leading, ...(mapUnit ? mapUnitWarnings(mapUnit) : []), ...classification, ...unsupportedWarning(provider, plan.unsupported), ...sourceWarnings(source, cache)],
  };
}

const depthOf = (query: EffectiveSummaryQuery): DepthInterval => ({ top_cm: query.depth_top_cm, bottom_cm: query.depth_bottom_cm });
const optionsOf = (query: EffectiveSummaryQuery): SummaryOptions => ({ include_minors: query.include_minors, miscellaneous_areas: query.miscellaneous_areas });

/** GET /v1/soil/mapunits/{map_unit_key}: an unknown key is a NotFoundError (404). */
export async function mapUnitSummary(deps: DataDeps, provider: MapUnitProvider, query: EffectiveSummaryQuery): Promise<DataAnswer<Static<typeof SummaryResponse>>> {
  const key = provider.mapUnits.checkKey(query.map_unit_key ?? "");
  const plan = planSummaries(provider.mapUnits.properties, query.properties, query.method, depthOf(query), optionsOf(query));
  const { cached, mapUnit, source } = await loadMapUnit(deps, provider, key);
  if (mapUnit === null) {
    throw new NotFoundError(provider.mapUnits.notFoundMessage(key, source), provider.id);
  }
  const cache = describeCache(cached, deps.cacheTtlSeconds);
  const link = await seriesLinker(deps);
  const classification = await componentClassificationWarnings(deps, listComponents(mapUnit, link));
  return { key: `mapunit|${JSON.stringify(query)}`, cache, body: () => summaryBody(deps, provider, query, plan, mapUnit, cache, source, [], link, classification) };
}

/** Two upstream answers behind one body: fresh only if both are, as old as the older. */
function combinedCache(a: CachedAnswer<unknown>, b: CachedAnswer<unknown>, ttlSeconds: number): CacheDescriptor {
  const older = a.storedAt <= b.storedAt ? a : b;
  return {
    source: a.source === b.source ? a.source : `${a.source}+${b.source}`,
    // The body is made of both stored answers, so its entity tag names both.
    digest: `${a.digest}+${b.digest}`,
    hit: a.hit && b.hit,
    storedAt: older.storedAt,
    stale: a.stale || b.stale,
    staleBecause: a.staleBecause ?? b.staleBecause,
    ttlSeconds,
    upstreamMs: a.upstreamMs + b.upstreamMs,
  };
}

/**
 * GET /v1/soil/summary: the map unit at a point (found by the provider's point query, which the
 * location endpoint shares through the cache), then its summary. No map unit there: 200, map_unit null.
 */
export async function summaryAtPoint(deps: DataDeps, provider: MapUnitProvider, query: EffectiveSummaryQuery): Promise<DataAnswer<Static<typeof SummaryResponse>>> {
  const plan = planSummaries(provider.mapUnits.properties, query.properties, query.method, depthOf(query), optionsOf(query));
  const point = await deps.connected.ask(provider, provider.point.query, { latitude: query.latitude!, longitude: query.longitude! });
  const keys = provider.mapUnits.keysAtPoint(point.answer);
  const first = keys[0];
  if (first === undefined) {
    const source = deps.connected.sourceOf(provider);
    const cache = describeCache(point, deps.cacheTtlSeconds);
    const none = pointWithoutMapUnit(provider.id, provider.point.scope, source, query.latitude!, query.longitude!);
    return { key: `summary|${JSON.stringify(query)}`, cache, body: () => summaryBody(deps, provider, query, plan, null, cache, source, [none]) };
  }
  const { cached, mapUnit, source } = await loadMapUnit(deps, provider, first);
  const cache = combinedCache(point, cached, deps.cacheTtlSeconds);
  const leading =
    keys.length > 1
      ? [`The point lies in ${keys.length} map units (${keys.join(", ")}), e.g. on a shared boundary; the first, ${first}, is summarized. GET /v1/soil/mapunits/{map_unit_key} gives the others.`]
      : [];
  const link = await seriesLinker(deps);
  const classification = mapUnit ? await componentClassificationWarnings(deps, listComponents(mapUnit, link)) : [];
  return { key: `summary|${JSON.stringify(query)}|${first}|${point.storedAt}`, cache, body: () => summaryBody(deps, provider, query, plan, mapUnit, cache, source, leading, link, classification) };
}
