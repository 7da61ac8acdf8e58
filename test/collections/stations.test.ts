/**
 * The OGC `stations` collection through HTTP (docs/decisions.md#ogc-api-features, #site-series): its
 * extent and operating period computed from the data, cursor paging over every SCAN station (each
 * once, in station-id order), one station by its triplet (colons as written or percent-encoded),
 * `datetime` by operating period, queryables typed as the items are, and bad input. Expected values
 * come from the test's own reading of datasets/scan/metadata/soilDB_station-metadata.csv (the
 * rows whose Network is SCAN), not Loam's reader.
 */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";
import { expectedCollections } from "../support/collections";
import { metadata } from "../site_series/reference";

const { loam, contract } = useLoam();
const GREGORIAN = "http://www.opengis.net/def/uom/ISO-8601/0/Gregorian";

interface Row {
  triplet: string;
  site: number;
  lon: number;
  lat: number;
  /** YYYY-MM-DD */
  begin: string;
  /** YYYY-MM-DD; null when the file writes 2100-01-01 (still reporting) */
  end: string | null;
  name: string;
  elevationFt: number;
}

/** The SCAN rows of the AWDB station metadata (the site_series tests' own reader), in station-id order (then triplet), as the collection pages them. */
function scanStations(): Row[] {
  return metadata()
    .filter((r) => r.Network === "SCAN")
    .map((r) => ({
      triplet: r.stationTriplet!,
      site: Number(r.Site),
      lon: Number(r.Longitude),
      lat: Number(r.Latitude),
      begin: r.beginDate!.slice(0, 10),
      end: r.endDate!.startsWith("2100-01-01") ? null : r.endDate!.slice(0, 10),
      name: r.Name!,
      elevationFt: Number(r.Elevation_ft),
    }))
    .sort((a, b) => a.site - b.site || (a.triplet < b.triplet ? -1 : 1));
}

async function walk(first: string, pages = 300) {
  const features: any[] = [];
  const matched: number[] = [];
  let next: string | null = first;
  let count = 0;
  while (next !== null) {
    if (++count > pages) throw new Error("too many pages");
    const { status, body }: { status: number; body: any } = await loam.json(next.replace(loam.base, ""));
    expect({ next, status }).toEqual({ next, status: 200 });
    contract.assert("OgcFeatureCollection", body);
    expect(body.numberReturned).toBe(body.features.length);
    matched.push(body.numberMatched);
    features.push(...body.features);
    next = body.links.find((l: any) => l.rel === "next")?.href ?? null;
  }
  return { features, pages: count, matched };
}

