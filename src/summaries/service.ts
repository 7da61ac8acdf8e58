/**
 * Map-unit summaries (docs/decisions.md#summaries): effective query → the provider's map-unit answer (cache → transport) → one
 * summary per property (aggregate.ts), with the map unit and every component. Works with any
 * mapped_location provider that declares `mapUnits`; knows nothing of HTTP (it returns a DataAnswer,
 * which the response pipeline sends).
 *
 * The building blocks are exported for other features (e.g. per-polygon summaries of a map layer):
 * `planSummaries` (validation, no I/O), `loadMapUnit` (one map unit through the cache) and
 * `summarizeMapUnit` (pure).
 */
import type { Static } from "elysia";
import { NotFoundError, ValidationError } from "../errors";
import { cacheMetadata, describeCache, sourceWarnings, type CacheDescriptor, type DataAnswer, type DataDeps } from "../answer";
import type { CachedAnswer } from "../upstream/cache";
import type { SourceDescription } from "../upstream/transport";
import { noMapUnitReason } from "../domain/coverage";
import type { MapUnitData, MapUnitRole, PointProvider } from "../providers/provider";
import { VERSION } from "../version";
import { PerObject } from "../lru";
import type { SeriesLinker } from "../providers/provider";
import { componentSeries, seriesLinker } from "../answer/series-links";
import { summarize } from "./aggregate";
import { isMiscellaneousArea, type DepthInterval } from "../domain/component";
import { assertMethodFits, defaultMethod, SUMMARY_METHODS, type SummaryMethod } from "./methods";
import type { SummaryProperty } from "../domain/summary-property";
import type { MapUnitComponent, PropertySummary, SummaryQuery, SummaryResponse } from "./model";
import { DEFAULT_SUMMARY_OPTIONS, type SummaryOptions } from "./options";

export type EffectiveSummaryQuery = Static<typeof SummaryQuery>;
/** A mapped-location provider that serves whole map units. */
export type MapUnitProvider = PointProvider & { mapUnits: MapUnitRole };

/** One summary to compute: the property and the method it takes. */
export interface PlannedSummary {
  property: SummaryProperty;
  method: SummaryMethod;
}

export interface SummaryPlan {
  summaries: PlannedSummary[];
  depth: DepthInterval;
  /** Which components count (docs/decisions.md#summary-options). */
  options: SummaryOptions;
  /** Requested ids summaries cannot answer (planned properties, lab-only ones): a warning, not an error. */
  unsupported: string[];
}

const MAP_UNIT_WARNING =
  "Map-unit summaries are derived from the representative values of the map unit's components, weighted as each method states; they are not measurements, and none of the components is located at a particular point.";

/** The `method` parameter: empty for each property's default, else one of the methods. */
export function parseMethod(raw: string): SummaryMethod | null {
  const name = raw.trim();
  if (name === "") return null;
  const method = SUMMARY_METHODS.find((m) => m === name);
  if (!method) {
    throw new ValidationError(`Query parameter 'method' must be one of ${SUMMARY_METHODS.join(", ")}; got '${name.slice(0, 40)}'.`);
  }
  return method;
}

/**
 * What to compute, checked before any upstream call: an explicit method that does not fit a property
 * is a ValidationError (422) naming both. `available` is the provider's `mapUnits.properties`.
 */
export function planSummaries(
  available: readonly SummaryProperty[],
  properties: readonly string[],
  method: SummaryMethod | null,
  depth: DepthInterval,
  options: SummaryOptions = DEFAULT_SUMMARY_OPTIONS,
): SummaryPlan {
  const summaries: PlannedSummary[] = [];
  const unsupported: string[] = [];
  for (const id of properties) {
    const property = available.find((p) => p.id === id);
    if (!property) {
      unsupported.push(id);
      continue;
    }
    if (method !== null) assertMethodFits(property, method);
    summaries.push({ property, method: method ?? defaultMethod(property) });
  }
  return { summaries, depth, options, unsupported };
}

export interface LoadedMapUnit {
  cached: CachedAnswer<unknown>;
  /** Null when the provider knows no map unit of this key. */
  mapUnit: MapUnitData | null;
  source: SourceDescription;
}

/** Each cache entry's map unit, read once: every hit of an entry gets the same decoded answer. */
const readMapUnits = new PerObject<object, MapUnitData | null>();

