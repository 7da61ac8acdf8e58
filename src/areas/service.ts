/**
 * Areas and many points (docs/decisions.md#areas). Knows nothing of HTTP: each function returns a
 * DataAnswer.
 *
 * - An area's report: the provider's map-unit polygons cut to the area (cache → transport: SDA's
 *   STIntersection, or the snapshot cut by polygon-clipping), each measured geodesically on WGS84,
 *   summed per map unit; each map unit summarized as GET /v1/soil/mapunits/{key} does (the summaries'
 *   own `loadMapUnit` and `summarizeMapUnit`); then the whole area's summaries, each map unit's value
 *   weighted by its area in the area of interest.
 * - Many points: each point's map unit through the point query the point summary uses, each distinct
 *   map unit loaded and summarized once, the points answered in input order.
 */
import { PerObject } from "../lru";
import type { Static } from "elysia";
import { cacheMetadata, describeCache, sourceWarnings, type CacheDescriptor, type DataAnswer, type DataDeps } from "../answer";
import { ValidationError } from "../errors";
import type { MapUnitPolygon, AreaParams } from "../providers/provider";
import type { CachedAnswer } from "../upstream/cache";
import type { QueryKind } from "../upstream/transport";
import { VERSION } from "../version";
import { PRECISION_RULE, roundDerived } from "../domain/precision";
import { loadMapUnit, summarizeMapUnit, type LoadedMapUnit, type MapUnitProvider, type SummaryPlan } from "../aggregation/plan";
import type { PropertySummary } from "../aggregation/model";
import { AREA_CUTS } from "./cut-gate";
import { summaryCaveats } from "../aggregation/caveats";
import { areaWithoutMapUnit, pointWithoutMapUnit } from "../domain/coverage";
import { polygonsAreaM2 } from "../geometry/geodesic";
import { SQUARE_METRES_PER_ACRE, SQUARE_METRES_PER_HECTARE, type Aoi } from "./geometry";
import type { AoiArea, AoiFeatureCollection, AoiMapUnit, AoiSource, AoiQuery, AoiReport, AoiSummary, PointItem, PointsQuery, PointsResponse } from "./model";

type Summary = Static<typeof PropertySummary>;

/** A mapped-survey provider with map units and polygons cut to an area. */
export type AreaProvider = MapUnitProvider & {
  mapUnitPolygons: { inArea: { query: QueryKind<AreaParams, unknown>; polygons(answer: unknown, limit: number): { polygons: MapUnitPolygon[]; truncated: boolean }; citation: string } };
};

/** Most map-unit polygons one area may meet (a 10,000 ha area of a 1:12,000 survey holds a few hundred). */
export const MAX_AREA_POLYGONS = 5000;
/** Most map units summarized for one area or one list of points (each is one upstream query when not cached). */
export const MAX_SUMMARIZED_MAP_UNITS = 250;
/** Upstream queries in flight at once for one request. */
const CONCURRENCY = 6;

/** Areas and percents are rounded to six significant digits (docs/decisions.md#areas). */
export const areaFigure = (value: number): number => (value === 0 ? 0 : Number(value.toPrecision(6)));

/**
 * An answer's key names its whole query, and an area's WKT may run to 40 KB: the pipeline keeps keys
 * (entity tags are memoized per key), so the query enters it as its SHA-256.
 */
const queryDigest = (query: unknown) => new Bun.CryptoHasher("sha256").update(JSON.stringify(query)).digest("base64url");

/** `work` over `items`, at most CONCURRENCY at once, results in input order. */
async function inBatches<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += CONCURRENCY) out.push(...(await Promise.all(items.slice(i, i + CONCURRENCY).map(work))));
  return out;
}

/** Several stored answers behind one body: fresh only if all are, as old as the oldest, its tag naming every one. */
function combinedCache(answers: readonly CachedAnswer<unknown>[], ttlSeconds: number): CacheDescriptor {
  const oldest = answers.reduce((a, b) => (b.storedAt < a.storedAt ? b : a));
  const stale = answers.find((a) => a.stale);
  return {
    source: [...new Set(answers.map((a) => a.source))].join("+"),
    digest: answers.length === 1 ? oldest.digest : Bun.hash(answers.map((a) => a.digest).join("+")).toString(36),
    hit: answers.every((a) => a.hit),
    storedAt: oldest.storedAt,
    stale: stale !== undefined,
    staleBecause: stale?.staleBecause,
    ttlSeconds: Math.min(...answers.map((a) => a.ttlSeconds ?? ttlSeconds)),
    upstreamMs: answers.reduce((n, a) => n + a.upstreamMs, 0),
  };
}

