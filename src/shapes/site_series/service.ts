/**
 * Sensor stations (docs/decisions.md#site-series): effective query → the site_series provider's answer
 * (cache → transport) → station features, or one station with its sensors and links (a series: ./series.ts).
 * Works with any provider of role `site_series`;
 * knows nothing of HTTP (it returns DataAnswers). The lab pedon and the survey at a station's point are
 * asked of the registry's lab_pedons and mapped_location providers, never named.
 *
 * Paging, the nearest stations, one station and the extent are the sites shape's (src/shapes/sites/service.ts).
 * `stationsPage`, `flatStation` and `stationWarnings` serve the OGC API collection `stations` (its
 * `datetime` pages): a page after a keyset position, a station's flat properties and warnings; its
 * extents and one item are the sites collection's (src/collections/sites-entry.ts).
 */
import { NotFoundError, ValidationError } from "../../errors";
import { cacheMetadata, describeCache, sourceWarnings, type CacheDescriptor, type DataAnswer, type DataDeps } from "../../answer";
import { defaultProvider, fitFor, providerQuery, resolveProvider } from "../../answer/providers";
import { boxCursors, boxPage, boxPages, nearestSites, oneSite, siteKey } from "../sites/service";
import type { CachedAnswer } from "../../upstream/cache";
import type { StationReading } from "../../domain/station";
import type { StationProvider } from "../../providers/provider";
import { DAY_MS } from "../../domain/time-range";
import type { SourceDescription } from "../../upstream/transport";
import { VERSION } from "../../version";
import { MAX_STATION_LIMIT, type RawStationResponse, type StationCollection, type StationFeature, type StationResponse } from "./model";
import type { Bbox } from "../../domain/bbox";

const SITE_SERIES = fitFor("site_series", "sensor stations", "Query parameter 'provider'");
const RAW_SITE_SERIES = fitFor("site_series", "raw stations", "Path parameter 'provider_id'");

/** The provider a request names (`provider`), else the registry's default of the role. */
export function stationProvider(deps: DataDeps, name: string, raw = false): StationProvider {
  if (name !== "") return resolveProvider(deps.registry, name, raw ? RAW_SITE_SERIES : SITE_SERIES);
  return defaultProvider(deps.registry, "site_series");
}

/** The station key of a path segment, or a 422 saying what one looks like. */
export function stationKey(provider: StationProvider, raw: string): string {
  return siteKey(provider, provider.stations, raw, "station_triplet");
}

/** Warnings from where an answer came from, besides the provider's own: whether it is stale (the shared snapshot note speaks of USDA soil exports). */
export function sharedWarnings(source: SourceDescription, cache: CacheDescriptor): string[] {
  return sourceWarnings(source.kind === "snapshot" ? { kind: "site_series", location: source.location } : source, cache);
}

function feature(reading: StationReading): StationFeature {
  const properties: StationFeature["properties"] = { ...reading.properties, representative_of_bbox: false };
  if (reading.distanceKm !== undefined) properties.distance_km = reading.distanceKm;
  return { type: "Feature", id: reading.properties.station_triplet, geometry: { type: "Point", coordinates: [reading.longitude, reading.latitude] }, properties };
}

// ---- GET /v1/stations ----------------------------------------------------------------------------

export interface EffectiveStationsQuery {
  bbox: Bbox | null;
  /** [latitude, longitude] */
  near: [number, number] | null;
  limit: number;
  cursor: string | null;
}

/** The cursors of a walk over a box (docs/decisions.md#cursors): a position is a station key. */
const cursorsOf = (provider: StationProvider, bbox: Bbox) => boxCursors(provider.stations, { collection: "stations", provider: provider.id, bbox });

