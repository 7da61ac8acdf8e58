/**
 * OGC API - Features Part 1 at /ogc through HTTP (docs/decisions.md#ogc-api-features): the landing
 * page, the conformance classes claimed, collections with extents computed from the data (checked
 * against the export files read by Python), items pages with bbox, limit, links, numberReturned and
 * timeStamp, single items, and the standard's 400s; in SDA mode the mapunits box limit.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DATA_DIR, useLoam } from "../support/server";
import { expectedCollections } from "../support/collections";
import { useUncachedSda } from "../support/sda-mode";
import { knownPedons } from "../pedons/known-answers";

const { loam, contract } = useLoam();
const sda = useUncachedSda();
const PY = "/usr/bin/python3";
const CRS84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84";
const BOX = "-94.369608,41.934131,-94.349608,41.954131";

async function python(script: string): Promise<any> {
  const child = Bun.spawn([PY, "-c", script], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`python failed: ${err}`);
  return JSON.parse(out);
}

describe("landing page and conformance", () => {
  test("the landing page links self, conformance, data and service-desc (the OpenAPI document, which answers)", async () => {
    const { status, body } = await loam.json("/ogc");
    expect(status).toBe(200);
    contract.assert("OgcLandingPage", body);
    const rel = (name: string) => body.links.find((l: any) => l.rel === name)?.href;
    expect(rel("self")).toBe(`${loam.base}/ogc`);
    expect(rel("conformance")).toBe(`${loam.base}/ogc/conformance`);
    expect(rel("data")).toBe(`${loam.base}/ogc/collections`);
    expect(rel("service-desc")).toBe(`${loam.base}/openapi.json`);
    const doc = await (await fetch(rel("service-desc"))).json();
    expect(doc.paths["/ogc/collections/{collection_id}/items"].get.operationId).toBe("listOgcItems");
  });

  test("conformance claims core and GeoJSON; OpenAPI 3.0 only if the served document were 3.0 (it is 3.1)", async () => {
    const { body } = await loam.json("/ogc/conformance");
    contract.assert("OgcConformance", body);
    const doc = await (await loam.get("/openapi.json")).json();
    const expected = [
      "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
      "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
      ...(String(doc.openapi).startsWith("3.0") ? ["http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30"] : []),
    ];
    expect(body.conformsTo).toEqual(expected);
  });
});

describe("collections", () => {
  test("mapunits, pedons, geochem_sites and stations, each with its extent computed from the data and an items link", async () => {
    const { status, body } = await loam.json("/ogc/collections");
    expect(status).toBe(200);
    contract.assert("OgcCollections", body);
    expect(body.collections.map((c: any) => c.id)).toEqual(expectedCollections());
    const pedonBox = await python(
      `import csv,json; rows=[r for r in csv.DictReader(open(${JSON.stringify(join(DATA_DIR, "kssl/KS/lab_combine_nasis_ncss.csv"))})) if r['latitude_decimal_degrees'] and r['longitude_decimal_degrees']]\n` +
        "xs=[float(r['longitude_decimal_degrees']) for r in rows]; ys=[float(r['latitude_decimal_degrees']) for r in rows]; print(json.dumps([min(xs),min(ys),max(xs),max(ys)]))",
    );
    const shapes = ["IA073-aoi/spatial/soilmu_a_aoi", "IA015-aoi/spatial/soilmu_a_aoi", "IA183-aoi/spatial/soilmu_a_aoi", "MH936/spatial/soilmu_a_mh936"].map((p) => join(DATA_DIR, "ssurgo", p));
    const polygonBox = await python(
      `import shapefile,json; b=[shapefile.Reader(p).bbox for p in ${JSON.stringify(shapes)}]\n` +
        "print(json.dumps([min(x[0] for x in b),min(x[1] for x in b),max(x[2] for x in b),max(x[3] for x in b)]))",
    );
    const pedons = body.collections.find((c: any) => c.id === "pedons");
    expect(pedons.extent.spatial.crs).toBe(CRS84);
    expect(pedons.extent.spatial.bbox[0]).toEqual(pedonBox);
    // The snapshot's R*Tree keeps 32-bit bounds, rounded outwards: equal to the files within 1e-4 degrees.
    const mapunits = body.collections.find((c: any) => c.id === "mapunits");
    mapunits.extent.spatial.bbox[0].forEach((v: number, i: number) => expect(Math.abs(v - polygonBox[i])).toBeLessThan(1e-4));
    for (const c of body.collections) {
      expect(c.itemType).toBe("feature");
      expect(c.crs).toEqual([CRS84]);
      expect(c.links.find((l: any) => l.rel === "items")).toEqual({ href: `${loam.base}/ogc/collections/${c.id}/items`, rel: "items", type: "application/geo+json", title: expect.any(String) });
      const one = await loam.json(`/ogc/collections/${c.id}`);
      contract.assert("OgcCollection", one.body);
      expect(one.body).toEqual(c);
    }
    expect((await loam.json("/ogc/collections/nope")).status).toBe(404);
  });
});

describe("items", () => {
  test("pedons in the README box: bbox and limit, numberReturned, numberMatched, timeStamp, self/collection/next links, GeoJSON media type, flat typed properties", async () => {
    const response = await loam.get("/ogc/collections/pedons/items?bbox=-96.5,38.5,-95,39.5&limit=25");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("application/geo+json");
    const body: any = await response.json();
    contract.assert("OgcFeatureCollection", body);
    const v1 = (await loam.json("/v1/pedons?bbox=-96.5,38.5,-95,39.5&limit=500")).body;
    const inBox = await python(
      `import csv,json; rows=csv.DictReader(open(${JSON.stringify(join(DATA_DIR, "kssl/KS/lab_combine_nasis_ncss.csv"))}))\n` +
        "print(json.dumps(sorted(r['pedlabsampnum'] for r in rows if r['latitude_decimal_degrees'] and r['longitude_decimal_degrees'] and -96.5 <= float(r['longitude_decimal_degrees']) <= -95 and 38.5 <= float(r['latitude_decimal_degrees']) <= 39.5)))",
    );
    expect(v1.features.map((f: any) => f.id)).toEqual(inBox);
    expect(body.numberReturned).toBe(25);
    // On the snapshot a COUNT is cheap: numberMatched is every pedon of the box.
    expect(body.numberMatched).toBe(inBox.length);
    expect(body.features.map((f: any) => f.id)).toEqual(v1.features.slice(0, 25).map((f: any) => f.id));
    expect(new Date(body.timeStamp).toISOString()).toBe(body.timeStamp);
    expect(body.links.map((l: any) => l.rel)).toEqual(["self", "collection", "next"]);
    for (const f of body.features) {
      for (const value of Object.values(f.properties)) expect(["string", "number", "object"]).toContain(typeof value);
      for (const value of Object.values(f.properties)) if (typeof value === "object") expect(value).toBeNull();
      const same = v1.features.find((g: any) => g.id === f.id);
      expect(f.geometry).toEqual(same.geometry);
      expect(f.properties.layer_count).toBe(same.properties.layer_count);
    }
  });

  test("map units with properties=clay,ph: flat value and percent_of_map_unit members, equal to each map unit's own summary", async () => {
    const { status, body } = await loam.json(`/ogc/collections/mapunits/items?bbox=${BOX}&properties=clay,ph&depth_bottom_cm=30&limit=50`);
    expect(status).toBe(200);
    contract.assert("OgcFeatureCollection", body);
    expect(body.numberReturned).toBeGreaterThan(1);
    const keys = [...new Set<string>(body.features.map((f: any) => f.properties.map_unit_key))];
    for (const key of keys) {
      const own = (await loam.json(`/v1/soil/mapunits/${key}?properties=clay,ph&depth_bottom_cm=30`)).body;
      const [clay, ph] = own.summaries;
      for (const f of body.features.filter((f: any) => f.properties.map_unit_key === key)) {
        expect(f.properties).toMatchObject({ clay: clay.value, clay_percent_of_map_unit: clay.percent_of_map_unit, ph: ph.value, ph_percent_of_map_unit: ph.percent_of_map_unit });
        expect(typeof f.properties.map_unit_key).toBe("string");
      }
    }
  });

  test("single items: a pedon at the README's coordinates, a polygon with its summaries; unknown ids 404", async () => {
    const known = knownPedons()[0]!;
    const pedon = await loam.get(`/ogc/collections/pedons/items/${known.pedlabsampnum}`);
    expect(pedon.status).toBe(200);
    expect(pedon.headers.get("content-type")).toStartWith("application/geo+json");
    const feature: any = await pedon.json();
    contract.assert("OgcFeature", feature);
    expect(feature.geometry.coordinates).toEqual([known.longitude, known.latitude]);
    expect(feature.properties.layer_count).toBe(known.layerCount);
    // Every link is absolute, the pedon's detail too, and it answers.
    expect(feature.properties.detail).toBe(`${loam.base}/v1/pedons/${known.pedlabsampnum}`);
    expect((await fetch(feature.properties.detail)).status).toBe(200);
    for (const link of feature.links) expect(link.href).toStartWith(`${loam.base}/`);
    const listed = (await loam.json(`/ogc/collections/pedons/items?limit=3`)).body;
    for (const f of listed.features) expect(f.properties.detail).toBe(`${loam.base}/v1/pedons/${encodeURIComponent(f.properties.pedon_key)}`);
    const page = (await loam.json(`/ogc/collections/mapunits/items?bbox=${BOX}&properties=clay&limit=1`)).body;
    const one = await loam.json(`/ogc/collections/mapunits/items/${page.features[0].id}?properties=clay`);
    expect(one.status).toBe(200);
    expect(one.body.geometry).toEqual(page.features[0].geometry);
    expect(one.body.properties).toEqual(page.features[0].properties);
    for (const path of ["/ogc/collections/pedons/items/99X9999", "/ogc/collections/mapunits/items/999999999", "/ogc/collections/mapunits/items/abc", "/ogc/collections/nope/items/1"]) {
      const { status, body } = await loam.json(path);
      expect({ path, status }).toEqual({ path, status: 404 });
      expect(body.error.code).toBe("not_found");
    }
  });

  test("a cached page revalidates: its ETag answers If-None-Match with 304", async () => {
    const path = `/ogc/collections/mapunits/items?bbox=${BOX}&properties=clay,ph&limit=20`;
    await loam.get(path);
    const second = await loam.get(path);
    const etag = second.headers.get("etag")!;
    expect(etag).toBeTruthy();
    const again = await loam.get(path, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
  });

  test("the standard's 400s: a six-number bbox, another bbox-crs, a bad limit, a box across the antimeridian; a summary parameter on pedons", async () => {
    for (const [query, words] of [
      ["bbox=-96.5,38.5,0,-95,39.5,100", /six numbers/],
      [`bbox=-96.5,38.5,-95,39.5&bbox-crs=${encodeURIComponent("http://www.opengis.net/def/crs/EPSG/0/4326")}`, /bbox-crs/],
      ["limit=0", /limit/],
      ["limit=ten", /limit/],
      ["bbox=170,-10,-170,10", /antimeridian/],
      ["bbox=-96.5,38.5,-95", /four/],
      ["properties=clay", /pedons collection takes no parameter 'properties'/],
    ] as const) {
      const { status, body } = await loam.json(`/ogc/collections/pedons/items?${query}`);
      expect({ query, status }).toEqual({ query, status: 400 });
      expect(body.error.code).toBe("bad_request");
      expect(body.error.message).toMatch(words);
    }
    // Above the page size the collections serve, a page holds that many.
    const big = await loam.json("/ogc/collections/pedons/items?limit=100000");
    expect(big.status).toBe(200);
    expect(big.body.numberReturned).toBe(429);
  });

  test("every parameter error on /ogc is Part 1's 400 (bad cursor, repeated limit with another value, a 20-digit limit, an over-long feature id, an unknown element); /v1 keeps 422", async () => {
    const first = (await loam.json("/ogc/collections/geochem_sites/items?limit=5")).body;
    const cursor = new URL(first.links.find((l: any) => l.rel === "next").href).searchParams.get("cursor")!;
    for (const [path, words] of [
      ["/ogc/collections/geochem_sites/items?cursor=not-a-cursor", /cursor/],
      [`/ogc/collections/geochem_sites/items?cursor=${cursor.slice(0, -2)}xx`, /cursor/],
      [`/ogc/collections/pedons/items?cursor=${cursor}`, /another query/],
      ["/ogc/collections/geochem_sites/items?limit=5&limit=6", /'limit' is repeated with different values/],
      ["/ogc/collections/geochem_sites/items?limit=12345678901234567890", /limit/],
      ["/ogc/collections/geochem_sites/items?limit=2.5", /limit/],
      [`/ogc/collections/geochem_sites/items/${"1".repeat(41)}`, /feature_id/],
      ["/ogc/collections/geochem_sites/items?properties=unobtainium", /unobtainium/],
      ["/ogc/collections/geochem_sites/items/3560?properties=unobtainium", /unobtainium/],
    ] as const) {
      const { status, body } = await loam.json(path);
      expect({ path, status, code: body.error.code }).toEqual({ path, status: 400, code: "bad_request" });
      expect(body.error.message).toMatch(words);
    }
    // The /v1 routes keep the spec's 422 for the same faults.
    for (const path of ["/v1/geochem/sites?bbox=-96.7,40.3,-90.1,43.6&cursor=not-a-cursor", "/v1/geochem/sites?bbox=-96.7,40.3,-90.1,43.6&limit=12345678901234567890", "/v1/geochem/sites?bbox=-96.7,40.3,-90.1,43.6&limit=5&limit=5"]) {
      const { status, body } = await loam.json(path);
      expect({ path, status, code: body.error.code }).toEqual({ path, status: 422, code: "validation_error" });
    }
  });

  test("a query parameter the OGC API does not declare is a 400 on every OGC endpoint (Part 1, /req/core/query-param-unknown); declared ones are read or accepted", async () => {
    for (const path of ["/ogc", "/ogc/conformance", "/ogc/collections", "/ogc/collections/pedons", "/ogc/collections/pedons/items", "/ogc/collections/pedons/items/02N0245"]) {
      const { status, body } = await loam.json(`${path}?limit=5&sessionid=42`);
      expect({ path, status }).toEqual({ path, status: 400 });
      expect(body.error.code).toBe("bad_request");
      expect(body.error.message).toContain("'sessionid'");
      // Each declared parameter is named, so a client can tell what it may send.
      expect(body.error.message).toContain("bbox-crs");
      // GDAL's connection URL query (a collection's summary parameters) is accepted on the collection itself.
      const declared = await loam.json(`${path}?limit=5`);
      expect({ path, status: declared.status }).toEqual({ path, status: 200 });
    }
    const gdal = await loam.json(`/ogc/collections/mapunits?properties=clay,ph&depth_bottom_cm=30`);
    expect([gdal.status, gdal.body.id]).toEqual([200, "mapunits"]);
  });

  test("a next link carries each parameter once, commas literal: a client appending its connection query to every page (either spelling) never grows the URL", async () => {
    for (const appended of ["properties=arsenic,lead", "properties=arsenic%2Clead", "properties=arsenic,lead&limit=10"]) {
      let url = `${loam.base}/ogc/collections/geochem_sites/items?${appended}`;
      const lengths: number[] = [];
      for (let page = 0; page < 40; page++) {
        const { status, body } = await loam.json(url.slice(loam.base.length));
        expect({ appended, page, status }).toEqual({ appended, page, status: 200 });
        const next: string = body.links.find((l: any) => l.rel === "next").href;
        const query = new URL(next).searchParams;
        expect([...query.keys()].sort()).toEqual([...new Set(query.keys())].sort());
        expect(query.getAll("properties")).toEqual(["arsenic,lead"]);
        expect(next).toContain("properties=arsenic,lead&");
        lengths.push(next.length);
        url = `${next}&${appended}`;
      }
      // A cursor grows only with its key's digits (site ids to 5 digits).
      expect(Math.max(...lengths) - Math.min(...lengths)).toBeLessThanOrEqual(4);
    }
  });

  test("GDAL's habit of repeating a parameter with the same value is accepted on /ogc; different values are a 400", async () => {
    const same = await loam.json(`/ogc/collections/mapunits/items?bbox=${BOX}&properties=clay&properties=clay&limit=3`);
    expect(same.status).toBe(200);
    const other = await loam.json(`/ogc/collections/mapunits/items?bbox=${BOX}&properties=clay&properties=ph&limit=3`);
    expect([other.status, other.body.error.code]).toEqual([400, "bad_request"]);
    expect(other.body.error.message).toContain("properties");
    // The OGC routes are rate-limited as every API route.
    expect(other.headers.get("ratelimit-limit")).toBeTruthy();
    // Elsewhere the rule stays: a parameter is given once.
    expect((await loam.json(`/v1/soil/mapunits?bbox=${BOX}&limit=3&limit=3`)).status).toBe(422);
  });
});

describe("in SDA mode", () => {
  test("the mapunits items need a bbox within 0.25 degrees a side: 400 naming the limit, and no SDA call", async () => {
    const before = sda.fake.calls;
    for (const query of ["", "bbox=-95,41,-94,42", "bbox=-94.4,41.9,-94.1,41.95"]) {
      const { status, body } = await sda.loam.json(`/ogc/collections/mapunits/items?${query}`);
      expect({ query, status }).toEqual({ query, status: 400 });
      expect(body.error.message).toContain("0.25 degrees per side");
    }
    expect(sda.fake.calls).toBe(before);
    const ok = await sda.loam.json(`/ogc/collections/mapunits/items?bbox=${BOX}&limit=5`);
    expect(ok.status).toBe(200);
    expect(ok.body.numberReturned).toBe(5);
    const snap = await loam.json(`/ogc/collections/mapunits/items?bbox=${BOX}&limit=5`);
    expect(ok.body.features.map((f: any) => f.id)).toEqual(snap.body.features.map((f: any) => f.id));
  });

  test("the pedons items accept any box inside WGS84; the collections list their extents from SDA's answers", async () => {
    const { status, body } = await sda.loam.json("/ogc/collections/pedons/items?limit=5");
    expect(status).toBe(200);
    expect(body.numberReturned).toBe(5);
    // Counting on Soil Data Access would be one more spatial query per page: numberMatched is left out.
    expect("numberMatched" in body).toBe(false);
    const collections = await sda.loam.json("/ogc/collections");
    expect(collections.status).toBe(200);
    const snapshot = await loam.json("/ogc/collections");
    expect(collections.body.collections.find((c: any) => c.id === "pedons").extent).toEqual(snapshot.body.collections.find((c: any) => c.id === "pedons").extent);
    // The DS 801 file (GEOCHEM_URL, unreachable here) does not hide the other collections: geochem_sites is
    // listed without an extent, and its own document names the upstream failure.
    const geochem = collections.body.collections.find((c: any) => c.id === "geochem_sites");
    expect(geochem.extent).toBeNull();
    expect(geochem.description).toContain("Extent unknown");
    const own = await sda.loam.json("/ogc/collections/geochem_sites");
    expect([502, 504]).toContain(own.status);
    expect(own.body.error.code).toMatch(/^upstream/);
  });
});

describe("queryables (OGC API - Features Part 3)", () => {
  const typeOf = (value: unknown) => (value === null ? "null" : Number.isInteger(value) ? "integer" : typeof value);
  const accepts = (declared: string | string[], value: unknown) => {
    const types = ([] as string[]).concat(declared);
    const actual = typeOf(value);
    return types.includes(actual) || (actual === "integer" && types.includes("number"));
  };

  test("each collection's queryables are a JSON Schema of its items' properties: $schema, $id, type object, and every property an item carries with the type it has", async () => {
    for (const [id, query] of [["mapunits", `bbox=${BOX}&limit=50`], ["pedons", "limit=200"], ["geochem_sites", "limit=1000"]] as const) {
      const response = await loam.get(`/ogc/collections/${id}/queryables`);
      expect({ id, status: response.status }).toEqual({ id, status: 200 });
      expect(response.headers.get("content-type")).toStartWith("application/schema+json");
      const schema: any = await response.json();
      contract.assert("OgcQueryables", schema);
      expect(schema).toMatchObject({ $schema: "https://json-schema.org/draft/2020-12/schema", $id: `${loam.base}/ogc/collections/${id}/queryables`, type: "object" });
      const collection = (await loam.json(`/ogc/collections/${id}`)).body;
      expect(collection.links.find((l: any) => l.rel === "http://www.opengis.net/def/rel/ogc/1.0/queryables")?.href).toBe(schema.$id);
      const { properties } = schema;
      expect(properties.geometry.format ?? properties.geometry.oneOf[0].format).toMatch(/^geometry-/);
      const page = (await loam.json(`/ogc/collections/${id}/items?${query}`)).body;
      expect(page.features.length).toBeGreaterThan(0);
      const seen = new Set<string>();
      for (const f of page.features) {
        expect({ id, kind: f.geometry.type }).toEqual({ id, kind: id === "mapunits" ? expect.stringMatching(/^(Multi)?Polygon$/) : "Point" });
        for (const [name, value] of Object.entries(f.properties)) {
          seen.add(name);
          expect({ id, name, declared: name in properties }).toEqual({ id, name, declared: true });
          expect({ id, name, value, ok: accepts(properties[name].type, value) }).toEqual({ id, name, value, ok: true });
        }
      }
      // Every declared property is one the items carry.
      expect(Object.keys(properties).filter((n) => n !== "geometry").sort()).toEqual([...seen].sort());
    }
    expect((await loam.json("/ogc/collections/nope/queryables")).status).toBe(404);
  });
});
