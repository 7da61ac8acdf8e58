/**
 * Map-unit polygons in a box: effective query → the provider's polygon answer (cache → transport) →
 * one page of polygons, each with the summaries of its map unit, and the collection's warnings. Knows
 * nothing of HTTP: `mapUnitPage` is shared by GET /v1/soil/mapunits and the OGC `mapunits`
 * collection, `mapUnitsInBbox` makes the former's DataAnswer.
 *
 * Derived once (docs/decisions.md#derived-once): the decoded polygons of a polygon answer and the
 * summaries computed for it are kept beside that cache entry's decoded answer (a WeakMap on it), so a
 * cached request or a 304 neither re-parses WKT nor re-reads up to 250 map units nor summarizes again.
 * Kept summaries are reused only while every map-unit answer they were computed from is within its
 * lifetime (and none was stale): they are exactly what a fresh computation would give.
 */
import type { Static } from "elysia";
import { cacheMetadata, describeCache, sourceWarnings, type CacheDescriptor, type DataAnswer, type DataDeps } from "../answer";
import type { Bbox } from "../domain/bbox";
import type { MapUnitData, MapUnitPolygon, PointProvider } from "../providers/provider";
import type { SourceDescription } from "../upstream/transport";
import { loadMapUnit, summarizeMapUnit, type MapUnitProvider, type SummaryPlan } from "../aggregation/plan";
import { MAX_MAP_UNIT_LIMIT, type MapUnitCollection, type MapUnitFeature } from "./model";
import { HALF_OF_MAP_UNIT } from "../aggregation/caveats";
import { combinedCache, csvCap, csvTooLarge, everyPage } from "../answer/whole-table";
import { coverageWords } from "../domain/coverage";

/**
 * Most map units summarized for one page: each is one upstream query (one SDA request when not
 * cached), so a page of many map units is bounded; the rest are listed without a summary, and said so.
 */
export const MAX_SUMMARIZED_MAP_UNITS = 250;
/** Map units loaded at once (SDA requests in flight for one page). */
const SUMMARY_CONCURRENCY = 6;
/** Fraction properties: a miscellaneous area's 0 there is SSURGO's placeholder, not an estimate. */
const FRACTION_PROPERTIES = new Set(["sand", "silt", "clay"]);

export interface EffectiveMapUnitQuery {
  bbox: Bbox;
  provider: string;
  limit: number;
  /** The one property of the `property` parameter (its feature carries `summary`); null otherwise. */
  property: string | null;
  /** Every summarized property (from `property` or `properties`), in order; empty without summaries. */
  properties: string[];
  /** The method asked for (or the one property's default); null when each takes its own default. */
  method: string | null;
  depth_top_cm: number;
  depth_bottom_cm: number;
  /** Which components the summaries count (docs/decisions.md#summary-options). */
  include_minors: boolean;
  miscellaneous_areas: "include" | "exclude";
}

/** One summary of a polygon's map unit, as features carry it. */
export interface FeatureSummary {
  property: string;
  value: number | null;
  category: string | null;
  unit: string | null;
  percent_of_map_unit: number;
}

interface DerivedSummaries {
  byKey: Map<string, FeatureSummary[]>;
  warnings: string[];
  /** Names the map-unit answers the summaries were made of (their digests and storage times). */
  stamp: string;
  /** Reusable until the first of those answers expires (ms since epoch); 0: never reused. */
  validUntil: number;
}

type DecodedPolygons = ReturnType<NonNullable<PointProvider["mapUnitPolygons"]>["polygons"]>;

// Kept per decoded polygon answer: it lives exactly as long as the cache keeps that entry in memory.
const decodedPolygons = new WeakMap<object, DecodedPolygons>();
const derivedSummaries = new WeakMap<object, Map<string, DerivedSummaries>>();
/** Summary plans kept per polygon answer (different properties or depths over one box). */
const PLANS_PER_ANSWER = 16;

