/**
 * The `map_unit_polygons` shape is generic (docs/architecture.md#shapes): a fixture mapped_location
 * provider with `mapUnits` and `mapUnitPolygons` parts (test/fixtures/fixture_polygons: the four real
 * polygons of the WSS export IA015-aoi in memory, its own key syntaxes and transport), registered with
 * one line as the registry's first mapped_location provider, is served through GET /v1/soil/mapunits
 * (JSON, its cursor, CSV), GET /v1/soil/mapunits/{map_unit_key} (its 404 and 422 in its words), the AOI
 * report (test/areas/reference.py's cut of the shapefiles), the OGC `mapunits` collection (extent, items, one item) and the catalog. Expected geometry and attributes come
 * from pyshp's reading of the shapefile, the map units and components from the tests' own reader of the
 * tabular files (test/summaries/source-files.ts), never from the fixture.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { fixturePolygons, polygonsTransport } from "../fixtures/fixture_polygons";
import { parseRfc4180, records } from "../support/csv";
import { useLoam } from "../support/server";
import { python } from "../support/tools";
import { DATA_DIR, readTable } from "../summaries/source-files";
import { referenceCut, referencePoints, within } from "../areas/reference";

const { loam, contract } = useLoam({ providers: [fixturePolygons, ...DEFAULT_PROVIDERS] });
const py = python("shapefile");
const SPATIAL = join(DATA_DIR, "ssurgo", "IA015-aoi", "spatial");

interface Shape {
  record: { AREASYMBOL: string; MUSYM: string; MUKEY: string };
  rings: number[][][];
}

/** The shapefile as pyshp reads it: each record's attributes and rings, and the file's box. */
function pyshp(): { shapes: Shape[]; bbox: number[] } {
  const file = join(SPATIAL, readdirSync(SPATIAL).find((f) => f.startsWith("soilmu_a_") && f.endsWith(".shp"))!);
  const script = `import json, shapefile
r = shapefile.Reader(${JSON.stringify(file)})
out = []
for sr in r.shapeRecords():
    pts = [list(p) for p in sr.shape.points]
    parts = list(sr.shape.parts) + [len(pts)]
    out.append({"record": sr.record.as_dict(), "rings": [pts[parts[i]:parts[i + 1]] for i in range(len(parts) - 1)]})
print(json.dumps({"shapes": out, "bbox": list(r.bbox)}))`;
  const run = Bun.spawnSync([py!, "-c", script]);
  return JSON.parse(new TextDecoder().decode(run.stdout));
}

const BOX = "-93.80,42.00,-93.78,42.01";
const mapUnits = new Map(readTable("IA015-aoi", "mapunit").map((m) => [m.mukey!, m]));
const componentsOf = (mukey: string) => readTable("IA015-aoi", "component").filter((c) => c.mukey === mukey);