/** Each distinct map unit loaded once (at most MAX_SUMMARIZED_MAP_UNITS, in the order given). */
async function loadEach(deps: DataDeps, provider: MapUnitProvider, keys: readonly string[]): Promise<Map<string, LoadedMapUnit>> {
  const loaded = await inBatches(keys.slice(0, MAX_SUMMARIZED_MAP_UNITS), (key) => loadMapUnit(deps, provider, key));
  return new Map(loaded.map((one, i) => [keys[i]!, one]));
}

// ---- an area of interest ----------------------------------------------------------------------------

interface MeasuredPolygon {
  polygon: MapUnitPolygon;
  areaM2: number;
}

interface MeasuredMapUnit {
  key: string;
  first: MapUnitPolygon;
  polygonCount: number;
  areaM2: number;
}

interface CutArea {
  cached: CachedAnswer<unknown>;
  polygons: MeasuredPolygon[];
  mapUnits: MeasuredMapUnit[];
  mappedM2: number;
}

/**
 * The provider's polygons cut to the area, measured, grouped by map unit (largest first; tie: key);
 * a few areas at a time (AREA_CUTS, docs/decisions.md#area-cuts).
 */
const cutArea = (deps: DataDeps, provider: AreaProvider, aoi: Aoi): Promise<CutArea> => AREA_CUTS.run(() => cutAreaNow(deps, provider, aoi));

/** Each cut's measurement, made once per cache entry: a repeat or a 304 measures nothing (docs/decisions.md#derived-once). */
const measuredCuts = new PerObject<object, Omit<CutArea, "cached">>();

async function cutAreaNow(deps: DataDeps, provider: AreaProvider, aoi: Aoi): Promise<CutArea> {
  const member = provider.mapUnitPolygons.inArea;
  const cached = await deps.connected.ask(provider, member.query, { rings: aoi.rings, limit: MAX_AREA_POLYGONS });
  const answer: unknown = cached.answer;
  const measure = () => measureCut(provider, member.polygons(cached.answer, MAX_AREA_POLYGONS));
  const cut = typeof answer === "object" && answer !== null ? measuredCuts.of(answer, `${provider.id}|${cached.source}|${cached.storedAt}`, measure) : measure();
  return { cached, ...cut };
}

function measureCut(provider: AreaProvider, { polygons, truncated }: { polygons: MapUnitPolygon[]; truncated: boolean }): Omit<CutArea, "cached"> {
  if (truncated) {
    throw new ValidationError(`The area meets more than ${MAX_AREA_POLYGONS} map-unit polygons; draw a smaller area (a report must hold every polygon it measures).`, provider.id);
  }
  const measured = polygons.map((polygon) => ({ polygon, areaM2: polygonsAreaM2(polygon.polygons) }));
  const byKey = new Map<string, MeasuredMapUnit>();
  let mappedM2 = 0;
  for (const { polygon, areaM2 } of measured) {
    mappedM2 += areaM2;
    const unit = byKey.get(polygon.mapUnitKey);
    if (unit) {
      unit.areaM2 += areaM2;
      unit.polygonCount += 1;
    } else byKey.set(polygon.mapUnitKey, { key: polygon.mapUnitKey, first: polygon, polygonCount: 1, areaM2 });
  }
  const mapUnits = [...byKey.values()].sort((a, b) => b.areaM2 - a.areaM2 || a.key.length - b.key.length || (a.key < b.key ? -1 : 1));
  return { polygons: measured, mapUnits, mappedM2 };
}