function polygonsOnce(provider: PointProvider, answer: object, limit: number): DecodedPolygons {
  let decoded = decodedPolygons.get(answer);
  if (!decoded) {
    decoded = provider.mapUnitPolygons!.polygons(answer, limit);
    decodedPolygons.set(answer, decoded);
  }
  return decoded;
}

const planKeys = new WeakMap<SummaryPlan, string>();

/**
 * A stable text of a plan: what the summaries depend on besides the map units (made once per plan
 * object). Every member of the plan is in it (the properties by id), so an option a later plan carries
 * (e.g. which components count) keys kept summaries and binds cursors without a change here.
 */
export function planKey(plan: SummaryPlan): string {
  let key = planKeys.get(plan);
  if (key === undefined) {
    key = JSON.stringify({ ...plan, summaries: plan.summaries.map((s) => [s.property.id, s.method]) });
    planKeys.set(plan, key);
  }
  return key;
}

const queryTexts = new WeakMap<EffectiveMapUnitQuery, string>();
const textOf = (query: EffectiveMapUnitQuery) => {
  let text = queryTexts.get(query);
  if (text === undefined) queryTexts.set(query, (text = JSON.stringify(query)));
  return text;
};

const interval = (plan: SummaryPlan) => `${plan.depth.top_cm}-${plan.depth.bottom_cm} cm`;

/**
 * What a map unit's values rest on, said once per map unit (docs/decisions.md#polygon-summaries): a value made of less than
 * half of the map unit, or one that includes a miscellaneous area's placeholder fractions.
 */
function caveatsOf(mapUnit: MapUnitData, plan: SummaryPlan, summaries: ReturnType<typeof summarizeMapUnit>): string[] {
  const kinds = new Map(mapUnit.components.map((c) => [c.key, (c.kind ?? "").trim().toLowerCase()]));
  const thin: string[] = [];
  const placeholders: string[] = [];
  for (const summary of summaries) {
    const id = summary.property.id;
    // Horizon properties are summarized over the interval; component properties (slope, classes) have no depth.
    const where = plan.summaries.find((s) => s.property.id === id)?.property.level === "horizon" ? ` ${interval(plan)}` : "";
    if ((summary.value !== null || summary.category !== null) && summary.percent_of_map_unit < HALF_OF_MAP_UNIT) {
      thin.push(`${id}${where} on ${summary.percent_of_map_unit} %`);
    }
    if (FRACTION_PROPERTIES.has(id)) {
      const zeros = summary.contributions.filter((c) => kinds.get(c.component_key) === "miscellaneous area" && c.value === 0);
      if (zeros.length > 0) placeholders.push(`${id}${where} includes ${zeros.map((c) => `${c.component_name} (${c.component_percent ?? "?"} %)`).join(", ")}`);
    }
  }
  const name = `Map unit ${mapUnit.map_unit_key} (${mapUnit.map_unit_symbol}, ${mapUnit.map_unit_name})`;
  const out: string[] = [];
  if (thin.length > 0) {
    out.push(`${name}: ${thin.join("; ")} of the map unit (the components with data); the value does not describe the rest of the map unit (percent_of_map_unit on each feature).`);
  }
  if (placeholders.length > 0) {
    out.push(`${name}: ${placeholders.join("; ")}: miscellaneous areas whose fraction values are the survey's placeholders (0), not fine-earth estimates, averaged in.`);
  }
  return out;
}

