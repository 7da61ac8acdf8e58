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
import { expectedCollections } from "../support/collections";
import { tool } from "../support/tools";
import { reference } from "../geochem/reference";
import { parseRfc4180 } from "../support/csv";
import { metadata } from "../site_series/reference";

const { loam } = useLoam();
const OGRINFO = tool("ogrinfo", "gdal-bin");
const OGR2OGR = tool("ogr2ogr", "gdal-bin");
const PY = "/usr/bin/python3";
const HAS_OWSLIB = existsSync(PY) && Bun.spawnSync([PY, "-c", "import owslib.ogcapi.features"]).exitCode === 0;
if (!HAS_OWSLIB && process.env.LOAM_REQUIRE_TOOLS === "1") throw new Error("OWSLib is required (LOAM_REQUIRE_TOOLS=1): apt-get install -y python3-owslib");

const BOX = [-94.369608, 41.934131, -94.349608, 41.954131];
const PEDON_BOX = [-96.5, 38.5, -95, 39.5];
const IOWA_BOX = [-96.7, 40.3, -90.1, 43.6];

/** The SCAN station triplets of the AWDB station metadata (the site_series tests' own reader), sorted. */
const scanTriplets = () => metadata().filter((r) => r.Network === "SCAN").map((r) => r.stationTriplet!).sort();

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
    expect(out).toMatch(/geochem_sites \(title: USGS DS 801 soil geochemistry sample sites\) \(Point\)/);
    expect(out).toMatch(/stations \(title: SCAN soil-climate sensor stations\) \(Point\)/);
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

  test.skipIf(!OGR2OGR)("ogr2ogr copies a box of DS 801 sites with arsenic to a GeoPackage: site_id an Integer (as on /v1), arsenic a Real (censored: null), every site of the file in the box", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loam-ogr-"));
    const gpkg = join(dir, "geochem.gpkg");
    await run([OGR2OGR!, "-f", "GPKG", gpkg, `OAPIF:${loam.base}/ogc/collections/geochem_sites?properties=arsenic,silver`, "-spat", ...IOWA_BOX.map(String), "-oo", "PAGE_SIZE=7"]);
    const summary = await run([OGRINFO!, "-ro", "-so", gpkg, "geochem_sites"]);
    expect(fieldTypes(summary)).toMatchObject({ site_id: "Integer", lab_id: "String", state: "String", arsenic: "Real", arsenic_reported_value: "String", silver_reported_value: "String" });
    expect(["Integer", "Integer64"]).toContain(fieldTypes(summary).depth_bottom_cm ?? "missing");
    const inBox = [...reference().sites.values()].filter((c) => {
      const [lon, lat] = [Number(c.Longitude), Number(c.Latitude)];
      return lon >= IOWA_BOX[0]! && lon <= IOWA_BOX[2]! && lat >= IOWA_BOX[1]! && lat <= IOWA_BOX[3]!;
    });
    expect(Number(/Feature Count: (\d+)/.exec(summary)![1])).toBe(inBox.length);
    // Site 3560's arsenic arrived as the number in the file.
    const rows = await run([OGRINFO!, "-ro", "-q", gpkg, "geochem_sites", "-where", "site_id = 3560", "-fields=YES", "-geom=NO"]);
    expect(Number(/arsenic \(Real\) = ([\d.]+)/.exec(rows)![1])).toBe(Number(reference().sites.get(3560)!.Top5_As));
    expect(rows).toMatch(/silver_reported_value \(String\) = <1/);
    // Censored: no value, never the limit.
    expect(rows).toMatch(/silver \(\w+\) = \(null\)/);
  }, 120_000);

  test.skipIf(!OGR2OGR)("ogr2ogr copies every DS 801 site at the default page size with properties=arsenic,lead in the connection URL: exit 0, every site once (the next links never grow)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loam-ogr-"));
    const gpkg = join(dir, "all-sites.gpkg");
    // GDAL appends the connection URL's query (comma literal) to every next link it follows.
    await run([OGR2OGR!, "-f", "GPKG", gpkg, `OAPIF:${loam.base}/ogc/collections/geochem_sites?properties=arsenic,lead`]);
    const csv = await run([OGR2OGR!, "-f", "CSV", "/vsistdout/", gpkg, "geochem_sites", "-select", "site_id,lead", "-lco", "LINEFORMAT=CRLF"]);
    const rows = parseRfc4180(csv).slice(1).filter((r) => r.length > 1);
    const expected = [...reference().sites.keys()].sort((a, b) => a - b);
    expect(expected.length).toBe(4857);
    expect(rows.map((r) => Number(r[0])).sort((a, b) => a - b)).toEqual(expected);
    // The elements came along on every page: site 3560's lead as the file has it.
    const lead = rows.find((r) => Number(r[0]) === 3560)![1];
    expect(Number(lead)).toBe(Number(reference().sites.get(3560)!.Top5_Pb));
  }, 300_000);

  test.skipIf(!OGR2OGR)("ogr2ogr copies the stations layer of OAPIF:<base>/ogc at the default page size to a GeoPackage: exit 0, every SCAN station of the metadata once, the triplet a String and elevation_m a Real", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loam-ogr-"));
    const gpkg = join(dir, "stations.gpkg");
    await run([OGR2OGR!, "-f", "GPKG", gpkg, `OAPIF:${loam.base}/ogc`, "stations"]);
    const summary = await run([OGRINFO!, "-ro", "-so", gpkg, "stations"]);
    expect(fieldTypes(summary)).toMatchObject({ station_triplet: "String", station_id: "String", name: "String", elevation_m: "Real", pedon_key: "String" });
    const expected = scanTriplets();
    expect(expected.length).toBe(208);
    expect(Number(/Feature Count: (\d+)/.exec(summary)![1])).toBe(expected.length);
    const csv = await run([OGR2OGR!, "-f", "CSV", "/vsistdout/", gpkg, "stations", "-select", "station_triplet,pedon_key", "-lco", "LINEFORMAT=CRLF"]);
    const rows = parseRfc4180(csv).slice(1).filter((r) => r.length > 1);
    expect(rows.map((r) => r[0]!).sort()).toEqual(expected);
    // Abrams' lab pedon (KSSL's number, as the metadata's pedlabsampnum) came through.
    expect(rows.find((r) => r[0] === "2092:KS:SCAN")![1]).toBe(metadata().find((r) => r.stationTriplet === "2092:KS:SCAN")!.pedlabsampnum!);
  }, 120_000);
});

