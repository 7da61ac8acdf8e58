/**
 * GDAL's default copy of every collection under the default rate limit (issue 45, DESIGN §19): GDAL
 * 3.6 asks 10 features a page, so DS 801's 4,857 sites take about 490 requests, where the 121st was a
 * 429 that aborted the run. A walk's follow-up pages now spend a budget of their own
 * (docs/decisions.md#rate-budgets), while a flood of fresh queries still meets the 120 a minute.
 * Every request here falls in one rate window (a fixed clock), so the counts are exact.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Glob } from "bun";
import { startLoam, DATA_DIR, type RunningLoam } from "../support/server";
import { tool } from "../support/tools";
import { reference } from "../geochem/reference";
import { metadata } from "../site_series/reference";

const OGR2OGR = tool("ogr2ogr", "gdal-bin");
const OGRINFO = tool("ogrinfo", "gdal-bin");
const minute = Math.floor(Date.now() / 60_000) * 60_000 + 20_000;

async function run(cmd: string[]): Promise<string> {
  const child = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe", env: { ...process.env, GDAL_HTTP_TIMEOUT: "60", CPL_DEBUG: "OFF" } });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`${cmd[0]} failed (${code}): ${err}`);
  return out;
}

const featureCount = (summary: string) => Number(/Feature Count: (\d+)/.exec(summary)![1]);

/** The features each collection holds, from the source files (GDAL reading the SSURGO shapefiles; the DS 801 and AWDB readers). */
async function expectedCounts(loam: RunningLoam): Promise<Record<string, number>> {
  let polygons = 0;
  for (const shp of new Glob("ssurgo/*/spatial/soilmu_a_*.shp").scanSync(DATA_DIR)) polygons += featureCount(await run([OGRINFO!, "-ro", "-so", "-al", join(DATA_DIR, shp)]));
  // The located KSSL pedons: the collection's own numberMatched (one fresh query).
  const pedons = (await loam.json("/ogc/collections/pedons/items?limit=1")).body.numberMatched;
  return {
    mapunits: polygons,
    pedons,
    geochem_sites: reference().sites.size,
    stations: metadata().filter((r) => r.Network === "SCAN").length,
  };
}

describe("ogr2ogr at GDAL's defaults under RATE_LIMIT_PER_MINUTE=120", () => {
  test.skipIf(!OGR2OGR)("copies every feature of every collection in one minute, and fresh queries still meet the limit", async () => {
    const loam = await startLoam({ env: { RATE_LIMIT_PER_MINUTE: "120" }, now: () => minute });
    try {
      const expected = await expectedCounts(loam);
      expect(expected.geochem_sites).toBe(4857);
      const before = loam.accessLog.length;
      const dir = mkdtempSync(join(tmpdir(), "loam-gdal-defaults-"));
      // Every collection the service lists (a new one needs its expected count above).
      const listed: string[] = (await loam.json("/ogc/collections")).body.collections.map((c: { id: string }) => c.id);
      expect(listed.sort()).toEqual(Object.keys(expected).sort());
      for (const collection of listed) {
        const gpkg = join(dir, `${collection}.gpkg`);
        // No -oo PAGE_SIZE, no GDAL_HTTP_MAX_RETRY: what a user types first.
        await run([OGR2OGR!, "-f", "GPKG", gpkg, `OAPIF:${loam.base}/ogc`, collection]);
        expect({ collection, count: featureCount(await run([OGRINFO!, "-ro", "-so", gpkg, collection])) }).toEqual({ collection, count: expected[collection]! });
      }
      const items = loam.accessLog.slice(before).filter((line) => line.route === "/ogc/collections/:collection_id/items");
      // Far more pages than the 120 a minute: under one budget the 121st had been a 429.
      expect(items.length).toBeGreaterThan(560);
      expect(loam.accessLog.filter((line) => line.status === 429)).toEqual([]);
      // GDAL 3.6 walks 10 a page (it may probe a collection with limit=1 first).
      expect([...new Set(items.filter((line) => line.query?.cursor).map((line) => line.query?.limit))]).toEqual(["10"]);

      // The fresh queries GDAL made (one first page per collection) spent the data budget; its follow-up pages did not.
      const probe = await loam.get("/v1/providers");
      const left = Number(probe.headers.get("ratelimit-remaining"));
      expect(probe.headers.get("ratelimit-limit")).toBe("120");
      expect(left).toBeGreaterThanOrEqual(110);
      // A flood of fresh queries (each another box, no cursor) is refused once the 120 are spent.
      const statuses: number[] = [];
      let refused: Response | undefined;
      for (let i = 0; i <= left && !refused; i++) {
        const response = await loam.get(`/ogc/collections/geochem_sites/items?limit=10&bbox=-100,30,${-99 + i / 1000},40`);
        statuses.push(response.status);
        if (response.status === 429) refused = response;
        else await response.arrayBuffer();
      }
      expect(statuses.filter((s) => s === 200).length).toBe(left);
      expect(refused!.status).toBe(429);
      expect(refused!.headers.get("retry-after")).toBe("40");
      expect(refused!.headers.get("ratelimit-limit")).toBe("120");
      expect(refused!.headers.get("ratelimit-remaining")).toBe("0");
      expect(refused!.headers.get("ratelimit-reset")).toBe("40");
      expect((await refused!.json()).error.code).toBe("rate_limited");
    } finally {
      await loam.stop();
    }
  }, 300_000);
});

describe("a walk's follow-up pages", () => {
  test("spend the walk budget (ten times the limit, one ticket per 100 features a page may hold), so full pages replayed in a flood meet it too", async () => {
    const loam = await startLoam({ env: { RATE_LIMIT_PER_MINUTE: "120" }, now: () => minute });
    try {
      const first = await loam.json("/ogc/collections/geochem_sites/items?limit=1000");
      const next = first.body.links.find((l: any) => l.rel === "next").href as string;
      const path = next.slice(loam.base.length);
      const small = await loam.get(path.replace("limit=1000", "limit=10"));
      // limit=10 with a cursor made for limit=1000: the cursor binds the query, not the page size.
      expect(small.status).toBe(200);
      expect((await small.json()).features).toHaveLength(10);
      expect(small.headers.get("ratelimit-limit")).toBe("1200");
      expect(small.headers.get("ratelimit-remaining")).toBe("1199");
      let remaining = 1199;
      let refused: Response | undefined;
      for (let i = 0; i < 200 && !refused; i++) {
        const page = await loam.get(path);
        if (page.status === 429) refused = page;
        else {
          expect((await page.json()).features).toHaveLength(1000);
          const now = Number(page.headers.get("ratelimit-remaining"));
          expect(remaining - now).toBe(10);
          remaining = now;
        }
      }
      expect(refused!.status).toBe(429);
      expect(refused!.headers.get("retry-after")).toBe("40");
      expect(refused!.headers.get("ratelimit-limit")).toBe("1200");
      // The fresh first page was one ticket of the data budget; the documents budget is untouched.
      const api = await loam.get("/v1/providers");
      expect(api.headers.get("ratelimit-remaining")).toBe("118");
      const doc = await loam.get("/openapi.json");
      expect(doc.headers.get("ratelimit-remaining")).toBe("119");
      // A cursor Loam did not make is no walk: it spends the data budget (and is refused by the route).
      const forged = await loam.get("/ogc/collections/geochem_sites/items?limit=10&cursor=abc");
      expect(forged.status).toBe(400);
      expect(forged.headers.get("ratelimit-remaining")).toBe("117");
    } finally {
      await loam.stop();
    }
  }, 120_000);
});
