/**
 * Each source's evidence at a point (docs/decisions.md#evidence), asked through the service of the
 * feature that serves it (no source is read here another way): the mapped survey through GET
 * /v1/soil/location's service and the map unit through the summaries' building blocks, the model
 * through GET /v1/soil/modeled's, the lab pedons through GET /v1/pedons' box and GET
 * /v1/pedons/{key}'s detail, the sample sites and stations through their `near` answers, the series
 * descriptions through the series links. Each gatherer returns the source's evidence, what the
 * comparison needs of it, and the cache descriptors of the answers it rests on. Knows nothing of HTTP.
 */
import type { Static } from "elysia";
import type { CacheDescriptor, DataAnswer, DataDeps } from "../answer";
import { componentSeries, seriesLinker, seriesTaxonomicClass } from "../answer/series-links";
import { loadMapUnit, type MapUnitProvider } from "../aggregation/plan";
import { describeCache } from "../answer";
import { geodesicKm } from "../geometry/geodesic";
import type { MapUnitData, OperationalProvider, PedonProvider, PointProvider, PointValuesProvider, SampleSiteProvider, SeriesProvider, StationProvider } from "../providers/provider";
import type { LabLayer } from "../domain/lab";
import type { GridObservation } from "../domain/observation";
import { soilAtPoint, soilFromAnswer } from "../location/service";
import { modeledAtPoint } from "../shapes/point_values/modeled";
import { listComponents } from "../summaries/service";
import { pedonDetail, pedonDetailFrom, pedonList, pedonsInBbox, type EffectivePedonQuery } from "../pedons/service";
import { MAX_PEDON_LIMIT, type PedonCollection, type PedonResponse } from "../pedons/model";
import { geochemSite, geochemSites } from "../geochem/service";
import { stations } from "../shapes/site_series/service";
import { MAX_DAILY_DAYS } from "../shapes/site_series/model";
import type { EffectiveEvidenceQuery, SourceEvidence } from "./model";

type Obs = Static<typeof GridObservation>;
type Layer = Static<typeof LabLayer>;

/** What a gatherer hands back: the source's evidence, the answers it rests on, and what the comparison reads. */
export interface Gathered {
  evidence: SourceEvidence;
  caches: CacheDescriptor[];
  /** The survey's map unit (the comparison summarizes it; the series descriptions list its components). */
  mapUnit?: MapUnitData | null;
  /** The model's observations at its own depths. */
  modeled?: Obs[];
  /** The nearest pedon with its layers. */
  pedon?: { key: string; distanceKm: number; layers: Layer[] } | null;
}

const round3 = (km: number) => Math.round(km * 1000) / 1000;

/** What every source's entry starts with: its provider, name, role, data kind and the catalog's provenance. */
function head(provider: OperationalProvider, citations: readonly string[], retrievedAt: string | null) {
  return {
    provider: provider.id,
    short_name: provider.shortName,
    data_kind: provider.record.data_kind,
    provenance: { organization: provider.record.organization, citations: [...new Set(citations)], source_url: provider.record.source_url, retrieved_at: retrievedAt },
  };
}

/** The body of a feature's answer and its cache descriptor. */
function opened<T>(answer: DataAnswer<T>): { body: T; cache: CacheDescriptor } {
  return { body: answer.body(), cache: answer.cache };
}

// ---- the mapped survey ---------------------------------------------------------------------------

/**
 * The location route's answer at the point and the first map unit as the map-unit route reads it. A
 * provider that answers both in one query (`mapUnits.atPoint`) is asked once and both are read out of
 * that answer; else the point query, then the map unit (docs/decisions.md#evidence).
 */
