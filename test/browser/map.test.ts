/**
 * The map page in headless Chromium: served offline by Loam, pedons for the view, the pedon
 * layer table, the zoom-in message, the mapped-survey panel, text-only rendering of API values.
 * Screenshots go to test/artifacts/ (gitignored).
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { join } from "node:path";
import { assets } from "../../src/pages/assets";

const ASSETS = assets();
import { knownPoints } from "../location/known-answers";
import { artifactPath, pixelOf, useLoamAndBrowser, watchedPage, type WatchedPage } from "./browser";

/** Pedon 02N0245 of the data README (LOAM_DATA_DIR/README.md, section 2.5): layer Ap1 0–13 cm, pH 6.8, clay 35.154017. */
const KIMO = { key: "02N0245", lat: 39.0783539, lon: -95.7708282, designation: "Ap1", depth: "0–13", ph: "6.8", clay: "35.154017" };

/** Per test: a browser page, a few API round trips and screenshots. */
const BROWSER_TEST_MS = 45_000;

const { loam, browser } = useLoamAndBrowser();

/** Open the map page (optionally at #zoom/lat/lon) and wait for the basemap. */
async function openMap(path = "/map"): Promise<WatchedPage> {
  const watched = await watchedPage(browser);
  await watched.page.goto(loam.base + path, { waitUntil: "load" });
  await watched.page.waitForFunction(() => (window as any).loam?.basemapState === "ready", null, { timeout: 20_000 });
  return watched;
}

/** Wait until the pedon request for the current view has been answered (or refused as too large). */
async function settled(page: Page, states: string[] = ["ready"]): Promise<string> {
  await page.waitForFunction((wanted) => wanted.includes((window as any).loam.pedonState), states, { timeout: 20_000 });
  return page.evaluate(() => (window as any).loam.pedonState as string);
}

async function setView(page: Page, lat: number, lon: number, zoom: number): Promise<void> {
  // Return nothing: serializing the Leaflet map object back to the test would take seconds.
  await page.evaluate(
    ([la, lo, z]) => {
      (window as any).loamMap.setView([la, lo], z, { animate: false });
    },
    [lat, lon, zoom] as const,
  );
}


function markerCount(page: Page): Promise<number> {
  return page.evaluate(() => (window as any).loam.pedonLayer.getLayers().length as number);
}

/** Each test page: no console errors, no failed requests, nothing fetched from outside 127.0.0.1. */
function expectClean(watched: WatchedPage): void {
  expect(watched.errors).toEqual([]);
  expect(watched.foreign()).toEqual([]);
  expect(watched.requests.length).toBeGreaterThan(0);
}

/** Rows of a table as arrays of cell texts, keyed by the header's abbreviation or text. */
async function tableRows(page: Page, selector: string): Promise<Record<string, string>[]> {
  return page.evaluate((sel) => {
    const table = document.querySelector(sel) as HTMLTableElement;
    const headers = [...table.tHead!.rows[0]!.cells].map((cell) => (cell.querySelector("abbr")?.textContent ?? cell.firstChild?.textContent ?? "").trim());
    return [...table.tBodies[0]!.rows].map((row) => Object.fromEntries([...row.cells].map((cell, i) => [headers[i], (cell.firstChild?.textContent ?? "").trim()])));
  }, selector);
}