describe("OWSLib", () => {
  test.skipIf(!HAS_OWSLIB)("lists the collections, reads items with bbox and limit, follows next to the end (with properties=arsenic,lead; every station), reads one station by triplet, reads queryables and filters by datetime", async () => {
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
sites, site_pages, kwargs, next_lengths, leads = [], 0, {"limit": 500, "properties": "arsenic,lead"}, [], {}
while True:
    page = api.collection_items("geochem_sites", **kwargs)
    site_pages += 1
    sites += [f["id"] for f in page["features"]]
    leads.update({f["id"]: f["properties"]["lead_reported_value"] for f in page["features"]})
    nxt = [l["href"] for l in page["links"] if l["rel"] == "next"]
    if not nxt:
        break
    next_lengths.append(len(nxt[0]))
    kwargs["cursor"] = parse_qs(urlparse(nxt[0]).query)["cursor"][0]
stations, station_pages, kwargs = [], 0, {"limit": 50}
while True:
    page = api.collection_items("stations", **kwargs)
    station_pages += 1
    stations += [f["id"] for f in page["features"]]
    nxt = [l["href"] for l in page["links"] if l["rel"] == "next"]
    if not nxt:
        break
    kwargs["cursor"] = parse_qs(urlparse(nxt[0]).query)["cursor"][0]
abrams = api.collection_item("stations", "2092:KS:SCAN")
station_collection = api.collection("stations")
queryables = api.collection_queryables("geochem_sites")
dated = api.collection_items("geochem_sites", datetime="2008-01-01/2008-12-31", limit=1000)
print(json.dumps({"stations": stations, "station_pages": station_pages, "abrams": abrams["properties"]["name"], "station_extent": station_collection["extent"], "queryables": queryables, "dated_matched": dated["numberMatched"], "dated_dates": sorted({f["properties"]["collection_date"][:4] for f in dated["features"]}), "ids": ids, "keys": keys, "pages": pages, "numberReturned": mapunits["numberReturned"], "clay": [f["properties"]["clay"] for f in mapunits["features"]], "sites": sites, "site_pages": site_pages, "next_lengths": next_lengths, "leads": leads}))
`;
    const out = JSON.parse(await run([PY, "-c", script, `${loam.base}/ogc/`]));
    expect(out.ids).toEqual(expectedCollections());
    // Every SCAN station of the metadata once, in pages of 50; one by its triplet; the collection's period open-ended.
    expect([...out.stations].sort()).toEqual(scanTriplets());
    expect(out.stations.length).toBe(208);
    expect(out.station_pages).toBe(Math.ceil(208 / 50));
    expect(out.abrams).toBe("Abrams");
    expect(out.station_extent.temporal.interval[0][1]).toBeNull();
    const json = (await loam.json(`/v1/pedons?bbox=${PEDON_BOX.join(",")}&limit=500`)).body;
    expect(out.keys).toEqual(json.features.map((f: any) => f.id));
    expect(out.pages).toBe(Math.ceil(json.features.length / 7));
    expect(out.numberReturned).toBe(3);
    for (const clay of out.clay) expect(typeof clay).toBe("number");
    // Every DS 801 site of the file, once each, in site-id order, in pages of 500.
    const siteIds = [...reference().sites.keys()].sort((a, b) => a - b);
    expect(out.sites).toEqual(siteIds);
    expect(out.site_pages).toBe(Math.ceil(siteIds.length / 500));
    // With properties=arsenic,lead every page carries the elements, and no next link is longer than the first by more than the cursor's growth.
    expect(Object.keys(out.leads).length).toBe(siteIds.length);
    expect(out.leads["3560"]).toBe(reference().sites.get(3560)!.Top5_Pb);
    expect(Math.max(...out.next_lengths) - Math.min(...out.next_lengths)).toBeLessThanOrEqual(8);
    // OWSLib reads the queryables (Part 3) and filters by datetime: the 2008 sites of the file.
    expect(out.queryables.$id).toBe(`${loam.base}/ogc/collections/geochem_sites/queryables`);
    expect(out.queryables.properties.site_id.type).toBe("integer");
    const in2008 = [...reference().sites.values()].filter((c) => /^\d\d\/\d\d\/08$/.test(c.CollDate!)).length;
    expect(out.dated_matched).toBe(in2008);
    expect(out.dated_dates).toEqual(["2008"]);
  }, 120_000);
});
