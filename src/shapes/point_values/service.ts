/**
 * The point_values shape (docs/architecture.md#shapes): values at a WGS84 point by property and depth,
 * whichever role serves them (a mapped survey's component horizons on GET /v1/soil/location, a model's
 * grid cells on GET /v1/soil/modeled), through one service: ask the provider's point query through the
 * cache, read its answer to observations with their context, wrap them in the route's envelope with the
 * shared warnings; the provider's own answer in the spec's raw wrapper; a layer as a grid with its
 * legend. A route brings its role's way in (`PointValuesRoute`) and its own words; the service names no
 * provider and knows nothing of HTTP (it returns DataAnswers).
 */
import type { Static } from "elysia";
import { cacheMetadata, describeCache, staleWarnings, unsupportedWarnings, type CacheDescriptor, type DataAnswer, type DataDeps } from "../../answer";
import { rawAnswer } from "../../answer/raw-location";
import { NotFoundError } from "../../errors";
import { findProperty } from "../../catalog/properties";
import { parseProperties } from "../../catalog/properties-param";
import type { GridLayer, OperationalProvider, PointValuesContext, PointValuesParams, PointValuesPart, PointValuesProvider, PointValuesReading } from "../../providers/provider";
import type { Observation } from "../../domain/observation";
import type { SourceDescription } from "../../upstream/transport";
import type { CachedAnswer } from "../../upstream/cache";
import { VERSION } from "../../version";
import type { GridResponse } from "./model";
import { legendOf } from "./legend";

type Obs = Static<typeof Observation>;

/** What every route's effective query holds (its own model adds the provider and its options). */
export interface PointQuery {
  latitude: number;
  longitude: number;
  properties: string[];
  depth_top_cm: number;
  depth_bottom_cm: number;
}

/**
 * A route's effective query, as its model orders it: the point, the route's provider member (`providers`
 * or `provider`), the properties resolved to canonical ids (aliases; a 422 for an unknown one), the depth
 * interval (checked by the route where its refusals put it).
 */
export function effectivePoint<N extends object>(
  read: { latitude: number; longitude: number; depth_top_cm: number; depth_bottom_cm: number },
  named: N,
  properties: string,
): { latitude: number; longitude: number } & N & { properties: string[]; depth_top_cm: number; depth_bottom_cm: number } {
  return { latitude: read.latitude, longitude: read.longitude, ...named, properties: parseProperties(properties), depth_top_cm: read.depth_top_cm, depth_bottom_cm: read.depth_bottom_cm };
}

/** A role's way into the shape for one provider: its part, what its query is asked with, and its normalizer. */
export interface PointValuesSeam<R extends PointValuesReading> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  part: PointValuesPart<any, any>;
  /** The query's parameters for what a request asks (a provider whose one answer holds every property and depth asks by the point alone). */
  params(asked: PointValuesParams): unknown;
  read(answer: unknown, context: PointValuesContext): R;
}

/**
 * A route of the shape: its role's seam and its own words around the shape's answer. `V` is the role's
 * provider, `Q` the route's effective query, `R` the role's reading, `X` the members its model adds after
 * `observations` (e.g. the spec's map_units).
 */
export interface PointValuesRoute<V extends OperationalProvider, Q extends PointQuery, R extends PointValuesReading, X extends object> {
  /** The answers' key prefix (the raw answer's: `raw-<name>`). */
  name: string;
  /** The route serving normalized values, named by the raw answer's first warning. */
  path: string;
  seam(provider: V): PointValuesSeam<R>;
  /** The properties the provider is asked for; absent: every asked one (the reader leaves out what it does not serve). */
  asked?(provider: V, query: Q): string[];
  /** Warnings about the reading said before the provider's own (what its context is). */
  lead?(reading: R, query: Q): string[];
  /** Observations the route derives from the reading (a weighted average) and their warnings, said after the provider's; null: the reading's own. */
  derive?(reading: R, query: Q): { observations: R["observations"]; warnings: string[] } | null;
  /** Asked properties another route serves (their warnings), and the rest, warned of when the provider does not serve them. */
  elsewhere?(provider: V, query: Q): { warnings: string[]; rest: string[] };
  /** The members the route's model adds after `observations`. */
  members?(reading: R): X;
  /** What the answer says of its source and cache (a snapshot, a stale copy), last. */
  sourceWarnings(source: SourceDescription, cache: CacheDescriptor): string[];
  /** The raw answer's warnings after its first sentence and the provider's note. */
  rawWarnings(provider: V, query: Q, source: SourceDescription, cache: CacheDescriptor): string[];
}

