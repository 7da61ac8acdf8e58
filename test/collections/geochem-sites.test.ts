/**
 * The OGC `geochem_sites` collection through HTTP (docs/decisions.md#ogc-api-features): its extent and
 * dates computed from the data, cursor paging of a box around Iowa (every DS 801 site in it exactly
 * once, in site-id order), flat typed properties with element results as numbers (censored: null with
 * the file's '<1'), single items, and bad input. Expected values come from the test's own reading of
 * datasets/geochem/Appendix_2b_Top5_18Sept2013.txt (test/geochem/reference.ts), not Loam's reader.
 */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";
import { expectedCollections } from "../support/collections";
import { reference } from "../geochem/reference";

const { loam, contract } = useLoam();
const IOWA_BOX = [-96.7, 40.3, -90.1, 43.6] as const;

/** The file's MM/DD/YY collection date as an ISO date (the file's sites were sampled 2007-2011). */
const isoDate = (cell: string) => (/^\d\d\/\d\d\/\d\d$/.test(cell) ? `20${cell.slice(6)}-${cell.slice(0, 2)}-${cell.slice(3, 5)}` : null);

function sitesIn([w, s, e, n]: readonly [number, number, number, number]) {
  return [...reference().sites.values()]
    .filter((c) => Number(c.Longitude) >= w && Number(c.Longitude) <= e && Number(c.Latitude) >= s && Number(c.Latitude) <= n)
    .sort((a, b) => Number(a.SiteID) - Number(b.SiteID));
}

async function walk(first: string, pages = 100) {
  const features: any[] = [];
  let next: string | null = first;
  let count = 0;
  while (next !== null) {
    if (++count > pages) throw new Error("too many pages");
    const { status, body }: { status: number; body: any } = await loam.json(next.replace(loam.base, ""));
    expect({ next, status }).toEqual({ next, status: 200 });
    contract.assert("OgcFeatureCollection", body);
    expect(body.numberReturned).toBe(body.features.length);
    expect(new Date(body.timeStamp).toISOString()).toBe(body.timeStamp);
    features.push(...body.features);
    next = body.links.find((l: any) => l.rel === "next")?.href ?? null;
  }
  return { features, pages: count };
}