/** Each key's summaries, computed from the map units through the cache (at most MAX_SUMMARIZED_MAP_UNITS). */
async function summarizeEach(deps: DataDeps, provider: MapUnitProvider, keys: readonly string[], plan: SummaryPlan): Promise<DerivedSummaries> {
  const byKey = new Map<string, FeatureSummary[]>();
  const warnings: string[] = [];
  const made: string[] = [];
  let validUntil = Number.POSITIVE_INFINITY;
  const chosen = keys.slice(0, MAX_SUMMARIZED_MAP_UNITS);
  for (let i = 0; i < chosen.length; i += SUMMARY_CONCURRENCY) {
    const loaded = await Promise.all(chosen.slice(i, i + SUMMARY_CONCURRENCY).map((key) => loadMapUnit(deps, provider, key)));
    loaded.forEach((one, k) => {
      const cached = one.cached;
      made.push(`${cached.digest}@${cached.storedAt}`);
      validUntil = cached.stale ? 0 : Math.min(validUntil, cached.storedAt + (cached.ttlSeconds ?? deps.cacheTtlSeconds) * 1000);
      const computed = one.mapUnit ? summarizeMapUnit(one.mapUnit, plan) : [];
      if (one.mapUnit) warnings.push(...caveatsOf(one.mapUnit, plan, computed));
      byKey.set(
        chosen[i + k]!,
        plan.summaries.map(({ property }) => {
          const s = computed.find((c) => c.property.id === property.id);
          return { property: property.id, value: s?.value ?? null, category: s?.category ?? null, unit: s?.unit ?? property.unit, percent_of_map_unit: s?.percent_of_map_unit ?? 0 };
        }),
      );
    });
  }
  if (keys.length > chosen.length) {
    warnings.push(
      `The page holds ${keys.length} map units; only the first ${chosen.length} (in polygon order) carry summaries, the others have none. Narrow the box or lower limit for a complete choropleth.`,
    );
  }
  return { byKey, warnings, stamp: Bun.hash(made.join(",")).toString(36), validUntil: Number.isFinite(validUntil) ? validUntil : 0 };
}

async function summariesOnce(deps: DataDeps, provider: MapUnitProvider, answer: object, keys: readonly string[], plan: SummaryPlan): Promise<DerivedSummaries> {
  const key = planKey(plan);
  let plans = derivedSummaries.get(answer);
  const kept = plans?.get(key);
  if (kept && kept.validUntil > deps.now()) return kept;
  const derived = await summarizeEach(deps, provider, keys, plan);
  if (derived.validUntil > deps.now()) {
    if (!plans) derivedSummaries.set(answer, (plans = new Map()));
    if (plans.size >= PLANS_PER_ANSWER) plans.delete(plans.keys().next().value as string);
    plans.set(key, derived);
  }
  return derived;
}

/** One page of polygons with their map units' summaries: what both polygon routes are made of. */
export interface MapUnitPage {
  polygons: MapUnitPolygon[];
  truncated: boolean;
  /** The key the next page starts after (null on the last page). */
  nextAfter: string | null;
  /** Per map unit key, one summary per planned property; null without a plan. */
  summaries: Map<string, FeatureSummary[]> | null;
  /** Warnings of the summaries: by map unit (caveats), and when a page has too many map units. */
  summaryWarnings: string[];
  cache: CacheDescriptor;
  source: SourceDescription;
  /** Names everything the page is made of, for the answer's key (with the query). */
  stamp: string;
}

export async function mapUnitPage(
  deps: DataDeps,
  provider: PointProvider,
  page: { bbox: Bbox; limit: number; after: string | null },
  plan: SummaryPlan | null,
): Promise<MapUnitPage> {
  const member = provider.mapUnitPolygons!;
  const cached = await deps.connected.ask(provider, member.query, { bbox: page.bbox, limit: page.limit, after: page.after });
  const cache = describeCache(cached, deps.cacheTtlSeconds);
  const source = deps.connected.sourceOf(provider);
  const { polygons, truncated, last } = polygonsOnce(provider, cached.answer as object, page.limit);
  let summaries: DerivedSummaries | null = null;
  if (plan && plan.summaries.length > 0 && provider.mapUnits) {
    const keys = [...new Set(polygons.map((p) => p.mapUnitKey))];
    summaries = await summariesOnce(deps, provider as MapUnitProvider, cached.answer as object, keys, plan);
  }
  return {
    polygons,
    truncated,
    nextAfter: truncated ? last : null,
    summaries: summaries?.byKey ?? null,
    summaryWarnings: summaries?.warnings ?? [],
    cache,
    source,
    stamp: summaries?.stamp ?? "",
  };
}

