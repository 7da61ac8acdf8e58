/**
 * GET /v1/soil/mapunits?bbox=…: map-unit polygons from the real IA073 and MH936 exports, in snapshot
 * mode and through the fake SDA (which answers the mupolygon STIntersects query with WKT, as SDA does).
 * Containment, holes and ring order are checked with this file's own geometry and its own shapefile
 * reader, not with the code under test; GDAL's ogrinfo reads an answer when it is installed.
 */
import { tool } from "../support/tools";
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import fc from "fast-check";
import { DATA_DIR, testSnapshot, useSnapshotAndFakeSda } from "../support/server";
import { contains } from "../support/geometry";

const { snapshot, viaSda, fake, contract } = useSnapshotAndFakeSda();

// The data README's known point: IA073 AOI, map unit 2765528 L138B.
const POINT = { lat: 41.944131, lon: -94.359608 };
const BOX = [POINT.lon - 0.01, POINT.lat - 0.01, POINT.lon + 0.01, POINT.lat + 0.01];
const OGRINFO = tool("ogrinfo", "gdal-bin");

type Position = number[];
type Rings = Position[][];


/** Shoelace: > 0 counter-clockwise. */
function area(ring: Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += ring[j]![0]! * ring[i]![1]! - ring[i]![0]! * ring[j]![1]!;
  return sum / 2;
}

/** Polygon records of an ESRI shapefile (type 5), read from the bytes: each record's rings as stored. */
function shapefileRecords(path: string): { bbox: number[]; rings: Rings }[] {
  const bytes = readFileSync(path);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: { bbox: number[]; rings: Rings }[] = [];
  let at = 100;
  while (at < bytes.byteLength) {
    const length = view.getInt32(at + 4, false) * 2;
    const r = at + 8;
    if (view.getInt32(r, true) === 5) {
      const bbox = [0, 1, 2, 3].map((i) => view.getFloat64(r + 4 + i * 8, true));
      const parts = view.getInt32(r + 36, true);
      const points = view.getInt32(r + 40, true);
      const starts = Array.from({ length: parts }, (_, i) => view.getInt32(r + 44 + i * 4, true));
      const base = r + 44 + parts * 4;
      const rings = starts.map((start, i) => {
        const end = i + 1 < parts ? starts[i + 1]! : points;
        return Array.from({ length: end - start }, (_, k) => [view.getFloat64(base + (start + k) * 16, true), view.getFloat64(base + (start + k) * 16 + 8, true)]);
      });
      records.push({ bbox, rings });
    }
    at += 8 + length;
  }
  return records;
}

const key = (ring: Position[]) => new Set(ring.map((p) => `${p[0]},${p[1]}`));
const sameVertices = (a: Position[], b: Position[]) => {
  const ka = key(a), kb = key(b);
  return ka.size === kb.size && [...ka].every((p) => kb.has(p));
};

