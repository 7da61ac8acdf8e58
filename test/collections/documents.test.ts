/**
 * What the OGC documents and the OpenAPI document tell a GIS client before it reads data (issue 45,
 * DESIGN §19): limit's maximum on the items path (GDAL >= 3.8 asks full pages by it) and a larger limit
 * read as it, no paging parameters on the single item, station dates as dates in the queryables, and
 * the pedons collection saying how many of the source's pedons have no coordinates (counted here from
 * the KSSL export with Python's csv module).
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DATA_DIR, useLoam } from "../support/server";
import { python } from "../support/tools";
import { reference } from "../geochem/reference";

const { loam } = useLoam();
const PY = python("csv", "json");

describe("the documents a GIS client reads first", () => {
  test("the items path declares limit's maximum (1000); a larger limit is read as it; the single item declares no limit or cursor", async () => {
    const document = (await loam.json("/openapi.json")).body;
    const items = document.paths["/ogc/collections/{collection_id}/items"].get.parameters;
    const limit = items.find((p: any) => p.name === "limit");
    expect(limit.schema.maximum).toBe(1000);
    const item = document.paths["/ogc/collections/{collection_id}/items/{feature_id}"].get.parameters.map((p: any) => p.name);
    expect(item).not.toContain("limit");
    expect(item).not.toContain("cursor");
    // Every paged /v1 route declares its maximum too.
    for (const [path, entry] of Object.entries<any>(document.paths)) {
      const paged = entry.get?.parameters?.find((p: any) => p.name === "limit");
      if (paged) expect({ path, maximum: typeof paged.schema.maximum }).toEqual({ path, maximum: "number" });
    }
    const big = await loam.json("/ogc/collections/geochem_sites/items?limit=5000");
    expect(big.status).toBe(200);
    expect(big.body.numberReturned).toBe(1000);
    // GDAL repeats its connection URL's query on an item: the paging names are still accepted there, unread.
    expect((await loam.get("/ogc/collections/geochem_sites/items/3560?limit=10")).status).toBe(200);
  });

  test("the stations queryables type begin_date and end_date as dates", async () => {
    const { body } = await loam.json("/ogc/collections/stations/queryables");
    expect(body.properties.begin_date).toMatchObject({ type: ["string", "null"], format: "date" });
    expect(body.properties.end_date).toMatchObject({ type: ["string", "null"], format: "date" });
  });

  test.skipIf(!PY)("the pedons collection says how many of the source's pedons have no site coordinates, as the export counts them", async () => {
    const script = `import csv,json\nrows=list(csv.DictReader(open(${JSON.stringify(join(DATA_DIR, "kssl/KS/lab_combine_nasis_ncss.csv"))}, newline='')))\nprint(json.dumps([len(rows), sum(1 for r in rows if not r['latitude_decimal_degrees'] or not r['longitude_decimal_degrees'])]))`;
    const [total, unlocated] = JSON.parse(Bun.spawnSync([PY!, "-c", script]).stdout.toString()) as [number, number];
    expect(unlocated).toBeGreaterThan(0);
    const { body } = await loam.json("/ogc/collections/pedons");
    expect(body.description).toContain(`${unlocated} of the source's ${total} pedons have no site coordinates`);
    // The located rest are the collection's features.
    expect((await loam.json("/ogc/collections/pedons/items?limit=1")).body.numberMatched).toBe(total - unlocated);
  });

  test("a geochemistry site's result says not_sampled (N.S.) apart from censored ('<x'), both with a null value", async () => {
    const sites = [...reference().sites.values()];
    const cases = [
      { site: sites.find((c) => c.Top5_Ag === "N.S.")!, status: "not_sampled" },
      { site: sites.find((c) => c.Top5_Ag!.startsWith("<"))!, status: "censored" },
      { site: sites.find((c) => /^[0-9.]+$/.test(c.Top5_Ag!))!, status: "measured" },
    ];
    for (const { site, status } of cases) {
      const [lon, lat] = [Number(site.Longitude), Number(site.Latitude)];
      const box = [lon - 0.0001, lat - 0.0001, lon + 0.0001, lat + 0.0001].join(",");
      const { body } = await loam.json(`/v1/geochem/sites?bbox=${box}&property=silver`);
      const found = body.features.find((f: any) => f.id === Number(site.SiteID));
      expect({ site: site.SiteID, status: found.properties.result_status, value: found.properties.value === null }).toEqual({ site: site.SiteID, status, value: status !== "measured" });
      const item = (await loam.json(`/ogc/collections/geochem_sites/items/${site.SiteID}?properties=silver`)).body;
      expect(item.properties.silver_status).toBe(status);
    }
  });
});
