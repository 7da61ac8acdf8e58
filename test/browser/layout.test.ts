/**
 * The map page a researcher opens first, in Chromium at 1440x900 and on a 390x844 touch
 * phone: no page wider than the screen, the phone's menu and bottom sheet, the places with data, the
 * search box, stale panels closed on a move, and the coverage messages on the page. Expected places
 * come from the test's own readers (us-atlas outlines read with topojson-client, the shared data's
 * survey-area folders, /v1's coverage text); every request stays on 127.0.0.1.
 * Screenshots: test/artifacts/layout-*.png, phone-*.png, search-*.png, coverage-*.png.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import * as topojson from "topojson-client";
import counties from "us-atlas/counties-10m.json";
import { knownPoints } from "../location/known-answers";
import { DATA_DIR } from "../support/server";
import { artifactPath, DESKTOP, expectClean, PHONE, pixelOf, useLoamAndBrowser, watchedPage, type WatchedPage } from "./browser";

const BROWSER_TEST_MS = 60_000;
const { loam, browser } = useLoamAndBrowser();

/** The one KSSL collection of the data (its folder: KS, the Kansas pedons). */
const KSSL_COLLECTION = readdirSync(join(DATA_DIR, "kssl"), { withFileTypes: true }).find((d) => d.isDirectory())!.name;
const AREAS = readdirSync(join(DATA_DIR, "ssurgo"), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name.split("-")[0]!.toUpperCase())
  .sort();

/** Pedon 02N0245 of the data README (section 2.5). */
const KIMO = { key: "02N0245", lat: 39.0783539, lon: -95.7708282 };

