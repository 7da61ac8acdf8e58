/**
 * Polygons decoded once, in native types (docs/decisions.md#decode-once): on the snapshot, the
 * map-unit polygons of GET /v1/soil/mapunits?bbox= and the cut polygons of the area report go from the
 * snapshot's rings to the answer as coordinate arrays, cold, cached, and read back from the store
 * after a restart: no polygon is written as WKT, and none is read from WKT. Through SDA, each row's
 * WKT is read once, at the transport's edge, and never again for a cached answer. Counted by spying on
 * the one WKT reader and writer (src/geometry/wkt.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, spyOn, test } from "bun:test";
import * as wkt from "../../src/geometry/wkt";
import { SdaTransport } from "../../src/upstream/sda/client";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { startLoam, tempDbPath, testSnapshot, type RunningLoam } from "../support/server";

const BOX = "-94.37,41.934,-94.35,41.954";
const MAPUNITS = `/v1/soil/mapunits?bbox=${BOX}&limit=100`;
const [W, S, E, N] = [-94.361846, 41.943158, -94.358198, 41.945788];
const AOI = `/v1/soil/aoi?bbox=${W},${S},${E},${N}&properties=clay`;
/** The area as the report echoes it in its query (the only WKT the report writes). */
const AREA = [[[[W, S], [E, S], [E, N], [W, N], [W, S]]]];

const readWkt = spyOn(wkt, "readWkt");
const readPolygonalWkt = spyOn(wkt, "readPolygonalWkt");
const writeWkt = spyOn(wkt, "writeWkt");
const reads = () => readWkt.mock.calls.length + readPolygonalWkt.mock.calls.length;
/** What was written other than the report's echo of its own area. */
const writtenPolygons = () => writeWkt.mock.calls.map((call) => call[0]).filter((polygons) => JSON.stringify(polygons) !== JSON.stringify(AREA));

afterEach(() => {
  readWkt.mockClear();
  readPolygonalWkt.mockClear();
  writeWkt.mockClear();
});

async function features(loam: RunningLoam, path: string): Promise<{ etag: string; count: number; body: any }> {
  const response = await loam.get(path);
  expect(response.status).toBe(200);
  const body = await response.json();
  return { etag: response.headers.get("etag")!, count: (body.features ?? body.map_units).length, body };
}

describe("on the snapshot: no polygon becomes WKT and is read back", () => {
  const dbPath = tempDbPath();
  let loam: RunningLoam;
  beforeAll(async () => {
    loam = await startLoam({ dbPath });
  }, 120_000);
  afterAll(() => loam?.stop());

  for (const [name, path] of [["the map-unit polygons in a box", MAPUNITS], ["the area report", AOI]] as const) {
    test(`${name}: cold, cached, 304 and after a restart (read back from the store), no WKT written or read`, async () => {
      const cold = await features(loam, path);
      expect(cold.count).toBeGreaterThan(0);
      expect([reads(), writtenPolygons()]).toEqual([0, []]);

      const cached = await features(loam, path);
      expect(cached.body.cache.hit).toBe(true);
      expect({ ...cached.body, cache: null }).toEqual({ ...cold.body, cache: null });
      const notModified = await loam.get(path, { headers: { "if-none-match": cold.etag } });
      expect(notModified.status).toBe(304);
      expect([reads(), writtenPolygons()]).toEqual([0, []]);

      // Another instance on the same LOAM_DB: the answer comes from the store, not from memory.
      const again = await startLoam({ dbPath });
      try {
        const stored = await features(again, path);
        expect(stored.body.cache.hit).toBe(true);
        expect({ ...stored.body, cache: null }).toEqual({ ...cold.body, cache: null });
        expect([reads(), writtenPolygons()]).toEqual([0, []]);
      } finally {
        await again.stop();
      }
    });
  }
});

describe("through SDA: each row's WKT is read once, at the transport's edge", () => {
  let snapshot: SnapshotTransport;
  let fake: FakeSda;
  let loam: RunningLoam;
  beforeAll(async () => {
    snapshot = new SnapshotTransport(await testSnapshot());
    fake = startFakeSda({ answerer: snapshot });
    loam = await startLoam({ source: new SdaTransport({ url: fake.url, timeoutMs: 10_000 }), env: { LOAM_UPSTREAM: "sda" } });
  }, 120_000);
  afterAll(async () => {
    await loam?.stop();
    fake?.close();
    snapshot?.close();
  });

  test("the map-unit polygons in a box: one read per row cold, none cached", async () => {
    const cold = await features(loam, MAPUNITS);
    expect(readWkt.mock.calls.length).toBe(cold.count);
    readWkt.mockClear();
    const cached = await features(loam, MAPUNITS);
    expect(cached.count).toBe(cold.count);
    expect(reads()).toBe(0);
  });

  test("the area report: one read per cut row cold, none cached", async () => {
    const cold = await features(loam, AOI);
    const polygons = cold.body.map_units.reduce((n: number, m: any) => n + m.polygon_count, 0);
    expect(readPolygonalWkt.mock.calls.length).toBe(polygons);
    readPolygonalWkt.mockClear();
    await features(loam, AOI);
    expect(reads()).toBe(0);
  });
});

test("a stored answer of native rows that are not polygons is refused (then discarded and fetched again by the cache)", async () => {
  const { polygonQuery } = await import("../../src/providers/usda_ssurgo/polygons");
  const { areaPolygonQuery } = await import("../../src/providers/usda_ssurgo/area-polygons");
  const { Payload } = await import("../../src/upstream/transport");
  const good = 'loam-polygons [["1","IA073","L138B","2765528","Clarion loam",[[[[-94.36,41.94],[-94.35,41.94],[-94.35,41.95],[-94.36,41.94]]]]]]';
  expect((await polygonQuery.decode(Payload.fromStore(good))).polygons[0]!.mapUnitKey).toBe("2765528");
  // The same text from an upstream is not Loam's rows: SDA must send its table.
  await expect(polygonQuery.decode(Payload.ofText(good))).rejects.toThrow(/Soil Data Access sent a body that is not valid JSON/);
  for (const bad of ["loam-polygons {}", 'loam-polygons [["1",null,null,"2",null,[[[[0,0],[1,"x"]]]]]]', 'loam-polygons [["1",null,null,"2",null]]', 'loam-polygons [[1,null,null,"2",null,[]]]']) {
    await expect(polygonQuery.decode(Payload.fromStore(bad))).rejects.toThrow("not rows of polygons");
    await expect(areaPolygonQuery.decode(Payload.fromStore(bad))).rejects.toThrow("not rows of polygons");
  }
});

test("a polygon answer over the points budget names where it came from: the snapshot, the cache's stored copy, never SDA", async () => {
  const { polygonQuery, nativeAnswer, POLYGON_ANSWER_MAX_POINTS } = await import("../../src/providers/usda_ssurgo/polygons");
  const { Payload } = await import("../../src/upstream/transport");
  const ring = Array.from({ length: POLYGON_ANSWER_MAX_POINTS + 1 }, (_, i) => [i % 2, 0] as [number, number]);
  const made = nativeAnswer([["1", "IA073", "L138B", "2765528", "Clarion loam", [[ring]]]]);
  const overBudget = new RegExp(`^The offline snapshot answered with a map-unit polygon answer of more than ${POLYGON_ANSWER_MAX_POINTS} points`);
  await expect(polygonQuery.decode(made)).rejects.toThrow(overBudget);
  await expect(polygonQuery.decode(Payload.fromStore(made.stored()))).rejects.toThrow(/^A snapshot answer stored in the cache is a map-unit polygon answer of more than/);
});
