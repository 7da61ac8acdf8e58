import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { ValidationError } from "../../src/errors";
import {
  LAB_BBOX_COLUMNS,
  LAB_PEDON_COLUMNS,
  PEDLABSAMPNUM_PATTERN,
  SSURGO_POINT_COLUMNS,
  type LogicalQuery,
} from "../../src/upstream/queries";
import { labBboxSql, labPedonSql, sqlFor, sqlNumber, ssurgoPointSql } from "../../src/upstream/sda/queries";
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
    expect(selectedColumns(ssurgoPointSql(41.944131, -94.359608))).toEqual([...SSURGO_POINT_COLUMNS]);
    expect(selectedColumns(labBboxSql([-96, 38, -95, 39], 100))).toEqual([...LAB_BBOX_COLUMNS]);
    expect(selectedColumns(labPedonSql({ form: "pedlabsampnum", value: "02N0245" }))).toEqual([...LAB_PEDON_COLUMNS]);
    expect(selectedColumns(labPedonSql({ form: "pedon_key", value: 12345 }))).toEqual([...LAB_PEDON_COLUMNS]);
  });

  test("the point query asks SDA's intersection helper in lon-lat order and leaves out STATSGO2", () => {
    const sql = ssurgoPointSql(41.944131, -94.359608);
    expect(sql).toContain("SDA_Get_Mukey_from_intersection_with_WktWgs84('POINT(-94.359608 41.944131)')");
    expect(sql).toContain("l.areasymbol <> 'US'");
    expect(sql).toContain("ORDER BY mu.mukey, c.comppct_r DESC, c.cokey, ch.hzdept_r");
  });

  test("the bbox query asks for one row more than the page, edges inclusive", () => {
    const sql = labBboxSql([-96.5, 38, -95, 39.25], 100);
    expect(sql).toStartWith("SELECT TOP (101)");
    expect(sql).toContain("p.longitude_decimal_degrees BETWEEN -96.5 AND -95");
    expect(sql).toContain("p.latitude_decimal_degrees BETWEEN 38 AND 39.25");
    expect(sql).toContain("ORDER BY p.pedon_key");
  });

  test("the pedon query keeps soilDB's prep_code filter in the joins and is bounded", () => {
    const sql = labPedonSql({ form: "pedlabsampnum", value: "02N0245" });
    expect(sql).toStartWith("SELECT TOP (1000)");
    expect(sql).toContain("IsNull(ph.prep_code, '') IN ('S', '')");
    expect(sql).toContain("IsNull(ch.prep_code, '') IN ('S', '')");
    expect(sql).toContain("WHERE p.pedlabsampnum = '02N0245'");
    expect(labPedonSql({ form: "pedon_key", value: 52 })).toContain("WHERE p.pedon_key = 52");
  });

  test("numbers are written as plain decimals that read back as the same value", () => {
    expect(sqlNumber(1e-7, "x", -1, 1)).toBe("0.0000001");
    expect(sqlNumber(-1.5e-10, "x", -1, 1)).toBe("-0.00000000015");
    expect(sqlNumber(-0, "x", -1, 1)).toBe("0");
    expect(sqlNumber(-94.359608, "x", -180, 180)).toBe("-94.359608");
  });
});

describe("hostile input never reaches SQL", () => {
  const hostile: [string, () => string][] = [
    ["NaN latitude", () => ssurgoPointSql(Number.NaN, 0)],
    ["Infinity longitude", () => ssurgoPointSql(0, Number.POSITIVE_INFINITY)],
    ["-Infinity latitude", () => ssurgoPointSql(Number.NEGATIVE_INFINITY, 0)],
    ["latitude out of range", () => ssurgoPointSql(90.0001, 0)],
    ["a string posing as a number", () => ssurgoPointSql("1); DROP TABLE x--" as unknown as number, 0)],
    ["NaN in a bbox", () => labBboxSql([Number.NaN, 38, -95, 39], 10)],
    ["an inverted bbox", () => labBboxSql([-95, 38, -96, 39], 10)],
    ["a fractional limit", () => labBboxSql([-96, 38, -95, 39], 1.5)],
    ["a zero limit", () => labBboxSql([-96, 38, -95, 39], 0)],
    ["a quoted pedlabsampnum", () => labPedonSql({ form: "pedlabsampnum", value: "02N0245'; DROP TABLE x--" })],
    ["a lower-case pedlabsampnum", () => labPedonSql({ form: "pedlabsampnum", value: "02n0245" })],
    ["a fractional pedon_key", () => labPedonSql({ form: "pedon_key", value: 1.5 })],
    ["a negative pedon_key", () => labPedonSql({ form: "pedon_key", value: -1 })],
    ["a pedon_key beyond int", () => labPedonSql({ form: "pedon_key", value: 2 ** 31 })],
  ];
  for (const [name, build] of hostile) {
    test(`${name} is refused before any SQL is written`, () => {
      expect(build).toThrow(ValidationError);
    });
  }

  test("for any valid point the SQL differs from the template only by the two formatted numbers", () => {
    const template = ssurgoPointSql(0, 0).replace("POINT(0 0)", "POINT(? ?)");
    fc.assert(
      fc.property(latitude, longitude, (lat, lon) => {
        const [y, x] = [sqlNumber(lat, "lat", -90, 90), sqlNumber(lon, "lon", -180, 180)];
        expect(y).toMatch(/^-?\d+(\.\d+)?$/);
        expect(x).toMatch(/^-?\d+(\.\d+)?$/);
        expect(Number(y)).toBe(lat);
        expect(ssurgoPointSql(lat, lon).replace(`POINT(${x} ${y})`, "POINT(? ?)")).toBe(template);
      }),
    );
  });

  test("for any valid bbox and limit the SQL carries only formatted numbers, no quote or semicolon", () => {
    const quotes = (s: string) => s.split("'").length;
    const reference = labBboxSql([0, 0, 0, 0], 1);
    fc.assert(
      fc.property(longitude, longitude, latitude, latitude, fc.integer({ min: 1, max: 500 }), (a, b, c, d, limit) => {
        const bbox: [number, number, number, number] = [Math.min(a, b), Math.min(c, d), Math.max(a, b), Math.max(c, d)];
        const sql = labBboxSql(bbox, limit);
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
          sql = labPedonSql({ form: "pedlabsampnum", value });
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
    );
    fc.assert(fc.property(query, (q) => expect(logicalQueryFromSql(sqlFor(q))).toEqual(q)));
  });
});