export async function stations(
  deps: DataDeps,
  provider: StationProvider,
  query: EffectiveStationsQuery,
  nextPath: (cursor: string) => string,
  whole = false,
): Promise<{ answer: DataAnswer<StationCollection>; next: string | null }> {
  let found: { cached: CachedAnswer<unknown>; sites: StationReading[] };
  let cache: CacheDescriptor | undefined;
  let after: string | null = null;
  let next: string | null = null;
  let truncated = false;
  if (query.bbox) {
    const cursors = cursorsOf(provider, query.bbox);
    after = cursors.positionOf(query.cursor);
    // A CSV holds every page from the cursor on (docs/decisions.md#csv-whole).
    const paging = whole ? { after, limit: MAX_STATION_LIMIT, whole, rows: "rows (stations)" } : { after, limit: query.limit, whole };
    const bbox = query.bbox;
    const read = await boxPages(deps, provider, provider.stations, (position, limit) => ({ bbox, after: position, limit }), paging);
    [found, truncated, cache] = [{ cached: read.pages[0]!.cached, sites: read.sites }, read.truncated, read.cache];
    if (read.nextAfter !== null) next = nextPath(cursors.cursorAfter(read.nextAfter));
  } else {
    const [latitude, longitude] = query.near!;
    found = await nearestSites(deps, provider, provider.stations, { latitude, longitude, limit: query.limit });
  }
  const { cached, sites: page } = found;
  const source = deps.connected.sourceOf(provider);
  cache ??= describeCache(cached, deps.cacheTtlSeconds);
  return {
    next,
    answer: {
      key: `stations|${provider.id}|${JSON.stringify(query)}${whole ? "|whole" : ""}`,
      cache,
      body: () => {
        const warnings = [...provider.stations.warnings(source)];
        if (truncated) warnings.push(`More stations lie in the box: this page holds ${query.limit} stations in station-id order; follow 'next' (or the Link header) for the next page.`);
        if (query.bbox && page.length === 0) warnings.push(`No ${provider.id} station lies in the box${after === null ? "" : " after the cursor's position"}.`);
        warnings.push(...sharedWarnings(source, cache));
        return {
          type: "FeatureCollection" as const,
          provider: provider.id,
          query: { bbox: query.bbox ? [...query.bbox] : null, near: query.near ? [...query.near] : null, limit: query.limit, cursor: query.cursor },
          cache: cacheMetadata(cache, deps.now()),
          truncated,
          next,
          warnings,
          features: page.map(feature),
        };
      },
    },
  };
}

// ---- GET /v1/stations/{station_triplet} ----------------------------------------------------------

/** The provider's answer for one station; 404 when it has none. */
export async function stationAnswer(deps: DataDeps, provider: StationProvider, station: string) {
  const cached = await oneSite(deps, provider, provider.stations, station);
  const [reading] = cached === null ? [] : provider.stations.read(cached.answer);
  if (cached === null || !reading) throw new NotFoundError(`No station ${station} in ${provider.id}'s source (GET /v1/stations lists them).`, provider.id);
  return { cached, reading, source: deps.connected.sourceOf(provider), cache: describeCache(cached, deps.cacheTtlSeconds) };
}

/** The lab pedon link, only when the registry's lab provider holds the pedon; never fails the answer. */
async function pedonLink(deps: DataDeps, key: string | null): Promise<{ link: { pedon_key: string; provider: string; href: string } | null; warning: string | null }> {
  if (key === null) return { link: null, warning: null };
  const lab = deps.registry.defaultFor("lab_pedons");
  if (!lab) return { link: null, warning: `The station's laboratory pedon is ${key}; no laboratory pedon provider is served to link it.` };
  const parsed = lab.pedons.key.parse(key);
  if (parsed === null) return { link: null, warning: `The station's laboratory pedon ${key} is not a key ${lab.id} reads.` };
  try {
    if ((await oneSite(deps, lab, lab.pedons, parsed)) !== null) return { link: { pedon_key: key, provider: lab.id, href: `/v1/pedons/${encodeURIComponent(key)}${providerQuery(deps.registry, lab)}` }, warning: null };
    return { link: null, warning: `The station's laboratory pedon is ${key}; ${lab.id}'s source does not hold it, so it is not linked.` };
  } catch (error) {
    return { link: null, warning: `The station's laboratory pedon is ${key}; ${lab.id} could not be asked whether it holds it (${error instanceof Error ? error.message : "error"}), so it is not linked.` };
  }
}