for (const mode of ["snapshot", "fake SDA"] as const) {
  describe(`GET /v1/soil/mapunits (${mode})`, () => {
    const loam = () => (mode === "snapshot" ? snapshot : viaSda);

    test("a box of ±0.01° around 41.944131, -94.359608 returns L138B's polygon (mukey 2765528) containing the point", async () => {
      const { status, body } = await loam().json(`/v1/soil/mapunits?bbox=${BOX.join(",")}`);
      expect(status).toBe(200);
      contract.assert("MapUnitCollection", body);
      expect(body).toMatchObject({ type: "FeatureCollection", provider: "usda_ssurgo", truncated: false });
      expect(body.query).toEqual({ bbox: BOX, provider: "usda_ssurgo", limit: 2000, property: null, properties: [], method: null, depth_top_cm: 0, depth_bottom_cm: 200, include_minors: true, miscellaneous_areas: "include" });
      const at = body.features.filter((f: any) => contains(f.geometry, POINT.lon, POINT.lat));
      expect(at).toHaveLength(1);
      expect(at[0].properties).toEqual({
        map_unit_key: "2765528",
        map_unit_symbol: "L138B",
        map_unit_name: "Clarion loam, Bemis moraine, 2 to 6 percent slopes",
        area_symbol: "IA073",
      });
      expect(at[0].id).toBe(String(at[0].id));
      // [lon, lat] order, RFC 7946 winding (outer rings counter-clockwise, holes clockwise), closed rings.
      for (const f of body.features) {
        const polygons: Rings[] = f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates;
        for (const rings of polygons) {
          rings.forEach((ring, i) => {
            expect(ring[0]).toEqual(ring.at(-1)!);
            expect(i === 0 ? area(ring) > 0 : area(ring) < 0).toBe(true);
            for (const [lon, lat] of ring) {
              expect(lon).toBeGreaterThan(-94.5);
              expect(lon).toBeLessThan(-94.2);
              expect(lat).toBeGreaterThan(41.8);
              expect(lat).toBeLessThan(42.1);
            }
          });
        }
        expect(f.properties.area_symbol).toBe("IA073");
      }
      // Every polygon meets the box, and different polygons have different ids.
      expect(new Set(body.features.map((f: any) => f.id)).size).toBe(body.features.length);
      expect(body.warnings.join(" ")).toMatch(/delineations of a soil survey map/);
      if (mode === "fake SDA") {
        const sql = fake.lastQueries.find((q) => q.includes("FROM mupolygon AS P"))!;
        expect(sql).toContain("mupolygongeo.STAsText() AS geom");
        expect(sql).toContain(`mupolygongeo.STIntersects(geometry::STGeomFromText('POLYGON((${BOX[0]} ${BOX[1]}, ${BOX[2]} ${BOX[1]}, ${BOX[2]} ${BOX[3]}, ${BOX[0]} ${BOX[3]}, ${BOX[0]} ${BOX[1]}))', 4326)) = 1`);
        expect(sql).toContain("SELECT TOP (2001)");
        expect(sql).not.toMatch(/--|\/\*/);
      }
    });

    test("property=clay&method=weighted_average&depths 0–30: each feature's summary is its map unit's GET /v1/soil/mapunits/{key} value", async () => {
      const { status, body } = await loam().json(`/v1/soil/mapunits?bbox=${BOX.join(",")}&property=clay&method=weighted_average&depth_top_cm=0&depth_bottom_cm=30`);
      expect(status).toBe(200);
      contract.assert("MapUnitCollection", body);
      expect(body.query).toMatchObject({ property: "clay", method: "weighted_average", depth_top_cm: 0, depth_bottom_cm: 30 });
      const keys = [...new Set<string>(body.features.map((f: any) => f.properties.map_unit_key))];
      expect(keys.length).toBeGreaterThanOrEqual(3);
      for (const key of keys) {
        const one = await loam().json(`/v1/soil/mapunits/${key}?properties=clay&method=weighted_average&depth_top_cm=0&depth_bottom_cm=30`);
        expect(one.status).toBe(200);
        const expected = one.body.summaries[0];
        for (const f of body.features.filter((f: any) => f.properties.map_unit_key === key)) {
          expect(f.properties.summary).toEqual({ value: expected.value, category: expected.category, unit: expected.unit, percent_of_map_unit: expected.percent_of_map_unit });
        }
      }
      expect(body.features.some((f: any) => typeof f.properties.summary.value === "number" && f.properties.summary.unit === "%")).toBe(true);
    });

    test("available_water_storage 0–25 cm weighted_average per feature equals SSURGO's own muaggatt.aws025wta", async () => {
      const db = new Database(await testSnapshot(), { readonly: true });
      const aws = new Map(db.query<{ mukey: string; aws025wta: number | null }, []>("SELECT mukey, aws025wta FROM muaggatt").all().map((r) => [r.mukey, r.aws025wta]));
      db.close();
      const { body } = await loam().json(`/v1/soil/mapunits?bbox=${BOX.join(",")}&property=available_water_storage&depth_top_cm=0&depth_bottom_cm=25`);
      expect(body.query.method).toBe("weighted_average");
      expect(body.features.length).toBeGreaterThan(0);
      for (const f of body.features) {
        const official = aws.get(f.properties.map_unit_key);
        expect(official).not.toBeNull();
        expect(Math.round(f.properties.summary.value * 100) / 100).toBe(official!);
        expect(f.properties.summary.unit).toBe("cm");
      }
    });

    test("limit=1 truncates and says so", async () => {
      const { status, body } = await loam().json(`/v1/soil/mapunits?bbox=${BOX.join(",")}&limit=1`);
      expect(status).toBe(200);
      expect(body.features).toHaveLength(1);
      expect(body.truncated).toBe(true);
      expect(body.warnings.join(" ")).toMatch(/Truncated: more than 1 polygons/);
    });

    test("polygons keep their holes: MH936 records with holes come back with the same rings", async () => {
      const records = shapefileRecords(join(DATA_DIR, "ssurgo/MH936/spatial/soilmu_a_mh936.shp")).filter((r) => r.rings.some((ring) => area(ring) > 0));
      // Shapefile holes are counter-clockwise; MH936 has some.
      expect(records.length).toBeGreaterThanOrEqual(2);
      for (const record of records.slice(0, 3)) {
        const [w, s, e, n] = record.bbox;
        const { status, body } = await loam().json(`/v1/soil/mapunits?bbox=${w},${s},${e},${n}`);
        expect(status).toBe(200);
        const holes = record.rings.filter((ring) => area(ring) > 0);
        const outer = record.rings.find((ring) => area(ring) < 0)!;
        const match = body.features.find((f: any) => f.geometry.type === "Polygon" && sameVertices(f.geometry.coordinates[0], outer));
        expect(match).toBeDefined();
        const served: Rings = match.geometry.coordinates;
        expect(served).toHaveLength(1 + holes.length);
        for (const hole of holes) expect(served.slice(1).some((ring) => sameVertices(ring, hole))).toBe(true);
        // A point inside a hole (near its first vertex, towards its centroid) is not inside the served polygon.
        const hole = holes[0]!;
        const cx = hole.reduce((t, p) => t + p[0]!, 0) / hole.length, cy = hole.reduce((t, p) => t + p[1]!, 0) / hole.length;
        if (contains({ type: "Polygon", coordinates: [hole] }, cx, cy)) expect(contains(match.geometry, cx, cy)).toBe(false);
      }
    });

    test("an empty box (open ocean in MH936) is 200 with no features and a coverage warning", async () => {
      const { status, body } = await loam().json("/v1/soil/mapunits?bbox=171.39,7.59,171.41,7.61");
      expect(status).toBe(200);
      contract.assert("MapUnitCollection", body);
      expect(body.features).toEqual([]);
      expect(body.warnings.join(" ")).toMatch(/No map-unit polygon meets the bbox/);
    });
  });
}

