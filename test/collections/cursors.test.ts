/**
 * Explicit cursors (docs/decisions.md#cursors) through HTTP: walking the pages of a box returns every
 * feature exactly once, in key order, on GET /v1/pedons (Link header, the spec's body unchanged), on
 * GET /v1/soil/mapunits (Link header and `next`) and on the OGC items; a tampered cursor, or one
 * replayed with another bbox, provider or properties, is a 422. Expected features come from the test's
 * own reading of datasets (the KSSL CSV with Python's csv module; the IA073 shapefile with pyshp).
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DATA_DIR, useLoam, type RunningLoam } from "../support/server";

const { loam, contract } = useLoam();
const PY = "/usr/bin/python3";

async function python(script: string): Promise<any> {
  const child = Bun.spawn([PY, "-c", script], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`python failed: ${err}`);
  return JSON.parse(out);
}

/** Pedons with site coordinates in the KSSL export, as Python's csv module reads it. */
function locatedPedons(): Promise<{ key: string; lon: number; lat: number }[]> {
  return python(
    `import csv,json; rows=csv.DictReader(open(${JSON.stringify(join(DATA_DIR, "kssl/KS/lab_combine_nasis_ncss.csv"))}, newline='', encoding='utf-8'))\n` +
      "print(json.dumps([{'key':r['pedlabsampnum'],'lon':float(r['longitude_decimal_degrees']),'lat':float(r['latitude_decimal_degrees'])} for r in rows if r['latitude_decimal_degrees'] and r['longitude_decimal_degrees']]))",
  );
}

/** The map-unit polygons of the IA073 export (pyshp): their map unit keys and the file's box. */
function ia073Polygons(): Promise<{ mukeys: string[]; bbox: number[] }> {
  return python(
    `import shapefile,json; r=shapefile.Reader(${JSON.stringify(join(DATA_DIR, "ssurgo/IA073-aoi/spatial/soilmu_a_aoi"))})\n` +
      "print(json.dumps({'mukeys':[rec['MUKEY'] for rec in r.records()],'bbox':list(r.bbox)}))",
  );
}

const linkNext = (headers: Headers) => /<([^>]+)>;\s*rel="next"/.exec(headers.get("link") ?? "")?.[1] ?? null;

/** Follow a route's pages from `first`, each by the Link header; every page checked against its model. */
async function walkByLink(server: RunningLoam, first: string, model: string, pages = 200) {
  const features: any[] = [];
  let next: string | null = first;
  let count = 0;
  while (next !== null) {
    if (++count > pages) throw new Error("too many pages");
    const { status, body, headers } = await server.json(next);
    expect({ next, status }).toEqual({ next, status: 200 });
    contract.assert(model, body);
    features.push(...body.features);
    next = linkNext(headers);
    expect(body.truncated).toBe(next !== null);
    if ("next" in body) expect(body.next).toBe(next);
  }
  return { features, pages: count };
}

const ascending = (keys: string[]) => keys.every((k, i) => i === 0 || keys[i - 1]! < k);
const ascendingNumbers = (keys: string[]) => keys.every((k, i) => i === 0 || Number(keys[i - 1]) < Number(k));

// The Kansas pedons span 7.4 x 3 degrees; /v1/pedons keeps the spec's limits (5 degrees a side, 4
// square degrees), so the walk there takes six boxes of 1.25 x 3 degrees.
const KANSAS = [-102.1, 37, -94.6, 40];
const STRIPS = Array.from({ length: 6 }, (_, i) => [-102.1 + 1.25 * i, 37, -102.1 + 1.25 * (i + 1), 40].map((v) => Number(v.toFixed(6))));