const hectares = (m2: number) => areaFigure(m2 / SQUARE_METRES_PER_HECTARE);
const acres = (m2: number) => areaFigure(m2 / SQUARE_METRES_PER_ACRE);
/** A number always (the OpenAPI document says so): an area is at least MIN_AOI_SQUARE_METRES, and a share of nothing is 0. */
const percentOf = (m2: number, aoi: Aoi) => (aoi.areaM2 > 0 ? areaFigure(Math.min(100, (m2 / aoi.areaM2) * 100)) : 0);

function aoiArea(aoi: Aoi, mappedM2: number): Static<typeof AoiArea> {
  return { area_ha: hectares(aoi.areaM2), area_acres: acres(aoi.areaM2), mapped_percent: percentOf(mappedM2, aoi), vertex_count: aoi.vertices };
}

const AREA_WARNING =
  "Areas are geodesic on the WGS84 ellipsoid, of the map-unit polygons cut to the area of interest; survey lines are drawn at 1:12,000 to 1:63,360, so an area is as exact as the map, not as its six digits.";

/** The box [w, s, e, n] of the area's outer ring. */
function boxOf(aoi: Aoi): [number, number, number, number] {
  const outer = aoi.rings[0]!;
  const lons = outer.map((p) => p[0]!);
  const lats = outer.map((p) => p[1]!);
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
}

function coverageWarnings(deps: DataDeps, provider: AreaProvider, cut: CutArea, aoi: Aoi): string[] {
  const mapped = (cut.mappedM2 / aoi.areaM2) * 100;
  if (cut.polygons.length === 0) {
    // The coverage sentence every route says for the same place (docs/decisions.md#coverage-messages).
    return [areaWithoutMapUnit(provider.id, provider.point.scope, deps.connected.sourceOf(provider), boxOf(aoi))];
  }
  if (mapped < 99.9) return [`Only ${areaFigure(mapped)} % of the area is mapped by ${provider.id}; the rest lies outside the surveys, and the area's summaries describe the mapped part.`];
  return [];
}

/** The source of an area's polygons: the provider's record and when the source read them. */
function areaSource(deps: DataDeps, provider: AreaProvider, cached: CachedAnswer<unknown>): Static<typeof AoiSource> {
  const source = deps.connected.sourceOf(provider);
  const retrievedAt = source.kind === "snapshot" && source.builtAt ? source.builtAt : new Date(cached.storedAt).toISOString();
  return {
    provider: provider.id,
    kind: source.kind,
    organization: provider.record.organization,
    retrieved_at: retrievedAt,
    citation: provider.mapUnitPolygons.inArea.citation,
    source_url: provider.record.source_url,
  };
}

/** GET /v1/soil/aoi?format=geojson: the cut polygons, each with its map unit and area. */
export async function aoiFeatures(deps: DataDeps, provider: AreaProvider, query: Static<typeof AoiQuery>, aoi: Aoi): Promise<DataAnswer<Static<typeof AoiFeatureCollection>>> {
  const cut = await cutArea(deps, provider, aoi);
  const cache = describeCache(cut.cached, deps.cacheTtlSeconds);
  const source = deps.connected.sourceOf(provider);
  return {
    key: `aoi-geojson|${queryDigest(query)}`,
    cache,
    body: () => ({
      type: "FeatureCollection" as const,
      provider: provider.id,
      query,
      aoi: aoiArea(aoi, cut.mappedM2),
      cache: cacheMetadata(cache, deps.now()),
      warnings: [AREA_WARNING, ...coverageWarnings(deps, provider, cut, aoi), ...sourceWarnings(source, cache)],
      features: cut.polygons.map(({ polygon, areaM2 }) => ({
        type: "Feature" as const,
        id: polygon.id,
        geometry:
          polygon.polygons.length === 1 ? { type: "Polygon" as const, coordinates: polygon.polygons[0]! } : { type: "MultiPolygon" as const, coordinates: polygon.polygons },
        properties: {
          map_unit_key: polygon.mapUnitKey,
          map_unit_symbol: polygon.mapUnitSymbol,
          map_unit_name: polygon.mapUnitName,
          area_symbol: polygon.areaSymbol,
          area_ha: hectares(areaM2),
          area_acres: acres(areaM2),
          percent_of_aoi: percentOf(areaM2, aoi),
        },
      })),
    }),
  };
}

interface SummarizedMapUnit {
  measured: MeasuredMapUnit;
  summaries: Summary[] | null;
}

