/**
 * GET /v1/soil/aoi at the edges (docs/decisions.md#areas): an area where the flat longitude/latitude
 * cut and the ellipsoid would describe different places (across the antimeridian, near a pole, a box
 * over a degree) is a 422 naming the rule, in snapshot and in live mode, and never reaches SDA; every
 * accepted area's body matches the OpenAPI document (mapped_percent a number); messages give the true
 * figure; a position repeated in turn is dropped, not called a self-intersection; and an SDA answer
 * whose WKT nests without end is a 502 naming the provider, never a stack overflow.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { testSnapshot, useSnapshotAndFakeSda } from "../support/server";
import { queryKind } from "../support/queries";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { referenceAvailable, referenceCut } from "./reference";

// Starting the servers and asking the Python reference may take far longer than 5 s on a busy 2-core machine.
setDefaultTimeout(60_000);
const { snapshot, viaSda, fake, contract } = useSnapshotAndFakeSda();
const HAS_REFERENCE = referenceAvailable();

const aoi = (wkt: string) => `/v1/soil/aoi?polygon=${encodeURIComponent(wkt)}&properties=clay`;

/** Each bad area, as polygon or bbox, with the rule its message must name. */
const REFUSED: [string, string, RegExp][] = [
  ["the whole world from -180 to 180", aoi("POLYGON ((-180 -80, 180 -80, 180 80, -180 80, -180 -80))"), /'polygon' crosses the antimeridian: the outer ring edge 1 runs from longitude -180 to 180/],
  ["a thin ring across 180°", aoi("POLYGON ((179.999 40, -179.999 40, -179.999 44, 179.999 44, 179.999 40))"), /'polygon' crosses the antimeridian: the outer ring edge 1 runs from longitude 179\.999 to -179\.999/],
  ["a sliver at the North Pole", aoi("POLYGON ((-180 89.999, 180 89.999, 180 90, -180 90, -180 89.999))"), /'polygon' (crosses the antimeridian|reaches latitude)/],
  ["a small square beyond 85° north", aoi("POLYGON ((10 85.5, 10.1 85.5, 10.1 85.6, 10 85.6, 10 85.5))"), /'polygon' reaches latitude 85\.5 \(the outer ring position 1\); an area must lie between latitudes -85 and 85/],
  ["a ring reaching 85.2° south", aoi("POLYGON ((10 -84.9, 10.1 -84.9, 10.1 -85.2, 10 -85.2, 10 -84.9))"), /'polygon' reaches latitude -85\.2/],
  ["a strip 1.2° long (1,100 ha)", aoi("POLYGON ((-94.9 41.9, -93.7 41.9, -93.7 41.901, -94.9 41.901, -94.9 41.9))"), /'polygon' spans 1\.2 degrees of longitude; an area's box may be at most 1 degree a side/],
  ["a strip 1.5° tall", aoi("POLYGON ((-94.4 41, -94.399 41, -94.399 42.5, -94.4 42.5, -94.4 41))"), /'polygon' spans 1\.5 degrees of latitude/],
  ["a bbox beyond 85° north", "/v1/soil/aoi?bbox=10,85.5,10.1,85.6&properties=clay", /^Query parameter 'bbox' reaches latitude 85\.5; an area must lie between latitudes -85 and 85/],
  ["a bbox across the antimeridian", "/v1/soil/aoi?bbox=179.9,40,-179.9,40.01&properties=clay", /'bbox' min_lon \(179\.9\) must be less than max_lon.*across the antimeridian is not supported/],
  ["a bbox 1.2° wide", "/v1/soil/aoi?bbox=-94.9,41.9,-93.7,41.901&properties=clay", /'bbox' spans 1\.2 degrees of longitude/],
];

describe("GET /v1/soil/aoi: areas the flat cut cannot measure true are 422s, before any upstream call", () => {
  for (const [name, path, rule] of REFUSED) {
    test(`${name}: a 422 naming the rule, in snapshot and live mode, with no SDA query`, async () => {
      for (const loam of [snapshot, viaSda]) {
        const calls = fake.calls;
        const { status, body } = await loam.json(path);
        expect(status).toBe(422);
        contract.assert("ErrorResponse", body);
        expect(body.error.code).toBe("validation_error");
        expect(body.error.message).toMatch(rule);
        expect(fake.calls).toBe(calls);
      }
    });
  }
});

describe("GET /v1/soil/aoi: every answer matches the OpenAPI document (ajv)", () => {
  const PATHS = [
    // Before 0.5.0 this was a 200 with area_ha 0 and mapped_percent null.
    aoi("POLYGON ((-180 89.999, 180 89.999, 180 90, -180 90, -180 89.999))"),
    // A triangle 1e-20 degrees a side: its planar area is not 0, its geodesic area is.
    aoi("POLYGON ((0 0, 0.00000000000000000001 0, 0.00000000000000000001 0.00000000000000000001, 0 0))"),
    // Inside the snapshot's Iowa extent, where no map unit lies: mapped_percent 0.
    "/v1/soil/aoi?bbox=-94.35,41.95,-94.34,41.96&properties=clay",
    "/v1/soil/aoi?bbox=-94.361846,41.943158,-94.358198,41.945788&properties=clay,drainage_class",
  ];

  test("each report or error is the schema the document names for its status, and mapped_percent is a number", async () => {
    for (const loam of [snapshot, viaSda]) {
      for (const path of PATHS) {
        const { status, body } = await loam.json(path);
        const model = contract.responseModel("/v1/soil/aoi", status);
        expect(model).toBeDefined();
        contract.assert(model!, body);
        if (status === 200) expect(typeof body.aoi.mapped_percent).toBe("number");
        else expect(status).toBe(422);
      }
    }
  });

  test("an area in the snapshot's extent without map units: mapped_percent 0, in the report and the GeoJSON", async () => {
    const report = await snapshot.json("/v1/soil/aoi?bbox=-94.35,41.95,-94.34,41.96");
    contract.assert("AoiReport", report.body);
    expect(report.body.aoi.mapped_percent).toBe(0);
    const geojson = await snapshot.json("/v1/soil/aoi?bbox=-94.35,41.95,-94.34,41.96&format=geojson");
    contract.assert("AoiFeatureCollection", geojson.body);
    expect(geojson.body.aoi.mapped_percent).toBe(0);
    expect(geojson.body.features).toEqual([]);
  });

  test("an area under a square metre is a 422 that says so", async () => {
    const { status, body } = await snapshot.json(PATHS[1]!);
    expect(status).toBe(422);
    expect(body.error.message).toMatch(/'polygon' encloses less than 1 m² on the WGS84 ellipsoid/);
  });
});

describe("GET /v1/soil/aoi: messages and repeated positions", () => {
  // 0.12° x 0.090481° in Iowa: 10,000.29 ha by pyproj (test/areas/reference.py), just over the limit.
  const [w, s, e, n] = [-94.4, 41.9, -94.28, 41.990481];
  const box = `POLYGON ((${w} ${s}, ${e} ${s}, ${e} ${n}, ${w} ${n}, ${w} ${s}))`;

  test.skipIf(!HAS_REFERENCE)("an area just over 10,000 ha gives its real figure, never '10,000 ha' (polygon and bbox)", async () => {
    const reference = referenceCut(box).aoi_m2 / 10_000;
    expect(reference).toBeGreaterThan(10_000);
    expect(reference).toBeLessThan(10_000.5);
    for (const [path, given] of [
      [aoi(box), "polygon"],
      [`/v1/soil/aoi?bbox=${w},${s},${e},${n}`, "bbox"],
    ] as const) {
      const { status, body } = await snapshot.json(path);
      expect(status).toBe(422);
      const m = new RegExp(`^Query parameter '${given}' encloses ([\\d,.]+) ha; an area may be at most 10,000 ha\\.$`).exec(body.error.message);
      expect(m).not.toBeNull();
      const figure = Number(m![1]!.replaceAll(",", ""));
      expect(figure).toBeGreaterThan(10_000);
      expect(Math.abs(figure - reference)).toBeLessThan(0.05);
    }
  });

  test("a position repeated in turn (valid WKT) is dropped: the same report as without it", async () => {
    const plain = "POLYGON ((-94.361846 41.943158, -94.358198 41.943158, -94.358198 41.945788, -94.361846 41.945788, -94.361846 41.943158))";
    const repeated = "POLYGON ((-94.361846 41.943158, -94.358198 41.943158, -94.358198 41.943158, -94.358198 41.945788, -94.361846 41.945788, -94.361846 41.945788, -94.361846 41.943158))";
    const a = await snapshot.json(aoi(plain));
    const b = await snapshot.json(aoi(repeated));
    expect(b.status).toBe(200);
    contract.assert("AoiReport", b.body);
    expect(b.body.aoi).toEqual(a.body.aoi);
    expect(b.body.aoi.vertex_count).toBe(4);
    expect(b.body.map_units).toEqual(a.body.map_units);
    expect(b.body.map_units.length).toBeGreaterThan(0);
  });
});

describe("an SDA answer whose WKT nests 200,000 levels deep is a 502 naming the provider, and nothing is kept", () => {
  const DEPTH = 200_000;
  const DEEP = [
    ["POLYGON ((((...", `POLYGON ${"(".repeat(DEPTH)}0 0${")".repeat(DEPTH)}`],
    ["GEOMETRYCOLLECTION (GEOMETRYCOLLECTION (...", `${"GEOMETRYCOLLECTION (".repeat(DEPTH)}POINT (0 0)${")".repeat(DEPTH)}`],
  ] as const;

  /** The snapshot's answer to `kind` in SDA's wire shape, its first row's geometry replaced by `wkt`. */
  async function answerWith(kind: string, params: unknown, wkt: string): Promise<string> {
    const text = await (await new SnapshotTransport(await testSnapshot()).fetch(queryKind(kind as never), params as never)).text();
    const table = JSON.parse(text).Table as (string | null)[][];
    expect(table.length).toBeGreaterThan(2);
    table[2]![table[0]!.indexOf("geom")] = wkt;
    return JSON.stringify({ Table: table });
  }

  const RINGS = [[[-94.361846, 41.943158], [-94.358198, 41.943158], [-94.358198, 41.945788], [-94.361846, 41.945788], [-94.361846, 41.943158]]];
  const BOX = [-94.37, 41.934, -94.35, 41.954];
  // Each test asks its own area (its north edge moved by a micro-degree), so no answer is a cache hit.
  let variant = 0;

  for (const [name, wkt] of DEEP) {
    for (const [route, kind, params, path] of [
      ["the area query (GET /v1/soil/aoi)", "ssurgo_area_polygons", { rings: RINGS, limit: 5000 }, (north: number) => `/v1/soil/aoi?bbox=-94.361846,41.943158,-94.358198,${north}&properties=clay`],
      ["the map-unit polygons box query (GET /v1/soil/mapunits)", "ssurgo_polygons", { bbox: BOX, limit: 100 }, (north: number) => `/v1/soil/mapunits?bbox=${BOX.slice(0, 3).join(",")},${north}&limit=100`],
    ] as const) {
      test(`${name} in ${route}`, async () => {
        const body = await answerWith(kind, params, wkt);
        expect(body.length).toBeGreaterThan(DEPTH * 2);
        variant += 1;
        const asked = path((kind === "ssurgo_polygons" ? BOX[3]! : 41.945788) - variant * 1e-6);
        fake.respondWith({ status: 200, contentType: "application/json; charset=utf-8", body });
        try {
          const failed = await viaSda.json(asked);
          expect(failed.status).toBe(502);
          contract.assert("ErrorResponse", failed.body);
          expect(failed.body.error.code).toBe("upstream_error");
          expect(failed.body.error.provider).toBe("usda_ssurgo");
          expect(failed.body.error.message).toContain("Soil Data Access");
        } finally {
          fake.respondWith(null);
        }
        const again = await viaSda.json(asked);
        expect(again.status).toBe(200);
        expect(again.body.cache.hit).toBe(false);
      });
    }
  }
});
