/**
 * The SSURGO map-unit query (ssurgo_mapunit): its SDA T-SQL text, its snapshot form run against a
 * snapshot built from datasets/, and the reader, compared with the same map units read from the
 * source files by the tests' own reader.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { LoamError } from "../../../src/errors";
import { summarize } from "../../../src/aggregation/aggregate";
import type { SummaryComponent } from "../../../src/domain/component";
import { summaryProperty } from "../../../src/providers/usda_ssurgo/summary-properties";
import type { MapUnitData } from "../../../src/providers/provider";
import { MAP_UNIT_COLUMN_NAMES, mapUnitQuery, mapUnitSql, readMapUnit } from "../../../src/providers/usda_ssurgo/mapunit";
import { SnapshotTransport } from "../../../src/upstream/snapshot";
import type { RowAnswer } from "../../../src/upstream/sda/rows";
import { testSnapshot } from "../../support/server";
import { MUAGGATT_AWS, MUAGGATT_CLASSES, sourceMapUnits, twoDecimals } from "../../summaries/source-files";

let transport: SnapshotTransport;
let db: Database;

beforeAll(async () => {
  const path = await testSnapshot();
  transport = new SnapshotTransport(path);
  db = new Database(path, { readonly: true });
});

afterAll(() => {
  transport?.close();
  db?.close();
});

async function snapshotAnswer(mukey: string): Promise<RowAnswer> {
  return mapUnitQuery.decode(await transport.fetch(mapUnitQuery, { mapUnitKey: mukey }));
}

const snapshotMapUnit = async (mukey: string): Promise<MapUnitData | null> =>
  readMapUnit(await snapshotAnswer(mukey), { source: transport.describe(), storedAt: Date.now() });

const byKey = (components: readonly SummaryComponent[]) =>
  [...components]
    .map((c) => ({ ...c, horizons: [...c.horizons].sort((a, b) => a.key.localeCompare(b.key)) }))
    .sort((a, b) => a.key.localeCompare(b.key));

describe("SDA T-SQL of one map unit", () => {
  const sql = mapUnitSql({ mapUnitKey: "2765528" });

  test("selects exactly the column table's columns, in order, for the one mukey, with the LEFT JOINs that keep bare components", () => {
    const list = sql.slice("SELECT\n".length, sql.indexOf("\nFROM ")).split(",\n").map((s) => s.trim().split(".")[1]);
    expect(list).toEqual([...MAP_UNIT_COLUMN_NAMES]);
    expect(sql).toContain("WHERE mu.mukey = 2765528 AND l.areasymbol <> 'US'\n");
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
        mapUnitSql({ mapUnitKey: bad });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(LoamError);
      expect((error as LoamError).status).toBe(422);
    }
  });
});

describe("snapshot SELECT + decoder against the built snapshot", () => {
  test("returns the same columns as the SDA query", async () => {
    expect((await snapshotAnswer("2765528")).table.columns).toEqual([...MAP_UNIT_COLUMN_NAMES]);
  });

  test("Clarion loam L138B (2765528): map unit, three components and their horizons with representative textures", async () => {
    const mu = (await snapshotMapUnit("2765528"))!;
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

  test("MH936 Urban land-Ngedebus complex (465586): Urban land is listed with no horizons", async () => {
    const mu = (await snapshotMapUnit("465586"))!;
    expect(mu.area_symbol).toBe("MH936");
    const urban = mu.components.find((c) => c.name === "Urban land")!;
    expect(urban).toMatchObject({ percent: 60, kind: "Miscellaneous area", major: true, hydrologic_group: "D", drainage_class: null, horizons: [] });
    expect(mu.components).toHaveLength(3);
  });

  test("every one of the 21 map units decodes to exactly the components the source files hold", async () => {
    const units = sourceMapUnits();
    expect(units).toHaveLength(21);
    for (const u of units) {
      const decoded = (await snapshotMapUnit(u.mukey))!;
      expect(decoded.map_unit_symbol).toBe(u.musym);
      expect(byKey(decoded.components)).toEqual(byKey(u.components));
    }
  });

  test("snapshot mode reproduces muaggatt too: 84 storage values and 42 classes from the snapshot's own muaggatt", async () => {
    const agg = db.query<Record<string, string | number | null>, []>("SELECT * FROM muaggatt").all();
    let aws = 0;
    let classes = 0;
    for (const row of agg) {
      const mu = (await snapshotMapUnit(String(row.mukey)))!;
      for (const [bottom, column] of MUAGGATT_AWS) {
        const s = summarize(mu.components, summaryProperty("available_water_storage")!, "weighted_average", { top_cm: 0, bottom_cm: bottom });
        if (twoDecimals(s.value) === twoDecimals(row[column])) aws++;
      }
      for (const [id, column] of MUAGGATT_CLASSES) {
        if (summarize(mu.components, summaryProperty(id)!, "dominant_condition", { top_cm: 0, bottom_cm: 200 }).category === row[column]) classes++;
      }
    }
    expect({ units: agg.length, aws, classes }).toEqual({ units: 21, aws: 84, classes: 42 });
  });

  test("an unknown map unit key has no rows: the reader answers null (the caller's 404)", async () => {
    const answer = await snapshotAnswer("1");
    expect(answer.table.rows).toEqual([]);
    expect(answer.payload).toEqual({});
    expect(readMapUnit(answer, { source: transport.describe(), storedAt: 0 })).toBeNull();
  });
});

describe("column check", () => {
  test("an answer whose names row differs from the column table is an upstream error naming the columns", async () => {
    const payload = (await snapshotAnswer("2765528")).payload as { Table: unknown[][] };
    const renamed = structuredClone(payload);
    renamed.Table[0]![renamed.Table[0]!.indexOf("awc_r")] = "awc_rv";
    const { Payload } = await import("../../../src/upstream/transport");
    let error: unknown;
    try {
      mapUnitQuery.decode(Payload.ofJson(renamed));
    } catch (e) {
      error = e;
    }
    expect((error as LoamError).status).toBe(502);
    expect((error as Error).message).toContain("missing awc_r");
    expect((error as Error).message).toContain("unexpected awc_rv");
  });
});
