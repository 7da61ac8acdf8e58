/**
 * Draw an area of interest on the map page and see its report, in Chromium: a rectangle by
 * two clicks and a polygon by clicks on its corners. The test checks the polygon the page sent (the
 * clicked corners, read back from the map), that the panel shows the API's own report for it (map units
 * with acres and percent, the area-weighted values), and that the export links answer as CSV and
 * GeoJSON. No request leaves 127.0.0.1.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { knownPoints } from "../location/known-answers";
import { artifactPath, DESKTOP, expectClean, PHONE, pixelOf, useLoamAndBrowser, watchedPage, type WatchedPage } from "./browser";

const BROWSER_TEST_MS = 60_000;
const { loam, browser } = useLoamAndBrowser();

async function open(hash: string, form: typeof PHONE | typeof DESKTOP): Promise<WatchedPage> {
  const watched = await watchedPage(browser, form.viewport, form.device);
  await watched.page.goto(`${loam.base}/map${hash}`, { waitUntil: "load" });
  await watched.page.waitForFunction(() => (window as any).loam?.basemapState === "ready" && (window as any).loam.mapUnitState === "ready", null, { timeout: 20_000 });
  return watched;
}

/** The lon/lat pairs of the WKT polygon in a page URL. */
function ringOf(url: string): number[][] {
  const wkt = decodeURIComponent(new URL(url, "http://x").searchParams.get("polygon")!);
  return wkt.replace(/^POLYGON\s*\(\(/, "").replace(/\)\)$/, "").split(",").map((pair) => pair.trim().split(/\s+/).map(Number));
}

/** The report table as the page shows it, and the API's answer for the same URL. */
async function checkReport(page: Page): Promise<any> {
  await page.waitForSelector("#aoi-map-units tbody tr", { timeout: 20_000 });
  const url: string = await page.evaluate(() => (window as any).loam.aoiUrl);
  const api = await loam.json(url);
  expect(api.status).toBe(200);
  const report = api.body;
  const rows = await page.$$eval("#aoi-map-units tbody tr", (trs) => trs.map((tr) => ({ key: tr.getAttribute("data-map-unit-key"), acres: Number(tr.children[2]!.getAttribute("data-acres")), percent: Number(tr.children[3]!.getAttribute("data-percent")), text: tr.textContent })));
  expect(rows.map((r) => r.key)).toEqual(report.map_units.map((m: any) => m.map_unit_key));
  for (const [i, m] of report.map_units.entries()) {
    expect(rows[i]!.acres).toBe(m.area_acres);
    expect(rows[i]!.percent).toBe(m.percent_of_aoi);
    expect(rows[i]!.text).toContain(m.map_unit_symbol);
  }
  // Fully inside IA073's extract: the percents make the whole.
  expect(report.aoi.mapped_percent).toBeGreaterThan(99.9);
  expect(Math.abs(report.map_units.reduce((sum: number, m: any) => sum + m.percent_of_aoi, 0) - 100)).toBeLessThan(0.1);
  // The area-weighted values as the API computed them, with their units.
  const summaries = await page.$$eval("#aoi-summaries tbody tr", (trs) => trs.map((tr) => ({ property: tr.getAttribute("data-property"), value: tr.children[1]!.getAttribute("data-value"), text: tr.children[1]!.textContent })));
  expect(summaries.map((s) => s.property)).toEqual(report.summaries.map((s: any) => s.property.id));
  const clay = report.summaries.find((s: any) => s.property.id === "clay");
  const shown = summaries.find((s) => s.property === "clay")!;
  expect(Number(shown.value)).toBe(clay.value);
  expect(shown.text).toEndWith(" %");
  // Export: the same query as CSV and as GeoJSON of the clipped polygons.
  const csv = await fetch(loam.base + (await page.getAttribute('#panel-body a:text("Report CSV")', "href"))!);
  expect(csv.status).toBe(200);
  expect(csv.headers.get("content-type")).toContain("text/csv");
  const csvText = await csv.text();
  for (const m of report.map_units) expect(csvText).toContain(m.map_unit_key);
  const geojson = await fetch(loam.base + (await page.getAttribute('#panel-body a:text("Clipped polygons (GeoJSON)")', "href"))!);
  expect(geojson.status).toBe(200);
  expect((await geojson.json()).type).toBe("FeatureCollection");
  return { url, report };
}