describe("the geochem_sites collection", () => {
  test("is listed third, with the sites' box and their first and last collection dates as its extent", async () => {
    const { status, body } = await loam.json("/ogc/collections");
    expect(status).toBe(200);
    contract.assert("OgcCollections", body);
    expect(body.collections.map((c: any) => c.id)).toEqual(expectedCollections());
    const sites = [...reference().sites.values()];
    const lons = sites.map((c) => Number(c.Longitude));
    const lats = sites.map((c) => Number(c.Latitude));
    const dates = sites.map((c) => isoDate(c.CollDate!)).filter((d): d is string => d !== null).sort();
    const geochem = body.collections.find((c: any) => c.id === "geochem_sites");
    expect(geochem.extent.spatial.bbox).toEqual([[Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)]]);
    expect(geochem.extent.temporal).toEqual({ interval: [[`${dates[0]}T00:00:00Z`, `${dates.at(-1)}T23:59:59Z`]], trs: "http://www.opengis.net/def/uom/ISO-8601/0/Gregorian" });
    const one = await loam.json("/ogc/collections/geochem_sites");
    contract.assert("OgcCollection", one.body);
    expect(one.body).toEqual(geochem);
  });

  test("walking a box around Iowa with limit 7 returns every DS 801 site in it exactly once, in site-id order, the 91 Iowa sites among them", async () => {
    const expected = sitesIn(IOWA_BOX);
    const { features, pages } = await walk(`/ogc/collections/geochem_sites/items?bbox=${IOWA_BOX.join(",")}&limit=7`);
    expect(features.map((f) => f.id)).toEqual(expected.map((c) => Number(c.SiteID)));
    expect(pages).toBe(Math.ceil(expected.length / 7));
    const iowa = features.filter((f) => f.properties.state === "IA");
    expect(iowa).toHaveLength(91);
    expect(iowa.map((f) => f.id)).toEqual([...reference().sites.values()].filter((c) => c.StateID === "IA").map((c) => Number(c.SiteID)).sort((a, b) => a - b));
    for (const f of features) {
      const cells = reference().sites.get(Number(f.id))!;
      expect(f.geometry).toEqual({ type: "Point", coordinates: [Number(cells.Longitude), Number(cells.Latitude)] });
      expect(f.properties.site_id).toBe(Number(cells.SiteID));
    }
  });

  test("with properties=arsenic,silver each site carries its results flat: numbers as Reals, censored as null with the file's '<1', N.S. as null", async () => {
    const { units } = reference();
    const { features } = await walk(`/ogc/collections/geochem_sites/items?bbox=${IOWA_BOX.join(",")}&limit=50&properties=arsenic,ag`);
    expect(features.length).toBe(sitesIn(IOWA_BOX).length);
    for (const f of features) {
      const cells = reference().sites.get(Number(f.id))!;
      for (const [id, column] of [["arsenic", "Top5_As"], ["silver", "Top5_Ag"]] as const) {
        const cell = cells[column]!;
        const value = cell.startsWith("<") || cell === "N.S." ? null : Number(cell);
        // Null alone does not tell censored from not sampled: the status does.
        const status = cell.startsWith("<") ? "censored" : cell === "N.S." ? "not_sampled" : "measured";
        expect({ id: f.id, [id]: f.properties[id], reported: f.properties[`${id}_reported_value`], unit: f.properties[`${id}_unit`], status: f.properties[`${id}_status`] }).toEqual({
          id: f.id,
          [id]: value,
          reported: cell,
          unit: units[column],
          status,
        });
      }
    }
    // A cursor is bound to its elements: the same cursor with another selection is Part 1's 400.
    const first = (await loam.json(`/ogc/collections/geochem_sites/items?bbox=${IOWA_BOX.join(",")}&limit=5&properties=arsenic`)).body;
    const cursor = new URL(first.links.find((l: any) => l.rel === "next").href).searchParams.get("cursor")!;
    const replay = await loam.json(`/ogc/collections/geochem_sites/items?bbox=${IOWA_BOX.join(",")}&limit=5&properties=lead&cursor=${encodeURIComponent(cursor)}`);
    expect(replay.status).toBe(400);
    expect(replay.body.error.code).toBe("bad_request");
    // ... and to its box; an edited cursor is refused too.
    const otherBox = await loam.json(`/ogc/collections/geochem_sites/items?bbox=-96.7,40.3,-90.1,43.5&limit=5&properties=arsenic&cursor=${encodeURIComponent(cursor)}`);
    expect(otherBox.status).toBe(400);
    const edited = await loam.json(`/ogc/collections/geochem_sites/items?bbox=${IOWA_BOX.join(",")}&limit=5&properties=arsenic&cursor=${encodeURIComponent(cursor.slice(0, -2) + (cursor.endsWith("A") ? "BB" : "AA"))}`);
    expect(edited.status).toBe(400);
    // A page revalidates: its ETag answers If-None-Match with 304.
    const path = `/ogc/collections/geochem_sites/items?bbox=${IOWA_BOX.join(",")}&limit=5&properties=arsenic`;
    const etag = (await loam.get(path)).headers.get("etag")!;
    expect(etag).toBeTruthy();
    expect((await loam.get(path, { headers: { "If-None-Match": etag } })).status).toBe(304);
  });

  test("site 3560 as one item: the file's site fields (site_id an integer, as on /v1) and, with properties, As 4.7 mg/kg and Ag censored '<1'", async () => {
    const cells = reference().sites.get(3560)!;
    const response = await loam.get("/ogc/collections/geochem_sites/items/3560?properties=arsenic,lead,silver");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("application/geo+json");
    const body: any = await response.json();
    contract.assert("OgcFeature", body);
    expect(body.id).toBe(3560);
    expect(body.geometry).toEqual({ type: "Point", coordinates: [Number(cells.Longitude), Number(cells.Latitude)] });
    const [top, bottom] = cells.Top5_Depth!.split("-").map(Number);
    expect(body.properties).toEqual({
      site_id: 3560,
      lab_id: cells.Top5_LabID,
      state: cells.StateID,
      collection_date: isoDate(cells.CollDate!),
      land_cover_primary: cells.LandCover1,
      land_cover_secondary: cells.LandCover2,
      depth_top_cm: top,
      depth_bottom_cm: bottom,
      arsenic: Number(cells.Top5_As),
      arsenic_reported_value: cells.Top5_As,
      arsenic_unit: "mg/kg",
      arsenic_status: "measured",
      lead: Number(cells.Top5_Pb),
      lead_reported_value: cells.Top5_Pb,
      lead_unit: "mg/kg",
      lead_status: "measured",
      silver: null,
      silver_reported_value: "<1",
      silver_unit: "mg/kg",
      silver_status: "censored",
    });
    expect(body.properties.arsenic).toBe(4.7);
    expect(body.properties.lead).toBe(17.1);
    // The item equals the site as a page of its box gives it.
    const page = (await loam.json(`/ogc/collections/geochem_sites/items?bbox=-93.8,42,-93.7,42.1&properties=arsenic,lead,silver`)).body;
    expect(page.features.find((f: any) => f.id === 3560).properties).toEqual(body.properties);
    // One type on both APIs: /v1/geochem/sites gives the same integer id and site_id.
    const v1 = (await loam.json("/v1/geochem/sites?bbox=-93.8,42,-93.7,42.1")).body.features.find((f: any) => f.id === 3560);
    expect([v1.id, v1.properties.site_id]).toEqual([body.id, body.properties.site_id]);
  });

  test("unknown and malformed site ids are 404 not_found; an unknown element, another collection's parameter and too many elements 400", async () => {
    for (const id of ["99999999", "7", "abc", "0", "-3560", "35.60"]) {
      const { status, body } = await loam.json(`/ogc/collections/geochem_sites/items/${id}`);
      expect({ id, status }).toEqual({ id, status: 404 });
      expect(body.error.code).toBe("not_found");
    }
    const unknown = await loam.json("/ogc/collections/geochem_sites/items?properties=unobtainium");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("unobtainium");
    const clay = await loam.json("/ogc/collections/geochem_sites/items?properties=clay");
    expect(clay.status).toBe(400);
    expect(clay.body.error.message).toContain("clay");
    const foreign = await loam.json("/ogc/collections/geochem_sites/items?properties=arsenic&method=max");
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toContain("geochem_sites collection takes no parameter 'method'");
    const tooMany = await loam.json("/ogc/collections/geochem_sites/items?properties=arsenic,lead,silver,selenium,mercury,cadmium,zinc_total,copper_total,nickel");
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toContain("at most 8");
  });
});

