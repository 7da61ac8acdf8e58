/**
 * Map-unit polygons in a box: effective query → the provider's polygon answer (cache → transport) →
 * GeoJSON features, with warnings. Knows nothing of HTTP (it returns a DataAnswer).
 */
import type { Static } from "elysia";
import { cacheMetadata, describeCache, sourceWarnings, type DataAnswer, type DataDeps } from "../answer";
import type { Bbox } from "../domain/bbox";
import type { MapUnitPolygon, PointProvider } from "../providers/provider";
import { loadMapUnit, summarizeMapUnit, type MapUnitProvider, type SummaryPlan } from "../summaries/service";
import { MAX_MAP_UNIT_LIMIT, type MapUnitCollection, type MapUnitFeature, type MapUnitFeatureSummary } from "./model";

type Summary = Static<typeof MapUnitFeatureSummary>;

/**
 * Most map units summarized for one collection: each is one upstream query (one SDA request when not
 * cached), so a box of many map units is bounded; the rest are listed without a summary, and said so.
 */
export const MAX_SUMMARIZED_MAP_UNITS = 250;
/** Map units loaded at once (SDA requests in flight for one collection). */
const SUMMARY_CONCURRENCY = 6;

export interface EffectiveMapUnitQuery {
  bbox: Bbox;
  provider: string;
  limit: number;
  /** Null: polygons without summaries. */
  property: string | null;
  /** The method used (null without a property). */
  method: string | null;
  depth_top_cm: number;
  depth_bottom_cm: number;
}

/**
 * The summary of each map unit named (each key once, at most MAX_SUMMARIZED_MAP_UNITS), through the
 * map-unit summaries (the same numbers GET /v1/soil/mapunits/{map_unit_key} answers).
 */
async function summarizeEach(deps: DataDeps, provider: MapUnitProvider, keys: readonly string[], plan: SummaryPlan) {
  const byKey = new Map<string, Summary>();
  const warnings: string[] = [];
  const storedAt: number[] = [];
  const chosen = keys.slice(0, MAX_SUMMARIZED_MAP_UNITS);
  for (let i = 0; i < chosen.length; i += SUMMARY_CONCURRENCY) {
    const loaded = await Promise.all(chosen.slice(i, i + SUMMARY_CONCURRENCY).map((key) => loadMapUnit(deps, provider, key)));
    loaded.forEach((one, k) => {
      storedAt.push(one.cached.storedAt);
      const summary = one.mapUnit ? summarizeMapUnit(one.mapUnit, plan)[0] : undefined;
      byKey.set(chosen[i + k]!, summary ? { value: summary.value, category: summary.category, unit: summary.unit } : { value: null, category: null, unit: null });
    });
  }
  if (keys.length > chosen.length) {
    warnings.push(
      `The box holds ${keys.length} map units; only the first ${chosen.length} (in polygon order) carry a summary, the others have none. Narrow the box for a complete choropleth.`,
    );
  }
  return { byKey, warnings, storedAt };
}

const MAPPED_WARNING =
  "Map-unit polygons are delineations of a soil survey map (1:12,000 to 1:63,360): each holds the map unit's components in proportions, not one soil, and its lines are not exact to the metre.";

function feature(polygon: MapUnitPolygon, summary: Summary | undefined): Static<typeof MapUnitFeature> {
  const geometry =
    polygon.polygons.length === 1
      ? { type: "Polygon" as const, coordinates: polygon.polygons[0]! }
      : { type: "MultiPolygon" as const, coordinates: polygon.polygons };
  return {
    type: "Feature",
    id: polygon.id,
    geometry,
    properties: {
      map_unit_key: polygon.mapUnitKey,
      map_unit_symbol: polygon.mapUnitSymbol,
      map_unit_name: polygon.mapUnitName,
      area_symbol: polygon.areaSymbol,
      ...(summary ? { summary } : {}),
    },
  };
}

export async function mapUnitsInBbox(
  deps: DataDeps,
  provider: PointProvider,
  query: EffectiveMapUnitQuery,
  plan: SummaryPlan | null,
): Promise<DataAnswer<Static<typeof MapUnitCollection>>> {
  const member = provider.mapUnitPolygons!;
  const cached = await deps.connected.ask(provider, member.query, { bbox: query.bbox, limit: query.limit });
  const cache = describeCache(cached, deps.cacheTtlSeconds);
  const source = deps.connected.sourceOf(provider);
  const { polygons, truncated } = member.polygons(cached.answer, query.limit);
  const keys = [...new Set(polygons.map((p) => p.mapUnitKey))];
  const summaries = plan && provider.mapUnits ? await summarizeEach(deps, provider as MapUnitProvider, keys, plan) : null;
  return {
    // The summaries' map units are cached on their own: their storage times are part of what the body is made of.
    key: `mapunits|${JSON.stringify(query)}|${summaries ? summaries.storedAt.join(",") : ""}`,
    cache,
    body: () => {
      const warnings = [MAPPED_WARNING];
      if (truncated) {
        const raise = query.limit < MAX_MAP_UNIT_LIMIT ? ` or raise limit (at most ${MAX_MAP_UNIT_LIMIT})` : "";
        warnings.push(
          `Truncated: more than ${query.limit} polygons meet the bbox, and only the first ${query.limit} by polygon key are listed, so this collection is not complete. Narrow the bbox${raise}; there are no further pages.`,
        );
      }
      if (polygons.length === 0) {
        const coverage = source.kind === "snapshot" ? ` The offline snapshot covers: ${(source.coverage ?? []).join("; ") || "unknown"}.` : "";
        warnings.push(`No map-unit polygon meets the bbox.${coverage}`);
      }
      if (summaries) warnings.push(...summaries.warnings);
      warnings.push(...sourceWarnings(source, cache));
      return {
        type: "FeatureCollection" as const,
        provider: query.provider,
        query: { ...query, bbox: [...query.bbox] },
        cache: cacheMetadata(cache, deps.now()),
        truncated,
        warnings,
        features: polygons.map((p) => feature(p, summaries?.byKey.get(p.mapUnitKey))),
      };
    },
  };
}
