/**
 * A series request's time range and its values on the series' clock (docs/decisions.md#site-series):
 * reading `start`/`end`, the per-request limits, times written as ISO 8601 with the clock's offset, and
 * the daily means (derived, with their hour counts). Gaps stay gaps: nothing is filled in.
 */
import { clip, ValidationError } from "../../errors";
import { decimalsOf, roundToDecimals } from "../../domain/precision";
import type { SeriesInterval } from "../../providers/provider";
import type { SeriesPoint } from "../../domain/station";
import { DAY_MS as DAY, HOUR_MS as HOUR, spanDays, utcDayStart, type ClosedTimeRange } from "../../domain/time-range";
import { MAX_DAILY_DAYS, MAX_HOURLY_DAYS } from "./model";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:\d{2})?$/;

function validDay(y: number, m: number, d: number): boolean {
  return utcDayStart(y, m, d) !== null && y >= 1900 && y <= 2200;
}

/**
 * An instant of `start` or `end`: a bare date is midnight on the series' clock (for `end`, the next
 * midnight: the whole day is in); a date-time without an offset is on that clock; with Z or an offset,
 * that instant. Both ends are inclusive (a TimeRange, src/domain/time-range.ts): a bare `end` date is its day's last millisecond.
 */
export function instantOf(raw: string, name: "start" | "end", utcOffsetHours: number): number {
  const fail = () => new ValidationError(`Query parameter '${name}' must be a date YYYY-MM-DD or an ISO 8601 date-time such as 2010-07-01T06:00Z; got '${clip(raw)}'.`);
  const day = DATE.exec(raw);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    if (!validDay(y, m, d)) throw fail();
    return Date.UTC(y, m - 1, d) - utcOffsetHours * HOUR + (name === "end" ? DAY - 1 : 0);
  }
  const at = DATE_TIME.exec(raw);
  if (!at) throw fail();
  const [y, m, d, hh, mm, ss] = [1, 2, 3, 4, 5, 6].map((i) => Number(at[i] ?? 0)) as [number, number, number, number, number, number];
  if (!validDay(y, m, d) || hh > 23 || mm > 59 || ss > 59) throw fail();
  const zone = at[7];
  const offsetMinutes = zone === undefined ? utcOffsetHours * 60 : zone === "Z" ? 0 : (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  return Date.UTC(y, m - 1, d, hh, mm, ss) - offsetMinutes * 60_000;
}

/** The range asked for (defaults: the last 7 days hourly, 365 daily, up to now on the hour), checked against the limits. */
export function rangeOf(start: string, end: string, interval: "hourly" | "daily", utcOffsetHours: number, now: number): ClosedTimeRange {
  const last = end === "" ? Math.floor(now / HOUR) * HOUR : instantOf(end, "end", utcOffsetHours);
  const first = start === "" ? last - (interval === "hourly" ? 7 : 365) * DAY : instantOf(start, "start", utcOffsetHours);
  if (first > last) throw new ValidationError(`Query parameter 'start' (${clip(start)}) must come before 'end' (${clip(end || "now")}).`);
  const range = { start: first, end: last };
  const days = spanDays(range);
  if (interval === "hourly" && days > MAX_HOURLY_DAYS + 1e-9) {
    throw new ValidationError(`At most one year (${MAX_HOURLY_DAYS} days) of hourly values per request; the range asked spans ${Math.ceil(days)} days. Ask for interval=daily, or a shorter range.`);
  }
  if (interval === "daily" && days > MAX_DAILY_DAYS + 1e-9) {
    throw new ValidationError(`At most 20 years (${MAX_DAILY_DAYS} days) of daily values per request; the range asked spans ${Math.ceil(days)} days. Ask for a shorter range.`);
  }
  return range;
}

const pad = (n: number) => String(Math.abs(n)).padStart(2, "0");

