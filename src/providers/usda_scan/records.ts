/**
 * The answers of usda_scan's queries, as both transports send them (the snapshot's readers and the
 * AWDB reader build the same JSON), their decoders, and how a station answer reads as the shape's
 * StationReading (docs/decisions.md#usda-scan).
 */
import { UpstreamError } from "../../errors";
import { Payload } from "../../upstream/transport";
import type { SourceDisagreement, StationReading, StationSensor, StationSeriesHeld } from "../../domain/station";
import { SCAN_PROVIDER_ID } from "./catalog";

/** Another source's account of a station, kept to name where the sources disagree. */
export interface OtherAccount {
  source: string;
  elevation_ft?: number;
  elevation_m?: number;
  latitude?: number;
  longitude?: number;
  begin_date?: string;
  /** Hours from UTC (the inventory's positive-west gmt_offset turned around). */
  utc_offset?: number;
  /** The decimals the source writes its coordinates with (the inventory's 30.30 is 2, though 30.30 reads back as 30.3). */
  coordinate_decimals?: number;
}

/** One station as the answers carry it. */
export interface StationRecord {
  triplet: string;
  station_id: string;
  name: string | null;
  network: string;
  state: string | null;
  county: string | null;
  huc: string | null;
  elevation_ft: number | null;
  latitude: number;
  longitude: number;
  data_time_zone: number | null;
  begin_date: string | null;
  end_date: string | null;
  /** The KSSL pedon (pedlabsampnum), when known. */
  pedon_key: string | null;
  /** Which source the served metadata come from. */
  source: string;
  sensors: StationSensor[];
  held: StationSeriesHeld[];
  others: OtherAccount[];
  /** The station as the source wrote it (the CSV row, or AWDB's station object). */
  raw: Record<string, unknown>;
  distance_km?: number;
}

export interface StationsAnswer {
  stations: StationRecord[];
  /** When the data were read (the snapshot build, or the live answer). */
  retrieved_at: string;
}

/** One series answer: the values as the source has them (its unit), on its clock. */
export interface SeriesAnswer {
  /** "ismn" (the snapshot's ISMN files, UTC) or "awdb" (the station's standard time). */
  origin: "ismn" | "awdb";
  source_unit: string;
  /** The clock of the times: hours from UTC. */
  utc_offset_hours: number;
  /** [ms since epoch, value in source_unit, flags as reported (space-separated)] */
  values: [number, number, string][];
  /** What the source holds: the snapshot's series (for the warning when this one has no values). */
  held: (StationSeriesHeld & { station_triplet: string })[];
  /** Whether the source has this series at all (a station, element and depth it reports). */
  found: boolean;
  /** Other sensors of the element at this depth (by ordinal). */
  other_ordinals: number[];
  /** Values the source sent that are not finite numbers (1e309), dropped at the edge: JSON cannot carry them. */
  not_finite?: number;
  retrieved_at: string;
}

const fail = (what: string) => new UpstreamError(`The usda_scan answer is not what it should be: ${what}.`, SCAN_PROVIDER_ID);

export function decodeStations(json: unknown): StationsAnswer {
  const answer = json as Partial<StationsAnswer> | null;
  if (!answer || !Array.isArray(answer.stations) || typeof answer.retrieved_at !== "string") throw fail("no station list");
  return answer as StationsAnswer;
}

/**
 * A series answer as both transports send it and the cache stores it: times as steps in minutes from the
 * value before, values as a column, flags as runs of the same flags, so a year of hours is about a third
 * of its triples' bytes (docs/decisions.md#series-windows). Times off the minute keep the triples.
 */
interface StoredSeries extends Omit<SeriesAnswer, "values"> {
  /** ms of the first value (0 when there is none). */
  start: number;
  steps: number[];
  readings: number[];
  flag_runs: [number, string][];
}

export function seriesPayload(answer: SeriesAnswer): Payload {
  const { values, ...rest } = answer;
  if (values.some(([t]) => t % 60_000 !== 0)) return Payload.ofJson(answer);
  const flagRuns: [number, string][] = [];
  for (const [, , flags] of values) {
    const last = flagRuns[flagRuns.length - 1];
    if (last && last[1] === flags) last[0]++;
    else flagRuns.push([1, flags]);
  }
  const stored: StoredSeries = {
    ...rest,
    start: values[0]?.[0] ?? 0,
    steps: values.map(([t], i) => (i === 0 ? 0 : (t - values[i - 1]![0]) / 60_000)),
    readings: values.map(([, value]) => value),
    flag_runs: flagRuns,
  };
  return Payload.ofJson(stored);
}

/** The values of a stored series, as triples; null when its columns do not agree. */
function expanded(stored: StoredSeries): [number, number, string][] | null {
  const { start, steps, readings, flag_runs } = stored;
  if (steps.length !== readings.length || flag_runs.reduce((n, [count]) => n + count, 0) !== readings.length) return null;
  const values: [number, number, string][] = [];
  let t = start;
  for (const [count, flags] of flag_runs) {
    for (let k = 0; k < count; k++) {
      const i = values.length;
      t += steps[i]! * 60_000;
      values.push([t, readings[i]!, flags]);
    }
  }
  return values;
}

