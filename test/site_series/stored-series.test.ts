/**
 * usda_scan's series answers as the cache stores them (docs/decisions.md#series-windows): times as
 * minute steps, values as a column, flags as runs. Read back they are the same answer, value for value,
 * in the order sent (out-of-order times included: the shape orders them), and a year of 2092's hours
 * stores in about a third of its triples' bytes.
 */
import { describe, expect, test } from "bun:test";
import { decodeSeries, seriesPayload, type SeriesAnswer } from "../../src/providers/usda_scan/records";
import { ismn } from "./reference";

const answerOf = (values: [number, number, string][]): SeriesAnswer => ({
  origin: "awdb",
  source_unit: "pct",
  utc_offset_hours: -6,
  values,
  held: [],
  found: true,
  other_ordinals: [],
  retrieved_at: "2026-11-28T00:00:00.000Z",
});

const roundTrip = (answer: SeriesAnswer) => decodeSeries(JSON.parse(seriesPayload(answer).text()));

describe("a stored series", () => {
  test("a year of 2092's real hours reads back the same, in about a third of the bytes", () => {
    const year = ismn("Abrams").lines.filter((l) => l.time.startsWith("2010")).map((l): [number, number, string] => [Date.parse(l.time), Math.round(l.raw * 10000) / 100, l.flags.join(" ")]);
    expect(year.length).toBeGreaterThan(8000);
    const answer = answerOf(year);
    expect(roundTrip(answer)).toEqual(answer);
    expect(seriesPayload(answer).text().length).toBeLessThan(JSON.stringify(answer).length / 2.5);
  });

  test("times out of order and repeated, and no values at all, read back as sent", () => {
    const hour = Date.UTC(2010, 6, 1);
    const odd = answerOf([[hour + 3600_000, 8.9, "V"], [hour, 8.8, "V"], [hour, 8.8, ""], [hour + 7200_000, 9, "S"]]);
    expect(roundTrip(odd)).toEqual(odd);
    expect(roundTrip(answerOf([]))).toEqual(answerOf([]));
    // Off the minute: stored as triples, read back the same.
    const seconds = answerOf([[hour + 1500, 8.9, ""]]);
    expect(roundTrip(seconds)).toEqual(seconds);
  });

  test("a stored answer whose columns disagree is refused, not read short", () => {
    const stored = JSON.parse(seriesPayload(answerOf([[Date.UTC(2010, 0, 1), 8.9, "V"]])).text());
    stored.readings.push(9.1);
    expect(() => decodeSeries(stored)).toThrow("do not agree");
  });
});