/** The name of the map unit at the point, from the registry's mapped-location provider; null when none or it cannot be asked. */
async function mapUnitAt(deps: DataDeps, latitude: number, longitude: number): Promise<string | null> {
  const provider = deps.registry.defaultFor("mapped_location");
  if (!provider) return null;
  try {
    const cached = await deps.connected.ask(provider, provider.point.query, { latitude, longitude });
    const normalized = provider.point.normalize(cached.answer, { latitude, longitude, properties: [], depthTop: 0, depthBottom: 1, source: deps.connected.sourceOf(provider), storedAt: cached.storedAt });
    return normalized.mapUnits[0]?.map_unit_name ?? null;
  } catch {
    return null;
  }
}

export async function station(deps: DataDeps, provider: StationProvider, triplet: string): Promise<DataAnswer<StationResponse>> {
  const { cached, reading, source, cache } = await stationAnswer(deps, provider, triplet);
  const [pedon, mapUnitName] = await Promise.all([pedonLink(deps, reading.properties.pedon_key), mapUnitAt(deps, reading.latitude, reading.longitude)]);
  const retrievedAt = provider.stations.retrievedAt(cached.answer, source, cached.storedAt);
  return {
    key: `station|${provider.id}|${triplet}|${pedon.link?.href ?? pedon.warning ?? ""}|${mapUnitName ?? ""}`,
    cache,
    body: () => {
      const warnings = [...provider.stations.warnings(source)];
      if (pedon.warning) warnings.push(pedon.warning);
      for (const d of reading.disagreements) warnings.push(`The sources disagree on the station's ${d.field}: ${d.note}`);
      warnings.push(...sharedWarnings(source, cache));
      const { latitude, longitude } = reading;
      return {
        api_version: VERSION,
        status: "experimental" as const,
        provider: provider.id,
        data_kind: "observed" as const,
        query: { station_triplet: triplet },
        station: feature(reading),
        sensors: reading.sensors,
        disagreements: reading.disagreements,
        links: {
          pedon: pedon.link,
          survey: { href: `/v1/soil/location?latitude=${latitude}&longitude=${longitude}`, map_unit_name: mapUnitName },
          series: seriesLink(provider, reading, providerQuery(deps.registry, provider, "&")),
        },
        source: provider.stations.source(source, retrievedAt, []),
        cache: cacheMetadata(cache, deps.now()),
        warnings,
      };
    },
  };
}

export async function rawStation(deps: DataDeps, provider: StationProvider, triplet: string): Promise<DataAnswer<RawStationResponse>> {
  const { cached, source, cache } = await stationAnswer(deps, provider, triplet);
  return {
    key: `raw-station|${provider.id}|${triplet}`,
    cache,
    body: () => ({
      provider: provider.id,
      status: "experimental" as const,
      query: { station_triplet: triplet },
      retrieved_at: provider.stations.retrievedAt(cached.answer, source, cached.storedAt),
      cache: cacheMetadata(cache, deps.now()),
      upstream_response: provider.stations.raw(cached.answer),
      warnings: [
        "Raw upstream record: not normalized (elevation in feet, dates as the source writes them), and its layout is not promised to stay stable. Use /v1/stations/{station_triplet} for the normalized station.",
        ...provider.stations.rawNotes,
        ...sharedWarnings(source, cache),
      ],
    }),
  };
}

/**
 * The series link of a station: an element, depth and range its offline series holds, else its first
 * sensor's, else the provider's first; `provider` ("&provider=..." or "") names a provider that is not the default.
 */
