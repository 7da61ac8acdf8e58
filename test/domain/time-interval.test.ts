/**
 * The OGC `datetime` as src/domain/time-interval.ts reads it (docs/decisions.md#ogc-api-features): a
 * date is its whole UTC day, a date-time its instant (offsets honoured), open ends are open, and each
 * bad form is refused naming the parameter. Expected instants come from Date.UTC, not the parser.
 */
import { describe, expect, test } from "bun:test";
import { parseDatetime } from "../../src/domain/time-interval";
import { daysOf, rangeText } from "../../src/domain/time-range";

const DAY = 86_400_000;

describe("parseDatetime", () => {
  test("a date is its whole UTC day; a date-time with an offset its instant; fractions to the millisecond", () => {
    expect(parseDatetime("2008-06-16")).toEqual({ start: Date.UTC(2008, 5, 16), end: Date.UTC(2008, 5, 16) + DAY - 1 });
    const at = Date.UTC(2008, 5, 17, 4, 30);
    expect(parseDatetime("2008-06-16T23:30:00-05:00")).toEqual({ start: at, end: at });
    // A '+' the client did not encode arrives as a space.
    expect(parseDatetime("2008-06-17T06:30:00 02:00")).toEqual({ start: at, end: at });
    expect(parseDatetime("2008-06-17T04:30:00.123456Z")).toEqual({ start: at + 123, end: at + 123 });
    expect(parseDatetime("")).toBeNull();
  });

  test("open and closed intervals; the days they meet", () => {
    const open = parseDatetime("../2007-12-31")!;
    expect(open).toEqual({ start: null, end: Date.UTC(2008, 0, 1) - 1 });
    expect(parseDatetime("2010-01-01/")).toEqual({ start: Date.UTC(2010, 0, 1), end: null });
    expect(daysOf(parseDatetime("2008-06-16T12:00:00Z/2008-06-18T00:00:00Z")!)).toEqual({ first: "2008-06-16", last: "2008-06-18" });
    expect(rangeText(open)).toBe("../2007-12-31T23:59:59.999Z");
  });

  test("not an instant or interval: a 422 naming datetime (400 on /ogc)", () => {
    for (const bad of ["2008", "2008-6-16", "2009-02-29", "2008-06-16T24:00:00Z", "2008-06-16T12:00:60Z", "2008-06-16T12:00Z", "../..", "/", "..", "2008-02-01/2008-01-31"]) {
      expect(() => parseDatetime(bad)).toThrow(/'datetime'/);
    }
  });
});
