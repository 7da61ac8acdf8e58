/**
 * The map-unit query: its SDA T-SQL text, its snapshot SELECT run against a snapshot built from
 * shared/data, and the decoder, compared with the same map units read from the source files by the
 * tests' own reader.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LoamError } from "../../src/errors";
import { buildSnapshot } from "../../src/snapshot/build";
import { summarize } from "../../src/summaries/aggregate";
import type { SummaryComponent } from "../../src/summaries/component-values";
import { decodeMapUnit, type DecodedMapUnit } from "../../src/summaries/decode";
import { summaryProperty } from "../../src/summaries/properties";
import {
  MAP_UNIT_SUMMARY_COLUMN_NAMES,
  MAP_UNIT_SUMMARY_SNAPSHOT_SQL,
  checkMapUnitKey,
  mapUnitSummarySql,
} from "../../src/summaries/queries";
import { DATA_DIR, sourceMapUnits } from "./source-files";

let dir: string;
let db: Database;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "loam-summaries-"));
  const outPath = join(dir, "snapshot.sqlite");
  await buildSnapshot({ dataDir: DATA_DIR, outPath });
  db = new Database(outPath, { readonly: true });
});

afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The snapshot answer as SDA sends it: column names and rows of string | null. */
function snapshotAnswer(mukey: string): { columns: string[]; rows: (string | null)[][] } {
  const statement = db.prepare(MAP_UNIT_SUMMARY_SNAPSHOT_SQL);
  const rows = (statement.values(checkMapUnitKey(mukey)) as unknown[][]).map((r) => r.map((v) => (v === null ? null : String(v))));
  const columns = statement.columnNames;
  statement.finalize();
  return { columns, rows };
}

const snapshotMapUnit = (mukey: string): DecodedMapUnit | null => {
  const { columns, rows } = snapshotAnswer(mukey);
  return decodeMapUnit(columns, rows);
};

const byKey = (components: readonly SummaryComponent[]) =>
  [...components]
    .map((c) => ({ ...c, horizons: [...c.horizons].sort((a, b) => a.key.localeCompare(b.key)) }))
    .sort((a, b) => a.key.localeCompare(b.key));

describe("SDA T-SQL of one map unit", () => {
  const sql = mapUnitSummarySql("2765528");

  test("selects exactly the column table's columns, in order, for the one mukey, with the LEFT JOINs that keep bare components", () => {
    const list = sql.slice("SELECT\n".length, sql.indexOf("\nFROM ")).split(",\n").map((s) => s.trim().split(".")[1]);
    expect(list).toEqual([...MAP_UNIT_SUMMARY_COLUMN_NAMES]);
    expect(sql).toContain("WHERE mu.mukey = 2765528\n");
    expect(sql).toContain("LEFT JOIN component AS c ON c.mukey = mu.mukey");
    expect(sql).toContain("LEFT JOIN chorizon AS ch ON ch.cokey = c.cokey");
    expect(sql).toContain("LEFT JOIN chtexturegrp AS tg ON tg.chkey = ch.chkey AND tg.rvindicator = 'Yes'");
  });

  test("carries no SQL comments and no words SDA refuses outside quotes", () => {
    expect(sql).not.toContain("--");
    expect(sql).not.toContain("/*");
    expect(sql).not.toMatch(/\b(user|bulk)\b/i);
    expect(sql).not.toContain(";");
  });

  test("a malformed map unit key never reaches SQL: 422", () => {
    for (const bad of ["", "0", "0123", "12a", "1 OR 1=1", "2765528;", "-5", "99999999999", "3000000000"]) {
      let error: unknown;
      try {
        mapUnitSummarySql(bad);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(LoamError);
      expect((error as LoamError).status).toBe(422);
    }
  });
});

describe("snapshot SELECT + decoder against the built snapshot", () => {
  test("returns the same columns as the SDA query", () => {
    expect(snapshotAnswer("2765528").columns).toEqual([...MAP_UNIT_SUMMARY_COLUMN_NAMES]);
  });

  test("Clarion loam L138B (2765528): map unit, three components and their horizons with representative textures", () => {
    const mu = snapshotMapUnit("2765528")!;
    expect(mu).toMatchObject({
      area_symbol: "IA073",
      map_unit_key: "2765528",
      map_unit_symbol: "L138B",
      map_unit_name: "Clarion loam, Bemis moraine, 2 to 6 percent slopes",
    });
    expect(mu.components.map((c) => [c.name, c.percent, c.major])).toEqual([["Clarion", 85, true], ["Storden", 10, false], ["Nicollet", 5, false]]);
    const clarion = mu.components[0]!;
    expect(clarion.key).toBe("20424631");
    expect(clarion.horizons[0]).toMatchObject({ key: "59949744", name: "Ap", top: 0, bottom: 23, texture: "L" });
    expect(clarion.horizons[0]!.values).toMatchObject({ ph1to1h2o_r: 6.2, om_r: 3.5, claytotal_r: 21 });
    // Horizons come top down.
    const tops = clarion.horizons.map((h) => h.top!);
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
  });

  test("MH936 Urban land-Ngedebus complex (465586): Urban land is listed with no horizons", () => {
    const mu = snapshotMapUnit("465586")!;
    expect(mu.area_symbol).toBe("MH936");
    const urban = mu.components.find((c) => c.name === "Urban land")!;
    expect(urban).toMatchObject({ percent: 60, kind: "Miscellaneous area", major: true, hydrologic_group: "D", drainage_class: null, horizons: [] });
    expect(mu.components).toHaveLength(3);
  });

  test("every one of the 21 map units decodes to exactly the components the source files hold", () => {
    const units = sourceMapUnits();
    expect(units).toHaveLength(21);
    for (const u of units) {
      const decoded = snapshotMapUnit(u.mukey)!;
      expect(decoded.map_unit_symbol).toBe(u.musym);
      expect(byKey(decoded.components)).toEqual(byKey(u.components));
    }
  });

  test("snapshot mode reproduces muaggatt too: 84 storage values and 42 classes from the snapshot's own muaggatt", () => {
    const agg = db.query<Record<string, string | number | null>, []>("SELECT * FROM muaggatt").all();
    let aws = 0;
    let classes = 0;
    for (const row of agg) {
      const mu = snapshotMapUnit(String(row.mukey))!;
      for (const [bottom, column] of [[25, "aws025wta"], [50, "aws050wta"], [100, "aws0100wta"], [150, "aws0150wta"]] as const) {
        const s = summarize(mu.components, summaryProperty("available_water_storage")!, "weighted_average", { top_cm: 0, bottom_cm: bottom });
        const expected = row[column] === null ? null : Number(row[column]).toFixed(2);
        if ((s.value === null ? null : (Math.round(s.value * 100) / 100).toFixed(2)) === expected) aws++;
      }
      for (const [id, column] of [["drainage_class", "drclassdcd"], ["hydrologic_group", "hydgrpdcd"]] as const) {
        if (summarize(mu.components, summaryProperty(id)!, "dominant_condition", { top_cm: 0, bottom_cm: 200 }).category === row[column]) classes++;
      }
    }
    expect({ units: agg.length, aws, classes }).toEqual({ units: 21, aws: 84, classes: 42 });
  });

  test("an unknown map unit key has no rows: the decoder answers null (the caller's 404)", () => {
    expect(snapshotAnswer("1").rows).toEqual([]);
    expect(decodeMapUnit([...MAP_UNIT_SUMMARY_COLUMN_NAMES], [])).toBeNull();
  });
});
