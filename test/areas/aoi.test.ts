/**
 * GET /v1/soil/aoi on the real Iowa exports, in snapshot mode and through the fake SDA: the report's map
 * units and areas equal those the test computes itself from the shapefiles (reference.py: pyshp,
 * shapely, pyproj.Geod on WGS84) within 0.1 %, and the area-weighted clay 0-30 cm equals the test's own
 * weighting of the map units' summaries as GET /v1/soil/mapunits/{key} answers them.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { testSnapshot, useSnapshotAndFakeSda, type RunningLoam } from "../support/server";
import { queryKind } from "../support/queries";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { parseRfc4180, records } from "../support/csv";
import { referenceAois, referenceAvailable, referenceCut, within, type ReferenceCut } from "./reference";

// Set before the hooks are declared: starting the servers, and each comparison (it asks the reference,
// a Python process, and several answers), may take far longer than 5 s on a busy 2-core machine.
setDefaultTimeout(60_000);
const { snapshot, viaSda, fake, contract } = useSnapshotAndFakeSda();
const MODES = ["snapshot", "sda"] as const;
const loamOf = (mode: (typeof MODES)[number]): RunningLoam => (mode === "snapshot" ? snapshot : viaSda);
const HAS_REFERENCE = referenceAvailable();
const AOIS = HAS_REFERENCE ? referenceAois() : [];

const CLAY = "properties=clay&depth_bottom_cm=30";
const TOLERANCE = 0.001;

/** A bbox across the L55 / L138B boundary of the IA015 export (near the data README's two known points). */
const STRADDLING_BBOX = [-93.7907, 42.0067, -93.7902, 42.0071] as const;
/** The IA183 AOI shrunk a little, with a rectangular hole in it. */
const WITH_HOLE =
  "POLYGON ((-91.8162 41.3022, -91.8128 41.3022, -91.8128 41.3067, -91.8162 41.3067, -91.8162 41.3022), (-91.815 41.3035, -91.815 41.305, -91.814 41.305, -91.814 41.3035, -91.815 41.3035))";

/** The report against the reference: the same map units, each area and the whole within 0.1 %, percents consistent. */
function expectAreasMatch(body: any, reference: ReferenceCut, fullyMapped: boolean) {
  expect(within(body.aoi.area_ha, reference.aoi_m2 / 10_000, TOLERANCE)).toBe(true);
  expect(body.map_units.map((m: any) => m.map_unit_key).sort()).toEqual(Object.keys(reference.by_mukey).sort());
  for (const unit of body.map_units) {
    const expected = reference.by_mukey[unit.map_unit_key]!;
    if (!within(unit.area_ha, expected / 10_000, TOLERANCE)) throw new Error(`${unit.map_unit_key}: ${unit.area_ha} ha, expected ${expected / 10_000}`);
    expect(within(unit.area_acres, expected / 4046.8564224, TOLERANCE)).toBe(true);
    expect(within(unit.percent_of_aoi, (expected / reference.aoi_m2) * 100, TOLERANCE)).toBe(true);
  }
  // Largest first.
  const areas = body.map_units.map((m: any) => m.area_ha);
  expect(areas).toEqual([...areas].sort((a: number, b: number) => b - a));
  const percents = body.map_units.reduce((n: number, m: any) => n + m.percent_of_aoi, 0);
  if (fullyMapped) {
    expect(Math.abs(percents - 100)).toBeLessThan(0.01);
    expect(body.aoi.mapped_percent).toBeCloseTo(100, 2);
  } else {
    expect(Math.abs(percents - body.aoi.mapped_percent)).toBeLessThan(0.01);
  }
}