describe("datetime (OGC API - Features Part 1) on geochem_sites, by collection date", () => {
  const allSites = () => [...reference().sites.values()].sort((a, b) => Number(a.SiteID) - Number(b.SiteID));
  const idsWhere = (keep: (date: string) => boolean) => allSites().filter((c) => isoDate(c.CollDate!) !== null && keep(isoDate(c.CollDate!)!)).map((c) => Number(c.SiteID));

  test("an instant, closed and open intervals select exactly the sites of those days, every page, with numberMatched", async () => {
    for (const [datetime, keep] of [
      ["2008-06-16", (d: string) => d === "2008-06-16"],
      ["2008-06-16T12:00:00Z", (d: string) => d === "2008-06-16"],
      ["2008-06-16T23:30:00-05:00", (d: string) => d === "2008-06-17"],
      ["2008-01-01/2008-12-31", (d: string) => d >= "2008-01-01" && d <= "2008-12-31"],
      ["2008-06-01T00:00:00Z/2008-06-30T23:59:59Z", (d: string) => d >= "2008-06-01" && d <= "2008-06-30"],
      ["../2007-12-31", (d: string) => d <= "2007-12-31"],
      ["2010-01-01/..", (d: string) => d >= "2010-01-01"],
      ["/2007-12-31", (d: string) => d <= "2007-12-31"],
    ] as const) {
      const expected = idsWhere(keep);
      expect({ datetime, some: expected.length > 0 }).toEqual({ datetime, some: true });
      const first = await loam.json(`/ogc/collections/geochem_sites/items?datetime=${encodeURIComponent(datetime)}&limit=500`);
      expect({ datetime, status: first.status }).toEqual({ datetime, status: 200 });
      expect({ datetime, matched: first.body.numberMatched }).toEqual({ datetime, matched: expected.length });
      const { features } = await walk(`/ogc/collections/geochem_sites/items?datetime=${encodeURIComponent(datetime)}&limit=500`);
      expect({ datetime, ids: features.map((f) => f.id) }).toEqual({ datetime, ids: expected });
      for (const f of features) expect(keep(f.properties.collection_date)).toBe(true);
    }
  });

  test("with a box and elements: the sites of the box and days, each with its element", async () => {
    const expected = sitesIn(IOWA_BOX).filter((c) => (isoDate(c.CollDate!) ?? "") >= "2009-01-01");
    const { features } = await walk(`/ogc/collections/geochem_sites/items?bbox=${IOWA_BOX.join(",")}&datetime=2009-01-01/..&properties=arsenic&limit=7`);
    expect(features.map((f) => f.id)).toEqual(expected.map((c) => Number(c.SiteID)));
    for (const f of features) expect(f.properties.arsenic_reported_value).toBe(reference().sites.get(Number(f.id))!.Top5_As);
  });

  test("a datetime that is not an instant or an interval is a 400 naming datetime; a collection without a temporal extent refuses it", async () => {
    for (const bad of ["yesterday", "2008-13-01", "2009-02-30", "2008-06-16T25:00:00Z", "2008-06-16T12:00:00", "../..", "/", "2009-01-01/2008-01-01", "2008-01-01/2008-02-01/2008-03-01"]) {
      const { status, body } = await loam.json(`/ogc/collections/geochem_sites/items?datetime=${encodeURIComponent(bad)}`);
      expect({ bad, status, code: body.error.code }).toEqual({ bad, status: 400, code: "bad_request" });
      expect(body.error.message).toContain("'datetime'");
    }
    const pedons = await loam.json("/ogc/collections/pedons/items?datetime=2008-06-16");
    expect([pedons.status, pedons.body.error.code]).toEqual([400, "bad_request"]);
    expect(pedons.body.error.message).toContain("geochem_sites");
  });

  test("a cursor is bound to its datetime: replayed with another interval, 400", async () => {
    const first = (await loam.json("/ogc/collections/geochem_sites/items?datetime=2008-01-01/2008-12-31&limit=5")).body;
    const cursor = new URL(first.links.find((l: any) => l.rel === "next").href).searchParams.get("cursor")!;
    const replay = await loam.json(`/ogc/collections/geochem_sites/items?datetime=2009-01-01/2009-12-31&limit=5&cursor=${cursor}`);
    expect([replay.status, replay.body.error.code]).toEqual([400, "bad_request"]);
    expect(replay.body.error.message).toMatch(/another query/);
  });
});