describe("the stations collection", () => {
  test("is listed after geochem_sites, with the SCAN stations' box as its spatial extent and [first beginDate, open] as its temporal one, and links to its items and queryables", async () => {
    const rows = scanStations();
    expect(rows).toHaveLength(208);
    const { status, body } = await loam.json("/ogc/collections");
    expect(status).toBe(200);
    contract.assert("OgcCollections", body);
    expect(body.collections.map((c: any) => c.id)).toEqual(expectedCollections());
    const stations = body.collections.find((c: any) => c.id === "stations");
    const lons = rows.map((r) => r.lon);
    const lats = rows.map((r) => r.lat);
    expect(stations.extent.spatial.bbox).toEqual([[Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)]]);
    const first = rows.map((r) => r.begin).sort()[0];
    // Every SCAN row of the file is still reporting (endDate 2100-01-01), so the period is open.
    const last = rows.some((r) => r.end === null) ? null : `${rows.map((r) => r.end!).sort().at(-1)}T23:59:59Z`;
    expect(stations.extent.temporal).toEqual({ interval: [[`${first}T00:00:00Z`, last]], trs: GREGORIAN });
    const base = `${loam.base}/ogc/collections/stations`;
    expect(stations.links.map((l: any) => [l.rel, l.href])).toEqual([
      ["self", base],
      ["items", `${base}/items`],
      ["http://www.opengis.net/def/rel/ogc/1.0/queryables", `${base}/queryables`],
    ]);
    expect(stations.description).toContain("operating period");
    const one = await loam.json("/ogc/collections/stations");
    contract.assert("OgcCollection", one.body);
    expect(one.body).toEqual(stations);
  });

  test("walking the items with limit 50 returns every SCAN station of the file once, in station-id order, with its position, name and elevation; numberMatched 208 on every page", async () => {
    const rows = scanStations();
    const { features, pages, matched } = await walk("/ogc/collections/stations/items?limit=50");
    expect(features.map((f) => f.id)).toEqual(rows.map((r) => r.triplet));
    expect(pages).toBe(Math.ceil(rows.length / 50));
    expect(new Set(matched)).toEqual(new Set([rows.length]));
    for (const [i, f] of features.entries()) {
      const row = rows[i]!;
      expect(f.geometry).toEqual({ type: "Point", coordinates: [row.lon, row.lat] });
      expect(f.properties).toMatchObject({ station_triplet: row.triplet, station_id: String(row.site), name: row.name, elevation_ft: row.elevationFt, begin_date: row.begin, end_date: row.end });
    }
  });

  test("a box pages the stations inside it only, each once (the default page of 10)", async () => {
    const box = [-100, 35, -90, 45];
    const expected = scanStations().filter((r) => r.lon >= box[0]! && r.lon <= box[2]! && r.lat >= box[1]! && r.lat <= box[3]!);
    expect(expected.length).toBeGreaterThan(10);
    const { features, pages, matched } = await walk(`/ogc/collections/stations/items?bbox=${box.join(",")}`);
    expect(features.map((f) => f.id)).toEqual(expected.map((r) => r.triplet));
    expect(pages).toBe(Math.ceil(expected.length / 10));
    expect(matched[0]).toBe(expected.length);
  });

  test("one station by its triplet, the colons as written or percent-encoded (as GDAL and OWSLib may send them): the same feature as the items page gives", async () => {
    const row = scanStations().find((r) => r.triplet === "2092:KS:SCAN")!;
    const plain = await loam.json("/ogc/collections/stations/items/2092:KS:SCAN");
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toStartWith("application/geo+json");
    contract.assert("OgcFeature", plain.body);
    expect(plain.body.id).toBe("2092:KS:SCAN");
    expect(plain.body.geometry).toEqual({ type: "Point", coordinates: [row.lon, row.lat] });
    expect(plain.body.properties).toMatchObject({ name: "Abrams", state: "KS", begin_date: row.begin, end_date: null, pedon_key: "04N0873" });
    expect(plain.body.properties.series_offline).toBe("soil_moisture@5.08cm 2007-01-01T00:00:00Z/2013-12-31T23:00:00Z");
    const encoded = await loam.json("/ogc/collections/stations/items/2092%3AKS%3ASCAN");
    expect(encoded.status).toBe(200);
    expect(encoded.body.properties).toEqual(plain.body.properties);
    const inBox = (await loam.json(`/ogc/collections/stations/items?bbox=${row.lon},${row.lat},${row.lon},${row.lat}`)).body.features;
    expect(inBox.map((f: any) => f.properties)).toEqual([plain.body.properties]);
  });

  test("GET /v1/layers names this collection as the stations layer's extent_url, and the box it gives holds every SCAN station", async () => {
    const layers = (await loam.json("/v1/layers")).body.layers;
    const stations = layers.find((l: any) => l.kind === "stations");
    expect(stations.coverage.extent_url).toBe("/ogc/collections/stations");
    const [w, s, e, n] = (await loam.json(stations.coverage.extent_url)).body.extent.spatial.bbox[0];
    for (const r of scanStations()) expect({ t: r.triplet, inside: r.lon >= w && r.lon <= e && r.lat >= s && r.lat <= n }).toEqual({ t: r.triplet, inside: true });
  });

  test("a station the source does not hold, or a malformed triplet, is a 404 not_found", async () => {
    for (const id of ["9999:KS:SCAN", "not-a-triplet"]) {
      const { status, body } = await loam.json(`/ogc/collections/stations/items/${id}`);
      expect({ id, status, code: body.error?.code }).toEqual({ id, status: 404, code: "not_found" });
    }
  });
});