export function seriesLink(provider: StationProvider, reading: StationReading, providerParameter: string): string {
  const base = `/v1/stations/${reading.properties.station_triplet}/series`;
  const held = reading.properties.series_offline[0];
  const sensor = reading.sensors.find((s) => s.depth_cm !== null);
  const [element, depth] = held ? [held.element, held.depth_cm] : sensor ? [sensor.element, sensor.depth_cm!] : [provider.stations.elements[0], provider.stations.depthsCm[0]];
  const query = new URLSearchParams({ element: element ?? "", depth_cm: String(depth ?? "") });
  // The last week the snapshot holds: the default window (the last 7 days) is empty offline.
  if (held?.end) {
    const last = Date.parse(held.end);
    query.set("start", new Date(last - 6 * DAY_MS).toISOString().slice(0, 10));
    query.set("end", held.end.slice(0, 10));
  }
  return `${base}?${query.toString().replace(/%3A/gi, ":")}${providerParameter}`;
}

// ---- for other features (an OGC API collection of stations) --------------------------------------

/** A station as GIS clients keep it: flat strings and numbers only. */
export interface FlatStationFeature {
  id: string;
  /** [longitude, latitude] */
  coordinates: [number, number];
  properties: Omit<StationFeature["properties"], "series_offline" | "representative_of_bbox" | "distance_km"> & { series_offline: string };
}

export interface FlatStationsPage {
  features: FlatStationFeature[];
  /** The keyset position of the next page (the last station key of this one); null on the last page. */
  nextAfter: string | null;
  retrievedAt: string;
  cache: CacheDescriptor;
  warnings: string[];
}

/** A station's warnings on a flat page or item (the OGC collection): the provider's, then whether the answer is stale. */
export function stationWarnings(deps: DataDeps, provider: StationProvider, cache: CacheDescriptor): string[] {
  const source = deps.connected.sourceOf(provider);
  return [...provider.stations.warnings(source), ...sharedWarnings(source, cache)];
}

/** A station as GIS clients keep it: flat strings and numbers only. */
export function flatStation(reading: StationReading): FlatStationFeature {
  const { series_offline, ...rest } = reading.properties;
  const held = series_offline.map((s) => `${s.element}@${s.depth_cm}cm ${s.start ?? ""}/${s.end ?? ""}`).join("; ");
  return { id: rest.station_triplet, coordinates: [reading.longitude, reading.latitude], properties: { ...rest, series_offline: held } };
}

/** The registry's site_series provider (the OGC collection's), or a refusal when there is none. */
export function siteSeriesProvider(deps: DataDeps): StationProvider {
  return defaultProvider(deps.registry, "site_series");
}

/**
 * A page of the stations in a box, in station order after `after` (a station key, exclusive; null for the
 * first page), at most `limit` (1 to 1000), with flat properties, from the provider given (by default the registry's site_series provider).
 */
export async function stationsPage(deps: DataDeps, page: { bbox: Bbox; after: string | null; limit: number }, provider: StationProvider = siteSeriesProvider(deps)): Promise<FlatStationsPage> {
  if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > MAX_STATION_LIMIT) throw new ValidationError(`A page of stations holds 1 to ${MAX_STATION_LIMIT} stations; got ${page.limit}.`);
  if (page.after !== null && provider.stations.key.parse(page.after) === null) throw new ValidationError("The page's position is not a station key.");
  const { cached, sites, nextAfter } = await boxPage(deps, provider, provider.stations, page);
  const source = deps.connected.sourceOf(provider);
  const cache = describeCache(cached, deps.cacheTtlSeconds);
  return {
    features: sites.map(flatStation),
    nextAfter,
    retrievedAt: provider.stations.retrievedAt(cached.answer, source, cached.storedAt),
    cache,
    warnings: stationWarnings(deps, provider, cache),
  };
}