/** The test's own weighting: each map unit's clay 0-30 cm (from /v1/soil/mapunits/{key}) by its reference area. */
async function expectWeightedClay(loam: RunningLoam, body: any, reference: ReferenceCut) {
  let sum = 0;
  let weight = 0;
  for (const [key, m2] of Object.entries(reference.by_mukey)) {
    const one = await loam.json(`/v1/soil/mapunits/${key}?${CLAY}`);
    expect(one.status).toBe(200);
    const summary = one.body.summaries[0];
    // The per-map-unit summaries in the report are those of the map-unit endpoint, value for value.
    expect(body.map_units.find((m: any) => m.map_unit_key === key).summaries).toEqual(one.body.summaries);
    if (summary.value === null) continue;
    sum += summary.value * m2;
    weight += m2;
  }
  const clay = body.summaries.find((s: any) => s.property.id === "clay");
  expect(clay.method).toBe("weighted_average");
  expect(clay.unit).toBe("%");
  expect(clay.depth).toEqual({ top_cm: 0, bottom_cm: 30 });
  // Rounded to 4 significant digits (docs/decisions.md#precision): within half a unit of the 4th digit.
  expect(within(clay.value, sum / weight, 5e-4)).toBe(true);
  // The contributions name every map unit, with its area.
  expect(clay.contributions.map((c: any) => c.map_unit_key).sort()).toEqual(Object.keys(reference.by_mukey).sort());
  for (const c of clay.contributions) expect(within(c.area_ha, reference.by_mukey[c.map_unit_key]! / 10_000, TOLERANCE)).toBe(true);
}

describe.skipIf(!HAS_REFERENCE)("the AOI boundary of each Iowa export (spatial/aoi_a_aoi.shp)", () => {
  test("the reference found three exports, each fully mapped by its own polygons", () => {
    expect(AOIS.map((a) => a.export)).toEqual(["IA015-aoi", "IA073-aoi", "IA183-aoi"]);
    for (const aoi of AOIS) expect(within(Object.values(aoi.by_mukey).reduce((a, b) => a + b, 0), aoi.aoi_m2, 1e-5)).toBe(true);
  });

  for (const mode of MODES) {
    for (const name of ["IA015-aoi", "IA073-aoi", "IA183-aoi"]) {
      test(`${name}: map units, areas (0.1 %), percents summing to 100 and the area-weighted clay 0-30 cm equal the shapefiles' own (${mode})`, async () => {
        const reference = AOIS.find((a) => a.export === name)!;
        const loam = loamOf(mode);
        const { status, body } = await loam.json(`/v1/soil/aoi?polygon=${encodeURIComponent(reference.wkt)}&${CLAY}`);
        expect(status).toBe(200);
        contract.assert("AoiReport", body);
        expect(body.query).toMatchObject({ bbox: null, provider: "usda_ssurgo", properties: ["clay"], method: null, depth_top_cm: 0, depth_bottom_cm: 30 });
        expect(body.aoi.vertex_count).toBe(4);
        expectAreasMatch(body, reference, true);
        await expectWeightedClay(loam, body, reference);
        expect(body.source).toMatchObject({ provider: "usda_ssurgo", kind: mode });
        for (const unit of body.map_units) expect(unit.area_symbol).toBe(name.slice(0, 5));
      });
    }
  }
});