/** A county's box [w, s, e, n] from us-atlas (FIPS id), read here with topojson-client. */
function countyBox(fips: string): [number, number, number, number] {
  const collection = topojson.feature(counties as any, (counties as any).objects.counties) as any;
  const feature = collection.features.find((f: any) => f.id === fips);
  const points: number[][] = (feature.geometry.type === "Polygon" ? [feature.geometry.coordinates] : feature.geometry.coordinates).flat(2);
  const xs = points.map((p) => p[0]!), ys = points.map((p) => p[1]!);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

async function open(path: string, form: typeof PHONE | typeof DESKTOP): Promise<WatchedPage> {
  const watched = await watchedPage(browser, form.viewport, form.device);
  await watched.page.goto(loam.base + path, { waitUntil: "load" });
  if (path.startsWith("/map") || path === "/") await watched.page.waitForFunction(() => (window as any).loam?.basemapState === "ready", null, { timeout: 20_000 });
  return watched;
}

const scrollWidth = (page: Page) => page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
const mapView = (page: Page) =>
  page.evaluate(() => {
    const map = (window as any).loamMap;
    const b = map.getBounds(), c = map.getCenter();
    return { zoom: map.getZoom() as number, center: [c.lat, c.lng] as number[], box: [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()] as number[] };
  });

describe("no page is wider than the screen", () => {
  for (const [name, form] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    for (const [page, ready] of [
      ["/map", "#places-list li"],
      ["/series?name=CLARION", ".series-horizons tbody tr"],
      ["/docs", ".opblock-summary-path"],
    ] as const) {
      test(`${page} at ${form.viewport.width}x${form.viewport.height} (${name})`, async () => {
        const watched = await open(page, form);
        await watched.page.waitForSelector(ready, { timeout: 20_000, state: "attached" });
        await watched.page.waitForTimeout(500);
        expect(await scrollWidth(watched.page)).toBeLessThanOrEqual(form.viewport.width);
        if (page === "/docs") {
          // An opened operation (its parameters table) stays within the screen too.
          await watched.page.click('.opblock-summary-path[data-path="/v1/soil/location"]');
          await watched.page.waitForSelector(".opblock.is-open .parameters", { timeout: 20_000 });
          expect(await scrollWidth(watched.page)).toBeLessThanOrEqual(form.viewport.width);
        }
        // The way back: the series page's header links stay visible on a phone.
        if (page.startsWith("/series")) expect(await watched.page.isVisible('.loam-links a[href="/map"]')).toBe(true);
        const file = page.slice(1).split("?")[0] || "map";
        await watched.page.screenshot({ path: artifactPath(`layout-${file}-${form.viewport.width}x${form.viewport.height}.png`) });
        expectClean(watched);
        await watched.close();
      }, BROWSER_TEST_MS);
    }
  }
});

describe("the phone", () => {
  test("the map fills the screen; the controls are one menu; no hover readout; a pedon tap opens a bottom sheet showing at least 40 % of the screen, which scrolls", async () => {
    const watched = await open(`/map#12/${KIMO.lat}/${KIMO.lon}`, PHONE);
    const { page } = watched;
    const height = PHONE.viewport.height;
    const mapBox = (await page.locator("#map").boundingBox())!;
    expect(mapBox.height).toBeGreaterThanOrEqual(0.8 * height);
    expect(mapBox.width).toBe(PHONE.viewport.width);
    // The controls are hidden behind one Menu button, which opens and closes them.
    expect(await page.isVisible("#controls")).toBe(false);
    await page.tap("#menu-toggle");
    expect(await page.isVisible("#controls")).toBe(true);
    expect(await page.getAttribute("#menu-toggle", "aria-expanded")).toBe("true");
    // The overview, then every place GET /v1/layers declares (a layer declaring none: one entry for its extent).
    await page.waitForFunction(() => (window as any).loam.placesReady === true, null, { timeout: 20_000 });
    const layers = (await loam.json("/v1/layers")).body.layers as any[];
    expect(await page.locator("#places-list button").count()).toBe(1 + layers.reduce((n, l) => n + Math.max(1, l.coverage.places.length), 0));
    await page.screenshot({ path: artifactPath("phone-menu.png") });
    await page.tap("#menu-toggle");
    expect(await page.isVisible("#controls")).toBe(false);
    // A touch screen gets no cursor readout.
    expect(await page.evaluate(() => (window as any).loam.hoverReadout)).toBe(false);
    expect(await page.locator(".cursor-coordinates").count()).toBe(0);

    await page.waitForFunction(() => (window as any).loam.pedonState === "ready", null, { timeout: 20_000 });
    const at = await pixelOf(page, KIMO.lat, KIMO.lon);
    await page.touchscreen.tap(at.x, at.y);
    await page.waitForSelector("#pedon-layers tbody tr", { timeout: 20_000 });
    expect(await page.textContent("#panel-title")).toBe(`Pedon ${KIMO.key}`);
    const sheet = await page.evaluate(() => {
      const body = document.getElementById("panel-body")!;
      const rect = body.getBoundingClientRect();
      const visible = Math.min(rect.bottom, window.innerHeight) - Math.max(rect.top, 0);
      return { visible, clientHeight: body.clientHeight, scrollHeight: body.scrollHeight, panelBottom: document.getElementById("panel")!.getBoundingClientRect().bottom };
    });
    expect(sheet.visible).toBeGreaterThanOrEqual(0.4 * height);
    expect(sheet.panelBottom).toBeLessThanOrEqual(height + 1);
    // More content than fits: the sheet scrolls.
    expect(sheet.scrollHeight).toBeGreaterThan(sheet.clientHeight);
    await page.evaluate(() => document.getElementById("panel-body")!.scrollBy(0, 300));
    expect(await page.evaluate(() => document.getElementById("panel-body")!.scrollTop)).toBeGreaterThan(0);
    // The tapped pedon stays in sight above the sheet.
    const after = await pixelOf(page, KIMO.lat, KIMO.lon);
    const sheetTop = (await page.locator("#panel").boundingBox())!.y;
    expect(after.y).toBeLessThan(sheetTop);
    expect(after.y).toBeGreaterThan(mapBox.y);
    await page.screenshot({ path: artifactPath("phone-pedon-sheet.png") });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.viewport.width);
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("a polygon tap on the soil map outlines the map unit and opens it in the sheet", async () => {
    const l138b = knownPoints().find((p) => p.area === "IA073-aoi" && p.musym === "L138B")!;
    const watched = await open("/map", PHONE);
    const { page } = watched;
    await page.tap("#menu-toggle");
    await page.tap("#go-soil-map");
    expect(await page.isVisible("#controls")).toBe(false);
    await page.waitForFunction(() => (window as any).loam.mapUnitState === "ready", null, { timeout: 20_000 });
    const at = await pixelOf(page, l138b.lat, l138b.lon);
    await page.touchscreen.tap(at.x, at.y);
    await page.waitForSelector(".map-unit-summaries tbody tr", { timeout: 20_000 });
    expect(await page.textContent("#panel-title")).toBe(`Map unit ${l138b.musym}`);
    const selected = await page.evaluate(() => (window as any).loam.mapUnits.selected());
    expect(selected.key).toBe(l138b.mukey);
    expect(selected.polygons).toBeGreaterThan(0);
    // The sheet takes the lower part of the screen, so the map may load and draw its polygons again
    // (answers come back fast, from the front door): every polygon of the map unit is outlined once it settles.
    await page
      .waitForFunction(() => document.querySelectorAll("path.mu-selected").length === (window as any).loam.mapUnits.selected().polygons, null, { timeout: 5_000 })
      .catch(() => undefined);
    const settled = await page.evaluate(() => (window as any).loam.mapUnits.selected());
    expect(settled.key).toBe(l138b.mukey);
    expect(await page.locator("path.mu-selected").count()).toBe(settled.polygons);
    await page.waitForTimeout(300);
    await page.screenshot({ path: artifactPath("phone-mapunit-selected.png") });
    // Closing the sheet removes the outline.
    await page.tap("#panel-close");
    expect(await page.locator("path.mu-selected").count()).toBe(0);
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);
});

describe("where the data is, and getting there", () => {
  test("the first view lists every survey area /v1 names and the Kansas pedons; each entry opens a view with its data; a stale panel closes on the move", async () => {
    const meta = await loam.json("/v1");
    const named = [...(meta.body.warning as string).matchAll(/SSURGO ([A-Z]{2}\d{3})/g)].map((m) => m[1]!).sort();
    expect(named).toEqual(AREAS);
    const watched = await open("/map", DESKTOP);
    const { page } = watched;
    // Listed on the first screen, without scrolling or opening anything.
    await page.waitForFunction(() => (window as any).loam.placesReady === true, null, { timeout: 20_000 });
    const places = await page.$$eval("#places-list button", (buttons) => buttons.map((b) => b.getAttribute("data-place")));
    for (const area of AREAS) expect(places).toContain(area);
    // The lab collection, by its folder (the Kansas pedons).
    expect(places).toContain(KSSL_COLLECTION);
    // The geochemistry layer too (it declares no place: one entry for its whole extent).
    expect(places).toContain("sites");
    for (const button of await page.locator("#places-list button").all()) expect(await button.isVisible()).toBe(true);
    await page.screenshot({ path: artifactPath("places-first-view.png") });

    // A pedon panel open in Kansas…
    await page.waitForFunction(() => (window as any).loam.pedonState === "ready", null, { timeout: 20_000 });
    await page.selectOption("#pedon-select", KIMO.key);
    await page.waitForSelector("#pedon-layers tbody tr", { timeout: 20_000 });
    for (const area of AREAS) {
      await page.click(`#places-list button[data-place="${area}"]`);
      // …is closed by the move: the new view's own data, no stale panel.
      expect(await page.isHidden("#panel")).toBe(true);
      await page.waitForFunction(() => (window as any).loam.mapUnitState === "ready" && (window as any).loam.mapUnitRange.count > 0, null, { timeout: 20_000 });
      const url: string = await page.evaluate(() => (window as any).loam.mapUnitUrl);
      const collection = await loam.json(url);
      expect(`${area}: ${collection.body.features.some((f: any) => f.properties.area_symbol === area)}`).toBe(`${area}: true`);
      await page.waitForTimeout(200);
      await page.screenshot({ path: artifactPath(`places-${area}.png`) });
    }
    // The overview: the Kansas pedons and the Iowa survey areas on one map, each outlined and named; a dot opens its place.
    await page.click('#places-list button[data-place="overview"]');
    await page.waitForFunction(() => (window as any).loam.placesShown === true, null, { timeout: 10_000 });
    const names = await page.locator(".place-tooltip").allTextContents();
    for (const area of AREAS.filter((a) => a.startsWith("IA"))) expect(names.some((n) => n.includes(area))).toBe(true);
    expect(names.some((n) => n.includes("Kansas"))).toBe(true);
    await page.waitForTimeout(300);
    await page.screenshot({ path: artifactPath("places-overview.png") });
    await page.locator(".place-tooltip", { hasText: "IA183" }).waitFor();
    await page.click(`#places-list button[data-place="${KSSL_COLLECTION}"]`);
    await page.waitForFunction(() => (window as any).loam.pedonState === "ready", null, { timeout: 20_000 });
    expect(await page.evaluate(() => (window as any).loam.pedonLayer.getLayers().length)).toBeGreaterThan(10);
    expectClean(watched);
    await watched.close();
  }, 120_000);

  test('searching "Greene County, Iowa" shows that county (us-atlas FIPS 19073, which holds IA073)', async () => {
    const watched = await open("/map", DESKTOP);
    const { page } = watched;
    const [w, s, e, n] = countyBox("19073");
    const ia073 = knownPoints().find((p) => p.area === "IA073-aoi")!;
    expect(ia073.lon > w && ia073.lon < e && ia073.lat > s && ia073.lat < n).toBe(true);
    await page.fill("#search-input", "Greene County, Iowa");
    await page.press("#search-input", "Enter");
    await page.waitForFunction(() => (window as any).loam.searchState === "done", null, { timeout: 20_000 });
    const view = await mapView(page);
    // The county fills the view: the view holds its box, and is not much larger.
    expect(view.box[0]).toBeLessThanOrEqual(w);
    expect(view.box[1]).toBeLessThanOrEqual(s);
    expect(view.box[2]).toBeGreaterThanOrEqual(e);
    expect(view.box[3]).toBeGreaterThanOrEqual(n);
    expect(view.box[2]! - view.box[0]!).toBeLessThan(6 * (e - w));
    expect(await page.textContent("#where")).toBe("Showing Greene County, Iowa.");
    // County names are written on the map at this zoom.
    await page.waitForFunction(() => document.querySelectorAll(".county-label").length > 0, null, { timeout: 20_000 });
    expect(await page.locator(".county-label span", { hasText: /^Greene$/ }).count()).toBe(1);
    await page.screenshot({ path: artifactPath("search-greene-county-iowa.png") });
    // Several counties share a name: the search asks for the state instead of guessing.
    await page.fill("#search-input", "Greene County");
    await page.press("#search-input", "Enter");
    await page.waitForFunction(() => (window as any).loam.searchState === "done", null, { timeout: 20_000 });
    expect(await page.textContent("#where")).toContain("add the state");
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("searching a coordinate moves the map there and answers for the point (L138B)", async () => {
    const l138b = knownPoints().find((p) => p.area === "IA073-aoi" && p.musym === "L138B")!;
    const watched = await open("/map", PHONE);
    const { page } = watched;
    await page.fill("#search-input", `${l138b.lat}, ${l138b.lon}`);
    await page.press("#search-input", "Enter");
    await page.waitForSelector(".component-horizons tbody tr", { timeout: 20_000 });
    const view = await mapView(page);
    expect(view.box[0]! < l138b.lon && view.box[2]! > l138b.lon && view.box[1]! < l138b.lat && view.box[3]! > l138b.lat).toBe(true);
    expect(await page.textContent(".map-unit h3")).toContain(l138b.musym);
    await page.screenshot({ path: artifactPath("search-coordinate-phone.png") });
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);
});

describe("coverage messages on the page", () => {
  for (const [name, lat, lon, expected] of [
    ["nebraska", 41.0, -99.5, `outside this offline snapshot (areas: ${AREAS.join(", ")}); live mode (LOAM_UPSTREAM=sda) covers every US survey`],
    ["paris", 48.8566, 2.3522, "SSURGO covers the United States and territories only"],
    ["mh936-gap", 7.6, 171.4, "no map unit here"],
  ] as const) {
    test(`${name}: the panel says "${expected.slice(0, 40)}…", as the API does`, async () => {
      const api = await loam.json(`/v1/soil/location?latitude=${lat}&longitude=${lon}`);
      expect(api.body.warnings.join(" ")).toContain(expected);
      const watched = await open("/map", DESKTOP);
      const { page } = watched;
      await page.fill("#search-input", `${lat}, ${lon}`);
      await page.press("#search-input", "Enter");
      await page.waitForSelector("#panel-body .warnings li", { timeout: 20_000 });
      expect(await page.textContent("#panel-body")).toContain(expected);
      // The reason leads the panel, in its message box.
      expect(await page.textContent("#panel-body .coverage-message")).toContain(expected);
      // Not zoomed in to a blank street-level view: wide enough to see where the point lies.
      await page.waitForFunction(() => (window as any).loamMap.getZoom() <= 9, null, { timeout: 10_000 });
      await page.screenshot({ path: artifactPath(`coverage-${name}.png`) });
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);
  }
});