/** What the route asks the provider for a query. */
function askedOf<V extends OperationalProvider, Q extends PointQuery>(provider: V, route: PointValuesRoute<V, Q, PointValuesReading, object>, query: Q): PointValuesParams {
  return {
    latitude: query.latitude,
    longitude: query.longitude,
    properties: route.asked ? route.asked(provider, query) : query.properties,
    depthTop: query.depth_top_cm,
    depthBottom: query.depth_bottom_cm,
  };
}

async function ask<V extends OperationalProvider, Q extends PointQuery, R extends PointValuesReading>(
  deps: DataDeps,
  provider: V,
  route: PointValuesRoute<V, Q, R, object>,
  query: Q,
) {
  const seam = route.seam(provider);
  const asked = askedOf(provider, route, query);
  const cached = await deps.connected.ask(provider, seam.part.query, seam.params(asked));
  return { seam, asked, cached, cache: describeCache(cached, deps.cacheTtlSeconds), source: deps.connected.sourceOf(provider) };
}

/** The route's envelope: api_version, status, query, data_kind, observations, the route's members, cache, warnings. */
export type PointValuesBody<Q, X, O = Obs> = { api_version: string; status: "experimental"; query: Q; data_kind: PointValuesPart<unknown, unknown>["dataKind"]; observations: O[] } & X & {
  cache: ReturnType<typeof cacheMetadata>;
  warnings: string[];
};

/** The route's answer at a point; `E` is the route's effective query (the body repeats it). */
export async function valuesAtPoint<V extends OperationalProvider, Q extends PointQuery, R extends PointValuesReading, X extends object, E extends Q>(
  deps: DataDeps,
  provider: V,
  route: PointValuesRoute<V, Q, R, X>,
  query: E,
): Promise<DataAnswer<PointValuesBody<E, X, R["observations"][number]>>> {
  const seam = route.seam(provider);
  const cached = await deps.connected.ask(provider, seam.part.query, seam.params(askedOf(provider, route, query)));
  return valuesOf(deps, provider, route, query, cached);
}

/**
 * The route's answer from the provider's point answer already in hand: its own query's, or the point
 * answer read out of a wider answer that holds it (docs/decisions.md#evidence), with that answer's cache.
 */
export function valuesOf<V extends OperationalProvider, Q extends PointQuery, R extends PointValuesReading, X extends object, E extends Q>(
  deps: DataDeps,
  provider: V,
  route: PointValuesRoute<V, Q, R, X>,
  query: E,
  cached: CachedAnswer<unknown>,
): DataAnswer<PointValuesBody<E, X, R["observations"][number]>> {
  const seam = route.seam(provider);
  const asked = askedOf(provider, route, query);
  const cache = describeCache(cached, deps.cacheTtlSeconds);
  const source = deps.connected.sourceOf(provider);
  return {
    key: `${route.name}|${JSON.stringify(query)}`,
    cache,
    body: () => {
      const reading = seam.read(cached.answer, { ...asked, source, storedAt: cached.storedAt });
      const derived = route.derive?.(reading, query) ?? null;
      const elsewhere = route.elsewhere ? route.elsewhere(provider, query) : { warnings: [], rest: query.properties };
      return {
        api_version: VERSION,
        status: "experimental" as const,
        query,
        data_kind: seam.part.dataKind,
        observations: derived ? derived.observations : reading.observations,
        ...(route.members?.(reading) ?? ({} as X)),
        cache: cacheMetadata(cache, deps.now()),
        warnings: [
          ...(route.lead?.(reading, query) ?? []),
          ...reading.warnings,
          ...(derived?.warnings ?? []),
          ...elsewhere.warnings,
          ...unsupportedWarnings(provider, elsewhere.rest),
          ...route.sourceWarnings(source, cache),
        ],
      } as PointValuesBody<E, X, R["observations"][number]>;
    },
  };
}

/** The spec's raw wrapper around the provider's own answer for the point (offline: what the snapshot holds). */
export async function rawValuesAtPoint<V extends OperationalProvider, Q extends PointQuery, R extends PointValuesReading, E extends Q>(
  deps: DataDeps,
  provider: V,
  route: PointValuesRoute<V, Q, R, object>,
  query: E,
) {
  const { seam, cached, cache, source } = await ask(deps, provider, route, query);
  return rawAnswer(
    {
      key: `raw-${route.name}|${provider.id}|${JSON.stringify(query)}`,
      providerId: provider.id,
      query,
      source,
      storedAt: cached.storedAt,
      cache,
      upstream: () => seam.part.query.raw(cached.answer),
      warnings: () => [
        `Raw upstream payload: not normalized, no units or provenance attached, and its layout is not promised to stay stable. Use ${route.path} for normalized values.`,
        seam.part.note,
        ...route.rawWarnings(provider, query, source, cache),
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