describe.skipIf(!HAS_REFERENCE)("a bbox straddling two map units, and a polygon with a hole", () => {
  for (const mode of MODES) {
    test(`the bbox across the IA015 L55 / L138B boundary: two map units, areas and weighted clay as the shapefiles give (${mode})`, async () => {
      const [w, s, e, n] = STRADDLING_BBOX;
      const reference = referenceCut(`POLYGON ((${w} ${s}, ${e} ${s}, ${e} ${n}, ${w} ${n}, ${w} ${s}))`);
      expect(Object.keys(reference.by_mukey).sort()).toEqual(["2765522", "2834849"]);
      const loam = loamOf(mode);
      const { status, body } = await loam.json(`/v1/soil/aoi?bbox=${STRADDLING_BBOX.join(",")}&${CLAY}`);
      expect(status).toBe(200);
      contract.assert("AoiReport", body);
      expect(body.query.bbox).toEqual([...STRADDLING_BBOX]);
      expectAreasMatch(body, reference, true);
      await expectWeightedClay(loam, body, reference);
    });

    test(`a polygon with a hole in the IA183 AOI: the hole is not counted (${mode})`, async () => {
      const reference = referenceCut(WITH_HOLE);
      const outer = referenceCut(WITH_HOLE.slice(0, WITH_HOLE.indexOf("), (")) + "))");
      expect(reference.aoi_m2).toBeLessThan(outer.aoi_m2 * 0.95);
      const loam = loamOf(mode);
      const { status, body } = await loam.json(`/v1/soil/aoi?polygon=${encodeURIComponent(WITH_HOLE)}&${CLAY}`);
      expect(status).toBe(200);
      contract.assert("AoiReport", body);
      expect(body.aoi.vertex_count).toBe(8);
      expectAreasMatch(body, reference, true);
      await expectWeightedClay(loam, body, reference);
    });
  }

  test("SDA mode sends mupolygon cut by STIntersection where STIntersects, as soilDB's SDA_spatialQuery does, bounded by TOP", async () => {
    const { status } = await viaSda.json(`/v1/soil/aoi?polygon=${encodeURIComponent(WITH_HOLE)}&properties=clay&depth_bottom_cm=17`);
    expect(status).toBe(200);
    const sql = fake.lastQueries.findLast((q) => q.includes("STIntersection"))!;
    expect(sql).toBeDefined();
    const area = "geometry::STGeomFromText('POLYGON ((-91.8162 41.3022, -91.8128 41.3022, -91.8128 41.3067, -91.8162 41.3067, -91.8162 41.3022), (-91.815 41.3035, -91.815 41.305, -91.814 41.305, -91.814 41.3035, -91.815 41.3035))', 4326)";
    expect(sql).toContain(`mupolygongeo.STIntersection(${area}).STAsText() AS geom`);
    expect(sql).toContain(`WHERE mupolygongeo.STIntersects(${area}) = 1`);
    expect(sql).toMatch(/^SELECT TOP \(5001\)\n/);
    expect(sql).toContain("FROM mupolygon AS P\nINNER JOIN mapunit AS mu ON mu.mukey = P.mukey");
    expect(sql).toContain("ORDER BY P.mupolygonkey");
  });
});

