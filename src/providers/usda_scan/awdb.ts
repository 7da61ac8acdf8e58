/**
 * The live transport of usda_scan (docs/decisions.md#usda-scan-live): the NRCS AWDB REST API at
 * SCAN_URL, `/stations` (metadata, with `stationElements` for one station's sensors) and `/data`
 * (hourly values in the station's standard time). Each form turns AWDB's JSON into the answers both
 * transports send (./records.ts), checking the shape it reads: an answer that is not what AWDB
 * documents is a 502 naming usda_scan; a timeout 504; nothing of a failure is cached (the cache stores
 * only what a form returns).
 */
import { UpstreamError } from "../../errors";
import { nearestByGeodesic } from "../../geometry/geodesic";
import { fetchCapped, hostOf, requestUrlOf } from "../../upstream/http";
import { formOf, Payload, type QueryKind, type SourceDescription, type Transport } from "../../upstream/transport";
import { remoteSource } from "../../upstream/public-url";
import type { StationSensor } from "../../domain/station";
import type { SitesBoxParams, StationKeyParams, SitesNearParams, StationSeriesParams } from "../provider";
import { SCAN_PROVIDER_ID, SOURCE_AWDB_LIVE } from "./catalog";
import { endDateOf, seriesPayload, type SeriesAnswer, type StationRecord } from "./records";

const SERVICE = "The NRCS AWDB REST API";
/**
 * A station list of every SCAN station is about 2 MB (its associatedHucs), a year of one sensor's hourly
 * values under 1 MB (Loam asks a month or a year at a time, docs/decisions.md#series-windows); far more is
 * not an AWDB answer. The cap also bounds what a gzip bomb inflates to (docs/decisions.md#decompression).
 */
export const AWDB_MAX_BYTES = 8 * 1024 * 1024;
/** SCAN has about 230 stations; a list of more than this is not SCAN's, and is refused before it is kept (issue 43). */
export const AWDB_MAX_STATIONS = 5000;
/** Station metadata change seldom; older values are kept 7 days, the last 30 days' an hour (provisional). */
export const OLD_VALUES_SECONDS = 7 * 24 * 3600;
export const PROVISIONAL_SECONDS = 3600;
export const PROVISIONAL_DAYS = 30;
/**
 * How long one download of every SCAN station (about 2 MB) answers every box and near query
 * (docs/decisions.md#usda-scan-live): the answers are cached per box or point, so without it each new
 * box downloaded the whole list again. A day lets a new or retired station show by the next day.
 */
export const STATIONS_SECONDS = 24 * 3600;

/** AWDB element codes of the served elements: the code, the served unit, and its stored unit. */
export const AWDB_ELEMENTS: Record<string, { code: string; unit: string }> = {
  soil_moisture: { code: "SMS", unit: "% vol" },
  soil_temperature: { code: "STO", unit: "°C" },
};
const ELEMENT_OF_CODE = new Map(Object.entries(AWDB_ELEMENTS).map(([element, e]) => [e.code, element]));

/** GET a path of the API with a query; the parsed JSON, or a typed error naming usda_scan. */
export type AwdbGet = (path: string, query: Record<string, string>) => Promise<unknown>;
/** What a form reads: any path of the API, and every active SCAN station (kept, see STATIONS_SECONDS). */
export interface Awdb {
  get: AwdbGet;
  scanStations(): Promise<readonly StationRecord[]>;
}
/** A query's form for this transport. */
export type AwdbForm<P> = (awdb: Awdb, params: P) => Promise<Payload>;

export interface AwdbOptions {
  url: string;
  timeoutMs: number;
  now?: () => number;
}

const refuse = (what: string) => new UpstreamError(`${SERVICE} answered in a shape Loam does not read (${what}).`, SCAN_PROVIDER_ID);

