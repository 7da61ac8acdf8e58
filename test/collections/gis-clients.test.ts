/**
 * The GIS clients researchers use, against a running Loam (the done-when of issue #25): GDAL's OAPIF
 * driver lists the collections, ogr2ogr copies a box of each to a GeoPackage with typed fields (a
 * summary a Real, the key a String), and OWSLib lists the collections, reads items with bbox and
 * limit and follows `next` to the end. Debian's gdal-bin and python3-owslib (via /usr/bin/python3);
 * the expected features come from Loam's own JSON routes and the export files.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useLoam } from "../support/server";
import { tool } from "../support/tools";

const { loam } = useLoam();
const OGRINFO = tool("ogrinfo", "gdal-bin");
const OGR2OGR = tool("ogr2ogr", "gdal-bin");
const PY = "/usr/bin/python3";
const HAS_OWSLIB = existsSync(PY) && Bun.spawnSync([PY, "-c", "import owslib.ogcapi.features"]).exitCode === 0;
if (!HAS_OWSLIB && process.env.LOAM_REQUIRE_TOOLS === "1") throw new Error("OWSLib is required (LOAM_REQUIRE_TOOLS=1): apt-get install -y python3-owslib");

const BOX = [-94.369608, 41.934131, -94.349608, 41.954131];
const PEDON_BOX = [-96.5, 38.5, -95, 39.5];

// Run asynchronously: the server answering the tool runs in this process.
async function run(cmd: string[]): Promise<string> {
  const child = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe", env: { ...process.env, GDAL_HTTP_TIMEOUT: "60", CPL_DEBUG: "OFF" } });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`${cmd[0]} failed (${code}): ${err}`);
  return out;
}

/** Field name → OGR type as ogrinfo -so prints it ("clay: Real (0.0)"). */
function fieldTypes(summary: string): Record<string, string> {
  return Object.fromEntries([...summary.matchAll(/^(\w+): (\w+) \(/gm)].map((m) => [m[1]!, m[2]!]));
}

describe("GDAL's OAPIF driver", () => {
  test.skipIf(!OGRINFO)("ogrinfo OAPIF:<base>/ogc lists the collections", async () => {
    const out = await run([OGRINFO!, "-ro", "-q", `OAPIF:${loam.base}/ogc`]);
    expect(out).toMatch(/mapunits \(title: SSURGO map-unit polygons\) \(Polygon\)/);
    expect(out).toMatch(/pedons \(title: KSSL laboratory pedons\) \(Point\)/);
  }, 60_000);

  test.skipIf(!OGR2OGR)("ogr2ogr copies a box of map units with two summaries to a GeoPackage: clay a Real, the key a String, every polygon", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loam-ogr-"));
    const gpkg = join(dir, "mapunits.gpkg");
    await run([OGR2OGR!, "-f", "GPKG", gpkg, `OAPIF:${loam.base}/ogc/collections/mapunits?properties=clay,ph&depth_bottom_cm=30`, "-spat", ...BOX.map(String), "-oo", "PAGE_SIZE=7"]);
    const summary = await run([OGRINFO!, "-ro", "-so", gpkg, "mapunits"]);
    const types = fieldTypes(summary);
    expect(types).toMatchObject({ map_unit_key: "String", map_unit_name: "String", clay: "Real", ph: "Real" });
    expect(["Integer", "Real"]).toContain(types.clay_percent_of_map_unit ?? "missing");
    const json = (await loam.json(`/v1/soil/mapunits?bbox=${BOX.join(",")}&properties=clay,ph&depth_bottom_cm=30`)).body;
    expect(Number(/Feature Count: (\d+)/.exec(summary)![1])).toBe(json.features.length);
    // The values made it through as numbers: the copy's clay of the README's map unit 2765528.
    const rows = await run([OGRINFO!, "-ro", "-q", gpkg, "mapunits", "-where", "map_unit_key = '2765528'", "-fields=YES", "-geom=NO"]);
    const clay = Number(/clay \(Real\) = ([\d.]+)/.exec(rows)![1]);
    const expected = json.features.find((f: any) => f.properties.map_unit_key === "2765528").properties.clay;
    expect(clay).toBeCloseTo(expected, 6);
  }, 120_000);

  test.skipIf(!OGR2OGR)("ogr2ogr copies the README's box of pedons to a GeoPackage: the key a String, layer_count an Integer, every pedon", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loam-ogr-"));
    const gpkg = join(dir, "pedons.gpkg");
    await run([OGR2OGR!, "-f", "GPKG", gpkg, `OAPIF:${loam.base}/ogc`, "pedons", "-spat", ...PEDON_BOX.map(String), "-oo", "PAGE_SIZE=7"]);
    const summary = await run([OGRINFO!, "-ro", "-so", gpkg, "pedons"]);
    expect(fieldTypes(summary)).toMatchObject({ pedon_key: "String", pedlabsampnum: "String", layer_count: "Integer" });
    const json = (await loam.json(`/v1/pedons?bbox=${PEDON_BOX.join(",")}&limit=500`)).body;
    expect(Number(/Feature Count: (\d+)/.exec(summary)![1])).toBe(json.features.length);
  }, 120_000);
});

describe("OWSLib", () => {
  test.skipIf(!HAS_OWSLIB)("lists the collections, reads items with bbox and limit, and follows next to the end", async () => {
    const script = `
import json, sys
from urllib.parse import urlparse, parse_qs
from owslib.ogcapi.features import Features
api = Features(sys.argv[1])
ids = [c["id"] for c in api.collections()["collections"]]
keys, pages, kwargs = [], 0, {"bbox": [${PEDON_BOX.join(",")}], "limit": 7}
while True:
    page = api.collection_items("pedons", **kwargs)
    pages += 1
    keys += [f["id"] for f in page["features"]]
    nxt = [l["href"] for l in page["links"] if l["rel"] == "next"]
    if not nxt:
        break
    # The next link is the same query with its cursor: OWSLib asks for it with the same arguments.
    kwargs["cursor"] = parse_qs(urlparse(nxt[0]).query)["cursor"][0]
mapunits = api.collection_items("mapunits", bbox=[${BOX.join(",")}], limit=3, properties="clay")
print(json.dumps({"ids": ids, "keys": keys, "pages": pages, "numberReturned": mapunits["numberReturned"], "clay": [f["properties"]["clay"] for f in mapunits["features"]]}))
`;
    const out = JSON.parse(await run([PY, "-c", script, `${loam.base}/ogc/`]));
    expect(out.ids).toEqual(["mapunits", "pedons"]);
    const json = (await loam.json(`/v1/pedons?bbox=${PEDON_BOX.join(",")}&limit=500`)).body;
    expect(out.keys).toEqual(json.features.map((f: any) => f.id));
    expect(out.pages).toBe(Math.ceil(json.features.length / 7));
    expect(out.numberReturned).toBe(3);
    for (const clay of out.clay) expect(typeof clay).toBe("number");
  }, 120_000);
});