/**
 * The caveats of the map-unit summaries an area's summary averages (docs/decisions.md#areas): each said
 * once, naming the map units it concerns, so a total never reads better than what it is made of.
 */
function inheritedCaveats(rows: readonly { measured: MeasuredMapUnit; summary: Summary | null }[]): string[] {
  const unitsOf = new Map<string, string[]>();
  for (const { measured, summary } of rows) {
    if (!summary) continue;
    for (const caveat of summaryCaveats(summary)) unitsOf.set(caveat, [...(unitsOf.get(caveat) ?? []), `${measured.key} (${measured.first.mapUnitSymbol}, ${measured.first.mapUnitName})`]);
  }
  return [...unitsOf].map(([caveat, units]) => `Map unit${units.length === 1 ? "" : "s"} ${units.join(", ")}: ${caveat}`);
}

/** One property's summary for the whole area from the map units' summaries (index `i` of the plan). */
function areaSummary(plan: SummaryPlan, i: number, units: readonly SummarizedMapUnit[], aoi: Aoi): Static<typeof AoiSummary> {
  const { property, method } = plan.summaries[i]!;
  const unit = property.storage?.unit ?? property.unit;
  const rows = units.map(({ measured, summaries }) => ({ measured, summary: summaries?.[i] ?? null }));
  const contributions = rows.map(({ measured, summary }) => ({
    map_unit_key: measured.key,
    map_unit_symbol: measured.first.mapUnitSymbol,
    map_unit_name: measured.first.mapUnitName,
    area_ha: hectares(measured.areaM2),
    percent_of_aoi: percentOf(measured.areaM2, aoi),
    value: summary?.value ?? null,
    category: summary?.category ?? null,
  }));
  const warnings: string[] = [];
  let value: number | null = null;
  let category: string | null = null;
  let weightM2 = 0;
  let classM2: number | null = null;
  let formula: string;
  if (property.kind === "numeric") {
    const valued = rows.filter((r) => r.summary?.value !== null && r.summary?.value !== undefined);
    const values = valued.map((r) => r.summary!.value!);
    weightM2 = valued.reduce((n, r) => n + r.measured.areaM2, 0);
    if (method === "min" || method === "max") {
      value = values.length === 0 ? null : method === "min" ? Math.min(...values) : Math.max(...values);
      formula = `value = ${method} of the map units' ${method} values`;
    } else {
      // A value Loam computes, rounded as documented (docs/decisions.md#precision); the weights are unrounded.
      value = weightM2 > 0 ? roundDerived(valued.reduce((n, r) => n + r.measured.areaM2 * r.summary!.value!, 0) / weightM2) : null;
      formula = `value = Σ(area_ha × map-unit value) / Σ area_ha, over the map units that have a value; ${PRECISION_RULE}`;
    }
  } else {
    const byClass = new Map<string, number>();
    for (const r of rows) {
      const c = r.summary?.category;
      if (c === null || c === undefined) continue;
      byClass.set(c, (byClass.get(c) ?? 0) + r.measured.areaM2);
      weightM2 += r.measured.areaM2;
    }
    // Map units are largest first, so a tie goes to the class of the largest map unit (inserted first).
    const ranked = [...byClass.entries()].sort((a, b) => b[1] - a[1]);
    category = ranked[0]?.[0] ?? null;
    // The class's share is the area in that class (docs/decisions.md#areas), not the area that has any class.
    classM2 = ranked[0]?.[1] ?? 0;
    if (ranked.length > 1 && ranked[0]![1] === ranked[1]![1]) warnings.push(`Classes ${ranked[0]![0]} and ${ranked[1]![0]} hold equal areas; ${category} is the class of the larger map unit.`);
    formula = "category = the class whose map units hold the largest area; percent_of_aoi = the share of the area in that class";
  }
  const missing = rows.filter((r) => (property.kind === "numeric" ? r.summary?.value : r.summary?.category) == null).map((r) => r.measured.key);
  if (missing.length > 0) warnings.push(`Map unit(s) ${missing.join(", ")} have no ${property.id} value in the interval; the value rests on the other map units (percent_of_aoi ${percentOf(weightM2, aoi)}).`);
  warnings.push(...inheritedCaveats(rows));
  return {
    property: { id: property.id, name: property.name },
    method,
    value,
    category,
    unit,
    depth: { top_cm: plan.depth.top_cm, bottom_cm: plan.depth.bottom_cm },
    percent_of_aoi: percentOf(classM2 ?? weightM2, aoi),
    contributions,
    transformations: [{ operation: property.kind === "numeric" && method !== "min" && method !== "max" ? "area_weighted_average" : `area_${property.kind === "numeric" ? method : "dominant_condition"}`, from_unit: unit ?? "class", to_unit: unit ?? "class", formula }],
    warnings,
  };
}