describe("walking cursor pages returns every feature once, in key order", () => {
  test("GET /v1/pedons, limit 7, through six boxes of Kansas: the 429 located pedons of the export, each once", async () => {
    const expected = await locatedPedons();
    expect(expected.length).toBe(429);
    const seen: string[] = [];
    for (const strip of STRIPS) {
      const { features, pages } = await walkByLink(loam, `/v1/pedons?bbox=${strip.join(",")}&limit=7`, "PedonCollection");
      const keys = features.map((f) => f.id);
      expect(ascending(keys)).toBe(true);
      expect(pages).toBe(Math.max(1, Math.ceil(keys.length / 7)));
      // The spec's body: no member beyond those it names.
      seen.push(...keys);
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual(expected.map((p) => p.key).sort());
  });

  test("OGC pedons items, limit 7, one walk over Kansas by the next links: 429 pedons once, in key order", async () => {
    const expected = (await locatedPedons()).map((p) => p.key).sort();
    const keys: string[] = [];
    let next: string | null = `${loam.base}/ogc/collections/pedons/items?bbox=${KANSAS.join(",")}&limit=7`;
    let pages = 0;
    while (next !== null) {
      pages++;
      const response = await fetch(next);
      expect(response.status).toBe(200);
      const body: any = await response.json();
      contract.assert("OgcFeatureCollection", body);
      expect(body.numberReturned).toBe(body.features.length);
      keys.push(...body.features.map((f: any) => f.id));
      next = body.links.find((l: any) => l.rel === "next")?.href ?? null;
    }
    expect(pages).toBe(Math.ceil(429 / 7));
    expect(ascending(keys)).toBe(true);
    expect(keys).toEqual(expected);
  });

  test("GET /v1/soil/mapunits and the OGC mapunits items, limit 7: the IA073 polygons once, in polygon-key order", async () => {
    const { mukeys, bbox } = await ia073Polygons();
    const box = [bbox[0]! - 0.001, bbox[1]! - 0.001, bbox[2]! + 0.001, bbox[3]! + 0.001].map((v) => v.toFixed(6)).join(",");
    const { features, pages } = await walkByLink(loam, `/v1/soil/mapunits?bbox=${box}&limit=7`, "MapUnitCollection");
    const ia073 = features.filter((f) => f.properties.area_symbol === "IA073");
    expect(pages).toBe(Math.ceil(features.length / 7));
    expect(ascendingNumbers(features.map((f) => f.id))).toBe(true);
    expect(ia073.map((f) => f.properties.map_unit_key).sort()).toEqual([...mukeys].sort());

    const ogc: any[] = [];
    let next: string | null = `${loam.base}/ogc/collections/mapunits/items?bbox=${box}&limit=7`;
    while (next !== null) {
      const body: any = await (await fetch(next)).json();
      contract.assert("OgcFeatureCollection", body);
      ogc.push(...body.features);
      next = body.links.find((l: any) => l.rel === "next")?.href ?? null;
    }
    expect(ogc.map((f) => f.id)).toEqual(features.map((f) => f.id));
    expect(ogc.map((f) => f.properties.map_unit_key)).toEqual(features.map((f) => f.properties.map_unit_key));
  });

  test("the last page has no Link header and next null; a page that is not truncated has none either", async () => {
    const { body, headers } = await loam.json("/v1/soil/mapunits?bbox=-94.37,41.934,-94.35,41.954&limit=5000");
    expect(body.truncated).toBe(false);
    expect(body.next).toBeNull();
    expect(headers.get("link")).toBeNull();
    const pedons = await loam.json("/v1/pedons?bbox=-96.5,38.5,-95,39.5&limit=500");
    expect(pedons.body.truncated).toBe(false);
    expect(pedons.headers.get("link")).toBeNull();
    expect(Object.keys(pedons.body).sort()).toEqual(["cache", "features", "provider", "query", "truncated", "type", "warnings"]);
  });
});

describe("a cursor belongs to its query", () => {
  async function firstNext(path: string): Promise<string> {
    const { status, headers } = await loam.json(path);
    expect(status).toBe(200);
    const next = linkNext(headers);
    expect(next).not.toBeNull();
    return next!;
  }
  const cursorOf = (href: string) => new URL(href, "http://x").searchParams.get("cursor")!;

  test("replayed with another bbox, provider or properties: 422 naming the cursor (400 on /ogc, as OGC API Part 1 asks)", async () => {
    const pedons = cursorOf(await firstNext("/v1/pedons?bbox=-96.5,38.5,-95,39.5&limit=7"));
    const mapunits = cursorOf(await firstNext("/v1/soil/mapunits?bbox=-94.37,41.934,-94.35,41.954&limit=3&properties=clay"));
    for (const path of [
      `/v1/pedons?bbox=-96.5,38.5,-95,39.4&limit=7&cursor=${pedons}`,
      `/v1/pedons?bbox=-96.5,38.5,-95,39.5&limit=7&provider=usda_ssurgo&cursor=${pedons}`,
      `/v1/soil/mapunits?bbox=-94.37,41.934,-94.35,41.954&limit=3&properties=ph&cursor=${mapunits}`,
      `/v1/soil/mapunits?bbox=-94.37,41.934,-94.35,41.953&limit=3&properties=clay&cursor=${mapunits}`,
      `/v1/soil/mapunits?bbox=-94.37,41.934,-94.35,41.954&limit=3&cursor=${mapunits}`,
      // A cursor of one collection is not a position in another.
      `/ogc/collections/mapunits/items?bbox=-94.37,41.934,-94.35,41.954&limit=3&properties=clay&cursor=${mapunits}`,
      `/v1/pedons/layers?bbox=-96.5,38.5,-95,39.5&limit=7&cursor=${pedons}`,
    ]) {
      const { status, body } = await loam.json(path);
      // provider=usda_ssurgo on /v1/pedons is refused for its role before the cursor is read.
      const ogc = path.startsWith("/ogc/");
      expect({ path, status }).toEqual({ path, status: ogc ? 400 : 422 });
      expect(body.error.code).toBe(ogc ? "bad_request" : "validation_error");
      if (!path.includes("provider=usda_ssurgo")) expect(body.error.message).toMatch(/cursor.*another query/);
    }
  });

  test("the same cursor with another limit is the same walk (limit is not part of the binding)", async () => {
    const cursor = cursorOf(await firstNext("/v1/pedons?bbox=-96.5,38.5,-95,39.5&limit=7"));
    const rest = await loam.json(`/v1/pedons?bbox=-96.5,38.5,-95,39.5&limit=500&cursor=${cursor}`);
    const all = await loam.json("/v1/pedons?bbox=-96.5,38.5,-95,39.5&limit=500");
    expect(rest.status).toBe(200);
    expect(rest.body.features.map((f: any) => f.id)).toEqual(all.body.features.slice(7).map((f: any) => f.id));
  });

  test("an edited, truncated or foreign cursor is a 422, never a 500 or a page", async () => {
    const next = await firstNext("/v1/pedons?bbox=-96.5,38.5,-95,39.5&limit=7");
    const cursor = cursorOf(next);
    const decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    const moved = Buffer.from(JSON.stringify([decoded[0], "00A0000", decoded[2], decoded[3]])).toString("base64url");
    const forged = Buffer.from(JSON.stringify([1, "x' OR 1=1 --", decoded[2], "abc"])).toString("base64url");
    for (const bad of [moved, forged, cursor.slice(0, -3), "not-a-cursor", "%00", "a".repeat(600)]) {
      const { status, body } = await loam.json(`/v1/pedons?bbox=-96.5,38.5,-95,39.5&limit=7&cursor=${encodeURIComponent(bad)}`);
      expect({ bad: bad.slice(0, 20), status }).toEqual({ bad: bad.slice(0, 20), status: 422 });
      expect(body.error.message).toContain("cursor");
    }
  });
});