async function surveyed(deps: DataDeps, provider: PointProvider, query: EffectiveEvidenceQuery) {
  const { latitude, longitude, properties, depth_top_cm, depth_bottom_cm } = query;
  const asked = { latitude, longitude, providers: [provider.id], properties, depth_top_cm, depth_bottom_cm };
  const role = provider.mapUnits;
  if (role?.atPoint) {
    const { atPoint } = role;
    const cached = await deps.connected.ask(provider, atPoint.query, { latitude, longitude });
    const located = opened(soilFromAnswer(deps, provider, asked, { ...cached, answer: atPoint.point(cached.answer) }));
    const first = located.body.map_units[0];
    const context = { source: deps.connected.sourceOf(provider), storedAt: cached.storedAt };
    const mapUnit = first ? role.read(atPoint.mapUnit(cached.answer, first.map_unit_key), context) : null;
    return { located, mapUnit, caches: [located.cache] };
  }
  const located = opened(await soilAtPoint(deps, provider, asked));
  const first = located.body.map_units[0];
  if (!first || !provider.mapUnits) return { located, mapUnit: null, caches: [located.cache] };
  // The map unit as GET /v1/soil/mapunits/{key} reads it: its components and the summaries' input.
  const loaded = await loadMapUnit(deps, provider as MapUnitProvider, first.map_unit_key);
  return { located, mapUnit: loaded.mapUnit, caches: [located.cache, describeCache(loaded.cached, deps.cacheTtlSeconds)] };
}

export async function survey(deps: DataDeps, provider: PointProvider, query: EffectiveEvidenceQuery): Promise<Gathered> {
  const { located, mapUnit, caches } = await surveyed(deps, provider, query);
  const warnings = [...located.body.warnings];
  const first = located.body.map_units[0];
  if (first && mapUnit && located.body.map_units.length > 1) {
    warnings.push(`The point lies in ${located.body.map_units.length} map units; the first, ${first.map_unit_key}, is listed with its components and compared.`);
  }
  const link = await seriesLinker(deps);
  const citations = located.body.observations.map((o) => o.source.citation);
  if (mapUnit) citations.push(mapUnit.source.citation);
  const retrieved = mapUnit?.source.retrieved_at ?? located.body.observations[0]?.source.retrieved_at ?? null;
  return {
    mapUnit,
    caches,
    evidence: {
      ...head(provider, citations, retrieved),
      role: "mapped_location",
      map_units: located.body.map_units,
      components: mapUnit ? listComponents(mapUnit, link) : [],
      observations: located.body.observations,
      warnings,
    },
  };
}

// ---- the model -----------------------------------------------------------------------------------

export async function model(deps: DataDeps, provider: PointValuesProvider, query: EffectiveEvidenceQuery): Promise<Gathered> {
  const served = new Set(provider.columns.map((c) => c.property));
  const asked = query.properties.filter((p) => served.has(p));
  if (asked.length === 0) {
    // Nothing to ask upstream: the source is listed, empty, and says why.
    return {
      modeled: [],
      caches: [],
      evidence: { ...head(provider, [], null), role: "point_values", observations: [], warnings: [`${provider.id} serves none of the asked properties; it serves ${[...served].join(", ")}.`] },
    };
  }
  const { latitude, longitude, depth_top_cm, depth_bottom_cm } = query;
  const { body, cache } = opened(await modeledAtPoint(deps, provider, { latitude, longitude, provider: provider.id, properties: asked, depth_top_cm, depth_bottom_cm, method: "none" }));
  return {
    modeled: body.observations,
    caches: [cache],
    evidence: {
      ...head(provider, body.observations.map((o) => o.source.citation), body.observations[0]?.source.retrieved_at ?? null),
      role: "point_values",
      observations: body.observations,
      warnings: body.warnings,
    },
  };
}

// ---- the lab pedons ------------------------------------------------------------------------------

/** A box that holds every point within `km` of (lat, lon): a degree of latitude is at least 110.5 km. */
function boxAround(latitude: number, longitude: number, km: number): [number, number, number, number] {
  const dLat = km / 110;
  const dLon = Math.min(180, dLat / Math.max(Math.cos(((Math.abs(latitude) + dLat) * Math.PI) / 180), 0.01));
  const clampLat = (v: number) => Math.max(-90, Math.min(90, v));
  const clampLon = (v: number) => Math.max(-180, Math.min(180, v));
  return [clampLon(longitude - dLon), clampLat(latitude - dLat), clampLon(longitude + dLon), clampLat(latitude + dLat)];
}

