/**
 * Sensor stations and their series (docs/decisions.md#site-series): effective query → the site_series
 * provider's answer (cache → transport) → station features, one station with its sensors and links,
 * or one series (hourly as reported, or daily means). Works with any provider of role `site_series`;
 * knows nothing of HTTP (it returns DataAnswers). The lab pedon and the survey at a station's point are
 * asked of the registry's lab_pedons and mapped_location providers, never named.
 *
 * `stationsPage`, `stationFlat` and `stationsExtent` serve other features (an OGC API collection of
 * stations): a page after a keyset position, one station, the spatial and temporal extent.
 */
import { clip, NotFoundError, ProviderNotOperationalError, ValidationError } from "../../errors";
import { cacheMetadata, describeCache, sourceWarnings, type CacheDescriptor, type DataAnswer, type DataDeps } from "../../answer";
import { fitFor, resolveProvider } from "../../answer/providers";
import { cursorBinding, decodeCursor, encodeCursor } from "../../domain/cursor";
import type { StationReading } from "../../domain/station";
import type { StationProvider, StationSeriesParams } from "../../providers/provider";
import type { SourceDescription } from "../../upstream/transport";
import { resolvePropertyId } from "../../catalog/properties";
import { VERSION } from "../../version";
import { MAX_STATION_LIMIT, type RawStationResponse, type StationSeriesResponse, type StationCollection, type StationFeature, type StationResponse } from "./model";
import { DAILY_MEAN_TRANSFORMATION, dailyMeans, rangeOf, timeOn } from "./range";

export type Bbox = [minLon: number, minLat: number, maxLon: number, maxLat: number];

const SITE_SERIES = fitFor("site_series", "sensor stations", "Query parameter 'provider'");
const RAW_SITE_SERIES = fitFor("site_series", "raw stations", "Path parameter 'provider_id'");

/** The provider a request names (`provider`), else the registry's default of the role. */
export function stationProvider(deps: DataDeps, name: string, raw = false): StationProvider {
  if (name !== "") return resolveProvider(deps.registry, name, raw ? RAW_SITE_SERIES : SITE_SERIES);
  const provider = deps.registry.defaultFor("site_series");
  if (!provider) throw new ProviderNotOperationalError("site_series");
  return provider;
}

/** The station key of a path segment, or a 422 saying what one looks like. */
export function stationKey(provider: StationProvider, raw: string): string {
  const key = provider.stations.key.parse(raw);
  if (key === null) throw new ValidationError(`Path parameter 'station_triplet' must be ${provider.stations.key.syntax}; got '${clip(raw)}'.`, provider.id);
  return key;
}