function awdbGetter(options: AwdbOptions): AwdbGet {
  return async (path, query) => {
    const url = requestUrlOf(options.url, Object.entries(query), path);
    // The shared exchange: redirects only within the configured origin, decompression under the cap (docs/decisions.md#redirects).
    const { status, bytes } = await fetchCapped(url, { headers: { accept: "application/json" } }, {
      timeoutMs: options.timeoutMs,
      maxBytes: AWDB_MAX_BYTES,
      service: SERVICE,
      configured: options.url,
      provider: SCAN_PROVIDER_ID,
      tooLarge: () => new UpstreamError(`${SERVICE} sent more than ${AWDB_MAX_BYTES} bytes.`, SCAN_PROVIDER_ID),
    });
    if (status < 200 || status > 299) throw new UpstreamError(`${SERVICE} (${hostOf(options.url)}) answered HTTP ${status} to ${path}.`, SCAN_PROVIDER_ID);
    try {
      return JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw new UpstreamError(`${SERVICE} (${hostOf(options.url)}) answered ${path} with a body that does not parse as JSON.`, SCAN_PROVIDER_ID);
    }
  };
}

// ---- the forms -----------------------------------------------------------------------------------

interface AwdbStation {
  stationTriplet: string;
  stationId?: string;
  stateCode?: string | null;
  networkCode?: string;
  name?: string | null;
  countyName?: string | null;
  huc?: string | null;
  elevation?: number | null;
  latitude: number;
  longitude: number;
  dataTimeZone?: number | null;
  beginDate?: string | null;
  endDate?: string | null;
  stationElements?: AwdbElement[];
}

interface AwdbElement {
  elementCode: string;
  ordinal?: number;
  heightDepth?: number | null;
  storedUnitCode?: string;
  beginDate?: string | null;
  endDate?: string | null;
}

const TRIPLET = /^[0-9A-Za-z]{1,12}:[A-Z]{2}:[A-Z]{2,6}$/;

function stationList(json: unknown): AwdbStation[] {
  if (!Array.isArray(json)) throw refuse("/stations did not answer a JSON array");
  if (json.length > AWDB_MAX_STATIONS) throw refuse(`/stations listed ${json.length} stations, more than ${AWDB_MAX_STATIONS} stations, which SCAN (about 230) never has`);
  return json.map((s: unknown, i) => {
    const st = s as Partial<AwdbStation> | null;
    if (!st || typeof st.stationTriplet !== "string" || !TRIPLET.test(st.stationTriplet) || typeof st.latitude !== "number" || typeof st.longitude !== "number") {
      throw refuse(`station ${i + 1} has no stationTriplet, latitude and longitude`);
    }
    return st as AwdbStation;
  });
}

/** Depth below the surface, cm, from AWDB's negative inches (-2 → 5.08). */
export const depthCmOf = (heightDepth: number) => Math.round(-heightDepth * 2.54 * 1000) / 1000;

function sensorsOf(elements: readonly AwdbElement[]): StationSensor[] {
  return elements.flatMap((e) => {
    const element = ELEMENT_OF_CODE.get(e.elementCode);
    if (!element || typeof e.heightDepth !== "number") return [];
    return [
      {
        element,
        source_element: e.elementCode,
        depth_cm: depthCmOf(e.heightDepth),
        ordinal: e.ordinal ?? 1,
        unit: AWDB_ELEMENTS[element]!.unit,
        source_unit: e.storedUnitCode ?? "",
        start: e.beginDate ?? null,
        end: endDateOf(e.endDate ?? null),
        instrument: null,
      },
    ];
  });
}

