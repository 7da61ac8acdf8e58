/**
 * The SDA path and the snapshot path must hand providers the same table (docs/decisions.md#providers): the fake SDA
 * answers from the snapshot, so any difference comes from the T-SQL round trip or the wire format.
 */
import { queryKind, runQuery } from "../support/queries";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSnapshot } from "../../src/snapshot/build";
import { LAB_BBOX_COLUMNS, LAB_PEDON_COLUMNS } from "../../src/providers/usda_kssl/columns";
import { SSURGO_POINT_COLUMNS } from "../../src/providers/usda_ssurgo/columns";
import type { LogicalQuery } from "../support/queries";
import { SdaTransport } from "../../src/upstream/sda/client";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { parseSdaPayload } from "../../src/upstream/sda/payload";
import { rowRecords } from "../../src/upstream/sda/rows";
import { startFakeSda, type FakeSda } from "../support/fake-sda";

/** The known answers of the data README (LOAM_DATA_DIR/ssurgo/README.md, section 1.3): [area, lon, lat, mukey]. */
const KNOWN_POINTS: [string, number, number, string][] = [
  ["IA073", -94.359608, 41.944131, "2765528"],
  ["IA073", -94.361061, 41.943704, "2834838"],
  ["IA015", -93.790716, 42.006712, "2765522"],
  ["IA015", -93.790206, 42.007131, "2834849"],
  ["IA183", -91.814487, 41.304477, "412099"],
  ["IA183", -91.814651, 41.30306, "412032"],
  ["MH936", 171.140451, 7.087128, "465580"],
  ["MH936", 171.033504, 7.144903, "465583"],
];

let dir: string;
let snapshot: SnapshotTransport;
let fake: FakeSda;
let sda: SdaTransport;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "loam-sda-vs-snapshot-"));
  const outPath = join(dir, "snapshot.sqlite");
  await buildSnapshot({ dataDir: process.env.LOAM_DATA_DIR ?? "datasets", outPath });
  snapshot = new SnapshotTransport(outPath);
  fake = startFakeSda({ answerer: snapshot });
  sda = new SdaTransport({ url: fake.url, timeoutMs: 10_000 });
}, 120_000);

afterAll(() => {
  fake?.close();
  snapshot?.close?.();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function bothPaths(query: LogicalQuery) {
  const [viaSda, direct] = await Promise.all([runQuery(sda, query), runQuery(snapshot, query)]);
  // The decoded answers agree (a polygon answer's typed polygons too: it has no table, docs/decisions.md#decode-once);
  // its data, that is: how each keeps its raw form (SDA's JSON as sent, the snapshot's rows) differs.
  const data = (answer: unknown) => JSON.parse(JSON.stringify(answer));
  expect(data(viaSda)).toEqual(data(direct));
  // The raw endpoints show the upstream's JSON: it must match too, metadata row included.
  const raw = queryKind(query.kind).raw;
  expect(raw(viaSda)).toEqual(raw(direct));
  return viaSda.table ?? parseSdaPayload(raw(viaSda));
}

describe("SDA path equals snapshot path", () => {
  for (const [area, longitude, latitude, mukey] of KNOWN_POINTS) {
    test(`point ${area} (${longitude}, ${latitude}) → map unit ${mukey}, same table both ways`, async () => {
      const table = await bothPaths({ kind: "ssurgo_point", latitude, longitude });
      expect(table.columns).toEqual([...SSURGO_POINT_COLUMNS]);
      expect(new Set(rowRecords(table).map((r) => r.mukey))).toEqual(new Set([mukey]));
    });
  }

  test("a point outside coverage is empty both ways", async () => {
    const table = await bothPaths({ kind: "ssurgo_point", latitude: 41.95, longitude: -94.35 });
    expect(table.rows).toEqual([]);
  });

  test("a lab bbox around Kansas pedon 02N0245 gives the same pedons both ways", async () => {
    const table = await bothPaths({ kind: "lab_bbox", bbox: [-96, 38.5, -95, 39.5], limit: 50 });
    expect(table.columns).toEqual([...LAB_BBOX_COLUMNS]);
    expect(rowRecords(table).map((r) => r.pedlabsampnum)).toContain("02N0245");
  });

  test("a lab bbox page smaller than its pedons is cut the same way both ways", async () => {
    const table = await bothPaths({ kind: "lab_bbox", bbox: [-102.1, 37, -94.6, 40], limit: 3 });
    expect(table.rows.length).toBeGreaterThanOrEqual(3);
  });

  test("lab pedon 02N0245 has its 8 layers both ways", async () => {
    const table = await bothPaths({ kind: "lab_pedon", pedonKey: { form: "pedlabsampnum", value: "02N0245" } });
    expect(table.columns).toEqual([...LAB_PEDON_COLUMNS]);
    const layers = rowRecords(table);
    expect(layers).toHaveLength(8);
    expect(layers[0]!.labsampnum).toBe("02N01100");
  });

  test("map-unit polygons around the IA073 known point (WKT geometry) both ways", async () => {
    const table = await bothPaths({ kind: "ssurgo_polygons", bbox: [-94.369608, 41.934131, -94.349608, 41.954131], limit: 2000 });
    const rows = rowRecords(table);
    expect(rows.some((r) => r.mukey === "2765528" && r.musym === "L138B" && /^POLYGON \(\(-94\.\d+ 41\.\d+, /.test(String(r.geom ?? "")))).toBe(true);
  });

  test("the fake answered each SDA-path query with one upstream call", () => {
    expect(fake.calls).toBe(KNOWN_POINTS.length + 5);
  });
});
