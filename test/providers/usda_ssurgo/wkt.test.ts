/** WKT as SQL Server's STAsText() writes it for mupolygongeo, read at SDA's edge; other geometry refused as the upstream's fault. */
import { describe, expect, test } from "bun:test";
import { UpstreamError } from "../../../src/errors";
import { readWkt, writeWkt } from "../../../src/geometry/wkt";
import { sdaGeometry } from "../../../src/providers/usda_ssurgo/polygons";
import { sqlFor } from "../../support/queries";

const parseWkt = (text: string) => sdaGeometry(readWkt, text, "a map-unit polygon");

describe("WKT of map-unit polygons", () => {
  test("POLYGON with a hole, in SQL Server's spacing", () => {
    const text = "POLYGON ((-94.36 41.94, -94.35 41.94, -94.35 41.95, -94.36 41.95, -94.36 41.94), (-94.358 41.942, -94.358 41.944, -94.356 41.944, -94.356 41.942, -94.358 41.942))";
    const polygons = parseWkt(text);
    expect(polygons).toHaveLength(1);
    expect(polygons[0]).toHaveLength(2);
    expect(polygons[0]![0]![1]).toEqual([-94.35, 41.94]);
    expect(writeWkt(polygons)).toBe(text);
  });

  test("MULTIPOLYGON, Z ordinates dropped, EMPTY", () => {
    expect(parseWkt("MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5 1, 6 5 1, 6 6 1, 5 5 1)))")).toEqual([
      [[[0, 0], [1, 0], [1, 1], [0, 0]]],
      [[[5, 5], [6, 5], [6, 6], [5, 5]]],
    ]);
    expect(parseWkt("POLYGON EMPTY")).toEqual([]);
    expect(writeWkt([[[[0, 0], [1, 0], [1, 1], [0, 0]]], [[[5, 5], [6, 5], [6, 6], [5, 5]]]])).toBe("MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))");
  });

  for (const bad of ["POINT (1 2)", "POLYGON ((0 0, 1 0, 0 0))", "POLYGON ((0 0, 1 x, 1 1, 0 0))", "POLYGON ((0 0, 1 0, 1 1, 0 0)", "POLYGON ((0 0, 1 0, 1 1, 0 0)) trailing", ""]) {
    test(`refused: ${JSON.stringify(bad)}`, () => {
      expect(() => parseWkt(bad)).toThrow(UpstreamError);
      expect(() => parseWkt(bad)).toThrow(/^Soil Data Access sent a (polygon whose WKT does not parse \(.+ at character \d+\)|POINT where a map-unit polygon was expected)\.$/);
    });
  }
});

test("the SDA form is soilDB's SDA_spatialQuery mupolygon query, bounded, without comments", () => {
  const sql = sqlFor({ kind: "ssurgo_polygons", bbox: [-94.37, 41.934, -94.35, 41.954], limit: 2000 });
  expect(sql).toContain("SELECT TOP (2001)");
  expect(sql).toContain("FROM mupolygon AS P");
  expect(sql).toContain("mupolygongeo.STAsText() AS geom");
  expect(sql).toContain("WHERE mupolygongeo.STIntersects(geometry::STGeomFromText('POLYGON((-94.37 41.934, -94.35 41.934, -94.35 41.954, -94.37 41.954, -94.37 41.934))', 4326)) = 1");
  expect(sql).not.toMatch(/--|\/\*/);
  expect(() => sqlFor({ kind: "ssurgo_polygons", bbox: [Number.NaN, 41.9, -94.3, 42], limit: 10 })).toThrow();
});