/** How many pedons the one nearest-with-layers query returns: the listed few and as many again, so the geodesic nearest are among them. */
const CANDIDATES_PER_LISTED = 2;

type Opened<T> = { body: T; cache: CacheDescriptor };
type PedonList = Static<typeof PedonCollection>;
type PedonBody = Static<typeof PedonResponse>;

/**
 * The pedons around the point as GET /v1/pedons lists them, and a way to the layers of one of them as
 * GET /v1/pedons/{key} gives them. A provider that answers both in one query (`nearestWithLayers`) is
 * asked once, and both are read out of that answer; else one page of the box, then the pedon's detail
 * (docs/decisions.md#evidence).
 */
async function pedonsAround(
  deps: DataDeps,
  provider: PedonProvider,
  query: EffectiveEvidenceQuery,
): Promise<{ listed: Opened<PedonList>; layersOf: (pedonKey: string, asked: EffectivePedonQuery) => Promise<Opened<PedonBody> | null> }> {
  const { latitude, longitude, radius_km, nearest } = query;
  const bbox = boxAround(latitude, longitude, radius_km);
  const collection = { bbox, provider: provider.id, limit: MAX_PEDON_LIMIT };
  const one = provider.pedons.nearestWithLayers;
  if (one) {
    const params = { latitude, longitude, bbox, limit: nearest * CANDIDATES_PER_LISTED };
    const cached = await deps.connected.ask(provider, one.query, params);
    const list = one.list(cached.answer);
    const { sites } = provider.pedons.page(list, MAX_PEDON_LIMIT, { bbox, limit: MAX_PEDON_LIMIT, after: null });
    const greatGroups = provider.pedons.greatGroups?.(list) ?? new Map<string, string | null>();
    const listed = opened(await pedonList(deps, provider, collection, { features: sites, truncated: false }, greatGroups, describeCache(cached, deps.cacheTtlSeconds)));
    return { listed, layersOf: async (key, asked) => opened(await pedonDetailFrom(deps, provider, { ...cached, answer: one.one(cached.answer, key) }, asked, true)) };
  }
  // The provider finds pedons by box: one page of the box around the radius, measured geodesically.
  const listed = opened((await pedonsInBbox(deps, provider, collection)).answer);
  return {
    listed,
    layersOf: async (pedonKey, asked) => {
      const key = provider.pedons.key.parse(pedonKey);
      return key === null ? null : opened(await pedonDetail(deps, provider, key, asked, true));
    },
  };
}

export async function pedons(deps: DataDeps, provider: PedonProvider, query: EffectiveEvidenceQuery): Promise<Gathered> {
  const { latitude, longitude, radius_km, nearest } = query;
  const { listed, layersOf } = await pedonsAround(deps, provider, query);
  const { body, cache } = listed;
  const near = body.features
    .map((f) => ({ f, km: geodesicKm(latitude, longitude, f.geometry.coordinates[1]!, f.geometry.coordinates[0]!) }))
    .filter((p) => p.km <= radius_km)
    .sort((a, b) => a.km - b.km)
    .slice(0, nearest);
  // The list's words about its box (truncated, empty) speak of a box the caller never gave: said here in terms of the radius instead.
  const warnings = body.warnings.filter((w) => !w.startsWith("Truncated") && !w.startsWith("No laboratory pedon"));
  if (body.truncated) warnings.push(`More than ${MAX_PEDON_LIMIT} pedons lie in the box around ${radius_km} km; the nearest of the first ${MAX_PEDON_LIMIT} by key are listed.`);
  if (near.length === 0) warnings.push(`No ${provider.shortName} pedon with coordinates lies within ${radius_km} km of the point.`);
  const caches = [cache];
  let pedon: Gathered["pedon"] = null;
  const citations: string[] = [];
  let retrieved: string | null = null;
  const closest = near[0];
  const served = new Set(provider.columns.map((c) => c.property));
  const asked = query.properties.filter((p) => served.has(p));
  if (closest && asked.length > 0) {
    // The nearest pedon's layers, as GET /v1/pedons/{key} gives them over the whole pedon.
    const pedonKey = closest.f.properties.pedon_key;
    const detail = await layersOf(pedonKey, { pedon_key: pedonKey, properties: asked, depth_top_cm: 0, depth_bottom_cm: 1000 });
    if (detail) {
      // Read out of the list's own answer, it rests on nothing more: that answer is counted once.
      if (!caches.some((c) => c.digest === detail.cache.digest)) caches.push(detail.cache);
      pedon = { key: detail.body.pedon_key, distanceKm: round3(closest.km), layers: detail.body.layers };
      citations.push(detail.body.citation);
      retrieved = detail.body.retrieved_at;
    }
  }
  return {
    pedon,
    caches,
    evidence: {
      ...head(provider, citations, retrieved),
      role: "lab_pedons",
      pedons: near.map(({ f, km }) => ({
        pedon_key: f.properties.pedon_key,
        name: f.properties.name,
        series: f.properties.series,
        location: { latitude: f.geometry.coordinates[1]!, longitude: f.geometry.coordinates[0]! },
        distance_km: round3(km),
        href: `/v1/pedons/${encodeURIComponent(f.properties.pedon_key)}`,
      })),
      warnings,
    },
  };
}