/** An instant written in ISO 8601 on a clock `utcOffsetHours` from UTC: `...Z` for UTC, else `...-06:00`. */
export function timeOn(ms: number, utcOffsetHours: number): string {
  const local = new Date(ms + utcOffsetHours * HOUR).toISOString().slice(0, 19);
  if (utcOffsetHours === 0) return `${local}Z`;
  const minutes = Math.round(Math.abs(utcOffsetHours) * 60);
  return `${local}${utcOffsetHours < 0 ? "-" : "+"}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

export interface DailyMean {
  /** The day's first instant (ms). */
  t: number;
  date: string;
  mean: number;
  count: number;
  min: number;
  max: number;
  /** Every flag the day's hours carry, each once, as reported (sorted). */
  flags: string[];
}

/**
 * Per day of the clock, the mean of the hourly values it has (at the readings' own decimals), their
 * count, min, max and every flag they carry; a day with none has no item. `values` in time order.
 */
export function dailyMeans(values: readonly SeriesPoint[], utcOffsetHours: number): DailyMean[] {
  const out: DailyMean[] = [];
  const shift = utcOffsetHours * HOUR;
  let day = NaN;
  let sum = 0;
  let count = 0;
  let min = Infinity;
  let max = -Infinity;
  let decimals = 0;
  let flags = new Set<string>();
  const close = () => {
    if (count === 0) return;
    const t = day * DAY - shift;
    out.push({ t, date: new Date(day * DAY).toISOString().slice(0, 10), mean: roundToDecimals(sum / count, decimals), count, min, max, flags: [...flags].sort() });
  };
  for (const v of values) {
    const d = Math.floor((v.t + shift) / DAY);
    if (d !== day) {
      close();
      [day, sum, count, min, max, decimals, flags] = [d, 0, 0, Infinity, -Infinity, 0, new Set()];
    }
    sum += v.value;
    count += 1;
    if (v.value < min) min = v.value;
    if (v.value > max) max = v.value;
    decimals = Math.max(decimals, decimalsOf(v.value));
    for (const f of v.flags) flags.add(f);
  }
  close();
  return out;
}

/**
 * The US water year of a day (water year N runs from October 1 of N-1 to September 30 of N) and the day's
 * place in it (October 1 is 1), as NRCS and soilDB's fetchSCAN count them.
 */
export function waterYearOf(date: string): { water_year: number; water_day: number } {
  const [y, m] = [Number(date.slice(0, 4)), Number(date.slice(5, 7))];
  const waterYear = m >= 10 ? y + 1 : y;
  const water_day = Math.round((Date.parse(`${date}T00:00:00Z`) - Date.UTC(waterYear - 1, 9, 1)) / DAY) + 1;
  return { water_year: waterYear, water_day };
}

/** The daily mean as a transformation (derived values say how they were made). */
export const DAILY_MEAN_TRANSFORMATION = {
  operation: "daily_mean_of_hourly_values",
  from_unit: "hourly values",
  to_unit: "daily mean",
  formula:
    "value = mean of the day's reported hourly values (count says how many; no missing hour is filled in), rounded to the decimals the readings are written with; min and max are the day's lowest and highest hourly values; flags are every flag the day's hours carry (flagged hours are included in the mean)",
};

/**
 * The fixed windows a range is read in (docs/decisions.md#series-windows): calendar months of the
 * series' clock for hourly values, calendar years for daily ones. A window is one cache entry, the same
 * for every range that meets it, so a shifted range reuses what an earlier one read, and no request
 * holds more than one window's values at a time. Each `end` is exclusive.
 */
export function seriesWindows(range: ClosedTimeRange, interval: SeriesInterval, utcOffsetHours: number): { startMs: number; endMs: number }[] {
  const shift = utcOffsetHours * HOUR;
  const first = new Date(range.start + shift);
  let [year, month] = [first.getUTCFullYear(), interval === "hourly" ? first.getUTCMonth() : 0];
  const windows: { startMs: number; endMs: number }[] = [];
  for (;;) {
    const startMs = Date.UTC(year, month, 1) - shift;
    if (startMs > range.end) return windows;
    [year, month] = interval === "hourly" ? (month === 11 ? [year + 1, 0] : [year, month + 1]) : [year + 1, 0];
    windows.push({ startMs, endMs: Date.UTC(year, month, 1) - shift });
  }
}