describe("map page", () => {
  test("/ and /map serve the same page under the strict page CSP, every asset from Loam", async () => {
    const [root, map] = await Promise.all([loam.get("/"), loam.get("/map")]);
    expect(root.status).toBe(200);
    expect(map.status).toBe(200);
    const html = await root.text();
    expect(await map.text()).toBe(html);
    expect(root.headers.get("content-type")).toContain("text/html");
    expect(root.headers.get("content-security-policy")).toContain("script-src 'self'");
    // No inline script or style in the markup; every script and stylesheet is a local path.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html).not.toMatch(/<style/i);
    for (const [, url] of html.matchAll(/(?:src|href)="([^"]+)"/g)) expect(url!.startsWith("/")).toBe(true);
    // The page's code is ES modules from Loam: the entry module, and every module file under public/map/js/ served (src/pages/assets.ts serves public/ as it is).
    expect(html).toContain('<script type="module" src="/map/js/main.js"></script>');
    const moduleFiles = [...new Bun.Glob("**/*.js").scanSync(join(import.meta.dir, "../../public/map/js"))].map((f) => `/map/js/${f}`).sort();
    expect(moduleFiles.length).toBeGreaterThan(5);
    expect(Object.keys(ASSETS).filter((url) => url.startsWith("/map/js/")).sort()).toEqual(moduleFiles);
    for (const url of moduleFiles) {
      const response = await loam.get(url);
      expect(`${url} ${response.status} ${response.headers.get("content-type")}`).toBe(`${url} 200 text/javascript; charset=utf-8`);
      await response.arrayBuffer();
    }
    for (const asset of [
      "/map/map.css",
      "/map/vendor/leaflet/leaflet.js",
      "/map/vendor/leaflet/leaflet.css",
      "/map/vendor/leaflet/images/marker-icon.png",
      "/map/vendor/leaflet/images/layers.png",
      "/map/vendor/topojson-client.min.js",
      "/map/data/countries-50m.json",
      "/map/data/us-states-10m.json",
      "/map/data/us-counties-10m.json",
    ]) {
      const response = await loam.get(asset);
      expect(`${asset} ${response.status}`).toBe(`${asset} 200`);
      await response.arrayBuffer();
    }
  }, BROWSER_TEST_MS);

  test("opens where data is: Kansas pedons on the first screen, offline basemap, no console errors, no request leaving 127.0.0.1", async () => {
    const watched = await openMap("/");
    const { page } = watched;
    // The first view is small enough for the pedon box limits: pedons, not a "zoom in" message.
    expect(await settled(page)).toBe("ready");
    expect(await page.isHidden("#zoom-message")).toBe(true);
    const bbox: number[] = await page.evaluate(() => (window as any).loam.lastBbox);
    const [w, s, e, n] = bbox as [number, number, number, number];
    expect(e - w).toBeLessThanOrEqual(5);
    expect((e - w) * (n - s)).toBeLessThanOrEqual(4);
    // Inside Kansas (the snapshot's lab coverage).
    expect(w).toBeGreaterThan(-102.05);
    expect(e).toBeLessThan(-94.0);
    expect(s).toBeGreaterThan(36.99);
    expect(n).toBeLessThan(40.5);
    const api = await loam.json(`/v1/pedons?bbox=${bbox.join(",")}&limit=500`);
    expect(api.body.features.length).toBeGreaterThan(10);
    expect(await markerCount(page)).toBe(api.body.features.length);
    expect(watched.requests).toContain(`${loam.base}/v1/pedons?bbox=${bbox.join(",")}&limit=500`);
    // County lines are fetched for views zoomed in to 6 or more; wait for them before the screenshot.
    await page.waitForFunction(() => (window as any).loam.countiesState === "ready", null, { timeout: 20_000 });
    await page.waitForTimeout(300);
    for (const part of ["/map/vendor/leaflet/leaflet.js", "/map/vendor/topojson-client.min.js", "/map/js/main.js", "/map/data/countries-50m.json", "/map/data/us-states-10m.json", "/map/data/us-counties-10m.json", "/v1/properties", "/v1/providers"]) {
      expect(`${part} ${watched.requests.some((url) => url.endsWith(part))}`).toBe(`${part} true`);
    }
    // The legend, the status line and labelled controls are there.
    expect(await page.textContent(".legend")).toContain("Laboratory pedon");
    expect(await page.getAttribute("#status", "aria-live")).toBe("polite");
    expect(await page.getAttribute("#panel", "aria-live")).toBe("polite");
    expect(await page.getAttribute("#panel-close", "aria-label")).toBe("Close details panel");
    await page.screenshot({ path: artifactPath("map-opening-kansas.png") });
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("Kansas pedons for the view: one request with the visible bbox, as many markers as the API's features", async () => {
    const watched = await openMap("/map#10/39.0/-95.7");
    const { page } = watched;
    await settled(page);
    const bbox: number[] = await page.evaluate(() => (window as any).loam.lastBbox);
    expect(bbox).toHaveLength(4);
    for (const value of bbox) expect(Math.round(value * 1e6) / 1e6).toBe(value);
    const [w, s, e, n] = bbox as [number, number, number, number];
    expect(e - w).toBeLessThanOrEqual(5);
    expect((e - w) * (n - s)).toBeLessThanOrEqual(4);
    const url = `/v1/pedons?bbox=${bbox.join(",")}&limit=500`;
    expect(watched.requests).toContain(loam.base + url);
    const api = await loam.json(url);
    expect(api.status).toBe(200);
    const features = api.body.features.length;
    expect(features).toBeGreaterThan(0);
    expect(api.body.truncated).toBe(false);
    expect(await markerCount(page)).toBe(features);
    // Export of the view: the very request the layer made, and its CSV.
    expect(await page.getAttribute("#pedons-geojson", "href")).toBe(url);
    expect(await page.getAttribute("#pedons-csv", "href")).toBe(`${url}&format=csv`);
    expect(await page.textContent("#status")).toContain(`Showing ${features} laboratory pedons`);
    // The keyboard path: every pedon in view is listed in the select.
    expect(await page.locator("#pedon-select option").count()).toBe(features + 1);
    await page.screenshot({ path: artifactPath("map-kansas-pedons.png") });
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("clicking pedon 02N0245 opens its layer table with the known values", async () => {
    const watched = await openMap("/map");
    const { page } = watched;
    await setView(page, KIMO.lat, KIMO.lon, 12);
    await settled(page);
    expect(await markerCount(page)).toBeGreaterThan(1);
    const at = await pixelOf(page, KIMO.lat, KIMO.lon);
    await page.mouse.click(at.x, at.y);
    await page.waitForSelector("#pedon-layers tbody tr", { timeout: 20_000 });
    expect(await page.textContent("#panel-title")).toBe(`Pedon ${KIMO.key}`);
    expect(await page.isVisible("#panel")).toBe(true);
    const rows = await tableRows(page, "#pedon-layers");
    const ap1 = rows.find((row) => row.Horizon === KIMO.designation);
    expect(ap1).toBeDefined();
    expect(ap1!.Depth).toBe(KIMO.depth);
    expect(ap1!.pH).toBe(KIMO.ph);
    // Shown to the API's four significant digits; the value as reported (the README's) in the cell's title.
    expect(ap1!.Clay).toBe(String(Number(Number(KIMO.clay).toFixed(2))));
    const clayTitle = await page.locator(`#pedon-layers tbody tr:has(td.col-horizon:text-is("${KIMO.designation}")) td[data-value="${KIMO.clay}"]`).getAttribute("title");
    expect(clayTitle).toContain(`as reported: ${KIMO.clay}`);
    // Headers carry the units.
    const headers = await page.locator("#pedon-layers thead th").allTextContents();
    expect(headers.some((h) => h.startsWith("Clay") && h.includes("%"))).toBe(true);
    expect(headers.some((h) => h.startsWith("CEC") && h.includes("cmol(+)/kg"))).toBe(true);
    const panel = (await page.textContent("#panel-body")) ?? "";
    expect(panel).toContain("39.0783539, -95.7708282");
    expect(panel).toContain("accuracy varies");
    expect(panel).toContain("not representative");
    expect(await page.getAttribute('#panel-body a:text("Pedon JSON")', "href")).toBe(`/v1/pedons/${KIMO.key}`);
    const pedonCsv = (await page.getAttribute('#panel-body a:text("Pedon CSV (these layers)")', "href"))!;
    expect(pedonCsv).toMatch(new RegExp(`^/v1/pedons/${KIMO.key}\\?properties=.*&format=csv$`));
    const csv = await fetch(loam.base + pedonCsv);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect((await csv.text()).split("\n").filter((line) => line.includes(KIMO.key)).length).toBeGreaterThan(8);
    expect(await page.getAttribute('#panel-body a:text("Raw provider table")', "href")).toBe(`/v1/providers/usda_kssl/raw/pedons/${KIMO.key}`);
    expect(await page.evaluate(() => (document.getElementById("pedon-select") as HTMLSelectElement).value)).toBe(KIMO.key);
    // The map narrowed for the panel and reloaded its pedons; wait for that before the screenshot.
    await settled(page);
    await page.waitForTimeout(400);
    await page.screenshot({ path: artifactPath("map-kansas-pedon-02N0245-layers.png") });
    // The close button closes the panel.
    await page.click("#panel-close");
    expect(await page.isHidden("#panel")).toBe(true);
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("pedon 02N0245's depth chart: clay against depth, one step per layer (8), values equal to the API's; another property redraws it", async () => {
    const watched = await openMap(`/map#12/${KIMO.lat}/${KIMO.lon}`);
    const { page } = watched;
    await settled(page);
    await page.selectOption("#pedon-select", KIMO.key);
    await page.waitForSelector("#panel-body svg.depth-chart .step", { timeout: 20_000 });
    const api = await loam.json(`/v1/pedons/${KIMO.key}?properties=clay,ph`);
    expect(api.status).toBe(200);
    const layers: any[] = api.body.layers;
    expect(layers).toHaveLength(8);
    /** Each step as [top, bottom, value or null], in profile order, and the API's layers the same way. */
    const steps = () =>
      page.$$eval("#panel-body svg.depth-chart .step", (nodes) =>
        nodes.map((n) => [Number(n.getAttribute("data-top")), Number(n.getAttribute("data-bottom")), n.hasAttribute("data-value") ? Number(n.getAttribute("data-value")) : null]),
      );
    const expected = (property: string) =>
      layers
        .map((l) => [l.depth.top_cm, l.depth.bottom_cm, l.observations.find((o: any) => o.property.id === property)?.value ?? null])
        .sort((a, b) => a[0] - b[0]);
    expect(await page.evaluate(() => (document.getElementById("depth-chart-property") as HTMLSelectElement).value)).toBe("clay");
    const clay = await steps();
    expect(clay).toHaveLength(8);
    expect([...clay].sort((a, b) => a[0]! - b[0]!)).toEqual(expected("clay"));
    // The 0–5 cm layer reports organic carbon only: its clay step is drawn empty, not as a value.
    expect(clay.filter((step) => step[2] === null)).toEqual([[0, 5, null]]);
    expect(clay.some((step) => step[2] === Number(KIMO.clay))).toBe(true);
    const catalog = (await loam.json("/v1/properties")).body.properties as { id: string; name: string; standard_unit: string }[];
    const named = (id: string) => catalog.find((p) => p.id === id)!;
    expect(await page.textContent("#panel-body svg.depth-chart .axis-label")).toBe(`${named("clay").name} (${named("clay").standard_unit})`);
    // A bar's length is its value: Bw (49.17 %) is the longest clay bar.
    const widths = await page.$$eval("#panel-body svg.depth-chart .step:not(.step-missing) rect", (nodes) => nodes.map((n) => Number(n.getAttribute("width"))));
    const valued = clay.filter((step) => step[2] !== null);
    expect(valued[widths.indexOf(Math.max(...widths))]![2]).toBe(Math.max(...valued.map((step) => step[2]!)));
    await page.waitForTimeout(300);
    await page.locator("#panel-body .depth-chart-section").scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath("map-pedon-02N0245-depth-chart.png") });
    await page.selectOption("#depth-chart-property", "ph");
    const ph = await steps();
    expect(ph).toHaveLength(8);
    expect([...ph].sort((a, b) => a[0]! - b[0]!)).toEqual(expected("ph"));
    expect(await page.textContent("#panel-body svg.depth-chart .axis-label")).toBe(`${named("ph").name} (pH)`);
    expect(await page.locator("#panel-body svg.depth-chart foreignObject, #panel-body svg.depth-chart script").count()).toBe(0);
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("zooming out past the API limit shows the zoom-in message and sends no pedon request", async () => {
    const watched = await openMap("/map#10/39.0/-95.7");
    const { page } = watched;
    await settled(page);
    expect(await markerCount(page)).toBeGreaterThan(0);
    expect(await page.isHidden("#zoom-message")).toBe(true);
    const pedonRequests = () => watched.requests.filter((url) => url.includes("/v1/pedons?")).length;
    const before = pedonRequests();
    await page.click('a[aria-label="Zoom out"]');
    await page.waitForTimeout(400);
    await page.click('a[aria-label="Zoom out"]');
    await settled(page, ["zoom"]);
    expect(await page.isVisible("#zoom-message")).toBe(true);
    expect(await page.textContent("#zoom-message")).toContain("Zoom in to see pedons");
    expect(await page.textContent("#status")).toContain("Zoom in to see pedons");
    expect(await markerCount(page)).toBe(0);
    await page.waitForTimeout(500);
    expect(pedonRequests()).toBe(before);
    await page.screenshot({ path: artifactPath("map-zoom-message.png") });
    // The message's button zooms back in far enough.
    await page.click("#zoom-in-button");
    await settled(page);
    expect(await page.isHidden("#zoom-message")).toBe(true);
    expect(await markerCount(page)).toBeGreaterThan(0);
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("the point form at a known-answer point shows the mapped-survey panel (IA073 L138B, Clarion 85 %, Ap 0–23 cm pH 6.2)", async () => {
    // A map click there lands on L138B's drawn polygon and opens the map unit (mapunits.test.ts); the
    // point form asks GET /v1/soil/location for the exact point.
    const point = knownPoints().find((p) => p.area === "IA073-aoi" && p.musym === "L138B")!;
    expect(point).toBeDefined();
    const watched = await openMap("/map");
    const { page } = watched;
    await page.fill("#point-lat", String(point.lat));
    await page.fill("#point-lon", String(point.lon));
    await page.press("#point-lon", "Enter");
    await page.waitForSelector(".component-horizons tbody tr", { timeout: 20_000 });
    expect(await page.textContent("#panel-title")).toContain("Mapped soil survey at");
    const unit = (await page.textContent(".map-unit h3")) ?? "";
    expect(unit).toContain(point.musym);
    expect(unit).toContain(point.muname);
    expect(await page.textContent(".map-unit .facts")).toContain(point.mukey);
    const components = await page.locator("h4.component").allTextContents();
    expect(components[0]).toContain(`${point.component} — ${point.comppct} % of the map unit`);
    const rows = await tableRows(page, ".component-horizons");
    const top = rows[0]!;
    expect(top.Depth).toBe(`${point.top}–${point.bottom}`);
    expect(top.Horizon).toBe(point.hzname);
    expect(top.pH).toBe(String(point.ph));
    expect(top.Clay).toBe(String(point.clay));
    expect(top.OM).toBe(String(point.om));
    expect(await page.textContent("#panel-body")).toContain("Mapped survey data are not a laboratory observation");
    expect(await page.getAttribute('#panel-body a:text("Location JSON")', "href")).toContain("/v1/soil/location?latitude=");
    // The CSV of what the panel shows: the same query with format=csv, served as text/csv.
    const csvHref = (await page.getAttribute('#panel-body a:text("Location CSV")', "href"))!;
    expect(csvHref).toMatch(/^\/v1\/soil\/location\?latitude=.*&format=csv$/);
    const csv = await fetch(loam.base + csvHref);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(await csv.text()).toContain(point.mukey);
    await page.waitForTimeout(400);
    await page.screenshot({ path: artifactPath("map-mapped-survey-IA073.png") });
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("a point with no map unit (open ocean in MH936), entered with the keyboard form, shows the warnings", async () => {
    const watched = await openMap("/map");
    const { page } = watched;
    await page.fill("#point-lat", "7.6");
    await page.fill("#point-lon", "171.4");
    await page.press("#point-lon", "Enter");
    await page.waitForSelector("#panel-body .warnings li", { timeout: 20_000 });
    const body = (await page.textContent("#panel-body")) ?? "";
    expect(body).toContain("No mapped survey data at this point: no map unit here, inside survey area MH936");
    expect(body).toContain("falls in no usda_ssurgo map unit");
    expect(await page.locator(".component-horizons").count()).toBe(0);
    // Keyboard users land on the panel heading.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("panel-title");
    await page.keyboard.press("Escape");
    expect(await page.isHidden("#panel")).toBe(true);
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("the map moved while a view's pedons were on their way: that answer draws nothing, and the new view's does", async () => {
    const watched = await watchedPage(browser);
    const { page } = watched;
    // The first view's pedon request is held until the map has moved on.
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const asked: string[] = [];
    await page.route((url) => url.pathname === "/v1/pedons", async (route) => {
      asked.push(route.request().url());
      if (asked.length === 1) await firstHeld;
      await route.continue().catch(() => {}); // an aborted request has nobody left to answer
    });
    await page.goto(loam.base + "/map#10/39.0/-95.7", { waitUntil: "load" });
    await page.waitForFunction(() => (window as any).loam?.pedonState === "loading", null, { timeout: 20_000 });
    // Every state the layer passes through from here on.
    await page.evaluate(() => {
      const state = (window as any).loam;
      let current = state.pedonState;
      state.seen = [];
      Object.defineProperty(state, "pedonState", { get: () => current, set: (value) => { current = value; state.seen.push(value); } });
    });
    await setView(page, 38.9, -95.3, 11);
    releaseFirst();
    await settled(page);
    expect(await page.evaluate(() => (window as any).loam.seen)).toEqual(["pending", "loading", "ready"]);
    expect(asked).toHaveLength(2);
    const bbox: number[] = await page.evaluate(() => (window as any).loam.lastBbox);
    expect(asked[1]).toBe(`${loam.base}/v1/pedons?bbox=${bbox.join(",")}&limit=500`);
    const api = await loam.json(`/v1/pedons?bbox=${bbox.join(",")}&limit=500`);
    expect(await markerCount(page)).toBe(api.body.features.length);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("API values are rendered as text: a hostile pedon cannot run script; censored values show as reported", async () => {
    const watched = await openMap("/map");
    const { page } = watched;
    const hostile = `<img src=x onerror="window.__pwned=1">`;
    // Answers crafted in the browser (page.route): nothing reaches the network.
    await page.route((url) => url.pathname === "/v1/pedons", (route) =>
      route.fulfill({
        contentType: "application/json",
        body: JSON.stringify({
          type: "FeatureCollection",
          provider: "usda_kssl",
          truncated: true,
          warnings: [hostile],
          features: [
            {
              type: "Feature",
              id: "99X0001",
              geometry: { type: "Point", coordinates: [-95.7, 39.0] },
              properties: { pedon_key: "99X0001", representative_of_bbox: false, pedlabsampnum: "99X0001", upedonid: hostile, name: hostile, layer_count: 1 },
            },
          ],
        }),
      }),
    );
    await page.route((url) => url.pathname === "/v1/pedons/99X0001", (route) =>
      route.fulfill({
        contentType: "application/json",
        body: JSON.stringify({
          pedon_key: "99X0001",
          provider: "usda_kssl",
          data_kind: "observed",
          location: { latitude: 39.0, longitude: -95.7, horizontal_accuracy_m: null },
          citation: hostile,
          warnings: [hostile],
          layers: [
            {
              layer_key: "L1",
              lab_sample_key: "L1",
              depth: { top_cm: 0, bottom_cm: 10 },
              horizon_designation: hostile,
              observations: [
                { property: { id: "ph", name: "pH (1:1 water)" }, value: 6.1, reported_value: "6.1", value_qualifier: null, reporting_limit: null, unit: "pH", data_kind: "observed", warnings: [] },
                { property: { id: "cec", name: "CEC, NH4OAc pH 7" }, value: null, reported_value: "<0.05", value_qualifier: "less_than", reporting_limit: 0.05, unit: "cmol(+)/kg", data_kind: "observed", warnings: [] },
              ],
            },
          ],
        }),
      }),
    );
    await setView(page, 39.0, -95.7, 12);
    await settled(page);
    expect(await page.textContent("#status")).toBe("Showing 1 pedon; more exist in this view — zoom in");
    const at = await pixelOf(page, 39.0, -95.7);
    await page.mouse.click(at.x, at.y);
    await page.waitForSelector("#pedon-layers tbody tr");
    const rows = await tableRows(page, "#pedon-layers");
    expect(rows[0]!.Horizon).toBe(hostile);
    expect(rows[0]!.CEC).toBe("<0.05");
    expect(rows[0]!.pH).toBe("6.1");
    // No clay observation came back: the Clay heading's name and unit come from /v1/properties.
    const clay = (await loam.json("/v1/properties")).body.properties.find((p: any) => p.id === "clay");
    expect(clay.name).toStartWith("Clay");
    expect(await page.getAttribute('#pedon-layers thead th:has(abbr:text("Clay"))', "title")).toBe(`${clay.name}, ${clay.standard_unit}`);
    expect(await page.textContent("#panel-body")).toContain(hostile);
    expect(await page.locator("#panel img, #status-notes img, .leaflet-tooltip img").count()).toBe(0);
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("an API error is shown in the status line with its ErrorResponse message", async () => {
    const watched = await openMap("/map");
    const { page } = watched;
    await page.route((url) => url.pathname === "/v1/pedons", (route) =>
      route.fulfill({
        status: 502,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "upstream_error", message: "The laboratory provider answered with an error.", request_id: "req-123", provider: "usda_kssl", retryable: true } }),
      }),
    );
    await setView(page, 39.0, -95.7, 12);
    await settled(page, ["error"]);
    const status = (await page.textContent("#status")) ?? "";
    expect(status).toContain("The laboratory provider answered with an error.");
    expect(status).toContain("HTTP 502");
    expect(await page.getAttribute("#status", "class")).toContain("status-error");
    // The browser logs the 502 itself; that is the only console error.
    expect(watched.errors.every((e) => e.includes("502"))).toBe(true);
    expect(watched.foreign()).toEqual([]);
    await watched.close();
  }, BROWSER_TEST_MS);
});
