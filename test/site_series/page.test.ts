/**
 * `stationsPage` (src/shapes/site_series/service.ts), the page the OGC API collection of stations
 * reads (a box after a station key, flat properties), over the test snapshot; expected values from the
 * test's own reading of the station metadata CSV. Its extents and one item: test/collections/stations.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { stationsPage } from "../../src/shapes/site_series/service";
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
});