describe("an area of interest drawn on the map", () => {
  test("a rectangle by two clicks: the polygon sent is the clicked box; the panel is the API's report (acres, percent, area-weighted clay); exports answer", async () => {
    const l138b = knownPoints().find((p) => p.area === "IA073-aoi" && p.musym === "L138B")!;
    const watched = await open(`#17/${l138b.lat}/${l138b.lon}`, DESKTOP);
    const { page } = watched;
    await page.click("#aoi-rectangle");
    expect(await page.getAttribute("#aoi-rectangle", "aria-pressed")).toBe("true");
    const [a, b] = [[41.9452, -94.3612], [41.9438, -94.3589]] as const;
    for (const [lat, lon] of [a, b]) {
      const at = await pixelOf(page, lat, lon);
      await page.mouse.click(at.x, at.y);
    }
    const { url, report } = await checkReport(page);
    // No point query was made for the two clicks: they were the rectangle's corners.
    expect(watched.requests.some((u) => u.includes("/v1/soil/location"))).toBe(false);
    const ring = ringOf(url);
    expect(ring).toHaveLength(5);
    expect(ring[0]).toEqual(ring[4]!);
    const lons = ring.map((p) => p[0]!), lats = ring.map((p) => p[1]!);
    // The clicked corners, to the pixel (about 1 m at zoom 17).
    expect(Math.abs(Math.min(...lons) - a[1])).toBeLessThan(2e-5);
    expect(Math.abs(Math.max(...lons) - b[1])).toBeLessThan(2e-5);
    expect(Math.abs(Math.max(...lats) - a[0])).toBeLessThan(2e-5);
    expect(Math.abs(Math.min(...lats) - b[0])).toBeLessThan(2e-5);
    expect(report.map_units.length).toBeGreaterThanOrEqual(2);
    expect(await page.textContent("#panel-body")).toContain(" acres");
    expect(await page.locator("path.aoi-shape").count()).toBe(1);
    await page.waitForTimeout(300);
    await page.screenshot({ path: artifactPath("aoi-rectangle-report.png") });
    // Closing the report removes the drawn area.
    await page.click("#panel-close");
    expect(await page.locator("path.aoi-shape").count()).toBe(0);
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("a polygon by taps on a phone, closed on its first corner: the report opens in the sheet", async () => {
    const l138b = knownPoints().find((p) => p.area === "IA073-aoi" && p.musym === "L138B")!;
    const watched = await open(`#17/${l138b.lat}/${l138b.lon}`, PHONE);
    const { page } = watched;
    await page.tap("#menu-toggle");
    await page.tap("#aoi-polygon");
    // Choosing the tool closes the menu: the map is the drawing board.
    expect(await page.isVisible("#controls")).toBe(false);
    const corners = [[l138b.lat + 0.0004, l138b.lon - 0.0004], [l138b.lat + 0.0004, l138b.lon + 0.0004], [l138b.lat - 0.0004, l138b.lon]] as const;
    const points = [];
    for (const [lat, lon] of corners) points.push(await pixelOf(page, lat, lon));
    // Taps a person makes (not a double tap): each corner, then the first corner again.
    for (const p of [...points, points[0]!]) {
      await page.touchscreen.tap(p.x, p.y);
      await page.waitForTimeout(400);
    }
    const { url } = await checkReport(page);
    expect(ringOf(url)).toHaveLength(4);
    const sheet = (await page.locator("#panel").boundingBox())!;
    expect(sheet.height).toBeGreaterThanOrEqual(0.4 * PHONE.viewport.height);
    // The drawn area stays in sight above the sheet.
    const shape = (await page.locator("path.aoi-shape").boundingBox())!;
    expect(shape.y + shape.height).toBeLessThanOrEqual(sheet.y + 1);
    expect(shape.y).toBeGreaterThanOrEqual((await page.locator("#map").boundingBox())!.y - 1);
    await page.waitForTimeout(300);
    await page.screenshot({ path: artifactPath("aoi-polygon-phone.png") });
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);
});