/** A summary's flat members (GIS keeps flat strings and numbers): `<id>` is the value or class, `<id>_percent_of_map_unit` what it rests on. */
export function flatSummaryMembers(summaries: readonly FeatureSummary[] | undefined): Record<string, string | number | null> {
  const members: Record<string, string | number | null> = {};
  for (const s of summaries ?? []) {
    members[s.property] = s.category ?? s.value;
    members[`${s.property}_percent_of_map_unit`] = s.percent_of_map_unit;
  }
  return members;
}

export const MAPPED_WARNING =
  "Map-unit polygons are delineations of a soil survey map (1:12,000 to 1:63,360): each holds the map unit's components in proportions, not one soil, and its lines are not exact to the metre.";

export function polygonGeometry(polygon: MapUnitPolygon) {
  return polygon.polygons.length === 1
    ? { type: "Polygon" as const, coordinates: polygon.polygons[0]! }
    : { type: "MultiPolygon" as const, coordinates: polygon.polygons };
}

/** A polygon's map unit and its summaries as flat members: the properties every polygon collection gives (GeoJSON, CSV, OGC items). */
export function polygonProperties(polygon: MapUnitPolygon, summaries: readonly FeatureSummary[] | undefined) {
  return {
    map_unit_key: polygon.mapUnitKey,
    map_unit_symbol: polygon.mapUnitSymbol,
    map_unit_name: polygon.mapUnitName,
    area_symbol: polygon.areaSymbol,
    ...flatSummaryMembers(summaries),
  };
}

function feature(polygon: MapUnitPolygon, summaries: FeatureSummary[] | undefined, single: boolean): Static<typeof MapUnitFeature> {
  const first = summaries?.[0];
  const { map_unit_key, map_unit_symbol, map_unit_name, area_symbol, ...flat } = polygonProperties(polygon, summaries);
  return {
    type: "Feature",
    id: polygon.id,
    geometry: polygonGeometry(polygon),
    // `summary` (the `property` parameter's one) sits between the map unit and the flat members, as it always has.
    properties: {
      map_unit_key,
      map_unit_symbol,
      map_unit_name,
      area_symbol,
      ...(single && first ? { summary: { value: first.value, category: first.category, unit: first.unit, percent_of_map_unit: first.percent_of_map_unit } } : {}),
      ...flat,
    },
  };
}

/** The collection's warnings: what polygons are, truncation, emptiness, the summaries' caveats, the source. */
export function pageWarnings(page: MapUnitPage, limit: number, maxLimit = MAX_MAP_UNIT_LIMIT): string[] {
  const warnings = [MAPPED_WARNING];
  if (page.truncated) {
    const raise = limit < maxLimit ? ` or raise limit (at most ${maxLimit})` : "";
    warnings.push(`Truncated: more than ${limit} polygons meet the bbox from this page on; this page lists the next ${limit} by polygon key. Follow 'next' (or the Link header) for the rest, narrow the bbox${raise}.`);
  }
  if (page.polygons.length === 0) {
    const coverage = page.source.kind === "snapshot" ? ` The offline snapshot covers: ${coverageWords(page.source) || "unknown"}.` : "";
    warnings.push(`No map-unit polygon meets the bbox on this page.${coverage}`);
  }
  warnings.push(...page.summaryWarnings);
  warnings.push(...sourceWarnings(page.source, page.cache));
  return warnings;
}