describe("numberMatched and f", () => {
  test("numberMatched counts every site of the box, on every page (QGIS shows the total before the download ends)", async () => {
    const expected = sitesIn(IOWA_BOX).length;
    const first = await loam.json(`/ogc/collections/geochem_sites/items?bbox=${IOWA_BOX.join(",")}&limit=5`);
    expect(first.body.numberMatched).toBe(expected);
    const all = await loam.json("/ogc/collections/geochem_sites/items?limit=1");
    expect(all.body.numberMatched).toBe(reference().sites.size);
    const second = await loam.json(new URL(first.body.links.find((l: any) => l.rel === "next").href).pathname + new URL(first.body.links.find((l: any) => l.rel === "next").href).search);
    expect(second.body.numberMatched).toBe(expected);
  });

  test("f=json and f=geojson give the same items; another f (html included) is a 400 naming the accepted values", async () => {
    const plain = await loam.json("/ogc/collections/geochem_sites/items?limit=3");
    for (const f of ["json", "geojson"]) {
      const response = await loam.get(`/ogc/collections/geochem_sites/items?limit=3&f=${f}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toStartWith("application/geo+json");
      const body: any = await response.json();
      expect(body.features).toEqual(plain.body.features);
      for (const path of ["/ogc", "/ogc/conformance", "/ogc/collections", "/ogc/collections/geochem_sites", "/ogc/collections/geochem_sites/items/3560"]) {
        expect({ path, f, status: (await loam.get(`${path}?f=${f}`)).status }).toEqual({ path, f, status: 200 });
      }
    }
    for (const path of ["/ogc", "/ogc/collections", "/ogc/collections/geochem_sites/items", "/ogc/collections/geochem_sites/items/3560"]) {
      for (const f of ["html", "xml"]) {
        const { status, body } = await loam.json(`${path}?f=${f}`);
        expect({ path, f, status, code: body.error.code }).toEqual({ path, f, status: 400, code: "bad_request" });
        expect(body.error.message).toMatch(/json, geojson/);
      }
    }
  });
});
