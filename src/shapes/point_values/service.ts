/**
 * The point_values shape (docs/architecture.md#shapes): a provider's values at a point by property and
 * depth, its raw answer in the spec's raw wrapper, and a layer as a grid with its legend. Works with
 * any point_values provider; knows nothing of HTTP (it returns DataAnswers).
 */
import type { Static } from "elysia";
import { cacheMetadata, describeCache, staleWarnings, unsupportedWarnings, type DataAnswer, type DataDeps } from "../../answer";
import { rawAnswer, type RawLocationQuery } from "../../answer/raw-location";
import { NotFoundError, ValidationError } from "../../errors";
import { findProperty } from "../../catalog/properties";
import type { GridLayer, PointValuesParams, PointValuesProvider } from "../../providers/provider";
import { VERSION } from "../../version";
import type { GridResponse, ModeledQuery, ModeledResponse } from "./model";
import { legendOf } from "./legend";
import { AVERAGE_WARNING, weightedAverages } from "./average";

/** The raw route's word on a snapshot answer of a provider that says nothing more of its own. */
export const OFFLINE_RAW_NOTE = "In snapshot mode this payload is what the offline snapshot holds for the point, not a live answer.";

export type EffectiveModeledQuery = Static<typeof ModeledQuery>;

/** The asked properties the provider serves; none is a 422 (nothing to ask upstream). */
function servedOf(provider: PointValuesProvider, properties: readonly string[]): string[] {
  const served = new Set(provider.columns.map((c) => c.property));
  const asked = properties.filter((p) => served.has(p));
  if (asked.length === 0) {
    throw new ValidationError(`Query parameter 'properties' names none of the properties ${provider.id} serves (${[...served].join(", ")}).`, provider.id);
  }
  return asked;
}

async function ask(deps: DataDeps, provider: PointValuesProvider, params: PointValuesParams) {
  const cached = await deps.connected.ask(provider, provider.pointValues.query, params);
  return { cached, cache: describeCache(cached, deps.cacheTtlSeconds), source: deps.connected.sourceOf(provider) };
}

const paramsOf = (query: { latitude: number; longitude: number; depth_top_cm: number; depth_bottom_cm: number }, properties: string[]): PointValuesParams => ({
  latitude: query.latitude,
  longitude: query.longitude,
  properties,
  depthTop: query.depth_top_cm,
  depthBottom: query.depth_bottom_cm,
});

export async function modeledAtPoint(deps: DataDeps, provider: PointValuesProvider, query: EffectiveModeledQuery): Promise<DataAnswer<Static<typeof ModeledResponse>>> {
  const params = paramsOf(query, servedOf(provider, query.properties));
  const { cached, cache, source } = await ask(deps, provider, params);
  return {
    key: `modeled|${JSON.stringify(query)}`,
    cache,
    body: () => {
      const reading = provider.pointValues.read(cached.answer, { ...params, source, storedAt: cached.storedAt });
      const averaged = query.method === "weighted_average" ? weightedAverages(reading.observations, query.depth_top_cm, query.depth_bottom_cm) : null;
      return {
        api_version: VERSION,
        status: "experimental" as const,
        query,
        data_kind: provider.pointValues.dataKind,
        observations: averaged ? averaged.observations : reading.observations,
        cache: cacheMetadata(cache, deps.now()),
        warnings: [...reading.warnings, ...(averaged ? [AVERAGE_WARNING, ...averaged.warnings] : []), ...unsupportedWarnings(provider, query.properties), ...staleWarnings(cache)],
      };
    },
  };
}

/** The spec's raw wrapper around the provider's own answer (offline: the cells and the clips' metadata). */
export async function rawModeled(deps: DataDeps, provider: PointValuesProvider, query: RawLocationQuery): Promise<DataAnswer<unknown>> {
  const params = paramsOf(query, servedOf(provider, query.properties));
  const { cached, cache, source } = await ask(deps, provider, params);
  return rawAnswer(
    {
      key: `raw-modeled|${provider.id}|${JSON.stringify(query)}`,
      providerId: provider.id,
      query,
      source,
      storedAt: cached.storedAt,
      cache,
      upstream: () => provider.pointValues.query.raw(cached.answer),
      warnings: () => [
        `Raw upstream payload: not normalized, no units or provenance attached, and its layout is not promised to stay stable. Use /v1/soil/modeled for normalized values.`,
        provider.pointValues.note,
        ...(source.kind === "snapshot" ? [provider.pointValues.offlineNote ?? OFFLINE_RAW_NOTE] : []),
        ...unsupportedWarnings(provider, query.properties),
        ...staleWarnings(cache),
      ],
    },
    deps.now,
  );
}

/** One layer as a grid, with its legend; 404 for a layer the provider does not hold as a grid. */
export async function gridOf(deps: DataDeps, provider: PointValuesProvider, property: string, depth: string): Promise<DataAnswer<Static<typeof GridResponse>>> {
  const grid = provider.pointValues.grid;
  if (!grid) throw new NotFoundError(`${provider.id} holds no layer as a grid.`, provider.id);
  const cached = await deps.connected.ask(provider, grid.query, {});
  const source = deps.connected.sourceOf(provider);
  const layer: GridLayer | null = grid.read(cached.answer, property, depth, { source, storedAt: cached.storedAt });
  const layers = grid.layers(cached.answer);
  if (!layer) {
    throw new NotFoundError(`${provider.id} holds no grid of '${property}' at ${depth}; it holds ${layers.map((l) => `${l.property} ${l.depth}`).join(", ") || "none"}.`, provider.id);
  }
  const cache = describeCache(cached, deps.cacheTtlSeconds);
  return {
    key: `grid|${provider.id}|${property}|${depth}`,
    cache,
    body: () => ({
      api_version: VERSION,
      status: "experimental" as const,
      provider: provider.id,
      data_kind: provider.pointValues.dataKind,
      property: { id: layer.property, name: findProperty(layer.property)?.name ?? layer.property },
      unit: layer.unit,
      depth: { top_cm: layer.depth.top, bottom_cm: layer.depth.bottom, label: layer.depth.label },
      statistic: layer.statistic,
      crs: layer.crs,
      origin: layer.origin,
      cell_size: layer.cellSize,
      width: layer.width,
      height: layer.height,
      nodata: null,
      values: layer.values,
      legend: { classes: legendOf(layer.values, layer.unit) },
      citation: layer.citation,
      license: layer.license,
      source_url: layer.sourceUrl,
      retrieved_at: layer.retrievedAt,
      layers,
      cache: cacheMetadata(cache, deps.now()),
      warnings: [...layer.warnings, ...staleWarnings(cache)],
    }),
  };
}
