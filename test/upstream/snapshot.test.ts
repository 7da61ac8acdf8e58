import { runQuery } from "../support/queries";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildSnapshot } from "../../src/snapshot/build";
import { LAB_BBOX_COLUMNS, LAB_PEDON_COLUMNS } from "../../src/providers/usda_kssl/columns";
import { SSURGO_POINT_COLUMNS } from "../../src/providers/usda_ssurgo/columns";
import { parseSdaPayload } from "../../src/upstream/sda/payload";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import type { Cell } from "../../src/upstream/sda/payload";
import { rowRecords } from "../../src/upstream/sda/rows";

const DATA = resolve(process.env.LOAM_DATA_DIR ?? "datasets");

// datasets/ssurgo/README.md §1.3: point -> map unit -> dominant component -> top horizon.
const KNOWN = [
  { area: "IA073", lon: -94.359608, lat: 41.944131, mukey: "2765528", musym: "L138B", muname: "Clarion loam, Bemis moraine, 2 to 6 percent slopes", comp: "Clarion", pct: "85", cokey: "20424631", chkey: "59949744", hz: "Ap", top: "0", bot: "23", ph: "6.2", om: "3.5", clay: "21" },
  { area: "IA073", lon: -94.361061, lat: 41.943704, mukey: "2834838", musym: "L55", muname: "Nicollet loam, 1 to 3 percent slopes", comp: "Nicollet", pct: "85", cokey: "20424654", chkey: "59949835", hz: "Ap", top: "0", bot: "20", ph: "6.2", om: "6", clay: "26" },
  { area: "IA015", lon: -93.790716, lat: 42.006712, mukey: "2765522", musym: "L138B", muname: "Clarion loam, Bemis moraine, 2 to 6 percent slopes", comp: "Clarion", pct: "85", cokey: "20344050", chkey: "59703900", hz: "Ap", top: "0", bot: "23", ph: "6.2", om: "3.5", clay: "21" },
  { area: "IA015", lon: -93.790206, lat: 42.007131, mukey: "2834849", musym: "L55", muname: "Nicollet loam, 1 to 3 percent slopes", comp: "Nicollet", pct: "85", cokey: "20344067", chkey: "59703967", hz: "Ap", top: "0", bot: "20", ph: "6.2", om: "6", clay: "26" },
  { area: "IA183", lon: -91.814487, lat: 41.304477, mukey: "412099", musym: "779", muname: "Kalona silty clay loam, 0 to 2 percent slopes", comp: "Kalona", pct: "100", cokey: "20456830", chkey: "60064077", hz: "Ap,A", top: "0", bot: "48", ph: "6.5", om: "5.5", clay: "37.5" },
  { area: "IA183", lon: -91.814651, lat: 41.30306, mukey: "412032", musym: "279", muname: "Taintor silty clay loam, 0 to 2 percent slopes", comp: "Taintor", pct: "90", cokey: "20456854", chkey: "60064185", hz: "Ap", top: "0", bot: "23", ph: "6.5", om: "4", clay: "30" },
  { area: "MH936", lon: 171.140451, lat: 7.087128, mukey: "465580", musym: "1", muname: "Majuro very cobbly loamy sand", comp: "Majuro", pct: "75", cokey: "27544180", chkey: "82310334", hz: "A, AC", top: "0", bot: "32", ph: "7.5", om: "2", clay: "6" },
  { area: "MH936", lon: 171.033504, lat: 7.144903, mukey: "465583", musym: "4", muname: "Ngedebus loamy sand, dark surface", comp: "Ngedebus", pct: "85", cokey: "27544197", chkey: "82310365", hz: "A", top: "0", bot: "33", ph: "7.5", om: "12.5", clay: "6" },
];

let dir: string;
let source: SnapshotTransport;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "loam-source-"));
  await buildSnapshot({ dataDir: DATA, outPath: join(dir, "snapshot.sqlite") });
  source = new SnapshotTransport(join(dir, "snapshot.sqlite"));
}, 60_000);