describe("GET /v1/soil/mapunits: bad input is a 422 (the pedon bbox rules, 0.25° a side)", () => {
  const cases: [string, RegExp][] = [
    ["bbox=-94.5,41.8,-94.2,41.9", /spans 0\.3 degrees of longitude; at most 0\.25/],
    ["bbox=-94.4,41.7,-94.3,42", /spans 0\.3 degrees of latitude; at most 0\.25/],
    ["bbox=-94.3,41.9,-94.4,42", /min_lon .* must be less than max_lon/],
    ["bbox=-94.3,41.9,-94.2", /four comma-separated numbers/],
    ["bbox=a,41.9,-94.2,42", /item 1 \(min_lon\) must be a decimal/],
    ["bbox=-94.3,91,-94.2,92", /latitude from -90 to 90/],
    [`bbox=${BOX.join(",")}&limit=0`, /limit/],
    [`bbox=${BOX.join(",")}&limit=5001`, /limit/],
    [`bbox=${BOX.join(",")}&method=weighted_average`, /method.*needs a 'property'/],
    [`bbox=${BOX.join(",")}&depth_top_cm=30&depth_bottom_cm=10`, /depth_bottom_cm/],
    [`bbox=${BOX.join(",")}&provider=usda_kssl`, /serves laboratory pedons, not map-unit polygons.*use GET \/v1\/pedons/],
    [`bbox=${BOX.join(",")}&property=nonsense`, /'property' must be a property map-unit summaries answer/],
    [`bbox=${BOX.join(",")}&property=clay&method=dominant_condition`, /dominant_condition/],
    [`bbox=${BOX.join(",")}&property=clay&method=median`, /'method' must be one of/],
    ["", /bbox.*required/],
  ];
  for (const [query, message] of cases) {
    test(query || "(no bbox)", async () => {
      const { status, body } = await snapshot.json(`/v1/soil/mapunits?${query}`);
      expect(status).toBe(422);
      contract.assert("ErrorResponse", body);
      expect(body.error.code).toBe("validation_error");
      expect(body.error.message).toMatch(message);
    });
  }
  test("an unknown provider is a 404", async () => {
    const { status, body } = await snapshot.json(`/v1/soil/mapunits?bbox=${BOX.join(",")}&provider=nope`);
    expect(status).toBe(404);
    expect(body.error.code).toBe("unknown_provider");
  });
});