function record(s: AwdbStation): StationRecord {
  const [id, state, network] = s.stationTriplet.split(":") as [string, string, string];
  return {
    triplet: s.stationTriplet,
    station_id: s.stationId ?? id,
    name: s.name ?? null,
    network: s.networkCode ?? network,
    state: s.stateCode ?? state,
    county: s.countyName ?? null,
    huc: s.huc ?? null,
    elevation_ft: typeof s.elevation === "number" ? s.elevation : null,
    latitude: s.latitude,
    longitude: s.longitude,
    data_time_zone: typeof s.dataTimeZone === "number" ? s.dataTimeZone : null,
    begin_date: s.beginDate ? s.beginDate.slice(0, 10) : null,
    end_date: endDateOf(s.endDate ?? null),
    // AWDB's pedonCode is NASIS's, not KSSL's lab number: the lab pedon is known offline only.
    pedon_key: null,
    source: SOURCE_AWDB_LIVE,
    sensors: sensorsOf(s.stationElements ?? []),
    held: [],
    others: [],
    raw: s as unknown as Record<string, unknown>,
  };
}

const ALL_SCAN = { stationTriplets: "*:*:SCAN", activeOnly: "true", returnForecastPointMetadata: "false", returnReservoirMetadata: "false", returnStationElements: "false" };
const order = (a: StationRecord, b: StationRecord) => Number(a.station_id) - Number(b.station_id) || (a.triplet < b.triplet ? -1 : a.triplet > b.triplet ? 1 : 0);
const answerOf = (stations: StationRecord[]) => Payload.ofJson({ stations, retrieved_at: new Date().toISOString() });

export const awdbBox: AwdbForm<SitesBoxParams> = async (awdb, { bbox: [w, s, e, n], after, limit }) => {
  const afterId = after === null ? -1 : Number(after.split(":")[0]);
  const stations = (await awdb.scanStations())
    .filter((r) => r.longitude >= w && r.longitude <= e && r.latitude >= s && r.latitude <= n)
    .filter((r) => after === null || Number(r.station_id) > afterId || (Number(r.station_id) === afterId && r.triplet > after))
    .sort(order);
  return answerOf(stations.slice(0, limit + 1));
};

export const awdbNear: AwdbForm<SitesNearParams> = async (awdb, { latitude, longitude, limit }) => {
  const stations = await awdb.scanStations();
  const nearest = nearestByGeodesic(stations, latitude, longitude, limit, (r) => [r.latitude, r.longitude]);
  return answerOf(nearest.map(({ item, km }) => ({ ...item, distance_km: Math.round(km * 1000) / 1000 })));
};

export const awdbStation: AwdbForm<StationKeyParams> = async ({ get }, { station }) => {
  const stations = stationList(await get("/stations", { stationTriplets: station, activeOnly: "false", returnStationElements: "true" }));
  return answerOf(stations.filter((s) => s.stationTriplet === station).map(record));
};

/** An instant as AWDB's `YYYY-MM-DD HH:MM` on the station's standard-time clock. */
export function awdbDate(ms: number, utcOffsetHours: number): string {
  return new Date(ms + utcOffsetHours * 3600_000).toISOString().slice(0, 16).replace("T", " ");
}

/** AWDB's `YYYY-MM-DD HH:MM` on the station's clock as an instant (ms), or null when it is not one. */
function instantOf(date: unknown, utcOffsetHours: number): number | null {
  const m = typeof date === "string" ? /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}))?$/.exec(date) : null;
  if (!m) return null;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0)) - utcOffsetHours * 3600_000;
}

interface AwdbData {
  stationElement?: AwdbElement;
  values?: { date?: string; value?: number | null; qcFlag?: string; qaFlag?: string }[];
}