export function decodeSeries(json: unknown): SeriesAnswer {
  const answer = json as Partial<SeriesAnswer & StoredSeries> | null;
  if (!answer || typeof answer.source_unit !== "string") throw fail("no values list");
  if (Array.isArray(answer.values)) return answer as SeriesAnswer;
  if (typeof answer.start !== "number" || !Array.isArray(answer.steps) || !Array.isArray(answer.readings) || !Array.isArray(answer.flag_runs)) throw fail("no values list");
  const values = expanded(answer as StoredSeries);
  if (values === null) throw fail("its times, values and flags do not agree");
  const { start: _start, steps: _steps, readings: _readings, flag_runs: _runs, ...rest } = answer as StoredSeries;
  return { ...rest, values };
}

const FT_PER_M = 1 / 0.3048;

/** Where the other sources differ from the served metadata (a difference within the coarser source's rounding is none). */
export function disagreements(record: StationRecord): SourceDisagreement[] {
  const out: SourceDisagreement[] = [];
  const served = (value: number | string, unit: string | null) => ({ source: record.source, value, unit });
  if (record.elevation_ft !== null) {
    const others = record.others.flatMap((o) => {
      if (o.elevation_ft !== undefined && Math.abs(o.elevation_ft - record.elevation_ft!) >= 1) return [{ source: o.source, value: o.elevation_ft, unit: "ft" }];
      if (o.elevation_m !== undefined && Math.abs(o.elevation_m * FT_PER_M - record.elevation_ft!) >= 1) return [{ source: o.source, value: o.elevation_m, unit: "m" }];
      return [];
    });
    if (others.length > 0) {
      const words = others.map((o) => (o.unit === "m" ? `${o.value} m (${Math.round(o.value * FT_PER_M)} ft) in the ${o.source}` : `${o.value} ft in the ${o.source}`));
      out.push({ field: "elevation", served: served(record.elevation_ft, "ft"), others, note: `Served: ${record.elevation_ft} ft from the ${record.source}; the sources differ: ${words.join("; ")}.` });
    }
  }
  for (const field of ["latitude", "longitude"] as const) {
    const mine = record[field];
    const others = record.others.flatMap((o) => {
      const theirs = o[field];
      if (theirs === undefined) return [];
      // A value given to d decimals agrees with any value that rounds to it (d as the source writes it: 30.30 is two).
      const decimals = o.coordinate_decimals ?? (String(theirs).split(".")[1] ?? "").length;
      return Math.abs(theirs - mine) > 0.5 * 10 ** -decimals + 1e-9 ? [{ source: o.source, value: theirs, unit: "degrees" }] : [];
    });
    if (others.length > 0) out.push({ field, served: served(mine, "degrees"), others, note: `Served: ${mine} from the ${record.source}; the sources differ beyond their rounding.` });
  }
  if (record.begin_date !== null) {
    const begin = record.begin_date;
    const others = record.others.flatMap((o) => (o.begin_date !== undefined && o.begin_date !== begin ? [{ source: o.source, value: o.begin_date, unit: null }] : []));
    if (others.length > 0) out.push({ field: "begin_date", served: served(begin, null), others, note: `Served: ${begin} from the ${record.source}; the sources differ.` });
  }
  if (record.data_time_zone !== null) {
    const others = record.others.flatMap((o) => (o.utc_offset !== undefined && o.utc_offset !== record.data_time_zone ? [{ source: o.source, value: o.utc_offset, unit: "hours from UTC" }] : []));
    if (others.length > 0) out.push({ field: "data_time_zone", served: served(record.data_time_zone, "hours from UTC"), others, note: `Served: ${record.data_time_zone} from the ${record.source}; the sources differ.` });
  }
  return out;
}

export function reading(record: StationRecord): StationReading {
  const r: StationReading = {
    latitude: record.latitude,
    longitude: record.longitude,
    properties: {
      station_triplet: record.triplet,
      station_id: record.station_id,
      name: record.name,
      network: record.network,
      state: record.state,
      county: record.county,
      elevation_m: record.elevation_ft === null ? null : Math.round(record.elevation_ft * 0.3048 * 10) / 10,
      elevation_ft: record.elevation_ft,
      data_time_zone: record.data_time_zone,
      begin_date: record.begin_date,
      end_date: record.end_date,
      huc: record.huc,
      pedon_key: record.pedon_key,
      series_offline: record.held,
    },
    sensors: record.sensors,
    disagreements: disagreements(record),
  };
  if (record.distance_km !== undefined) r.distanceKm = record.distance_km;
  return r;
}

/** AWDB writes 2100-01-01 for a station still active. */
export const endDateOf = (raw: string | null): string | null => (raw === null || raw.startsWith("2100-01-01") ? null : raw.slice(0, 10));
