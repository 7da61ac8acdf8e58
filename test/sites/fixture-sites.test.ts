/**
 * The `sites` shape is generic (docs/decisions.md#sites): a fixture provider of located records
 * (test/fixtures/fixture_stations: three stations with its own key syntax and transport), registered with
 * one line as the registry's first site_series provider, is served through the generic sites service
 * (a box paged by a keyset cursor, the nearest to a point, one site by key, the 422 of a malformed key)
 * and the OGC collection built from the sites entry (extent, items and their next link, one item,
 * queryables), and as CSV. Expected values come from the fixture's own records.
 */
import { describe, expect, test } from "bun:test";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { fixtureStations, STATIONS } from "../fixtures/fixture_stations";
import { parseRfc4180 } from "../support/csv";
import { pyprojAvailable, pyprojDistancesKm } from "../support/geodesic";
import { useLoam } from "../support/server";

const { loam, contract } = useLoam({ providers: [fixtureStations, ...DEFAULT_PROVIDERS] });

/** The fixture stations inside a box, in key order. */
const inBox = ([w, s, e, n]: number[]) =>
  STATIONS.filter((st) => st.longitude >= w! && st.longitude <= e! && st.latitude >= s! && st.latitude <= n!)
    .map((st) => st.properties.station_triplet)
    .sort();


const BOX = [-98, 37, -95, 38];

describe("a fixture sites provider registered with one line", () => {
  test("a box is paged by a keyset cursor: every station of the box once, in key order; the cursor belongs to its box", async () => {
    const seen: string[] = [];
    let path: string | null = `/v1/stations?bbox=${BOX.join(",")}&limit=1`;
    let first: any = null;
    while (path !== null) {
      const { status, body }: { status: number; body: any } = await loam.json(path);
      expect(status).toBe(200);
      contract.assert("StationCollection", body);
      expect(body.provider).toBe("fixture_stations");
      first ??= body;
      seen.push(...body.features.map((f: any) => f.id));
      expect(body.truncated).toBe(body.next !== null);
      path = body.next;
    }
    expect(inBox(BOX)).toEqual(["abrams-1", "cimarron-1"]);
    expect(seen).toEqual(inBox(BOX));
    const cursor = new URL(first.next, "http://x").searchParams.get("cursor");
    const replayed = await loam.json(`/v1/stations?bbox=-98,37,-94,38&cursor=${cursor}`);
    expect([replayed.status, replayed.body.error.message]).toEqual([422, expect.stringContaining("'cursor'")]);
  });

  test.skipIf(!pyprojAvailable())("near lists the fixture's stations nearest first, each with its geodesic distance (pyproj's)", async () => {
    const [lat, lon] = [37.2, -96.9];
    const { status, body } = await loam.json(`/v1/stations?near=${lat},${lon}&limit=2`);
    expect(status).toBe(200);
    contract.assert("StationCollection", body);
    const distances = pyprojDistancesKm([lat, lon], STATIONS.map((st) => [st.latitude, st.longitude] as const));
    const expected = STATIONS.map((st, i) => [st.properties.station_triplet, distances[i]!] as const)
      .sort((a, b) => a[1] - b[1])
      .slice(0, 2);
    expect(body.features.map((f: any) => f.id)).toEqual(expected.map(([id]) => id));
    body.features.forEach((f: any, i: number) => expect(f.properties.distance_km).toBeCloseTo(expected[i]![1], 3));
    expect(body.next).toBeNull();
  });

  test("one site by its key; an unknown key is a 404, a malformed one a 422 in the provider's words", async () => {
    const { status, body } = await loam.json("/v1/stations/cimarron-1");
    expect(status).toBe(200);
    contract.assert("StationResponse", body);
    const cimarron = STATIONS.find((s) => s.properties.station_triplet === "cimarron-1")!;
    expect(body.station.geometry.coordinates).toEqual([cimarron.longitude, cimarron.latitude]);
    expect(body.station.properties.name).toBe(cimarron.properties.name);
    const unknown = await loam.json("/v1/stations/nowhere-9");
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "not_found"]);
    const bad = await loam.json("/v1/stations/2092:KS:SCAN");
    expect([bad.status, bad.body.error.message]).toEqual([422, expect.stringContaining("a fixture key such as abrams-1")]);
  });

  test("the OGC collection built from the sites entry serves its extent, its operating periods and one item", async () => {
    const { body } = await loam.json("/ogc/collections/stations");
    const lons = STATIONS.map((s) => s.longitude);
    const lats = STATIONS.map((s) => s.latitude);
    expect(body.extent.spatial.bbox).toEqual([[Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)]]);
    // Two stations still report (no end date): the temporal extent is open.
    const begins = STATIONS.map((s) => s.properties.begin_date!).sort();
    expect(body.extent.temporal.interval).toEqual([[`${begins[0]}T00:00:00Z`, null]]);
    const item = await loam.json("/ogc/collections/stations/items/cimarron-1");
    expect(item.status).toBe(200);
    expect(item.body).toMatchObject({ type: "Feature", id: "cimarron-1", geometry: { type: "Point", coordinates: [-95.52, 37.31] }, properties: { station_triplet: "cimarron-1", end_date: "2012-09-30" } });
    expect((await loam.get("/ogc/collections/stations/items/nowhere-9")).status).toBe(404);
  });

  test("OGC items page by the next link, numberMatched counts the box, datetime selects by operating period", async () => {
    const ids: string[] = [];
    let href: string | null = `/ogc/collections/stations/items?bbox=${BOX.join(",")}&limit=1`;
    while (href !== null) {
      const { body }: { body: any } = await loam.json(href);
      expect(body.numberMatched).toBe(inBox(BOX).length);
      ids.push(...body.features.map((f: any) => f.id));
      const next: any = body.links.find((l: any) => l.rel === "next");
      href = next ? new URL(next.href).pathname + new URL(next.href).search : null;
    }
    expect(ids).toEqual(inBox(BOX));
    // Cimarron stopped on 2012-09-30; Abrams still reports.
    const later = await loam.json(`/ogc/collections/stations/items?bbox=${BOX.join(",")}&datetime=2013-01-01/..`);
    expect(later.body.features.map((f: any) => f.id)).toEqual(["abrams-1"]);
  });

  test("its queryables are the flat fields of the station model", async () => {
    const { status, body } = await loam.json("/ogc/collections/stations/queryables");
    expect(status).toBe(200);
    expect(body.properties.station_triplet).toMatchObject({ type: "string" });
    expect(body.properties.begin_date).toBeDefined();
    expect(body.properties.series_offline).toMatchObject({ type: "string" });
  });

  test("CSV: one row per station of the box, columns derived from the model", async () => {
    const [header, ...rows] = parseRfc4180(await (await loam.get(`/v1/stations?bbox=${BOX.join(",")}&format=csv`)).text());
    expect(header!.slice(0, 3)).toEqual(["station_triplet", "station_id", "name"]);
    expect(rows.map((r) => r[0])).toEqual(inBox(BOX));
    expect(rows.map((r) => r[header!.indexOf("name")])).toEqual(inBox(BOX).map((id) => STATIONS.find((s) => s.properties.station_triplet === id)!.properties.name as string));
  });
});