/** Warnings from where an answer came from, besides the provider's own: whether it is stale (the shared snapshot note speaks of USDA soil exports). */
function sharedWarnings(source: SourceDescription, cache: CacheDescriptor): string[] {
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

const bindingOf = (provider: string, bbox: Bbox) => cursorBinding({ collection: "stations", provider, bbox });

/** The keyset position a cursor continues after (a station key), or a 422 when it belongs to another query. */
function positionOf(provider: StationProvider, cursor: string | null, bbox: Bbox): string | null {
  if (cursor === null) return null;
  const after = decodeCursor(cursor, bindingOf(provider.id, bbox));
  if (provider.stations.key.parse(after) === null) throw new ValidationError("Query parameter 'cursor' is not a cursor Loam made; start again without it.");
  return after;
}

export async function stations(
  deps: DataDeps,
  provider: StationProvider,
  query: EffectiveStationsQuery,
  nextPath: (cursor: string) => string,
): Promise<{ answer: DataAnswer<StationCollection>; next: string | null }> {
  let cached;
  let after: string | null = null;
  if (query.bbox) {
    after = positionOf(provider, query.cursor, query.bbox);
    cached = await deps.connected.ask(provider, provider.stations.inBox, { bbox: query.bbox, after, limit: query.limit });
  } else {
    const [latitude, longitude] = query.near!;
    cached = await deps.connected.ask(provider, provider.stations.nearest, { latitude, longitude, limit: query.limit });
  }
  const source = deps.connected.sourceOf(provider);
  const cache = describeCache(cached, deps.cacheTtlSeconds);
  const readings = provider.stations.read(cached.answer);
  const truncated = query.bbox !== null && readings.length > query.limit;
  const page = truncated ? readings.slice(0, query.limit) : readings;
  const next = truncated ? nextPath(encodeCursor(bindingOf(provider.id, query.bbox!), page[page.length - 1]!.properties.station_triplet)) : null;
  return {
    next,
    answer: {
      key: `stations|${provider.id}|${JSON.stringify(query)}`,
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
async function stationAnswer(deps: DataDeps, provider: StationProvider, station: string) {
  const cached = await deps.connected.ask(provider, provider.stations.station, { station });
  const [reading] = provider.stations.read(cached.answer);
  if (!reading) throw new NotFoundError(`No station ${station} in ${provider.id}'s source (GET /v1/stations lists them).`, provider.id);
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
    const cached = await deps.connected.ask(lab, lab.pedons.pedon, { pedonKey: parsed });
    if (lab.pedons.found(cached.answer)) return { link: { pedon_key: key, provider: lab.id, href: `/v1/pedons/${encodeURIComponent(key)}` }, warning: null };
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
          series: `/v1/stations/${triplet}/series`,
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

// ---- GET /v1/stations/{station_triplet}/series --------------------------------------------------

export interface SeriesRead {
  element: string;
  depth_cm: number;
  interval: "hourly" | "daily";
  start: string;
  end: string;
  sensor: number;
}

/** The element a provider measures, by id or alias; else a 422 naming what it measures. */
export function seriesElement(provider: StationProvider, name: string): string {
  const id = resolvePropertyId(name);
  if (id === undefined || !provider.stations.elements.includes(id)) {
    throw new ValidationError(`Query parameter 'element' names '${clip(name)}', which ${provider.id} does not measure; it measures ${provider.stations.elements.join(", ")}.`, provider.id);
  }
  return id;
}

/** One of the provider's sensor depths (to 0.01 cm); else a 422 naming them. */
export function seriesDepth(provider: StationProvider, depth: number): number {
  const found = provider.stations.depthsCm.find((d) => Math.abs(d - depth) < 0.01);
  if (found === undefined) {
    const inches = provider.stations.depthsCm.map((d) => `${d} (${Math.round(d / 2.54)} in)`).join(", ");
    throw new ValidationError(`Query parameter 'depth_cm' must be one of ${provider.id}'s sensor depths ${inches} cm; got ${depth}.`, provider.id);
  }
  return found;
}

export async function stationSeries(deps: DataDeps, provider: StationProvider, triplet: string, read: SeriesRead): Promise<DataAnswer<StationSeriesResponse>> {
  const element = seriesElement(provider, read.element);
  const depthCm = seriesDepth(provider, read.depth_cm);
  const { reading: station, source } = await stationAnswer(deps, provider, triplet);
  const clock = provider.stations.seriesClock(source, station);
  const range = rangeOf(read.start, read.end, read.interval, clock, deps.now());
  // The provider's contract takes the end exclusive: one millisecond after the range's last.
  const params: StationSeriesParams = { station: triplet, element, depthCm, ordinal: read.sensor, startMs: range.start, endMs: range.end + 1, utcOffsetHours: clock };
  const cached = await deps.connected.ask(provider, provider.stations.series, params);
  const cache = describeCache(cached, deps.cacheTtlSeconds);
  const now = deps.now();
  return {
    key: `station-series|${provider.id}|${JSON.stringify(params)}|${read.interval}`,
    cache,
    body: () => {
      const series = provider.stations.readSeries(cached.answer, params, now);
      const offset = series.clock.utcOffsetHours;
      const transformations = [...(series.transformation ? [series.transformation] : []), ...(read.interval === "daily" ? [DAILY_MEAN_TRANSFORMATION] : [])];
      const values =
        read.interval === "hourly"
          ? series.values.map((v) => ({ time: timeOn(v.t, offset), value: v.value, unit: series.unit, flags: v.flags }))
          : dailyMeans(series.values, offset).map((d) => ({ time: timeOn(d.t, offset), date: d.date, value: d.mean, unit: series.unit, count: d.count, min: d.min, max: d.max }));
      const warnings = [...provider.stations.warnings(source), ...series.warnings];
      if (read.interval === "daily") warnings.push(`Daily values are derived: the mean of each day's reported hourly values on ${series.clock.name}, with their count; a day with no reported hour has no value.`);
      warnings.push(...sharedWarnings(source, cache));
      return {
        api_version: VERSION,
        status: "experimental" as const,
        provider: provider.id,
        data_kind: "observed" as const,
        query: { station_triplet: triplet, element, depth_cm: depthCm, sensor: read.sensor, interval: read.interval, start: timeOn(params.startMs, offset), end: timeOn(params.endMs, offset) },
        station: { station_triplet: triplet, name: station.properties.name, data_time_zone: station.properties.data_time_zone },
        clock: { utc_offset_hours: offset, name: series.clock.name },
        unit: series.unit,
        interval: read.interval,
        flag_fields: series.flagFields,
        transformations,
        values,
        source: provider.stations.source(source, provider.stations.retrievedAt(cached.answer, source, cached.storedAt), series.citations),
        cache: cacheMetadata(cache, now),
        warnings,
      } as StationSeriesResponse;
    },
  };
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

function flat(reading: StationReading): FlatStationFeature {
  const { series_offline, ...rest } = reading.properties;
  const held = series_offline.map((s) => `${s.element}@${s.depth_cm}cm ${s.start ?? ""}/${s.end ?? ""}`).join("; ");
  return { id: rest.station_triplet, coordinates: [reading.longitude, reading.latitude], properties: { ...rest, series_offline: held } };
}

function defaultProvider(deps: DataDeps): StationProvider {
  const provider = deps.registry.defaultFor("site_series");
  if (!provider) throw new ProviderNotOperationalError("site_series");
  return provider;
}

/**
 * A page of the stations in a box, in station order after `after` (a station key, exclusive; null for the
 * first page), at most `limit` (1 to 1000), with flat properties, from the registry's site_series provider.
 */
export async function stationsPage(deps: DataDeps, page: { bbox: Bbox; after: string | null; limit: number }): Promise<FlatStationsPage> {
  const provider = defaultProvider(deps);
  if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > MAX_STATION_LIMIT) throw new ValidationError(`A page of stations holds 1 to ${MAX_STATION_LIMIT} stations; got ${page.limit}.`);
  if (page.after !== null && provider.stations.key.parse(page.after) === null) throw new ValidationError("The page's position is not a station key.");
  const cached = await deps.connected.ask(provider, provider.stations.inBox, { bbox: page.bbox, after: page.after, limit: page.limit });
  const readings = provider.stations.read(cached.answer);
  const more = readings.length > page.limit;
  const kept = more ? readings.slice(0, page.limit) : readings;
  const source = deps.connected.sourceOf(provider);
  const cache = describeCache(cached, deps.cacheTtlSeconds);
  return {
    features: kept.map(flat),
    nextAfter: more ? kept[kept.length - 1]!.properties.station_triplet : null,
    retrievedAt: provider.stations.retrievedAt(cached.answer, source, cached.storedAt),
    cache,
    warnings: [...provider.stations.warnings(source), ...sharedWarnings(source, cache)],
  };
}

/** One station with flat properties, or null when the provider has no such station (or the key is malformed). */
export async function stationFlat(deps: DataDeps, key: string): Promise<{ feature: FlatStationFeature; cache: CacheDescriptor; warnings: string[] } | null> {
  const provider = defaultProvider(deps);
  const station = provider.stations.key.parse(key);
  if (station === null) return null;
  const cached = await deps.connected.ask(provider, provider.stations.station, { station });
  const [reading] = provider.stations.read(cached.answer);
  if (!reading) return null;
  const source = deps.connected.sourceOf(provider);
  const cache = describeCache(cached, deps.cacheTtlSeconds);
  return { feature: flat(reading), cache, warnings: [...provider.stations.warnings(source), ...sharedWarnings(source, cache)] };
}

/**
 * The extent of every station: the box of their coordinates, the temporal extent (the first begin
 * date; the last end date, null while any station is active) and how many. Walks pages of 1,000.
 */
export async function stationsExtent(deps: DataDeps): Promise<{ bbox: Bbox | null; interval: [string | null, string | null]; count: number }> {
  let [minLon, minLat, maxLon, maxLat] = [Infinity, Infinity, -Infinity, -Infinity];
  let first: string | null = null;
  let last: string | null = null;
  let open = false;
  let count = 0;
  let after: string | null = null;
  do {
    const page: FlatStationsPage = await stationsPage(deps, { bbox: [-180, -90, 180, 90], after, limit: MAX_STATION_LIMIT });
    for (const { coordinates: [lon, lat], properties: p } of page.features) {
      [minLon, minLat, maxLon, maxLat] = [Math.min(minLon, lon), Math.min(minLat, lat), Math.max(maxLon, lon), Math.max(maxLat, lat)];
      if (p.begin_date !== null && (first === null || p.begin_date < first)) first = p.begin_date;
      if (p.end_date === null) open = true;
      else if (last === null || p.end_date > last) last = p.end_date;
      count += 1;
    }
    after = page.nextAfter;
  } while (after !== null);
  return { bbox: count === 0 ? null : [minLon, minLat, maxLon, maxLat], interval: [first, open ? null : last], count };
}
