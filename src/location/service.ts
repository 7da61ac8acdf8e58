/**
 * The point query: effective query → the provider's point answer (cache → transport) → observations
 * and warnings. Works with any mapped_location provider; knows nothing of HTTP (it returns a
 * DataAnswer, which the response pipeline sends).
 */
import type { Static } from "elysia";
import { cacheMetadata, describeCache, rawWarnings, sourceWarnings, unsupportedWarnings, type DataAnswer, type DataDeps } from "../answer";
import type { PointProvider } from "../providers/provider";
import { VERSION } from "../version";
import type { LocationQuery, LocationResponse, RawProviderResponse } from "./model";
import { componentSeries, seriesLinker } from "../answer/series-links";

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

async function pointAnswer(deps: DataDeps, provider: PointProvider, query: EffectiveLocationQuery) {
  const cached = await deps.connected.ask(provider, provider.point.query, { latitude: query.latitude, longitude: query.longitude });
  return { cached, cache: describeCache(cached, deps.cacheTtlSeconds), source: deps.connected.sourceOf(provider) };
}

export async function soilAtPoint(deps: DataDeps, provider: PointProvider, query: EffectiveLocationQuery): Promise<DataAnswer<Static<typeof LocationResponse>>> {
  const { cached, cache, source } = await pointAnswer(deps, provider, query);
  const link = await seriesLinker(deps);
  return {
    key: `location|${JSON.stringify(query)}`,
    cache,
    body: () => {
      const normalized = provider.point.normalize(cached.answer, {
        latitude: query.latitude,
        longitude: query.longitude,
        properties: query.properties,
        depthTop: query.depth_top_cm,
        depthBottom: query.depth_bottom_cm,
        source,
        storedAt: cached.storedAt,
      });
      const warnings: string[] = [];
      if (normalized.mapUnits.length > 0) {
        warnings.push(COMPONENTS_WARNING);
        if (normalized.observations.length === 0) {
          warnings.push(`No horizon of the map unit's components reports the requested properties within ${query.depth_top_cm}–${query.depth_bottom_cm} cm.`);
        }
      }
      const elsewhere = summaryOnlyWarnings(provider, query);
      warnings.push(...normalized.warnings, ...elsewhere.warnings, ...unsupportedWarnings(provider, elsewhere.rest), ...sourceWarnings(source, cache));
      return {
        api_version: VERSION,
        status: "experimental" as const,
        query,
        data_kind: provider.point.dataKind,
        observations: normalized.observations,
        map_units: normalized.mapUnits.map((m) => ({ ...m, components: m.components.map((c) => ({ ...c, series: componentSeries(link, c) })) })),
        cache: cacheMetadata(cache, deps.now()),
        warnings,
      };
    },
  };
}

export async function rawAtPoint(deps: DataDeps, provider: PointProvider, query: EffectiveLocationQuery): Promise<DataAnswer<Static<typeof RawProviderResponse>>> {
  const { cached, cache, source } = await pointAnswer(deps, provider, query);
  return {
    key: `raw-location|${provider.id}|${JSON.stringify(query)}`,
    cache,
    body: () => ({
      provider: provider.id,
      status: "experimental" as const,
      query,
      retrieved_at: new Date(cached.storedAt).toISOString(),
      cache: cacheMetadata(cache, deps.now()),
      upstream_response: provider.point.query.raw(cached.answer),
      warnings: rawWarnings(source, cache, [
        "Raw upstream payload: not normalized, no units or provenance attached, and its layout is not promised to stay stable. Use /v1/soil/location for normalized values.",
        provider.point.note,
      ]),
    }),
  };
}
