/**
 * Map-unit polygons in a box: effective query → the provider's polygon answer (cache → transport) →
 * GeoJSON features, with warnings. Knows nothing of HTTP (it returns a DataAnswer).
 */
import type { Static } from "elysia";
import { cacheMetadata, describeCache, sourceWarnings, type DataAnswer, type DataDeps } from "../answer";
import type { Bbox } from "../pedons/bbox";
import type { MapUnitPolygon, PointProvider } from "../providers/provider";
import { MAX_MAP_UNIT_LIMIT, type MapUnitCollection, type MapUnitFeature, type MapUnitFeatureSummary } from "./model";

type Summary = Static<typeof MapUnitFeatureSummary>;

/** The summary of one property over an interval by one method, per map unit. */
export interface SummaryRequest {
  property: string;
  method: string;
  depth_top_cm: number;
  depth_bottom_cm: number;
}

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

/** Summaries of the map units named (each key once); a feature of another service. */
export type SummarizeMapUnits = (mapUnitKeys: readonly string[], request: SummaryRequest) => Promise<{ byKey: Map<string, Summary>; warnings: string[] }>;

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
  summarize?: SummarizeMapUnits,
): Promise<DataAnswer<Static<typeof MapUnitCollection>>> {
  const member = provider.mapUnitPolygons!;
  const cached = await deps.connected.ask(provider, member.query, { bbox: query.bbox, limit: query.limit });
  const cache = describeCache(cached, deps.cacheTtlSeconds);
  const source = deps.connected.sourceOf(provider);
  const { polygons, truncated } = member.polygons(cached.answer, query.limit);
  const keys = [...new Set(polygons.map((p) => p.mapUnitKey))];
  const request = query.property !== null && query.method !== null ? { property: query.property, method: query.method, depth_top_cm: query.depth_top_cm, depth_bottom_cm: query.depth_bottom_cm } : null;
  const summaries = request && summarize ? await summarize(keys, request) : null;
  return {
    key: `mapunits|${JSON.stringify(query)}`,
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
