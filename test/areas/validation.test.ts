/**
 * Bad input to GET /v1/soil/aoi and GET /v1/soil/points: a 422 ErrorResponse whose message names the
 * rule that failed, never a 500 or a 200; nothing reaches the upstream.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { useLoam } from "../support/server";

// Set before the hooks are declared: starting the servers, and each comparison (it asks the reference,
// a Python process, and several answers), may take far longer than 5 s on a busy 2-core machine.
setDefaultTimeout(60_000);
const { loam, contract } = useLoam();

async function expect422(path: string, rule: RegExp) {
  const { status, body } = await loam.json(path);
  expect(status).toBe(422);
  contract.assert("ErrorResponse", body);
  expect(body.error.code).toBe("validation_error");
  expect(body.error.message).toMatch(rule);
}

const aoi = (wkt: string) => `/v1/soil/aoi?polygon=${encodeURIComponent(wkt)}`;
const square = (lon: number, lat: number, side: number) =>
  `POLYGON ((${lon} ${lat}, ${lon + side} ${lat}, ${lon + side} ${lat + side}, ${lon} ${lat + side}, ${lon} ${lat}))`;

describe("GET /v1/soil/aoi: bad areas are 422s naming the rule", () => {
  test("WKT that does not parse", async () => {
    await expect422(aoi("POLYGON ((-94.36 41.94, -94.35 41.94, -94.35 x, -94.36 41.94))"), /not valid WKT.*position 3.*two decimal numbers/);
    await expect422(aoi("POLYGON (-94.36 41.94, -94.35 41.94)"), /not valid WKT/);
    await expect422(aoi("hello"), /must be WKT of one POLYGON/);
  });

  test("another geometry type than one POLYGON", async () => {
    await expect422(aoi("MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)))"), /must be WKT of one POLYGON.*MULTIPOLYGON/);
    await expect422(aoi("POINT (-94.36 41.94)"), /must be WKT of one POLYGON.*POINT/);
    await expect422(aoi("POLYGON Z ((-94.36 41.94 1, -94.35 41.94 1, -94.35 41.945 1, -94.36 41.94 1))"), /two-dimensional POLYGON.*no Z, M or EMPTY/);
    await expect422(aoi("POLYGON EMPTY"), /two-dimensional POLYGON/);
  });

  test("a ring not closed, or too short", async () => {
    await expect422(aoi("POLYGON ((-94.36 41.94, -94.35 41.94, -94.35 41.945, -94.36 41.945))"), /outer ring is not closed/);
    await expect422(aoi("POLYGON ((-94.36 41.94, -94.35 41.94, -94.36 41.94))"), /at least four/);
  });

  test("a self-intersecting ring (a bow tie)", async () => {
    await expect422(aoi("POLYGON ((-94.36 41.94, -94.35 41.945, -94.35 41.94, -94.36 41.945, -94.36 41.94))"), /outer ring intersects itself/);
  });

  test("a ring that folds back on itself", async () => {
    await expect422(aoi("POLYGON ((-94.36 41.94, -94.35 41.94, -94.355 41.94, -94.355 41.945, -94.36 41.94))"), /intersects itself/);
  });

  test("a hole crossing the outer ring, or outside it", async () => {
    await expect422(aoi(`POLYGON ((-94.36 41.94, -94.35 41.94, -94.35 41.945, -94.36 41.945, -94.36 41.94), (-94.355 41.942, -94.34 41.942, -94.34 41.943, -94.355 41.943, -94.355 41.942))`), /cross or touch/);
    await expect422(aoi(`POLYGON ((-94.36 41.94, -94.35 41.94, -94.35 41.945, -94.36 41.945, -94.36 41.94), (-94.34 41.942, -94.33 41.942, -94.33 41.943, -94.34 41.943, -94.34 41.942))`), /hole 1 lies outside the outer ring/);
  });

  test("more than 1,000 vertices", async () => {
    const points: string[] = [];
    const n = 1001;
    for (let i = 0; i < n; i++) {
      const angle = (2 * Math.PI * i) / n;
      points.push(`${(-94.36 + 0.01 * Math.cos(angle)).toFixed(7)} ${(41.94 + 0.01 * Math.sin(angle)).toFixed(7)}`);
    }
    points.push(points[0]!);
    await expect422(aoi(`POLYGON ((${points.join(", ")}))`), /has 1001 vertices; an area may have at most 1000/);
  });

  test("more than 10,000 ha (polygon and bbox)", async () => {
    // About 11 km x 11 km in Iowa: about 12,000 ha.
    await expect422(aoi(square(-94.4, 41.9, 0.13)), /encloses [\d,]+ ha; an area may be at most 10,000 ha/);
    await expect422("/v1/soil/aoi?bbox=-94.4,41.9,-94.27,42.03", /'bbox' encloses [\d,]+ ha; an area may be at most 10,000 ha/);
  });

  test("a coordinate out of range (latitude first is caught too)", async () => {
    await expect422(aoi("POLYGON ((41.94 -94.36, 41.95 -94.36, 41.95 -94.35, 41.94 -94.36))"), /coordinate out of range.*position 1 is \(41\.94 -94\.36\)/);
    await expect422(aoi("POLYGON ((-194.36 41.94, -94.35 41.94, -94.35 41.945, -194.36 41.94))"), /coordinate out of range/);
  });

  test("neither or both of polygon and bbox", async () => {
    await expect422("/v1/soil/aoi", /'polygon' .* or 'bbox' .* is required/);
    await expect422(`${aoi(square(-94.36, 41.94, 0.001))}&bbox=-94.36,41.94,-94.35,41.95`, /both name an area; give one/);
  });

  test("HEAD answers as GET without a body; Accept: text/csv selects the table", async () => {
    const head = await loam.get("/v1/soil/aoi?bbox=-94.361846,41.943158,-94.358198,41.945788&properties=clay", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const csv = await loam.get("/v1/soil/aoi?bbox=-94.361846,41.943158,-94.358198,41.945788&properties=clay", { headers: { accept: "text/csv" } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect((await csv.text()).split("\r\n")[0]).toStartWith("scope,map_unit_key,");
  });

  test("a bad property, method or depth, and a format the route does not offer", async () => {
    await expect422(`/v1/soil/aoi?bbox=-94.36,41.94,-94.358,41.945&properties=nonsense`, /unknown property 'nonsense'/);
    await expect422(`/v1/soil/aoi?bbox=-94.36,41.94,-94.358,41.945&properties=drainage_class&method=weighted_average`, /weighted_average/);
    await expect422(`/v1/soil/aoi?bbox=-94.36,41.94,-94.358,41.945&depth_top_cm=30&depth_bottom_cm=10`, /depth_bottom_cm/);
    await expect422(`/v1/soil/aoi?bbox=-94.36,41.94,-94.358,41.945&format=shapefile`, /'format' must be one of json, csv, geojson/);
  });
});

describe("GET /v1/soil/points: bad lists are 422s naming the rule", () => {
  test("more than 100 points", async () => {
    const list = Array.from({ length: 101 }, (_, i) => `41.94,${(-94.36 + i * 0.0001).toFixed(4)}`).join(";");
    await expect422(`/v1/soil/points?points=${list}`, /has 101 points; at most 100/);
  });

  test("a coordinate out of range, latitude or longitude", async () => {
    await expect422("/v1/soil/points?points=41.94,-94.36;-94.36,41.94", /item 2 has latitude -94\.36, out of range/);
    await expect422("/v1/soil/points?points=41.94,-194.36", /item 1 has longitude -194\.36, out of range/);
  });

  test("an item that is not latitude,longitude", async () => {
    await expect422("/v1/soil/points?points=41.94,-94.36;;41.95,-94.35", /item 2 must be latitude,longitude/);
    await expect422("/v1/soil/points?points=41.94,-94.36,3", /item 1 must be latitude,longitude/);
    await expect422("/v1/soil/points?points=41.94,abc", /item 1 must be two decimal numbers/);
    await expect422("/v1/soil/points", /'points' is required/);
  });
});

describe("the API guide's examples", () => {
  test("every curl line of docs/api.md that asks /v1/soil/aoi or /v1/soil/points answers 200 with its format", async () => {
    const readme = await Bun.file(new URL("../../docs/api.md", import.meta.url)).text();
    const urls = [...readme.matchAll(/curl (?:-o \S+ )?'http:\/\/localhost:3000(\/v1\/soil\/(?:aoi|points)\?[^']+)'/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThanOrEqual(3);
    for (const url of urls) {
      const response = await loam.get(url);
      expect(response.status).toBe(200);
      const format = new URLSearchParams(url.slice(url.indexOf("?") + 1)).get("format") ?? "json";
      expect(response.headers.get("content-type")).toContain({ json: "application/json", csv: "text/csv", geojson: "application/geo+json" }[format]!);
      await response.arrayBuffer();
    }
  });
});