// ---- sample sites --------------------------------------------------------------------------------

/** The warning of a located source with nothing within the radius: how far the nearest is. */
function beyondRadius(provider: OperationalProvider, what: string, radiusKm: number, nearestKm: number | undefined): string[] {
  if (nearestKm === undefined) return [`No ${provider.shortName} ${what} was found near the point.`];
  return [`No ${provider.shortName} ${what} lies within ${radiusKm} km of the point; the nearest is ${round3(nearestKm)} km away.`];
}

export async function sampleSites(deps: DataDeps, provider: SampleSiteProvider, query: EffectiveEvidenceQuery): Promise<Gathered> {
  const { latitude, longitude, radius_km, nearest } = query;
  const found = await geochemSites(deps, provider, { bbox: null, near: [latitude, longitude], limit: nearest, property: null, cursor: null }, () => "");
  const { body, cache } = opened(found.answer);
  const within = body.features.filter((f) => (f.properties.distance_km ?? Infinity) <= radius_km);
  const elements = query.properties.filter((p) => provider.sites.properties.includes(p));
  const caches = [cache];
  const warnings = [...body.warnings];
  if (within.length === 0) warnings.push(...beyondRadius(provider, "sample site", radius_km, body.features[0]?.properties.distance_km));
  if (elements.length === 0) warnings.push(`None of the asked properties is an element ${provider.shortName} reports; it reports ${provider.sites.properties.join(", ")}.`);
  // Each listed site's results of the asked elements, as GET /v1/geochem/sites/{site_id} gives them.
  const results = elements.length === 0 ? [] : await Promise.all(within.map((f) => geochemSite(deps, provider, f.properties.site_id, elements).then(opened)));
  caches.push(...results.map((r) => r.cache));
  return {
    caches,
    evidence: {
      ...head(provider, results.map((r) => r.body.source.citation), results[0]?.body.source.retrieved_at ?? null),
      role: "sample_sites",
      sites: within.map((f, i) => ({
        site_id: f.properties.site_id,
        collection_date: f.properties.collection_date,
        depth: f.properties.depth,
        location: { latitude: f.geometry.coordinates[1]!, longitude: f.geometry.coordinates[0]! },
        distance_km: f.properties.distance_km!,
        href: `/v1/geochem/sites/${f.properties.site_id}`,
        elements: results[i]?.body.observations ?? [],
      })),
      // The list's warnings, then what each site's answer adds (its results' notes), each once.
      warnings: [...new Set([...warnings, ...results.flatMap((r) => r.body.warnings)])],
    },
  };
}

// ---- sensor stations -----------------------------------------------------------------------------

const DAY_MS = 86_400_000;

