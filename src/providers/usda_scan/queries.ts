/**
 * The logical queries of usda_scan, each with its two forms: `snapshot` (./snapshot.ts readers) and
 * `awdb` (./awdb.ts, the live API). Both send the JSON of ./records.ts, read by one decoder.
 */
import type { QueryKind } from "../../upstream/transport";
import type { SitesBoxParams, StationKeyParams, SitesNearParams, StationSeriesParams } from "../provider";
import { awdbBox, awdbNear, awdbSeries, awdbStation, OLD_VALUES_SECONDS, PROVISIONAL_DAYS, PROVISIONAL_SECONDS } from "./awdb";
import { decodeSeries, decodeStations, type SeriesAnswer, type StationsAnswer } from "./records";
import { snapshotScan } from "./snapshot";
import { SCAN_PROVIDER_ID } from "./catalog";

/**
 * In a national mirror the file holding the stations answers (docs/decisions.md#national-mirror): the
 * import writes them as one dataset (`usda_scan:scan`), which a mirror holds in one file only, so no
 * answers are merged.
 */
const OFFLINE = { datasets: SCAN_PROVIDER_ID } as const;

const rawStations = (answer: StationsAnswer) => ({ stations: answer.stations.map((s) => s.raw) });
/** Station metadata change seldom: a day. */
const STATIONS_SECONDS = 24 * 3600;

export const STATIONS_IN_BOX: QueryKind<SitesBoxParams, StationsAnswer> = {
  kind: "stations-in-box",
  columns: [],
  key: (p) => `${p.bbox.join(",")}|${p.after ?? ""}|${p.limit}`,
  forms: { snapshot: { prepare: (file) => snapshotScan(file.db).box, ...OFFLINE, reach: (p) => p.bbox }, awdb: awdbBox },
  decode: (payload) => decodeStations(payload.json()),
  raw: rawStations,
  ttlSeconds: () => STATIONS_SECONDS,
};

export const NEAREST_STATIONS: QueryKind<SitesNearParams, StationsAnswer> = {
  kind: "nearest-stations",
  columns: [],
  key: (p) => `${p.latitude},${p.longitude}|${p.limit}`,
  forms: { snapshot: { prepare: (file) => snapshotScan(file.db).near, ...OFFLINE }, awdb: awdbNear },
  decode: (payload) => decodeStations(payload.json()),
  raw: rawStations,
  ttlSeconds: () => STATIONS_SECONDS,
};

export const ONE_STATION: QueryKind<StationKeyParams, StationsAnswer> = {
  kind: "station",
  columns: [],
  key: (p) => p.station,
  forms: { snapshot: { prepare: (file) => snapshotScan(file.db).one, ...OFFLINE }, awdb: awdbStation },
  decode: (payload) => decodeStations(payload.json()),
  raw: rawStations,
  ttlSeconds: () => STATIONS_SECONDS,
};

/** Whether a range reaches into the last PROVISIONAL_DAYS days (its values may still change). */
export const reachesProvisional = (endMs: number, now: number) => endMs > now - PROVISIONAL_DAYS * 24 * 3600_000;

export const STATION_SERIES: QueryKind<StationSeriesParams, SeriesAnswer> = {
  kind: "station-series",
  columns: [],
  key: (p) => `${p.station}|${p.element}|${p.depthCm}|${p.ordinal}|${p.startMs}|${p.endMs}|${p.utcOffsetHours}`,
  forms: { snapshot: { prepare: (file) => snapshotScan(file.db).series, ...OFFLINE }, awdb: awdbSeries },
  decode: (payload) => decodeSeries(payload.json()),
  raw: (answer) => ({ ...answer }),
  // Provisional values are kept an hour, older ones 7 days (docs/decisions.md#usda-scan-live).
  ttlSeconds: (p, now) => (reachesProvisional(p.endMs, now) ? PROVISIONAL_SECONDS : OLD_VALUES_SECONDS),
};