describe.skipIf(!py)("a fixture map-unit polygons provider registered with one line", () => {
  test("/v1/providers and /v1 list it as operational", async () => {
    const { status, body } = await loam.json("/v1/providers");
    expect(status).toBe(200);
    contract.assert("ProvidersResponse", body);
    expect(body.providers.find((p: { id: string }) => p.id === "fixture_polygons")).toMatchObject({ operational: true, data_kind: "mapped_survey" });
    expect((await loam.json("/v1")).body.supported_providers).toContain("fixture_polygons");
  });

  test("GET /v1/soil/mapunits?bbox= walks its polygons by cursor: pyshp's rings (wound as RFC 7946 asks), its map units' symbols and names", async () => {
    const { shapes } = pyshp();
    const seen: any[] = [];
    let path: string | null = `/v1/soil/mapunits?bbox=${BOX}&provider=fixture_mapunits&limit=1`;
    while (path !== null) {
      const { status, body }: { status: number; body: any } = await loam.json(path);
      expect(status).toBe(200);
      contract.assert("MapUnitCollection", body);
      expect(body.provider).toBe("fixture_polygons");
      seen.push(...body.features);
      path = body.next;
    }
    expect(seen.map((f) => f.id)).toEqual(shapes.map((s, i) => `${s.record.AREASYMBOL.toLowerCase()}-${i + 1}`));
    seen.forEach((f, i) => {
      const { record, rings } = shapes[i]!;
      expect(f.properties).toMatchObject({ map_unit_key: `mu-${record.MUKEY}`, map_unit_symbol: record.MUSYM, map_unit_name: mapUnits.get(record.MUKEY)!.muname, area_symbol: record.AREASYMBOL });
      // A shapefile's outer ring is clockwise; GeoJSON's is counter-clockwise: the same positions reversed.
      expect(f.geometry).toEqual({ type: "Polygon", coordinates: rings.map((ring) => [...ring].reverse()) });
    });
  });

  test("format=csv: one row per polygon, each with its map unit's slope weighted by component percent (comp.txt)", async () => {
    const { shapes } = pyshp();
    const response = await loam.get(`/v1/soil/mapunits?bbox=${BOX}&provider=fixture_polygons&properties=slope&format=csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const rows = records(parseRfc4180(await response.text()));
    expect(rows.map((r) => [r.feature_id, r.map_unit_key, r.provider])).toEqual(shapes.map((s, i) => [`ia015-${i + 1}`, `mu-${s.record.MUKEY}`, "fixture_polygons"]));
    rows.forEach((row, i) => {
      const withSlope = componentsOf(shapes[i]!.record.MUKEY).filter((c) => c.slope_r !== null && c.comppct_r !== null);
      const percent = withSlope.reduce((sum, c) => sum + Number(c.comppct_r), 0);
      expect(Number(row.slope)).toBeCloseTo(withSlope.reduce((sum, c) => sum + Number(c.slope_r) * Number(c.comppct_r), 0) / percent, 2);
    });
  });

  test("GET /v1/soil/mapunits/{key} serves its map unit in its key syntax, every component as comp.txt lists it; its 404 and 422 are in its words", async () => {
    const { status, body } = await loam.json("/v1/soil/mapunits/mu-2765522?provider=fixture_polygons&properties=slope,drainage_class");
    expect(status).toBe(200);
    contract.assert("SummaryResponse", body);
    expect(body.map_unit).toMatchObject({ provider: "fixture_polygons", map_unit_key: "mu-2765522", map_unit_name: mapUnits.get("2765522")!.muname });
    const expected = componentsOf("2765522")
      .sort((a, b) => Number(b.comppct_r) - Number(a.comppct_r) || Number(a.cokey) - Number(b.cokey))
      .map((c) => [c.cokey, c.compname, Number(c.comppct_r)]);
    expect(body.map_unit.components.map((c: any) => [c.component_key, c.component_name, c.component_percent])).toEqual(expected);
    expect(body.summaries.map((s: any) => s.property.id)).toEqual(["slope", "drainage_class"]);
    const unknown = await loam.json("/v1/soil/mapunits/mu-1?provider=fixture_polygons");
    expect([unknown.status, unknown.body.error.code, unknown.body.error.provider]).toEqual([404, "not_found", "fixture_polygons"]);
    expect(unknown.body.error.message).toBe("The fixture holds no map unit mu-1; it holds mu-2550234, mu-2550271, mu-2765522, mu-2834849.");
    const malformed = await loam.json("/v1/soil/mapunits/2765522?provider=fixture_polygons");
    expect([malformed.status, malformed.body.error.provider]).toEqual([422, "fixture_polygons"]);
  });

  test("the OpenAPI document of /v1/soil/mapunits/{map_unit_key} states its key syntax, pattern and example, not the default survey's", async () => {
    const doc = (await loam.json("/openapi.json")).body;
    const operation = doc.paths["/v1/soil/mapunits/{map_unit_key}"].get;
    const key = operation.parameters.find((p: any) => p.name === "map_unit_key");
    expect([key.description, key.schema.pattern, key.example ?? key.schema.examples?.[0]]).toEqual([
      "The map unit key: a fixture map unit key: mu- and a mukey, e.g. mu-2765522.",
      "^mu-[1-9][0-9]{0,9}$",
      "mu-2765522",
    ]);
    expect(operation.description).toContain("/v1/soil/mapunits/mu-2765522?");
    // The document's pattern is what the provider enforces: its example passes it, the default survey's key does not.
    expect(new RegExp(key.schema.pattern).test("mu-2765522") && !new RegExp(key.schema.pattern).test("2765522")).toBe(true);
  });

  test("GET /v1/soil/aoi cuts its polygons to an area: each map unit's geodesic area as the reference measures the shapefile (0.1 %), its slope, its citation", async () => {
    const [w, s, e, n] = [-93.7907, 42.0067, -93.7902, 42.0071];
    const wkt = `POLYGON ((${w} ${s}, ${e} ${s}, ${e} ${n}, ${w} ${n}, ${w} ${s}))`;
    const reference = referenceCut(wkt);
    const { status, body } = await loam.json(`/v1/soil/aoi?provider=fixture_polygons&bbox=${[w, s, e, n].join(",")}&properties=slope`);
    expect(status).toBe(200);
    contract.assert("AoiReport", body);
    expect(body.map_units.map((m: any) => m.map_unit_key).sort()).toEqual(Object.keys(reference.by_mukey).map((k) => `mu-${k}`).sort());
    for (const unit of body.map_units) expect(within(unit.area_ha, reference.by_mukey[unit.map_unit_key.slice(3)]! / 10_000, 0.001)).toBe(true);
    // The area's slope: each map unit's slope (comp.txt, weighted by component percent) weighted by its reference area.
    let sum = 0;
    let weight = 0;
    for (const [mukey, m2] of Object.entries(reference.by_mukey)) {
      const withSlope = componentsOf(mukey).filter((c) => c.slope_r !== null && c.comppct_r !== null);
      const percent = withSlope.reduce((total, c) => total + Number(c.comppct_r), 0);
      sum += (withSlope.reduce((total, c) => total + Number(c.slope_r) * Number(c.comppct_r), 0) / percent) * m2;
      weight += m2;
    }
    expect(within(body.summaries.find((x: any) => x.property.id === "slope").value, sum / weight, 5e-4)).toBe(true);
    expect(body.source).toMatchObject({ provider: "fixture_polygons", citation: expect.stringContaining("Loam test fixture") });
    expect(JSON.stringify(body.source)).not.toContain("SSURGO");
  });

  test("GET /v1/soil/summary and /v1/soil/points find the map unit holding a point (the reference's point in each IA015 map unit), in its key syntax", async () => {
    const points = referencePoints().filter((p) => p.area_symbol === "IA015");
    expect(points.length).toBe(4);
    for (const p of points) {
      const { status, body } = await loam.json(`/v1/soil/summary?latitude=${p.latitude}&longitude=${p.longitude}&provider=fixture_polygons&properties=slope`);
      expect(status).toBe(200);
      contract.assert("SummaryResponse", body);
      expect([body.map_unit.provider, body.map_unit.map_unit_key]).toEqual(["fixture_polygons", `mu-${p.mukey}`]);
    }
    const list = points.map((p) => `${p.latitude},${p.longitude}`).join(";");
    const many = await loam.json(`/v1/soil/points?points=${list}&provider=fixture_polygons&properties=slope`);
    expect(many.status).toBe(200);
    contract.assert("PointsResponse", many.body);
    expect(many.body.points.map((x: any) => x.map_unit.map_unit_key)).toEqual(points.map((p) => `mu-${p.mukey}`));
  });

  test("the OGC mapunits collection is the registry's first provider's: pyshp's extent, every item in key order, one item by its key", async () => {
    const { shapes, bbox } = pyshp();
    const collection = await loam.json("/ogc/collections/mapunits");
    expect(collection.status).toBe(200);
    collection.body.extent.spatial.bbox[0].forEach((v: number, i: number) => expect(v).toBeCloseTo(bbox[i]!, 9));
    const items = await loam.json("/ogc/collections/mapunits/items?limit=10");
    expect(items.status).toBe(200);
    expect(items.body.features.map((f: any) => [f.id, f.properties.map_unit_key])).toEqual(shapes.map((s, i) => [`ia015-${i + 1}`, `mu-${s.record.MUKEY}`]));
    const calls = polygonsTransport.calls;
    const one = await loam.json("/ogc/collections/mapunits/items/ia015-2");
    expect(one.status).toBe(200);
    expect(one.body.geometry.coordinates).toEqual(shapes[1]!.rings.map((ring) => [...ring].reverse()));
    expect(polygonsTransport.calls).toBe(calls + 1);
    // Another provider's key syntax (SSURGO's digits) is no item of this one, asked of no source.
    const foreign = await loam.json("/ogc/collections/mapunits/items/123");
    expect(foreign.status).toBe(404);
    expect(polygonsTransport.calls).toBe(calls + 1);
  });
});