/** GET /v1/soil/aoi: the report of an area. */
export async function aoiReport(
  deps: DataDeps,
  provider: AreaProvider,
  query: Static<typeof AoiQuery>,
  aoi: Aoi,
  plan: SummaryPlan,
): Promise<DataAnswer<Static<typeof AoiReport>>> {
  const cut = await cutArea(deps, provider, aoi);
  const wanted = plan.summaries.length > 0 ? cut.mapUnits.map((m) => m.key) : [];
  const loaded = await loadEach(deps, provider, wanted);
  const units: SummarizedMapUnit[] = cut.mapUnits.map((measured) => {
    const mapUnit = loaded.get(measured.key)?.mapUnit ?? null;
    return { measured, summaries: mapUnit ? summarizeMapUnit(mapUnit, plan) : null };
  });
  const stored = [cut.cached, ...[...loaded.values()].map((l) => l.cached)];
  const cache = combinedCache(stored, deps.cacheTtlSeconds);
  const source = deps.connected.sourceOf(provider);
  return {
    key: `aoi|${queryDigest(query)}|${stored.map((s) => s.storedAt).join(",")}`,
    cache,
    body: () => {
      const warnings = [AREA_WARNING, ...coverageWarnings(deps, provider, cut, aoi)];
      if (cut.mapUnits.length > MAX_SUMMARIZED_MAP_UNITS && plan.summaries.length > 0) {
        warnings.push(`The area holds ${cut.mapUnits.length} map units; only the ${MAX_SUMMARIZED_MAP_UNITS} largest carry summaries and weigh in the area's summaries.`);
      }
      if (plan.unsupported.length > 0) {
        warnings.push(`${provider.id} map-unit summaries do not cover ${plan.unsupported.map((id) => `'${id}'`).join(", ")}; they cover ${provider.mapUnits.properties.map((p) => p.id).join(", ")}.`);
      }
      const unknown = [...loaded].filter(([, one]) => one.mapUnit === null).map(([key]) => key);
      if (unknown.length > 0) warnings.push(`Map unit(s) ${unknown.join(", ")} have polygons in the area but no map-unit record in ${provider.id}: they are measured, not summarized.`);
      warnings.push(...sourceWarnings(source, cache));
      return {
        api_version: VERSION,
        status: "experimental" as const,
        query,
        data_kind: "derived" as const,
        aoi: aoiArea(aoi, cut.mappedM2),
        map_units: units.map(({ measured, summaries }): Static<typeof AoiMapUnit> => ({
          provider: provider.id,
          area_symbol: measured.first.areaSymbol,
          map_unit_key: measured.key,
          map_unit_symbol: measured.first.mapUnitSymbol,
          map_unit_name: measured.first.mapUnitName,
          polygon_count: measured.polygonCount,
          area_ha: hectares(measured.areaM2),
          area_acres: acres(measured.areaM2),
          percent_of_aoi: percentOf(measured.areaM2, aoi),
          summaries: summaries ?? [],
        })),
        summaries: plan.summaries.map((_, i) => areaSummary(plan, i, units.filter((u) => u.summaries !== null), aoi)),
        source: areaSource(deps, provider, cut.cached),
        cache: cacheMetadata(cache, deps.now()),
        warnings,
      };
    },
  };
}

// ---- many points ------------------------------------------------------------------------------------

