/**
 * A time range as the domain knows it (docs/decisions.md#time-range): instants in milliseconds since
 * the epoch (UTC), both ends inclusive, an end null when it is open. The OGC `datetime` filter
 * (./time-interval.ts), a series' `start`/`end` (src/shapes/site_series/range.ts) and a station's
 * operating period are each read into one by their own rules, and share the arithmetic here.
 */

/** Inclusive bounds in milliseconds since the epoch (UTC); null is open. */
export interface TimeRange {
  start: number | null;
  end: number | null;
}

/** A range with both ends known. */
export interface ClosedTimeRange {
  start: number;
  end: number;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The UTC midnight of a calendar date, or null when the date does not exist (2009-02-30). */
export function utcDayStart(y: number, m: number, d: number): number | null {
  const ms = Date.UTC(y, m - 1, d);
  const back = new Date(ms);
  return back.getUTCFullYear() === y && back.getUTCMonth() === m - 1 && back.getUTCDate() === d ? ms : null;
}

/** Do the two ranges share an instant? An open end meets everything on its side. */
export function intersects(a: TimeRange, b: TimeRange): boolean {
  return (a.start === null || b.end === null || a.start <= b.end) && (b.start === null || a.end === null || b.start <= a.end);
}

/** The length of a closed range in days (both ends inclusive: a whole day is 1). */
export function spanDays(range: ClosedTimeRange): number {
  return (range.end + 1 - range.start) / DAY_MS;
}

/** Whole UTC days as a range: from the first day's first millisecond to the last day's last (null: open). Days are YYYY-MM-DD. */
export function daysRange(first: string | null, last: string | null): TimeRange {
  const at = (day: string) => Date.parse(`${day.slice(0, 10)}T00:00:00Z`);
  return { start: first === null ? null : at(first), end: last === null ? null : at(last) + DAY_MS - 1 };
}

/** The UTC days a range meets, first and last inclusive (null: open): a day meets it when any of its milliseconds does. */
export function daysOf(range: TimeRange): { first: string | null; last: string | null } {
  const day = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().slice(0, 10));
  return { first: day(range.start), last: day(range.end) };
}

/** The range in one spelling (for cursor bindings and cache keys): ISO instants or `..`. */
export function rangeText(range: TimeRange): string {
  const at = (ms: number | null) => (ms === null ? ".." : new Date(ms).toISOString());
  return `${at(range.start)}/${at(range.end)}`;
}
