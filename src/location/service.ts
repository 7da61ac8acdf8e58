/**
 * The point query: effective query → the provider's point answer (cache → transport) → observations
 * and warnings. Works with any mapped_location provider; knows nothing of HTTP (it returns a
 * DataAnswer, which the response pipeline sends).
 */
import type { Static } from "elysia";
import { cacheMetadata, describeCache, rawWarnings, sourceWarnings, unsupportedWarnings, type DataAnswer, type DataDeps } from "../answer";
import type { PointMapUnit, PointProvider } from "../providers/provider";
import { rawAnswer } from "../answer/raw-location";
import { VERSION } from "../version";
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

async function pointAnswer(deps: DataDeps, provider: PointProvider, query: EffectiveLocationQuery) {
  const cached = await deps.connected.ask(provider, provider.point.query, { latitude: query.latitude, longitude: query.longitude });
  return { cached, cache: describeCache(cached, deps.cacheTtlSeconds), source: deps.connected.sourceOf(provider) };
}

export async function soilAtPoint(deps: DataDeps, provider: PointProvider, query: EffectiveLocationQuery): Promise<DataAnswer<Static<typeof LocationResponse>>> {
  const { cached, cache, source } = await pointAnswer(deps, provider, query);
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
        for (const mapUnit of normalized.mapUnits) {
          const bare = bareComponentWarning(mapUnit);
          if (bare) warnings.push(bare);
        }
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
        // The spec's MapUnitSummary: exactly four fields (components belong to /v1/soil/mapunits/{key}).
        map_units: normalized.mapUnits.map((m) => ({ area_symbol: m.area_symbol, map_unit_key: m.map_unit_key, map_unit_symbol: m.map_unit_symbol, map_unit_name: m.map_unit_name })),
        cache: cacheMetadata(cache, deps.now()),
        warnings,
      };
    },
  };
}

export async function rawAtPoint(deps: DataDeps, provider: PointProvider, query: EffectiveLocationQuery): Promise<DataAnswer<Static<typeof RawProviderResponse>>> {
  const { cached, cache, source } = await pointAnswer(deps, provider, query);
  return rawAnswer(
    {
      key: `raw-location|${provider.id}|${JSON.stringify(query)}`,
      providerId: provider.id,
      query,
      source,
      storedAt: cached.storedAt,
      cache,
      upstream: () => provider.point.query.raw(cached.answer),
      warnings: () =>
        rawWarnings(source, cache, [
          "Raw upstream payload: not normalized, no units or provenance attached, and its layout is not promised to stay stable. Use /v1/soil/location for normalized values.",
          provider.point.note,
        ]),
    },
    deps.now,
  );
}
