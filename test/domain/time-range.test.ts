/**
 * One TimeRange (src/domain/time-range.ts): the OGC `datetime` and a series' `start`/`end` are read by
 * their own rules into the same inclusive range, and share its intersection and containment. Expected
 * instants come from Date.UTC, not the readers.
 */
import { describe, expect, test } from "bun:test";
import { daysRange, intersects, spanDays } from "../../src/domain/time-range";
import { parseDatetime } from "../../src/domain/time-interval";
import { rangeOf } from "../../src/shapes/site_series/range";

const DAY = 86_400_000;

describe("TimeRange", () => {
  test("a day read as an OGC datetime and as a UTC series start/end is the same range", () => {
    const first = Date.UTC(2010, 6, 1);
    expect(parseDatetime("2010-07-01")).toEqual({ start: first, end: first + DAY - 1 });
    expect(rangeOf("2010-07-01", "2010-07-01", "hourly", 0, Date.UTC(2020, 0, 1))).toEqual({ start: first, end: first + DAY - 1 });
    expect(spanDays({ start: first, end: first + DAY - 1 })).toBe(1);
    // On a clock six hours behind UTC, the same day starts six hours later.
    expect(rangeOf("2010-07-01", "2010-07-01", "hourly", -6, 0)).toEqual({ start: first + 6 * 3_600_000, end: first + 6 * 3_600_000 + DAY - 1 });
  });

  test("ranges meet when they share an instant; open ends meet everything on their side", () => {
    const july = daysRange("2010-07-01", "2010-07-31");
    expect(intersects(july, { start: Date.UTC(2010, 6, 31, 23, 59, 59, 999), end: null })).toBe(true);
    expect(intersects(july, { start: Date.UTC(2010, 7, 1), end: null })).toBe(false);
    expect(intersects(july, { start: null, end: Date.UTC(2010, 6, 1) })).toBe(true);
    expect(intersects(july, { start: null, end: Date.UTC(2010, 6, 1) - 1 })).toBe(false);
    expect(intersects(daysRange("2001-01-01", null), { start: Date.UTC(2030, 0, 1), end: Date.UTC(2030, 0, 2) })).toBe(true);
  });

  test("series start/end keep their own rules and words", () => {
    expect(() => rangeOf("2010-07-02", "2010-07-01", "hourly", 0, 0)).toThrow("must come before 'end'");
    expect(() => rangeOf("2010-02-30", "", "hourly", 0, 0)).toThrow("Query parameter 'start' must be a date YYYY-MM-DD");
    expect(() => parseDatetime("2010-02-30")).toThrow("Query parameter 'datetime' is not an RFC 3339 date-time or date");
  });
});