afterAll(() => {
  source?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The payload read back as SDA strings (what the SDA client would parse). */
async function point(lon: number, lat: number) {
  const answer = await runQuery(source, { kind: "ssurgo_point", longitude: lon, latitude: lat });
  expect(parseSdaPayload(answer.payload)).toEqual(answer.table);
  return { answer, records: rowRecords(parseSdaPayload(answer.payload)) };
}

describe("SnapshotTransport: SSURGO point", () => {
  for (const k of KNOWN) {
    test(`${k.area} (${k.lon}, ${k.lat}) -> ${k.musym} ${k.comp} (${k.pct} %), top horizon ${k.chkey} ${k.hz}`, async () => {
      const { answer, records } = await point(k.lon, k.lat);
      expect(answer.table.columns).toEqual([...SSURGO_POINT_COLUMNS]);
      expect(new Set(records.map((r) => r.mukey))).toEqual(new Set([k.mukey]));
      const first = records[0]!;
      expect(first).toMatchObject({ areasymbol: k.area, mukey: k.mukey, musym: k.musym, muname: k.muname, compname: k.comp, comppct_r: k.pct, cokey: k.cokey, majcompflag: "Yes" });
      expect(first).toMatchObject({ chkey: k.chkey, hzname: k.hz, hzdept_r: k.top, hzdepb_r: k.bot, ph1to1h2o_r: k.ph, om_r: k.om, claytotal_r: k.clay });
      for (const row of answer.table.rows) for (const cell of row) expect(cell === null || typeof cell === "string").toBe(true);
    });
  }

  test("MH936 horizon 82310334 carries the README check values, as SDA strings", async () => {
    const { records } = await point(171.140451, 7.087128);
    const hz = records.find((r) => r.chkey === "82310334");
    expect(hz).toMatchObject({ sandtotal_r: "82", silttotal_r: "12", dbthirdbar_r: "1.3", cec7_r: "6.3", ec_r: "1", saverest: "9/9/2025 12:00:00 AM", saversion: null });
  });

  test("rows run map unit x component (comppct_r desc) x horizon (top depth); components without horizons stay", async () => {
    const { records } = await point(171.140451, 7.087128);
    const pcts = [...new Map(records.map((r) => [r.cokey, Number(r.comppct_r)])).values()];
    expect(pcts).toEqual([...pcts].sort((a, b) => b - a));
    for (const cokey of new Set(records.map((r) => r.cokey))) {
      const tops = records.filter((r) => r.cokey === cokey).map((r) => Number(r.hzdept_r));
      expect(tops).toEqual([...tops].sort((a, b) => a - b));
    }
    const { records: iowa } = await point(-94.359608, 41.944131);
    expect(iowa.some((r) => r.majcompflag === "No ")).toBe(true);
  });

  test("the metadata row gives SDA's DataTypeName per column", async () => {
    const { answer } = await point(-94.359608, 41.944131);
    const types = Object.fromEntries(answer.table.columns.map((c, i) => [c, answer.table.types[i]]));
    expect(types).toMatchObject({ areasymbol: "varchar", saverest: "datetime", saversion: "int", mukey: "varchar", comppct_r: "int", majcompflag: "varchar", om_r: "real" });
    const table = (answer.payload as { Table: string[][] }).Table;
    expect(table[1]![0]).toBe("ColumnOrdinal=0,ColumnSize=20,NumericPrecision=255,NumericScale=255,ProviderType=VarChar,IsLong=False,ProviderSpecificDataType=System.Data.SqlTypes.SqlString,DataTypeName=varchar");
  });

  test("points outside every polygon answer {} (outside the IA073 AOI; open ocean inside the MH936 bbox)", async () => {
    expect((await runQuery(source, { kind: "ssurgo_point", longitude: -94.35, latitude: 41.95 })).payload).toEqual({});
    const ocean = await runQuery(source, { kind: "ssurgo_point", longitude: 171.4, latitude: 7.6 });
    expect(ocean.payload).toEqual({});
    expect(ocean.table).toEqual({ columns: [], types: [], rows: [] });
  });

  test("an uncached point query takes well under 5 ms (p50)", async () => {
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const k = KNOWN[i % KNOWN.length]!;
      const t = performance.now();
      await runQuery(source, { kind: "ssurgo_point", longitude: k.lon + (i % 3) * 1e-7, latitude: k.lat });
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    expect(times[100]!).toBeLessThan(5);
  });
});

describe("SnapshotTransport: lab pedons", () => {
  test("bbox: pedons ordered by pedon_key (= pedlabsampnum), at most limit+1 rows, bounds inclusive", async () => {
    const all = rowRecords((await runQuery(source, { kind: "lab_bbox", bbox: [-180, -90, 180, 90], limit: 10_000 })).table);
    expect(all).toHaveLength(429);
    const keys = all.map((r) => r.pedon_key!);
    expect(keys).toEqual([...keys].sort());
    const page = await runQuery(source, { kind: "lab_bbox", bbox: [-180, -90, 180, 90], limit: 5 });
    expect(page.table.columns).toEqual([...LAB_BBOX_COLUMNS]);
    expect(rowRecords(page.table).map((r) => r.pedon_key)).toEqual(keys.slice(0, 6));
    const exact = await runQuery(source, { kind: "lab_bbox", bbox: [-95.7708282, 39.0783539, -95.7708282, 39.0783539], limit: 10 });
    expect(rowRecords(exact.table)).toEqual([
      { pedon_key: "02N0245", pedlabsampnum: "02N0245", upedonid: "S01KS-177-001", samp_name: "Kimo", corr_name: null, samp_taxgrtgroup: "hapludolls", site_obsdate: null, latitude_decimal_degrees: "39.0783539", longitude_decimal_degrees: "-95.7708282", layer_count: "8" },
    ]);
  });

  test("pedons without coordinates never appear (02N0845 has none)", async () => {
    const all = rowRecords((await runQuery(source, { kind: "lab_bbox", bbox: [-180, -90, 180, 90], limit: 10_000 })).table);
    expect(all.some((r) => r.pedlabsampnum === "02N0845")).toBe(false);
    expect(all.every((r) => r.latitude_decimal_degrees !== null && r.longitude_decimal_degrees !== null)).toBe(true);
    const nearZero = await runQuery(source, { kind: "lab_bbox", bbox: [-1, -1, 1, 1], limit: 10 });
    expect(nearZero.payload).toEqual({});
  });

  test("pedon 02N0245: 8 layers, top layer 02N01100 Ap1 0-13 cm with its lab values as reported", async () => {
    const answer = await runQuery(source, { kind: "lab_pedon", pedonKey: { form: "pedlabsampnum", value: "02N0245" } });
    expect(answer.table.columns).toEqual([...LAB_PEDON_COLUMNS]);
    const layers = rowRecords(answer.table);
    expect(layers).toHaveLength(8);
    expect(layers[0]).toMatchObject({
      pedon_key: "02N0245", layer_key: "02N01100", labsampnum: "02N01100", hzn_desgn: "Ap1", hzn_top: "0", hzn_bot: "13",
      ph_h2o: "6.8", clay_total: "35.154017", cec_nh4_ph_7: "24.6409764", total_carbon_ncs: "1.34649733", estimated_organic_carbon: "1.35",
      organic_carbon_walkley_black: null, ph_h2o_method: null,
    });
    const tops = layers.map((l) => Number(l.hzn_top));
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
  });

  test("a numeric pedon_key matches nothing in the snapshot, nor does an unknown pedlabsampnum", async () => {
    expect((await runQuery(source, { kind: "lab_pedon", pedonKey: { form: "pedon_key", value: 245 } })).payload).toEqual({});
    expect((await runQuery(source, { kind: "lab_pedon", pedonKey: { form: "pedlabsampnum", value: "99X9999" } })).payload).toEqual({});
  });
});

describe("SnapshotTransport: opening and describing", () => {
  test("describe() names the file, the build time and the coverage", () => {
    const d = source.describe();
    expect(d.kind).toBe("snapshot");
    expect(d.location).toBe(join(dir, "snapshot.sqlite"));
    expect(Number.isNaN(Date.parse(d.builtAt ?? ""))).toBe(false);
    expect(d.coverage).toContain("SSURGO IA073 Greene County, Iowa (survey version 26, 2020-06-10; area-of-interest extract only)");
    expect(d.coverage).toContain("KSSL Kansas lab pedons (462)");
  });

  test("a missing or corrupt snapshot file fails at construction with a clear message", () => {
    expect(() => new SnapshotTransport(join(dir, "missing.sqlite"))).toThrow(/Snapshot database not found at .*missing\.sqlite.*snapshot:build/);
    const junk = join(dir, "junk.sqlite");
    writeFileSync(junk, "this is not a database, just text ".repeat(200));
    expect(() => new SnapshotTransport(junk)).toThrow(/corrupt or not a Loam snapshot/);
  });
});

test("every cell of every answer is a string or null", async () => {
  const answers = await Promise.all([
    runQuery(source, { kind: "ssurgo_point", longitude: 171.033504, latitude: 7.144903 }),
    runQuery(source, { kind: "lab_bbox", bbox: [-102.1, 37, -94.6, 40], limit: 50 }),
    runQuery(source, { kind: "lab_pedon", pedonKey: { form: "pedlabsampnum", value: "21N0261" } }),
  ]);
  for (const a of answers) {
    expect(a.table.rows.length).toBeGreaterThan(0);
    for (const row of a.table.rows) row.forEach((cell: Cell) => expect(cell === null || typeof cell === "string").toBe(true));
  }
});