test("the collection carries an ETag; a matching If-None-Match is a 304, a second request a cache hit", async () => {
  const path = `/v1/soil/mapunits?bbox=${BOX.join(",")}&property=ph`;
  const first = await snapshot.get(path);
  expect(first.status).toBe(200);
  const etag = first.headers.get("etag")!;
  expect(etag).toBeTruthy();
  expect(first.headers.get("cache-control")).toMatch(/^public, max-age=\d+/);
  await first.arrayBuffer();
  const again = await snapshot.get(path, { headers: { "if-none-match": etag } });
  expect(again.status).toBe(304);
  const body = await snapshot.json(path);
  expect(body.body.cache.hit).toBe(true);
  expect(body.body.query).toMatchObject({ property: "ph", method: "weighted_average" });
});

test("any query string: 200 with a collection or 422 with an ErrorResponse, never another status", async () => {
  const near = (center: number, spread: number) => fc.double({ min: center - spread, max: center + spread, noNaN: true }).map((v) => String(Number(v.toFixed(6))));
  const token = fc.oneof(fc.constant(""), fc.string({ maxLength: 12 }), fc.constantFrom("NaN", "1e400", "-0", "0x10", "clay", "ph", "awc", "drainage_class", "min", "max", "weighted_average", "dominant_condition"));
  const bbox = fc.oneof(
    fc.tuple(near(-94.36, 0.3), near(41.94, 0.3), near(-94.36, 0.3), near(41.94, 0.3)).map((t) => t.join(",")),
    fc.array(token, { maxLength: 5 }).map((t) => t.join(",")),
  );
  const params = fc.record(
    { bbox, limit: fc.oneof(fc.integer({ min: -2, max: 6000 }).map(String), token), property: token, method: token, depth_top_cm: fc.oneof(fc.integer({ min: -5, max: 210 }).map(String), token), depth_bottom_cm: fc.oneof(fc.integer({ min: -5, max: 210 }).map(String), token) },
    { requiredKeys: ["bbox"] },
  );
  await fc.assert(
    fc.asyncProperty(params, async (p) => {
      const query = Object.entries(p).map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`).join("&");
      const { status, body } = await snapshot.json(`/v1/soil/mapunits?${query}`);
      expect([200, 422]).toContain(status);
      contract.assert(status === 200 ? "MapUnitCollection" : "ErrorResponse", body);
    }),
    { numRuns: 150 },
  );
});

describe("GDAL reads the answer", () => {
  test.skipIf(!OGRINFO)("ogrinfo reads the collection as EPSG:4326 polygons with the features' attributes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loam-mapunits-"));
    const { body } = await snapshot.json(`/v1/soil/mapunits?bbox=${BOX.join(",")}`);
    const file = join(dir, "mapunits.geojson");
    writeFileSync(file, JSON.stringify(body));
    const run = Bun.spawnSync([OGRINFO!, "-ro", "-al", "-so", file]);
    const out = run.stdout.toString();
    expect(run.exitCode).toBe(0);
    expect(out).toMatch(/Geometry: (Multi )?Polygon/);
    expect(out).toContain(`Feature Count: ${body.features.length}`);
    expect(out).toMatch(/ID\["EPSG",4326\]|WGS 84/);
    expect(out).toMatch(/map_unit_key: String/);
    // Every feature as GDAL reads it: L138B's polygon contains the point (GDAL's own geometry text).
    const full = Bun.spawnSync([OGRINFO!, "-ro", "-al", "-q", "-where", "map_unit_key = '2765528'", file]).stdout.toString();
    expect(full).toMatch(/map_unit_symbol \(String\) = L138B/);
    expect(full).toMatch(/POLYGON \(\(-94\.\d+ 41\.\d+/);

    // Holes survive GDAL's reading too: an MH936 polygon with three holes has four rings.
    const mh = await snapshot.json("/v1/soil/mapunits?bbox=171.7258,6.0784,171.7411,6.0941");
    const holed = mh.body.features.find((f: any) => f.geometry.type === "Polygon" && f.geometry.coordinates.length === 4);
    expect(holed).toBeDefined();
    const one = join(dir, "holed.geojson");
    writeFileSync(one, JSON.stringify({ type: "FeatureCollection", features: [holed] }));
    const text = Bun.spawnSync([OGRINFO!, "-ro", "-al", "-q", one]).stdout.toString();
    const wkt = /POLYGON \((.*)\)\s*$/m.exec(text)![1]!;
    expect(wkt.split("),(").length).toBe(4);
  });
});