/** Every page of the box from `after` on as one (a CSV answer: docs/decisions.md#csv-whole), up to the CSV cap. */
async function wholeBox(deps: DataDeps, provider: PointProvider, bbox: Bbox, after: string | null, plan: SummaryPlan | null): Promise<MapUnitPage> {
  const pages = await everyPage(
    csvCap(deps),
    after,
    (position) => mapUnitPage(deps, provider, { bbox, limit: MAX_MAP_UNIT_LIMIT, after: position }, plan),
    (page) => page.nextAfter,
    (page) => page.polygons.length,
    () => csvTooLarge(csvCap(deps), "rows (polygons)", "a smaller bbox", provider.id),
  );
  if (pages.length === 1) return pages[0]!;
  const summaries = pages.some((p) => p.summaries !== null) ? new Map(pages.flatMap((p) => [...(p.summaries ?? [])])) : null;
  return {
    polygons: pages.flatMap((p) => p.polygons),
    truncated: false,
    nextAfter: null,
    summaries,
    summaryWarnings: [...new Set(pages.flatMap((p) => p.summaryWarnings))],
    cache: combinedCache(pages.map((p) => p.cache), deps.cacheTtlSeconds),
    source: pages[0]!.source,
    stamp: pages.map((p) => p.stamp).join("+"),
  };
}

export async function mapUnitsInBbox(
  deps: DataDeps,
  provider: PointProvider,
  query: EffectiveMapUnitQuery,
  plan: SummaryPlan | null,
  paging: { after: string | null; nextHref: (after: string) => string },
  whole = false,
): Promise<{ answer: DataAnswer<Static<typeof MapUnitCollection>>; next: string | null }> {
  const page = whole ? await wholeBox(deps, provider, query.bbox, paging.after, plan) : await mapUnitPage(deps, provider, { bbox: query.bbox, limit: query.limit, after: paging.after }, plan);
  const next = page.nextAfter === null ? null : paging.nextHref(page.nextAfter);
  const answer: DataAnswer<Static<typeof MapUnitCollection>> = {
    // The summaries' map units are cached on their own: the stamp names the answers the body is made of.
    key: `mapunits|${textOf(query)}|${paging.after ?? ""}|${page.stamp}${whole ? "|whole" : ""}`,
    cache: page.cache,
    body: () => ({
      type: "FeatureCollection" as const,
      provider: query.provider,
      query: { ...query, bbox: [...query.bbox], properties: [...query.properties] },
      cache: cacheMetadata(page.cache, deps.now()),
      truncated: page.truncated,
      next,
      warnings: pageWarnings(page, query.limit),
      features: page.polygons.map((p) => feature(p, page.summaries?.get(p.mapUnitKey), query.property !== null)),
    }),
  };
  return { answer, next };
}

/** One polygon by key, with its map unit's summaries (an OGC single item); null when the key is unknown. */
export async function mapUnitPolygonByKey(deps: DataDeps, provider: PointProvider, key: string, plan: SummaryPlan | null): Promise<MapUnitPage | null> {
  const member = provider.mapUnitPolygons!;
  // The key in the provider's own syntax: a malformed one is no item, asked of no source.
  const polygonKey = member.polygonKey(key);
  if (polygonKey === null) return null;
  const cached = await deps.connected.ask(provider, member.byKey, { key: polygonKey });
  const { polygons } = polygonsOnce(provider, cached.answer as object, 1);
  if (polygons.length === 0) return null;
  const summaries =
    plan && plan.summaries.length > 0 && provider.mapUnits ? await summariesOnce(deps, provider as MapUnitProvider, cached.answer as object, [polygons[0]!.mapUnitKey], plan) : null;
  return {
    polygons,
    truncated: false,
    nextAfter: null,
    summaries: summaries?.byKey ?? null,
    summaryWarnings: summaries?.warnings ?? [],
    cache: describeCache(cached, deps.cacheTtlSeconds),
    source: deps.connected.sourceOf(provider),
    stamp: summaries?.stamp ?? "",
  };
}
