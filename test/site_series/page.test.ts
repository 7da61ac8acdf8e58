/**
 * The functions an OGC API collection of stations calls (src/shapes/site_series/service.ts):
 * `stationsPage` (a box after a station key, flat properties), `stationFlat` (one station or null) and
 * `stationsExtent` (box, temporal interval, count), over the test snapshot; expected values from the
 * test's own reading of the station metadata CSV.
 */
import { describe, expect, test } from "bun:test";
import { stationFlat, stationsExtent, stationsPage } from "../../src/shapes/site_series/service";
import { useServiceDeps } from "../support/server";
import { metadata } from "./reference";

const deps = useServiceDeps();
const scan = () => metadata().filter((r) => r.Network === "SCAN");


describe("stations for an OGC collection", () => {
  test("walking the whole range by `after` returns every SCAN station once, in station-id order, with flat properties", async () => {
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof stationsPage>> = await stationsPage(deps, { bbox: [-180, -90, 180, 90], after, limit: 70 });
      for (const f of page.features) {
        seen.push(f.id);
        for (const value of Object.values(f.properties)) expect(value === null || ["string", "number"].includes(typeof value)).toBe(true);
      }
      after = page.nextAfter;
    } while (after !== null);
    expect(seen).toEqual(scan().sort((a, b) => Number(a.Site) - Number(b.Site)).map((r) => r.stationTriplet!));
  });

  test("one station by key, null for an unknown or malformed key", async () => {
    const found = await stationFlat(deps, "2092:KS:SCAN");
    expect(found!.feature.coordinates).toEqual([-97.0859, 37.1313]);
    expect(found!.feature.properties.series_offline).toBe("soil_moisture@5.08cm 2007-01-01T00:00:00Z/2013-12-31T23:00:00Z");
    expect(await stationFlat(deps, "9999:KS:SCAN")).toBeNull();
    expect(await stationFlat(deps, "not a key")).toBeNull();
  });

  test("the extent is the box of every station, from the first begin date, open while any station is active", async () => {
    const rows = scan();
    const lons = rows.map((r) => Number(r.Longitude));
    const lats = rows.map((r) => Number(r.Latitude));
    const extent = await stationsExtent(deps);
    expect(extent.count).toBe(rows.length);
    expect(extent.bbox).toEqual([Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)]);
    expect(extent.interval).toEqual([rows.map((r) => r.beginDate!.slice(0, 10)).sort()[0]!, null]);
  });
});
