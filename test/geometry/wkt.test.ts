/**
 * The one WKT reader and writer (src/geometry/wkt.ts): SQL Server's answers and a user's polygon are read
 * by the same reader under their own rules, and what the writer writes reads back to the same numbers.
 */
import { describe, expect, test } from "bun:test";
import { readPlainPolygon, readPolygonalWkt, readWkt, WktError, writeWkt } from "../../src/geometry/wkt";

const SQUARE = "POLYGON ((-94.36 41.94, -94.35 41.94, -94.35 41.95, -94.36 41.95, -94.36 41.94))";

function refusal(read: () => unknown): WktError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(WktError);
    return error as WktError;
  }
  throw new Error("read without a refusal");
}

describe("one reader, two sets of rules", () => {
  test("what the writer writes reads back to the same numbers, by both rules (shortest round-trip decimals)", () => {
    const polygons = [[[[-94.123456789012, 41.1], [1e-7, 41.2], [-94.3, 1e21], [-94.123456789012, 41.1]]]];
    const text = writeWkt(polygons);
    expect(readWkt(text)).toEqual(polygons);
    expect(readPlainPolygon(text)).toEqual(polygons[0]!);
    expect(readWkt(writeWkt([...polygons, ...polygons]))).toEqual([...polygons, ...polygons]);
  });

  test("SQL Server's answers: Z and M dropped, EMPTY is none, lines and points of a cut left out", () => {
    expect(readWkt("POLYGON ZM ((0 0 1 2, 1 0 1 2, 1 1 1 2, 0 0 1 2))")).toEqual([[[[0, 0], [1, 0], [1, 1], [0, 0]]]]);
    expect(readWkt("MULTIPOLYGON EMPTY")).toEqual([]);
    expect(readPolygonalWkt(`GEOMETRYCOLLECTION (${SQUARE}, LINESTRING (0 0, 1 1), POINT (0 0))`)).toEqual(readWkt(SQUARE));
    expect(refusal(() => readWkt("POLYGON ((0 0, 1 0, 0 0))")).what).toBe("a ring needs at least four points");
    expect(refusal(() => readPolygonalWkt("CIRCULARSTRING (0 0, 1 1, 2 0)")).detail.type).toBe("CIRCULARSTRING");
  });

  test("a user's polygon: exactly 'x y' a position, no Z, M or EMPTY, another type named, a bad position named by ring and place", () => {
    expect(readPlainPolygon("POLYGON((0 0,1 0,1 1,0 0),(0.2 0.2, 0.3 0.2, 0.3 0.3, 0.2 0.2))")).toHaveLength(2);
    expect(refusal(() => readPlainPolygon("MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)))"))).toMatchObject({ kind: "type", detail: { type: "MULTIPOLYGON" } });
    expect(refusal(() => readPlainPolygon(""))).toMatchObject({ kind: "type", detail: { type: "" } });
    expect(refusal(() => readPlainPolygon("POLYGON Z ((0 0 1, 1 0 1, 1 1 1, 0 0 1))")).kind).toBe("dimension");
    expect(refusal(() => readPlainPolygon("POLYGON EMPTY")).kind).toBe("dimension");
    expect(refusal(() => readPlainPolygon("POLYGON ((0 0, 1 0, 1 1, 0 0), (0.2 0.2, 0.3 x, 0.3 0.3, 0.2 0.2))"))).toMatchObject({ kind: "position", detail: { ring: 2, position: 2, given: "0.3 x", twoNumbers: true } });
    expect(refusal(() => readPlainPolygon("POLYGON ((0 0, 1 0 7, 1 1, 0 0))"))).toMatchObject({ kind: "position", detail: { ring: 1, position: 2, given: "1 0 7", twoNumbers: false } });
    expect(refusal(() => readPlainPolygon("POLYGON (0 0, 1 0)"))).toMatchObject({ kind: "syntax", what: "expected '('" });
  });

  test("parentheses nested past the bound are refused before the reader recurses", () => {
    expect(refusal(() => readWkt(`POLYGON ${"(".repeat(100_000)}0 0${")".repeat(100_000)}`)).what).toBe("expected a number");
    expect(refusal(() => readPolygonalWkt(`${"GEOMETRYCOLLECTION (".repeat(100_000)}POINT (0 0)${")".repeat(100_000)}`)).what).toContain("nested deeper than 5");
  });
});
