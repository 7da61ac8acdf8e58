import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { ValidationError } from "../../src/errors";
import { LAB_BBOX_COLUMNS, LAB_PEDON_COLUMNS } from "../../src/providers/usda_kssl/columns";
import { SSURGO_POINT_COLUMNS } from "../../src/providers/usda_ssurgo/columns";
import { PEDLABSAMPNUM_PATTERN } from "../../src/domain/pedon-key";
import { labBboxSql, labPedonSql } from "../../src/providers/usda_kssl/queries";
import { ssurgoPointSql } from "../../src/providers/usda_ssurgo/queries";
import { ssurgoPolygonSql } from "../../src/providers/usda_ssurgo/polygons";
import { ssurgoAreaSql } from "../../src/providers/usda_ssurgo/area-polygons";
import { commentFree, sqlNumber } from "../../src/upstream/sda/sql";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { sqlFor, type LogicalQuery } from "../support/queries";
import { logicalQueryFromSql } from "../support/fake-sda";

/** The column names a SELECT list yields, in order (alias, else the column after the dot). */
function selectedColumns(sql: string): string[] {
  const withoutComments = sql.replace(/--[^\n]*/g, "");
  const list = /^SELECT(?: TOP \(\d+\))?([\s\S]*?)\nFROM /.exec(withoutComments)![1]!;
  const items: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of list) {
    if (ch === "(") depth += 1;
    if (ch === ")") depth -= 1;
    if (ch === "," && depth === 0) {
      items.push(current);
      current = "";
    } else current += ch;
  }
  items.push(current);
  return items.map((item) => /(\w+)\s*$/.exec(item.trim())![1]!);
}

/** Everything but the quoted literals and comments: where an injection would have to land. */
function codeOnly(sql: string): string {
  return sql.replace(/--[^\n]*/g, "").replace(/'[^']*'/g, "''");
}

const latitude = fc.double({ min: -90, max: 90, noNaN: true }).map((v) => (Object.is(v, -0) ? 0 : v));
const longitude = fc.double({ min: -180, max: 180, noNaN: true }).map((v) => (Object.is(v, -0) ? 0 : v));