export const awdbSeries: AwdbForm<StationSeriesParams> = async ({ get }, p) => {
  const element = AWDB_ELEMENTS[p.element];
  if (!element) throw new UpstreamError(`AWDB has no element for '${p.element}'.`, SCAN_PROVIDER_ID);
  const heightDepth = -Math.round(p.depthCm / 2.54);
  const json = await get("/data", {
    stationTriplets: p.station,
    elements: `${element.code}:${heightDepth}`,
    duration: "HOURLY",
    beginDate: awdbDate(p.startMs, p.utcOffsetHours),
    endDate: awdbDate(p.endMs - 60_000, p.utcOffsetHours),
    periodRef: "END",
    returnFlags: "true",
  });
  if (!Array.isArray(json)) throw refuse("/data did not answer a JSON array");
  const data: AwdbData[] = [];
  for (const entry of json as { stationTriplet?: unknown; data?: unknown }[]) {
    if (!entry || typeof entry.stationTriplet !== "string") throw refuse("a /data entry has no stationTriplet");
    if (entry.stationTriplet !== p.station) continue;
    if (entry.data !== undefined && !Array.isArray(entry.data)) throw refuse("a /data entry's data is not an array");
    data.push(...((entry.data as AwdbData[] | undefined) ?? []));
  }
  // Several sensors of one element at one depth are told apart by ordinal (1 = primary).
  const atDepth = data.filter((d) => d.stationElement?.elementCode === element.code && d.stationElement.heightDepth === heightDepth);
  const chosen = atDepth.find((d) => (d.stationElement?.ordinal ?? 1) === p.ordinal);
  const values: [number, number, string][] = [];
  let notFinite = 0;
  for (const v of chosen?.values ?? []) {
    // A missing value stays a gap: no value, no row.
    if (v.value === null || v.value === undefined) continue;
    // 1e309 parses as Infinity, which the stored JSON would turn into null (docs/decisions.md#series-checks).
    if (typeof v.value !== "number" || !Number.isFinite(v.value)) {
      notFinite++;
      continue;
    }
    const t = instantOf(v.date, p.utcOffsetHours);
    if (t === null) throw refuse(`a value's date '${String(v.date).slice(0, 20)}' is not YYYY-MM-DD HH:MM`);
    if (t < p.startMs || t >= p.endMs) continue;
    values.push([t, v.value, [v.qcFlag, v.qaFlag].filter((f): f is string => typeof f === "string" && f !== "").join(" ")]);
  }
  const answer: SeriesAnswer = {
    origin: "awdb",
    source_unit: chosen?.stationElement?.storedUnitCode ?? (p.element === "soil_temperature" ? "degF" : "pct"),
    utc_offset_hours: p.utcOffsetHours,
    values,
    held: [],
    found: chosen !== undefined,
    other_ordinals: atDepth.map((d) => d.stationElement?.ordinal ?? 1).filter((o) => o !== p.ordinal),
    retrieved_at: new Date().toISOString(),
  };
  if (notFinite > 0) answer.not_finite = notFinite;
  return seriesPayload(answer);
};

/**
 * Every active SCAN station, downloaded once per STATIONS_SECONDS and shared by concurrent callers; a
 * failed download is not kept (the next query tries again), as the DS 801 file is kept
 * (docs/decisions.md#geochem-live).
 */
function keptScanStations(get: AwdbGet, now: () => number): () => Promise<readonly StationRecord[]> {
  let kept: { stations: readonly StationRecord[]; freshUntil: number } | null = null;
  let downloading: Promise<readonly StationRecord[]> | null = null;
  async function download(): Promise<readonly StationRecord[]> {
    const stations = stationList(await get("/stations", ALL_SCAN)).map(record);
    kept = { stations, freshUntil: now() + STATIONS_SECONDS * 1000 };
    return stations;
  }
  return async () => {
    if (kept && now() < kept.freshUntil) return kept.stations;
    downloading ??= download().finally(() => (downloading = null));
    return downloading;
  };
}

export function awdbTransport(options: AwdbOptions): Transport {
  const get = awdbGetter(options);
  const awdb: Awdb = { get, scanStations: keptScanStations(get, options.now ?? Date.now) };
  // Scheme, host and path only: never user info or a query (docs/decisions.md#url-secrets).
  const description: SourceDescription = remoteSource("awdb", options.url);
  return {
    kind: "awdb",
    ttlSeconds: OLD_VALUES_SECONDS,
    async fetch<P>(query: QueryKind<P, unknown>, params: P): Promise<Payload> {
      return formOf<AwdbForm<P>, P>(query, "awdb", "AWDB transport", SCAN_PROVIDER_ID)(awdb, params);
    },
    describe: () => description,
  };
}