const NO_HORIZONS = (mapUnit: NonNullable<LoadedMapUnit["mapUnit"]>) => {
  const bare = mapUnit.components.filter((c) => c.horizons.length === 0);
  return bare.length === 0 ? [] : [`Map unit ${mapUnit.map_unit_key} has component(s) without horizon data: ${bare.map((c) => `${c.name} (${c.percent ?? "?"} %)`).join(", ")}; GET /v1/soil/mapunits/${mapUnit.map_unit_key} lists them.`];
};

const POINTS_WARNING =
  "Each point's summaries are its map unit's (as GET /v1/soil/summary gives them): derived from the representative values of the map unit's components, weighted as each method states; they are not measurements, and none of the components is located at a particular point.";

/** GET /v1/soil/points: each point's map unit and summaries, in input order; each map unit loaded once. */
export async function pointsReport(
  deps: DataDeps,
  provider: MapUnitProvider,
  query: Static<typeof PointsQuery>,
  plan: SummaryPlan,
): Promise<DataAnswer<Static<typeof PointsResponse>>> {
  // A point given twice is located once.
  const distinctPoints = [...new Map(query.points.map(([latitude, longitude]) => [`${latitude},${longitude}`, { latitude: latitude!, longitude: longitude! }])).values()];
  const located = await inBatches(distinctPoints, (point) => deps.connected.ask(provider, provider.point.query, point));
  const keysByPoint = new Map(distinctPoints.map((p, i) => [`${p.latitude},${p.longitude}`, provider.mapUnits.keysAtPoint(located[i]!.answer)]));
  const keysAt = query.points.map(([latitude, longitude]) => keysByPoint.get(`${latitude},${longitude}`)!);
  const distinct = [...new Set(keysAt.map((keys) => keys[0]).filter((key): key is string => key !== undefined))];
  const loaded = await loadEach(deps, provider, distinct);
  const summaries = new Map([...loaded].map(([key, one]) => [key, one.mapUnit ? summarizeMapUnit(one.mapUnit, plan) : null]));
  const stored = [...located, ...[...loaded.values()].map((l) => l.cached)];
  const cache = combinedCache(stored, deps.cacheTtlSeconds);
  const source = deps.connected.sourceOf(provider);
  const items = query.points.map(([latitude, longitude], index): Static<typeof PointItem> => {
    const keys = keysAt[index]!;
    const first = keys[0];
    const one = first === undefined ? undefined : loaded.get(first);
    const mapUnit = one?.mapUnit ?? null;
    const warnings: string[] = [];
    if (first === undefined) warnings.push(pointWithoutMapUnit(provider.id, provider.point.scope, source, latitude!, longitude!));
    else if (one === undefined) warnings.push(`The points fall in more than ${MAX_SUMMARIZED_MAP_UNITS} map units; map unit ${first} of this point was not loaded.`);
    if (keys.length > 1) warnings.push(`The point lies in ${keys.length} map units (${keys.join(", ")}), e.g. on a shared boundary; the first, ${first}, is summarized.`);
    if (mapUnit) warnings.push(...NO_HORIZONS(mapUnit));
    // The survey's own version, as the point summary says it (docs/decisions.md#retrieved-at).
    if (mapUnit?.source.survey_version) warnings.push(mapUnit.source.survey_version);
    return {
      index,
      latitude: latitude!,
      longitude: longitude!,
      map_unit: mapUnit && { provider: mapUnit.provider, area_symbol: mapUnit.area_symbol, map_unit_key: mapUnit.map_unit_key, map_unit_symbol: mapUnit.map_unit_symbol, map_unit_name: mapUnit.map_unit_name },
      summaries: (first !== undefined && summaries.get(first)) || [],
      warnings,
    };
  });
  return {
    key: `points|${queryDigest(query)}|${stored.map((s) => s.storedAt).join(",")}`,
    cache,
    body: () => {
      const warnings = [POINTS_WARNING];
      if (plan.unsupported.length > 0) {
        warnings.push(`${provider.id} map-unit summaries do not cover ${plan.unsupported.map((id) => `'${id}'`).join(", ")}; they cover ${provider.mapUnits.properties.map((p) => p.id).join(", ")}.`);
      }
      warnings.push(...sourceWarnings(source, cache));
      return { api_version: VERSION, status: "experimental" as const, query, data_kind: "derived" as const, points: items, cache: cacheMetadata(cache, deps.now()), warnings };
    },
  };
}