describe("SDA's own answer shapes", () => {
  const IA073 = "POLYGON ((-94.361846 41.943158, -94.358198 41.943158, -94.358198 41.945788, -94.361846 41.945788, -94.361846 41.943158))";

  test("STIntersection's GEOMETRYCOLLECTION keeps its polygon, a LINESTRING (a polygon that only touches) adds no map unit", async () => {
    // The map units come from the cache: only the polygon query meets the fixed answer below.
    const plain = await viaSda.json(`/v1/soil/aoi?polygon=${encodeURIComponent(IA073)}&${CLAY}`);
    expect(plain.status).toBe(200);
    // SDA's JSON+COLUMNNAME+METADATA table for this area, as the snapshot writes it in SDA's shape, then edited as SQL Server writes cuts.
    const rings = [[[-94.361846, 41.943158], [-94.358198, 41.943158], [-94.358198, 41.945788], [-94.361846, 41.945788], [-94.361846, 41.943158]]];
    const text = await (await new SnapshotTransport(await testSnapshot()).fetch(queryKind("ssurgo_area_polygons"), { rings, limit: 5000 })).text();
    const table = JSON.parse(text).Table as (string | null)[][];
    const geom = table[0]!.indexOf("geom");
    const first = table[2]!;
    first[geom] = `GEOMETRYCOLLECTION (${first[geom]}, LINESTRING (-94.361846 41.943158, -94.361 41.943158), POINT (-94.361846 41.943158))`;
    const touching = [...first];
    touching[table[0]!.indexOf("mupolygonkey")] = "999999999";
    touching[table[0]!.indexOf("mukey")] = "2765522";
    touching[geom] = "LINESTRING (-94.361846 41.944, -94.361846 41.945)";
    table.push(touching);
    fake.respondWith({ status: 200, contentType: "application/json; charset=utf-8", body: JSON.stringify({ Table: table }) });
    try {
      // Another area text (one vertex moved by a micro-degree), so the polygon query is not a cache hit.
      const moved = IA073.replace("-94.358198 41.945788", "-94.358197 41.945788");
      const { status, body } = await viaSda.json(`/v1/soil/aoi?polygon=${encodeURIComponent(moved)}&${CLAY}`);
      expect(status).toBe(200);
      contract.assert("AoiReport", body);
      expect(body.map_units.map((m: any) => [m.map_unit_key, m.polygon_count, m.area_ha])).toEqual(plain.body.map_units.map((m: any) => [m.map_unit_key, m.polygon_count, m.area_ha]));
    } finally {
      fake.respondWith(null);
    }
  });

  test("an SDA answer whose geometry is not WKT is a 502 naming the provider, and nothing is kept", async () => {
    const rings = [[[-94.361846, 41.943158], [-94.358198, 41.943158], [-94.358198, 41.945788], [-94.361846, 41.945788], [-94.361846, 41.943158]]];
    const text = await (await new SnapshotTransport(await testSnapshot()).fetch(queryKind("ssurgo_area_polygons"), { rings, limit: 5000 })).text();
    const table = JSON.parse(text).Table as (string | null)[][];
    table[2]![table[0]!.indexOf("geom")] = "CIRCULARSTRING (0 0, 1 1, 2 0)";
    fake.respondWith({ status: 200, contentType: "application/json; charset=utf-8", body: JSON.stringify({ Table: table }) });
    const moved = IA073.replace("-94.358198 41.945788", "-94.358196 41.945788");
    try {
      const { status, body } = await viaSda.json(`/v1/soil/aoi?polygon=${encodeURIComponent(moved)}&${CLAY}`);
      expect(status).toBe(502);
      contract.assert("ErrorResponse", body);
      expect(body.error.provider).toBe("usda_ssurgo");
    } finally {
      fake.respondWith(null);
    }
    const again = await viaSda.json(`/v1/soil/aoi?polygon=${encodeURIComponent(moved)}&${CLAY}`);
    expect(again.status).toBe(200);
    expect(again.body.cache.hit).toBe(false);
  });
});