/** A daily series request over what is held, within the route's longest daily span. */
function heldHref(triplet: string, held: { element: string; depth_cm: number; start: string | null; end: string | null }): string | null {
  if (held.start === null || held.end === null) return null;
  const end = held.end.slice(0, 10);
  const earliest = new Date(Date.parse(`${end}T00:00:00Z`) - (MAX_DAILY_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const start = held.start.slice(0, 10) < earliest ? earliest : held.start.slice(0, 10);
  return `/v1/stations/${encodeURIComponent(triplet)}/series?element=${encodeURIComponent(held.element)}&depth_cm=${held.depth_cm}&interval=daily&start=${start}&end=${end}`;
}

export async function sensorStations(deps: DataDeps, provider: StationProvider, query: EffectiveEvidenceQuery): Promise<Gathered> {
  const { latitude, longitude, radius_km, nearest } = query;
  const found = await stations(deps, provider, { bbox: null, near: [latitude, longitude], limit: nearest, cursor: null }, () => "");
  const { body, cache } = opened(found.answer);
  const within = body.features.filter((f) => (f.properties.distance_km ?? Infinity) <= radius_km);
  const warnings = [...body.warnings];
  if (within.length === 0) warnings.push(...beyondRadius(provider, "station", radius_km, body.features[0]?.properties.distance_km));
  // The citations every answer of the source carries (its station answer's `source`); when it was read is each station's to say (its href).
  const { citations } = provider.stations.source(deps.connected.sourceOf(provider), "", []);
  return {
    caches: [cache],
    evidence: {
      ...head(provider, citations, null),
      role: "site_series",
      stations: within.map((f) => ({
        station_triplet: f.properties.station_triplet,
        name: f.properties.name,
        location: { latitude: f.geometry.coordinates[1]!, longitude: f.geometry.coordinates[0]! },
        distance_km: f.properties.distance_km!,
        period: { begin_date: f.properties.begin_date, end_date: f.properties.end_date },
        held: f.properties.series_offline.map((held) => ({ element: held.element, depth_cm: held.depth_cm, start: held.start, end: held.end, href: heldHref(f.properties.station_triplet, held) })),
        href: `/v1/stations/${encodeURIComponent(f.properties.station_triplet)}`,
      })),
      warnings,
    },
  };
}

// ---- series descriptions -------------------------------------------------------------------------

/**
 * The series descriptions the survey's components link. A live description is one upstream call each,
 * so live only the most extensive component's description is read (docs/decisions.md#evidence); the
 * snapshot's are local and all are read.
 */
export async function seriesDescriptions(deps: DataDeps, provider: SeriesProvider, mapUnit: MapUnitData | null, surveyLeftOut: boolean): Promise<Gathered> {
  // This provider's own links and classes, whichever is the registry's default (docs/decisions.md#provider-links).
  const link = await seriesLinker(deps, provider);
  const components = mapUnit ? [...mapUnit.components].sort((a, b) => (b.percent ?? 0) - (a.percent ?? 0)) : [];
  const linked = components.flatMap((c) => {
    const series = componentSeries(link, { component_name: c.name, component_kind: c.kind });
    return series ? [{ c, series }] : [];
  });
  const local = deps.connected.sourceOf(provider).kind === "snapshot";
  const read = local ? linked : linked.slice(0, 1);
  const classes = await Promise.all(read.map(({ series }) => seriesTaxonomicClass(deps, series.name, provider)));
  const warnings: string[] = [];
  if (surveyLeftOut) warnings.push("The mapped survey was left out of this answer (see the warnings), so no component links a series description.");
  else if (!mapUnit) warnings.push("No map unit at the point, so no component links a series description.");
  else if (linked.length === 0) warnings.push(`No component of map unit ${mapUnit.map_unit_key} links a series description.`);
  if (read.length < linked.length) {
    warnings.push(`Only the most extensive component's description was read (one upstream call); follow each link for the others' classes.`);
  }
  return {
    caches: [],
    evidence: {
      ...head(provider, [], null),
      role: "series",
      descriptions: linked.map(({ c, series }, i) => ({
        component_key: c.key,
        component_name: c.name,
        component_percent: c.percent,
        series,
        taxonomic_class: i < classes.length ? (classes[i] ?? null) : null,
        survey_taxonomic_class: c.taxonomic_class,
      })),
      warnings,
    },
  };
}