/** One map unit through the cache; the key must have passed `provider.mapUnits.checkKey`. */
export async function loadMapUnit(deps: DataDeps, provider: MapUnitProvider, mapUnitKey: string): Promise<LoadedMapUnit> {
  const role = provider.mapUnits;
  const cached = await deps.connected.ask(provider, role.query, { mapUnitKey: role.checkKey(mapUnitKey) });
  const source = deps.connected.sourceOf(provider);
  const read = () => role.read(cached.answer, { source, storedAt: cached.storedAt });
  const answer: unknown = cached.answer;
  const mapUnit = typeof answer === "object" && answer !== null ? readMapUnits.of(answer, `${provider.id}|${cached.source}|${cached.storedAt}`, read) : read();
  return { cached, source, mapUnit };
}

/** The summaries of a plan for one map unit, each with its source. Pure. */
export function summarizeMapUnit(mapUnit: MapUnitData, plan: SummaryPlan): Static<typeof PropertySummary>[] {
  return plan.summaries.map(({ property, method }) => ({
    ...summarize(mapUnit.components, property, method, plan.depth, plan.options),
    source: {
      provider: mapUnit.provider,
      organization: mapUnit.source.organization,
      retrieved_at: mapUnit.source.retrieved_at,
      original_property_name: `${property.table}.${property.column}`,
      citation: mapUnit.source.citation,
      source_url: mapUnit.source.source_url,
    },
  }));
}

/**
 * One map unit's summaries by key, through the cache: null when the key is unknown. The building block
 * for per-feature summaries (e.g. a map layer's polygons); `plan` comes from `planSummaries`.
 */
export async function summarizeByKey(
  deps: DataDeps,
  provider: MapUnitProvider,
  mapUnitKey: string,
  plan: SummaryPlan,
): Promise<{ loaded: LoadedMapUnit; mapUnit: MapUnitData; summaries: Static<typeof PropertySummary>[] } | null> {
  const loaded = await loadMapUnit(deps, provider, mapUnitKey);
  if (loaded.mapUnit === null) return null;
  return { loaded, mapUnit: loaded.mapUnit, summaries: summarizeMapUnit(loaded.mapUnit, plan) };
}

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
): Static<typeof SummaryResponse> {
  return {
    api_version: VERSION,
    status: "experimental",
    query,
    data_kind: "derived",
    map_unit: mapUnit === null ? null : { provider: mapUnit.provider, area_symbol: mapUnit.area_symbol, map_unit_key: mapUnit.map_unit_key, map_unit_symbol: mapUnit.map_unit_symbol, map_unit_name: mapUnit.map_unit_name, components: listComponents(mapUnit, link) },
    summaries: mapUnit === null ? [] : summarizeMapUnit(mapUnit, plan),
    cache: cacheMetadata(cache, deps.now()),
    warnings: [...leading, ...(mapUnit ? mapUnitWarnings(mapUnit) : []), ...unsupportedWarning(provider, plan.unsupported), ...sourceWarnings(source, cache)],
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
    const coverage = source.kind === "snapshot" ? ` The offline snapshot holds only ${(source.coverage ?? []).filter((c) => c.startsWith("SSURGO")).join("; ") || "a few survey areas"}.` : "";
    throw new NotFoundError(`No map unit with key ${key} in ${provider.id} (STATSGO2 map units are not served).${coverage}`, provider.id);
  }
  const cache = describeCache(cached, deps.cacheTtlSeconds);
  const link = await seriesLinker(deps);
  return { key: `mapunit|${JSON.stringify(query)}`, cache, body: () => summaryBody(deps, provider, query, plan, mapUnit, cache, source, [], link) };
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
    const none = `The point (${query.latitude}, ${query.longitude}) falls in no ${provider.id} map unit: ${noMapUnitReason(source, query.latitude!, query.longitude!)}`;
    return { key: `summary|${JSON.stringify(query)}`, cache, body: () => summaryBody(deps, provider, query, plan, null, cache, source, [none]) };
  }
  const { cached, mapUnit, source } = await loadMapUnit(deps, provider, first);
  const cache = combinedCache(point, cached, deps.cacheTtlSeconds);
  const leading =
    keys.length > 1
      ? [`The point lies in ${keys.length} map units (${keys.join(", ")}), e.g. on a shared boundary; the first, ${first}, is summarized. GET /v1/soil/mapunits/{map_unit_key} gives the others.`]
      : [];
  const link = await seriesLinker(deps);
  return { key: `summary|${JSON.stringify(query)}|${first}|${point.storedAt}`, cache, body: () => summaryBody(deps, provider, query, plan, mapUnit, cache, source, leading, link) };
}
