/**
 * GET /v1/stations/{station_triplet}/series for any site_series provider (docs/decisions.md#site-series):
 * the element, the nearest sensor depth and the interval checked against what the provider declares
 * (#series-interval), the range read in fixed windows (#series-windows), each window's values checked
 * (#series-checks), and the values served as reported or as daily means (derived).
 */
import { clip, ValidationError } from "../../errors";
import { cacheMetadata, describeCache, type CacheDescriptor, type DataAnswer, type DataDeps } from "../../answer";
import type { CachedAnswer } from "../../upstream/cache";
import type { SeriesPoint, StationReading } from "../../domain/station";
import type { SeriesInterval, StationProvider, StationSeriesParams, StationSeriesReading } from "../../providers/provider";
import { HOUR_MS } from "../../domain/time-range";
import { resolvePropertyId } from "../../catalog/properties";
import { VERSION } from "../../version";
import { checkedValues, checkWarnings, noProblems, type SeriesChecks } from "./checks";
import type { StationSeriesResponse } from "./model";
import { DAILY_MEAN_TRANSFORMATION, dailyMeans, rangeOf, seriesWindows, timeOn, waterYearOf, type DailyMean } from "./range";
import { sharedWarnings, stationAnswer } from "./service";

export interface SeriesRead {
  element: string;
  depth_cm: number;
  /** "native": the interval the provider's source reports at. */
  interval: "native" | "hourly" | "daily";
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

/** How far from a sensor depth an asked depth is read as that sensor's: half an inch (5 → 5.08, 50 → 50.8). */
const DEPTH_TOLERANCE_CM = 1.27;

/** The provider's sensor depth nearest the asked one (within half an inch, said in a warning when not exact); else a 422 naming them. */
export function seriesDepth(provider: StationProvider, depth: number): { depthCm: number; warning: string | null } {
  const nearest = [...provider.stations.depthsCm].sort((a, b) => Math.abs(a - depth) - Math.abs(b - depth))[0];
  if (nearest === undefined || Math.abs(nearest - depth) > DEPTH_TOLERANCE_CM) {
    const inches = provider.stations.depthsCm.map((d) => `${d} (${Math.round(d / 2.54)} in)`).join(", ");
    throw new ValidationError(`Query parameter 'depth_cm' must be one of ${provider.id}'s sensor depths ${inches} cm (or within ${DEPTH_TOLERANCE_CM} cm of one); got ${depth}.`, provider.id);
  }
  const warning = Math.abs(nearest - depth) < 0.01 ? null : `depth_cm=${depth} is read as the nearest sensor depth, ${nearest} cm (${Math.round(nearest / 2.54)} in); the answer's query says so.`;
  return { depthCm: nearest, warning };
}

/** The interval served: the one asked, else the source's own; a finer interval than the source reports is a 422. */
function seriesInterval(provider: StationProvider, asked: string): SeriesInterval {
  const native = provider.stations.nativeInterval;
  const interval = asked === "native" ? native : (asked as SeriesInterval);
  if (native === "daily" && interval === "hourly") throw new ValidationError(`Query parameter 'interval': ${provider.id} reports daily values; it has no hourly values to serve. Ask interval=daily.`, provider.id);
  return interval;
}

/** The cache account of an answer read from several windows: a hit only when every window was, as old as its oldest. */
function windowsCache(cached: readonly CachedAnswer<unknown>[], ttlSeconds: number): CacheDescriptor {
  const described = cached.map((c) => describeCache(c, ttlSeconds));
  const oldest = described.reduce((a, b) => (b.storedAt < a.storedAt ? b : a));
  return {
    ...oldest,
    digest: described.length === 1 ? oldest.digest : Bun.hash(described.map((d) => d.digest).join("|")).toString(36),
    hit: described.every((d) => d.hit),
    stale: described.some((d) => d.stale),
    staleBecause: described.find((d) => d.stale)?.staleBecause,
    ttlSeconds: Math.min(...described.map((d) => d.ttlSeconds)),
    upstreamMs: described.reduce((sum, d) => sum + d.upstreamMs, 0),
  };
}

interface WindowsRead {
  reading: StationSeriesReading;
  values: SeriesPoint[];
  days: DailyMean[];
  warnings: string[];
  cached: CachedAnswer<unknown>[];
  checks: SeriesChecks;
}

/** How many windows of one request are asked ahead of the one being read: upstream latency overlaps, memory stays a few windows. */
const WINDOWS_AHEAD = 2;

/**
 * The series read window by window (docs/decisions.md#series-windows), in order: each window is one
 * cache entry; its values are checked and kept (or, for daily means of a finer source, reduced to the
 * days) before the next is read, and at most WINDOWS_AHEAD more are asked meanwhile, so a 20-year request
 * holds a few windows' values at a time.
 */
async function readWindows(deps: DataDeps, provider: StationProvider, params: StationSeriesParams, windows: readonly { startMs: number; endMs: number }[], derive: boolean, now: number): Promise<WindowsRead> {
  const out: Omit<WindowsRead, "reading"> & { reading: StationSeriesReading | null } = { reading: null, values: [], days: [], warnings: [], cached: [], checks: noProblems() };
  const warnings = new Set<string>();
  const asked: Promise<CachedAnswer<unknown>>[] = [];
  const askNext = () => {
    const answer = deps.connected.ask(provider, provider.stations.series, { ...params, ...windows[asked.length]! });
    // Awaited in its turn; a failure of a window asked ahead is not left unhandled when an earlier one fails first.
    answer.catch(() => {});
    asked.push(answer);
  };
  let carried: SeriesPoint[] = [];
  for (let i = 0; i < windows.length; i++) {
    while (asked.length < Math.min(windows.length, i + 1 + WINDOWS_AHEAD)) askNext();
    const cached = await asked[i]!;
    const reading = provider.stations.readSeries(cached.answer, params, now);
    const values = checkedValues(reading.values, reading.unit, params.startMs, params.endMs, out.checks);
    out.checks.notFinite += reading.notFinite ?? 0;
    if (derive) {
      // A day of a clock other than the windows' may go on in the next window: its values wait for it.
      const all = carried.length > 0 ? [...carried, ...values] : values;
      const days = dailyMeans(all, reading.clock.utcOffsetHours);
      const last = days.at(-1);
      carried = last && i < windows.length - 1 ? all.filter((v) => v.t >= last.t) : [];
      out.days.push(...(carried.length > 0 ? days.slice(0, -1) : days));
    } else out.values.push(...values);
    for (const w of reading.warnings) warnings.add(w);
    out.cached.push(cached);
    out.reading ??= { ...reading, values: [] };
  }
  return { ...out, reading: out.reading!, warnings: [...warnings] };
}

export async function stationSeries(deps: DataDeps, provider: StationProvider, triplet: string, read: SeriesRead): Promise<DataAnswer<StationSeriesResponse>> {
  const element = seriesElement(provider, read.element);
  const { depthCm, warning: depthWarning } = seriesDepth(provider, read.depth_cm);
  const interval = seriesInterval(provider, read.interval);
  const derive = interval !== provider.stations.nativeInterval;
  const { reading: station, source } = await stationAnswer(deps, provider, triplet);
  const clock = provider.stations.seriesClock(source, station);
  const now = deps.now();
  const range = rangeOf(read.start, read.end, interval, clock, now);
  // The provider's contract takes the end exclusive: one millisecond after the range's last.
  const params: StationSeriesParams = { station: triplet, element, depthCm, ordinal: read.sensor, startMs: range.start, endMs: range.end + 1, utcOffsetHours: clock };
  const got = await readWindows(deps, provider, params, seriesWindows(range, interval, clock), derive, now);
  const cache = windowsCache(got.cached, deps.cacheTtlSeconds);
  const oldest = got.cached.reduce((a, b) => (b.storedAt < a.storedAt ? b : a));
  const sensor = station.sensors.find((s) => s.element === element && s.depth_cm !== null && Math.abs(s.depth_cm - depthCm) < 0.01 && s.ordinal === read.sensor) ?? null;
  return {
    key: `station-series|${provider.id}|${JSON.stringify(params)}|${interval}|${read.depth_cm}`,
    cache,
    body: () => {
      const { reading, values, days } = got;
      const offset = reading.clock.utcOffsetHours;
      const transformations = [...(reading.transformation ? [reading.transformation] : []), ...(derive ? [DAILY_MEAN_TRANSFORMATION] : [])];
      const served =
        interval === "hourly"
          ? values.map((v) => ({ time: timeOn(v.t, offset), value: v.value, unit: reading.unit, flags: v.flags }))
          : derive
            ? days.map((d) => ({ time: timeOn(d.t, offset), date: d.date, ...waterYearOf(d.date), value: d.mean, unit: reading.unit, count: d.count, min: d.min, max: d.max, flags: d.flags }))
            : values.map((v) => {
                const date = new Date(v.t + offset * HOUR_MS).toISOString().slice(0, 10);
                return { time: timeOn(v.t, offset), date, ...waterYearOf(date), value: v.value, unit: reading.unit, count: null, min: null, max: null, flags: v.flags };
              });
      const warnings = [...provider.stations.warnings(source), ...got.warnings, ...checkWarnings(got.checks, reading.unit, provider.id)];
      if (depthWarning) warnings.push(depthWarning);
      if (served.length === 0) warnings.push(emptyWarning(station, element, depthCm));
      if (derive) {
        warnings.push(
          `Daily values are derived (data_kind derived): the mean of each day's reported ${provider.stations.nativeInterval} values on ${reading.clock.name}, with their count; a day with no reported value has no item; flagged values are included, and each day lists every flag its values carry.`,
        );
      }
      warnings.push(...sharedWarnings(source, cache));
      return {
        api_version: VERSION,
        status: "experimental" as const,
        provider: provider.id,
        data_kind: derive ? ("derived" as const) : ("observed" as const),
        // `end` as sent back asks the same values: the range's last instant, inclusive.
        query: { station_triplet: triplet, element, depth_cm: depthCm, sensor: read.sensor, interval, start: timeOn(range.start, offset), end: timeOn(range.end, offset) },
        station: { station_triplet: triplet, name: station.properties.name, data_time_zone: station.properties.data_time_zone },
        sensor,
        clock: { utc_offset_hours: offset, name: reading.clock.name },
        unit: reading.unit,
        interval,
        native_interval: provider.stations.nativeInterval,
        flag_fields: reading.flagFields,
        transformations,
        values: served,
        source: provider.stations.source(source, provider.stations.retrievedAt(oldest.answer, source, oldest.storedAt), reading.citations),
        cache: cacheMetadata(cache, now),
        warnings,
      } as StationSeriesResponse;
    },
  };
}

/** The warning of a series with no value in the range: what the offline source holds of it, when it holds it. */
function emptyWarning(station: StationReading, element: string, depthCm: number): string {
  const held = station.properties.series_offline.find((h) => h.element === element && Math.abs(h.depth_cm - depthCm) < 0.01);
  const span = held ? `; the offline series runs from ${held.start ?? "?"} to ${held.end ?? "?"}, with gaps where values were not reported` : "";
  return `No value of ${element} at ${depthCm} cm in the range asked${span}.`;
}