describe("SDA query templates", () => {
  test("each template returns exactly the contract columns, in order", () => {
    expect(selectedColumns(ssurgoPointSql({ latitude: 41.944131, longitude: -94.359608 }))).toEqual([...SSURGO_POINT_COLUMNS]);
    expect(selectedColumns(labBboxSql({ bbox: [-96, 38, -95, 39], limit: 100 }))).toEqual([...LAB_BBOX_COLUMNS]);
    expect(selectedColumns(labPedonSql({ pedonKey: { form: "pedlabsampnum", value: "02N0245" } }))).toEqual([...LAB_PEDON_COLUMNS]);
    expect(selectedColumns(labPedonSql({ pedonKey: { form: "pedon_key", value: 12345 } }))).toEqual([...LAB_PEDON_COLUMNS]);
  });

  test("the point query asks SDA's intersection helper in lon-lat order and leaves out STATSGO2", () => {
    const sql = ssurgoPointSql({ latitude: 41.944131, longitude: -94.359608 });
    expect(sql).toContain("SDA_Get_Mukey_from_intersection_with_WktWgs84('POINT(-94.359608 41.944131)')");
    expect(sql).toContain("l.areasymbol <> 'US'");
    expect(sql).toContain("ORDER BY mu.mukey, c.comppct_r DESC, c.cokey, ch.hzdept_r");
  });

  test("the bbox query asks for one row more than the page, edges inclusive", () => {
    const sql = labBboxSql({ bbox: [-96.5, 38, -95, 39.25], limit: 100 });
    expect(sql).toStartWith("SELECT TOP (101)");
    expect(sql).toContain("p.longitude_decimal_degrees BETWEEN -96.5 AND -95");
    expect(sql).toContain("p.latitude_decimal_degrees BETWEEN 38 AND 39.25");
    expect(sql).toContain("ORDER BY p.pedon_key");
  });

  test("the pedon query joins the 1:1 lab tables on labsampnum alone, returns the layer's prep_code and is bounded", () => {
    const sql = labPedonSql({ pedonKey: { form: "pedlabsampnum", value: "02N0245" } });
    expect(sql).toStartWith("SELECT TOP (1000)");
    expect(sql).not.toMatch(/prep_code[^\n]*IN \(/);
    expect(sql).toContain("LEFT JOIN lab_physical_properties AS ph ON ph.labsampnum = ly.labsampnum\n");
    expect(sql).toContain("LEFT JOIN lab_chemical_properties AS ch ON ch.labsampnum = ly.labsampnum\n");
    expect(sql).toContain("COALESCE(ch.prep_code, ph.prep_code) AS prep_code");
    expect(sql).toContain("WHERE p.pedlabsampnum = '02N0245'");
    expect(labPedonSql({ pedonKey: { form: "pedon_key", value: 52 } })).toContain("WHERE p.pedon_key = 52");
  });

  test("numbers are written as plain decimals that read back as the same value", () => {
    expect(sqlNumber(1e-7, "x", -1, 1)).toBe("0.0000001");
    expect(sqlNumber(-1.5e-10, "x", -1, 1)).toBe("-0.00000000015");
    expect(sqlNumber(-0, "x", -1, 1)).toBe("0");
    expect(sqlNumber(-94.359608, "x", -180, 180)).toBe("-94.359608");
  });
});

describe("no SQL comments reach SDA", () => {
  // SDA refuses reserved words (user, bulk, ...) outside quoted text, so no query may carry a comment.
  const samples: LogicalQuery[] = [
    { kind: "ssurgo_point", latitude: 41.944131, longitude: -94.359608 },
    { kind: "ssurgo_mapunit", mapUnitKey: "2765528" },
    { kind: "lab_bbox", bbox: [-96, 38, -95, 39], limit: 500 },
    { kind: "lab_pedon", pedonKey: { form: "pedon_key", value: 52 } },
    { kind: "lab_pedon", pedonKey: { form: "pedlabsampnum", value: "02N0245" } },
    { kind: "ssurgo_mapunit", mapUnitKey: "2765528" },
    { kind: "ssurgo_polygons", bbox: [-94.37, 41.934, -94.35, 41.954], limit: 2000 },
    { kind: "ssurgo_polygons", bbox: [-94.37, 41.934, -94.35, 41.954], limit: 7, after: "12345" },
    { kind: "lab_bbox", bbox: [-96, 38, -95, 39], limit: 7, after: "52" },
    { kind: "ssurgo_polygon", key: "12345" },
    { kind: "ssurgo_polygon_extent" },
    { kind: "lab_extent" },
    { kind: "ssurgo_area_polygons", rings: [[[-94.37, 41.934], [-94.35, 41.934], [-94.35, 41.954], [-94.37, 41.934]]], limit: 5000 },
    { kind: "ssurgo_mapunits_at_point", latitude: 41.944131, longitude: -94.359608 },
    { kind: "lab_nearest", latitude: 37.1313, longitude: -97.0859, bbox: [-97.65, 36.68, -96.52, 37.59], limit: 6 },
  ];
  test("every query kind of every provider, as sent", () => {
    const kinds = DEFAULT_PROVIDERS.flatMap((p) => (p.role === "planned" ? [] : Object.values(p.queries).filter((q) => q.forms.sda).map((q) => q.kind)));
    expect(new Set(samples.map((q) => q.kind))).toEqual(new Set(kinds));
    for (const query of samples) {
      const sql = sqlFor(query);
      expect(sql).not.toContain("--");
      expect(sql).not.toContain("/*");
      expect(sql).not.toMatch(/\b(user|bulk)\b/i);
    }
  });
  test("the transport refuses to send a comment", () => {
    expect(() => commentFree("SELECT 1 -- user")).toThrow(/comment/);
    expect(() => commentFree("SELECT /* bulk */ 1")).toThrow(/comment/);
  });
});

describe("hostile input never reaches SQL", () => {
  const hostile: [string, () => string][] = [
    ["NaN latitude", () => ssurgoPointSql({ latitude: Number.NaN, longitude: 0 })],
    ["Infinity longitude", () => ssurgoPointSql({ latitude: 0, longitude: Number.POSITIVE_INFINITY })],
    ["-Infinity latitude", () => ssurgoPointSql({ latitude: Number.NEGATIVE_INFINITY, longitude: 0 })],
    ["latitude out of range", () => ssurgoPointSql({ latitude: 90.0001, longitude: 0 })],
    ["a string posing as a number", () => ssurgoPointSql({ latitude: "1); DROP TABLE x--" as unknown as number, longitude: 0 })],
    ["NaN in a bbox", () => labBboxSql({ bbox: [Number.NaN, 38, -95, 39], limit: 10 })],
    ["an inverted bbox", () => labBboxSql({ bbox: [-95, 38, -96, 39], limit: 10 })],
    ["NaN in a polygon bbox", () => ssurgoPolygonSql({ bbox: [-94.4, Number.NaN, -94.3, 42], limit: 10 })],
    ["an inverted polygon bbox", () => ssurgoPolygonSql({ bbox: [-94.3, 41.9, -94.4, 42], limit: 10 })],
    ["a string in a polygon bbox", () => ssurgoPolygonSql({ bbox: ["0)) ; DROP TABLE x--" as unknown as number, 41.9, -94.3, 42], limit: 10 })],
    ["a polygon limit over 5000", () => ssurgoPolygonSql({ bbox: [-94.4, 41.9, -94.3, 42], limit: 5001 })],
    // A cursor's position enters SQL only as a key of the source (docs/decisions.md#cursors).
    ["a quoted polygon cursor position", () => ssurgoPolygonSql({ bbox: [-94.4, 41.9, -94.3, 42], limit: 10, after: "1 OR 1=1" })],
    ["a pedon cursor position that is not a pedon_key", () => labBboxSql({ bbox: [-96, 38, -95, 39], limit: 10, after: "02N0245'; DROP TABLE x--" })],
    ["a fractional limit", () => labBboxSql({ bbox: [-96, 38, -95, 39], limit: 1.5 })],
    ["a zero limit", () => labBboxSql({ bbox: [-96, 38, -95, 39], limit: 0 })],
    ["a quoted pedlabsampnum", () => labPedonSql({ pedonKey: { form: "pedlabsampnum", value: "02N0245'; DROP TABLE x--" } })],
    ["a lower-case pedlabsampnum", () => labPedonSql({ pedonKey: { form: "pedlabsampnum", value: "02n0245" } })],
    ["a fractional pedon_key", () => labPedonSql({ pedonKey: { form: "pedon_key", value: 1.5 } })],
    ["a negative pedon_key", () => labPedonSql({ pedonKey: { form: "pedon_key", value: -1 } })],
    ["a pedon_key beyond int", () => labPedonSql({ pedonKey: { form: "pedon_key", value: 2 ** 31 } })],
    ["NaN in an area", () => ssurgoAreaSql({ rings: [[[-94.4, 41.9], [-94.3, Number.NaN], [-94.3, 42], [-94.4, 41.9]]], limit: 10 })],
    ["a string in an area", () => ssurgoAreaSql({ rings: [[[-94.4, 41.9], ["0 0))', 4326)) = 1; DROP TABLE x--" as unknown as number, 41.9], [-94.3, 42], [-94.4, 41.9]]], limit: 10 })],
    ["an area latitude out of range", () => ssurgoAreaSql({ rings: [[[-94.4, 91], [-94.3, 41.9], [-94.3, 42], [-94.4, 91]]], limit: 10 })],
    ["an area limit over 5000", () => ssurgoAreaSql({ rings: [[[-94.4, 41.9], [-94.3, 41.9], [-94.3, 42], [-94.4, 41.9]]], limit: 5001 })],
  ];
  for (const [name, build] of hostile) {
    test(`${name} is refused before any SQL is written`, () => {
      expect(build).toThrow(ValidationError);
    });
  }

  test("for any valid point the SQL differs from the template only by the two formatted numbers", () => {
    const template = ssurgoPointSql({ latitude: 0, longitude: 0 }).replace("POINT(0 0)", "POINT(? ?)");
    fc.assert(
      fc.property(latitude, longitude, (lat, lon) => {
        const [y, x] = [sqlNumber(lat, "lat", -90, 90), sqlNumber(lon, "lon", -180, 180)];
        expect(y).toMatch(/^-?\d+(\.\d+)?$/);
        expect(x).toMatch(/^-?\d+(\.\d+)?$/);
        expect(Number(y)).toBe(lat);
        expect(ssurgoPointSql({ latitude: lat, longitude: lon }).replace(`POINT(${x} ${y})`, "POINT(? ?)")).toBe(template);
      }),
    );
  });

  test("for any valid bbox and limit the SQL carries only formatted numbers, no quote or semicolon", () => {
    const quotes = (s: string) => s.split("'").length;
    const reference = labBboxSql({ bbox: [0, 0, 0, 0], limit: 1 });
    fc.assert(
      fc.property(longitude, longitude, latitude, latitude, fc.integer({ min: 1, max: 500 }), (a, b, c, d, limit) => {
        const bbox: [number, number, number, number] = [Math.min(a, b), Math.min(c, d), Math.max(a, b), Math.max(c, d)];
        const sql = labBboxSql({ bbox: bbox, limit: limit });
        expect(codeOnly(sql)).not.toContain(";");
        expect(quotes(sql)).toBe(quotes(reference));
        const numbers = bbox.map((v, i) => sqlNumber(v, "v", i % 2 ? -90 : -180, i % 2 ? 90 : 180));
        const masked = sql
          .replace(`BETWEEN ${numbers[0]} AND ${numbers[2]}`, "BETWEEN ? AND ?")
          .replace(`BETWEEN ${numbers[1]} AND ${numbers[3]}`, "BETWEEN ? AND ?")
          .replace(`TOP (${limit + 1})`, "TOP (?)");
        const maskedReference = reference.replaceAll("BETWEEN 0 AND 0", "BETWEEN ? AND ?").replace("TOP (2)", "TOP (?)");
        expect(masked).toBe(maskedReference);
      }),
    );
  });

  test("any string is either a well-formed pedlabsampnum in the SQL or refused", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(PEDLABSAMPNUM_PATTERN)), (value) => {
        let sql: string;
        try {
          sql = labPedonSql({ pedonKey: { form: "pedlabsampnum", value } });
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
          expect(value).not.toMatch(PEDLABSAMPNUM_PATTERN);
          return;
        }
        expect(value).toMatch(PEDLABSAMPNUM_PATTERN);
        expect(sql).toContain(`WHERE p.pedlabsampnum = '${value}'`);
        expect(codeOnly(sql)).not.toContain(";");
      }),
    );
  });

  test("the fake SDA reads back exactly the logical query each template encodes", () => {
    const query: fc.Arbitrary<LogicalQuery> = fc.oneof(
      fc.record({ kind: fc.constant("ssurgo_point" as const), latitude, longitude }),
      fc
        .tuple(longitude, longitude, latitude, latitude, fc.integer({ min: 1, max: 500 }))
        .map(([a, b, c, d, limit]) => ({
          kind: "lab_bbox" as const,
          bbox: [Math.min(a, b), Math.min(c, d), Math.max(a, b), Math.max(c, d)] as [number, number, number, number],
          limit,
        })),
      fc.integer({ min: 1, max: 2_147_483_647 }).map((value) => ({
        kind: "lab_pedon" as const,
        pedonKey: { form: "pedon_key" as const, value },
      })),
      fc.stringMatching(PEDLABSAMPNUM_PATTERN).map((value) => ({
        kind: "lab_pedon" as const,
        pedonKey: { form: "pedlabsampnum" as const, value },
      })),
      fc
        .tuple(longitude, longitude, latitude, latitude, fc.integer({ min: 1, max: 5000 }))
        .filter(([a, b, c, d]) => a !== b && c !== d)
        .map(([a, b, c, d, limit]) => ({
          kind: "ssurgo_polygons" as const,
          bbox: [Math.min(a, b), Math.min(c, d), Math.max(a, b), Math.max(c, d)] as [number, number, number, number],
          limit,
        })),
      fc
        .tuple(fc.array(fc.array(fc.tuple(longitude, latitude), { minLength: 4, maxLength: 8 }), { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 5000 }))
        .map(([rings, limit]) => ({ kind: "ssurgo_area_polygons" as const, rings, limit })),
    );
    fc.assert(fc.property(query, (q) => expect(logicalQueryFromSql(sqlFor(q))).toEqual(q)));
  });
});