describe("datetime on stations, by operating period", () => {
  /** The rows whose period [begin, end or open] meets [from, to] (days, inclusive; null open). */
  const operating = (from: string | null, to: string | null) => scanStations().filter((r) => (to === null || r.begin <= to) && (from === null || r.end === null || r.end >= from));

  test("an instant, a closed interval and intervals open at either end select the stations operating then, each page counting them", async () => {
    for (const [datetime, from, to] of [
      ["1995-06-01", "1995-06-01", "1995-06-01"],
      ["2000-01-01T12:00:00Z", "2000-01-01", "2000-01-01"],
      ["1990-01-01/1995-12-31", "1990-01-01", "1995-12-31"],
      ["../1999-12-31", null, "1999-12-31"],
      ["2001-01-01/..", "2001-01-01", null],
    ] as const) {
      const expected = operating(from, to).map((r) => r.triplet);
      expect({ datetime, some: expected.length > 0 }).toEqual({ datetime, some: true });
      const { features, matched } = await walk(`/ogc/collections/stations/items?datetime=${encodeURIComponent(datetime)}&limit=25`);
      expect({ datetime, ids: features.map((f) => f.id) }).toEqual({ datetime, ids: expected });
      expect({ datetime, matched: [...new Set(matched)] }).toEqual({ datetime, matched: [expected.length] });
    }
    // Before the first station began, none.
    const first = scanStations().map((r) => r.begin).sort()[0]!;
    const before = new Date(Date.parse(first) - 86_400_000).toISOString().slice(0, 10);
    const none = await loam.json(`/ogc/collections/stations/items?datetime=../${before}`);
    expect({ matched: none.body.numberMatched, returned: none.body.numberReturned }).toEqual({ matched: 0, returned: 0 });
  });

  test("a bad datetime is a 400 bad_request naming datetime; a cursor replayed with another interval is a 400", async () => {
    for (const bad of ["2000-13-01", "../..", "2001-01-01/2000-01-01", "yesterday"]) {
      const { status, body } = await loam.json(`/ogc/collections/stations/items?datetime=${encodeURIComponent(bad)}`);
      expect({ bad, status, code: body.error?.code }).toEqual({ bad, status: 400, code: "bad_request" });
      expect(body.error.message).toContain("'datetime'");
    }
    const first = (await loam.json("/ogc/collections/stations/items?datetime=../1999-12-31&limit=5")).body;
    const cursor = new URL(first.links.find((l: any) => l.rel === "next").href).searchParams.get("cursor");
    const replay = await loam.json(`/ogc/collections/stations/items?datetime=../2005-12-31&limit=5&cursor=${cursor}`);
    expect({ status: replay.status, code: replay.body.error?.code }).toEqual({ status: 400, code: "bad_request" });
  });
});

describe("queryables of stations", () => {
  test("list every property of the items with the JSON type its values have (null where the model allows it), and the point geometry", async () => {
    const { status, headers, body } = await loam.json("/ogc/collections/stations/queryables");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toStartWith("application/schema+json");
    contract.assert("OgcQueryables", body);
    expect(body.properties.geometry).toEqual({ format: "geometry-point" });
    const { features } = await walk("/ogc/collections/stations/items?limit=1000");
    const names = Object.keys(body.properties).filter((n) => n !== "geometry");
    for (const f of features) {
      expect(Object.keys(f.properties)).toEqual(names);
      for (const [name, value] of Object.entries(f.properties)) {
        const declared = ([] as string[]).concat(body.properties[name].type);
        const actual = value === null ? "null" : Number.isInteger(value) && declared.includes("integer") ? "integer" : typeof value;
        expect({ name, value, ok: declared.includes(actual) }).toEqual({ name, value, ok: true });
      }
    }
    expect(body.properties.station_triplet.type).toBe("string");
    expect(body.properties.elevation_m.type).toEqual(["number", "null"]);
    expect(body.properties.series_offline.type).toBe("string");
  });
});