describe("GET /v1/soil/aoi: other forms and edges", () => {
  const IA073_BBOX = "-94.361846,41.943158,-94.358198,41.945788";

  test("an area outside every survey: 200, mapped_percent 0, no map units, null values and a warning", async () => {
    for (const loam of [snapshot, viaSda]) {
      const { status, body } = await loam.json("/v1/soil/aoi?bbox=-94.35,41.95,-94.34,41.96&properties=clay,drainage_class");
      expect(status).toBe(200);
      contract.assert("AoiReport", body);
      expect(body.aoi.mapped_percent).toBe(0);
      expect(body.aoi.area_ha).toBeGreaterThan(80);
      expect(body.map_units).toEqual([]);
      expect(body.summaries.map((s: any) => [s.property.id, s.value, s.category, s.percent_of_aoi])).toEqual([
        ["clay", null, null, 0],
        ["drainage_class", null, null, 0],
      ]);
      expect(body.warnings.join(" ")).toContain("The area falls in no usda_ssurgo map unit (mapped_percent 0): ");
    }
  });

  test("an area partly mapped: mapped_percent below 100 and a warning naming it", async () => {
    const [w, s, e, n] = IA073_BBOX.split(",").map(Number) as [number, number, number, number];
    const bbox = [w - 0.002, s, e, n];
    const { status, body } = await snapshot.json(`/v1/soil/aoi?bbox=${bbox.join(",")}&properties=clay`);
    expect(status).toBe(200);
    expect(body.aoi.mapped_percent).toBeGreaterThan(50);
    expect(body.aoi.mapped_percent).toBeLessThan(80);
    expect(body.warnings.join(" ")).toContain(`Only ${body.aoi.mapped_percent} % of the area is mapped`);
  });

  test("a class property: the class holding the largest area, contributions with each map unit's class", async () => {
    const { body } = await snapshot.json(`/v1/soil/aoi?bbox=${IA073_BBOX}&properties=drainage_class`);
    const summary = body.summaries[0];
    expect(summary.method).toBe("dominant_condition");
    const byClass = new Map<string, number>();
    for (const unit of body.map_units) {
      const category = unit.summaries[0].category;
      byClass.set(category, (byClass.get(category) ?? 0) + unit.area_ha);
    }
    const expected = [...byClass.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    expect(summary.category).toBe(expected);
    expect(summary.value).toBeNull();
  });

  test("format=csv: one row per map unit and property, then the area's rows; areas as in the JSON", async () => {
    const json = (await snapshot.json(`/v1/soil/aoi?bbox=${IA073_BBOX}&properties=clay,ph&depth_bottom_cm=30`)).body;
    const response = await snapshot.get(`/v1/soil/aoi?bbox=${IA073_BBOX}&properties=clay,ph&depth_bottom_cm=30&format=csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const rows = records(parseRfc4180(await response.text()));
    expect(rows.length).toBe(json.map_units.length * 2 + 2);
    for (const unit of json.map_units) {
      const own = rows.filter((r) => r.scope === "map_unit" && r.map_unit_key === unit.map_unit_key);
      expect(own.map((r) => r.property_id)).toEqual(["clay", "ph"]);
      expect(Number(own[0]!.area_ha)).toBe(unit.area_ha);
      expect(Number(own[0]!.percent_of_aoi)).toBe(unit.percent_of_aoi);
      expect(Number(own[0]!.value)).toBe(unit.summaries[0].value);
    }
    const whole = rows.filter((r) => r.scope === "aoi");
    expect(whole.map((r) => [r.property_id, Number(r.value)])).toEqual(json.summaries.map((s: any) => [s.property.id, s.value]));
  });

  test("format=geojson: the cut polygons, each inside the area, their areas summing to the map units'", async () => {
    const report = (await snapshot.json(`/v1/soil/aoi?bbox=${IA073_BBOX}`)).body;
    const response = await snapshot.get(`/v1/soil/aoi?bbox=${IA073_BBOX}&format=geojson`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/geo+json");
    const body = await response.json();
    contract.assert("AoiFeatureCollection", body);
    const [w, s, e, n] = IA073_BBOX.split(",").map(Number) as [number, number, number, number];
    for (const feature of body.features) {
      const polygons = feature.geometry.type === "Polygon" ? [feature.geometry.coordinates] : feature.geometry.coordinates;
      for (const [lon, lat] of polygons.flat(2)) {
        expect(lon).toBeGreaterThanOrEqual(w - 1e-9);
        expect(lon).toBeLessThanOrEqual(e + 1e-9);
        expect(lat).toBeGreaterThanOrEqual(s - 1e-9);
        expect(lat).toBeLessThanOrEqual(n + 1e-9);
      }
    }
    for (const unit of report.map_units) {
      const own = body.features.filter((f: any) => f.properties.map_unit_key === unit.map_unit_key);
      expect(own.length).toBe(unit.polygon_count);
      expect(within(own.reduce((a: number, f: any) => a + f.properties.area_ha, 0), unit.area_ha, 1e-5)).toBe(true);
    }
  });

  test("a second request is a cache hit with the same entity tag, and If-None-Match gives 304", async () => {
    const path = `/v1/soil/aoi?bbox=${IA073_BBOX}&properties=clay&depth_top_cm=5&depth_bottom_cm=25`;
    const first = await snapshot.get(path);
    expect(first.status).toBe(200);
    const second = await snapshot.get(path);
    expect((await second.json()).cache.hit).toBe(true);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    const again = await snapshot.get(path, { headers: { "If-None-Match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });
});
