/**
 * The map page's panels (issue #39), on a phone and a desktop: each leads with the value asked for
 * (property, depth, value, method, caveat) before its tables; values are shown to the API's documented
 * precision (four significant digits) with the value as reported in the title; the depth chart's axis
 * starts at zero; tables fit the panel (a wide one scrolls inside its own box, the panel never sideways).
 * Expected values come from the API's answers and the data's README (known points).
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { knownPoints } from "../location/known-answers";
import { artifactPath, DESKTOP, expectClean, PHONE, pixelOf, useLoamAndBrowser, watchedPage, type WatchedPage } from "./browser";

const BROWSER_TEST_MS = 90_000;
const { loam, browser } = useLoamAndBrowser();
const KIMO = { key: "02N0245", lat: 39.0783539, lon: -95.7708282 };
type Form = typeof PHONE | typeof DESKTOP;
const isPhone = (form: Form) => form.viewport.width < 500;

async function open(hash: string, form: Form, ready: string): Promise<WatchedPage> {
  const watched = await watchedPage(browser, form.viewport, form.device);
  await watched.page.goto(`${loam.base}/map${hash}`, { waitUntil: "load" });
  await watched.page.waitForFunction((state) => (window as any).loam?.basemapState === "ready" && (window as any).loam?.layersState === "ready" && (window as any).loam[state] === "ready", ready, { timeout: 20_000 });
  return watched;
}
async function click(page: Page, form: Form, lat: number, lon: number): Promise<void> {
  const at = await pixelOf(page, lat, lon);
  if (isPhone(form)) await page.touchscreen.tap(at.x, at.y);
  else await page.mouse.click(at.x, at.y);
}

/** Four significant digits, never fewer integer digits, no trailing zeros (the API's precision rule). */
function fourDigits(value: number): string {
  if (value === 0) return "0";
  const decimals = Math.max(0, 3 - Math.floor(Math.log10(Math.abs(value))));
  return String(Number(value.toFixed(decimals)));
}

/** The lead is the panel's first block, above every table, and wholly on screen. */
async function expectLeadFirst(page: Page, form: Form): Promise<string> {
  const place = await page.evaluate(() => {
    const body = document.getElementById("panel-body")!;
    const lead = document.getElementById("panel-lead")!;
    const firstTable = body.querySelector("table");
    const before = !firstTable || Boolean(lead.compareDocumentPosition(firstTable) & Node.DOCUMENT_POSITION_FOLLOWING);
    const blocks = [...body.children].filter((c) => c.tagName !== "H3");
    return { before, first: blocks[0] === lead, bottom: lead.getBoundingClientRect().bottom };
  });
  expect(place.before).toBe(true);
  expect(place.first).toBe(true);
  expect(place.bottom).toBeLessThanOrEqual(form.viewport.height);
  return (await page.textContent("#panel-lead")) ?? "";
}

/** No table is cut off: each fits the panel or scrolls inside its own box; the panel and the page never scroll sideways. */
async function expectTablesFit(page: Page, form: Form, mustFit: boolean): Promise<void> {
  const sizes = await page.evaluate(() => {
    const body = document.getElementById("panel-body")!;
    const right = body.getBoundingClientRect().right;
    return {
      body: [body.scrollWidth, body.clientWidth],
      page: document.documentElement.scrollWidth,
      wraps: [...body.querySelectorAll(".table-wrap")].map((w) => ({ scroll: w.scrollWidth, client: w.clientWidth, right: w.getBoundingClientRect().right, overflow: getComputedStyle(w).overflowX, panelRight: right })),
    };
  });
  expect(sizes.body[0]).toBeLessThanOrEqual(sizes.body[1]! + 1);
  expect(sizes.page).toBeLessThanOrEqual(form.viewport.width);
  expect(sizes.wraps.length).toBeGreaterThan(0);
  for (const w of sizes.wraps) {
    expect(w.right).toBeLessThanOrEqual(w.panelRight + 1);
    expect(w.overflow).toBe("auto");
    if (mustFit) expect(w.scroll).toBeLessThanOrEqual(w.client + 1);
  }
}

describe("panels", () => {
  for (const [name, form] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
    test(`${name}: a pedon's panel leads with clay of its top layer; values at four significant digits (as reported in the title); the depth chart's axis starts at zero; its tables never scroll the panel sideways`, async () => {
      const watched = await open(`#12/${KIMO.lat}/${KIMO.lon}`, form, "pedonState");
      const { page } = watched;
      await click(page, form, KIMO.lat, KIMO.lon);
      await page.waitForSelector("#pedon-layers tbody tr", { timeout: 20_000 });
      const url = watched.requests.map((u) => new URL(u)).find((u) => u.pathname === `/v1/pedons/${KIMO.key}`)!;
      const pedon = (await loam.json(url.pathname + url.search)).body;
      const top = pedon.layers.slice().sort((a: any, b: any) => a.depth.top_cm - b.depth.top_cm).find((l: any) => l.observations.some((o: any) => o.property.id === "clay"));
      const clay = top.observations.find((o: any) => o.property.id === "clay");
      const lead = await expectLeadFirst(page, form);
      expect(lead).toContain(clay.property.name);
      expect(lead).toContain(`${top.depth.top_cm}–${top.depth.bottom_cm} cm`);
      expect(await page.textContent("#panel-lead .lead-value")).toBe(`${fourDigits(clay.value)} ${clay.unit}`);
      expect(lead).toContain(clay.measurement_method);
      expect(await page.textContent("#panel-lead .lead-caveat")).toMatch(/one point/);
      // Every number in the table: four significant digits at most, the API's value rounded so; the reported value in the title when it had more.
      const cells = await page.$$eval("#pedon-layers td[data-value]", (tds) => tds.map((td) => ({ value: Number(td.getAttribute("data-value")), text: td.firstChild!.textContent, title: td.getAttribute("title") ?? "" })));
      expect(cells.length).toBeGreaterThan(10);
      let rounded = 0;
      for (const c of cells) {
        expect(c.text).toBe(fourDigits(c.value));
        if (fourDigits(c.value) !== String(c.value)) {
          rounded++;
          expect(c.title).toContain(`as reported: ${c.value}`);
        }
      }
      // KSSL reports clay with up to seven decimals: those are the rounded ones.
      expect(rounded).toBeGreaterThan(0);
      // The depth chart: the value axis starts at zero, and each bar starts there.
      const ticks = await page.$$eval(".depth-chart .tick-x", (t) => t.map((n) => n.textContent));
      expect(ticks[0]).toBe("0");
      const bars = await page.$$eval(".depth-chart .step:not(.step-missing) rect", (rects) => rects.map((r) => Number(r.getAttribute("x"))));
      const axisX = await page.$eval(".depth-chart .tick-x", (t) => Number(t.getAttribute("x")));
      for (const x of bars) expect(x).toBeCloseTo(axisX, 1);
      await expectTablesFit(page, form, false);
      await page.screenshot({ path: artifactPath(`panel-pedon-${name}.png`) });
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: a map unit's panel leads with the soil map's value (clay, 0–30 cm, weighted average) before its tables`, async () => {
      const l138b = knownPoints().find((p) => p.area === "IA073-aoi" && p.musym === "L138B")!;
      const watched = await open(`#17/${l138b.lat}/${l138b.lon}`, form, "mapUnitState");
      const { page } = watched;
      await click(page, form, l138b.lat, l138b.lon);
      await page.waitForSelector(".map-unit-summaries tbody tr", { timeout: 20_000 });
      const unit = (await loam.json(`/v1/soil/mapunits/${l138b.mukey}?properties=clay&method=weighted_average&depth_top_cm=0&depth_bottom_cm=30`)).body;
      const summary = unit.summaries[0];
      const lead = await expectLeadFirst(page, form);
      expect(lead).toContain(`${summary.property.name}, 0–30 cm`);
      expect(await page.textContent("#panel-lead .lead-value")).toBe(`${summary.value} ${summary.unit}`);
      expect(lead).toContain("weighted average of components");
      expect(await page.textContent("#panel-lead .lead-caveat")).toMatch(/not a measurement at a point/);
      await expectTablesFit(page, form, false);
      await page.screenshot({ path: artifactPath(`panel-mapunit-${name}.png`) });
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: the area report's tables fit the panel whole, none cut off, and the panel never scrolls sideways`, async () => {
      const l138b = knownPoints().find((p) => p.area === "IA073-aoi" && p.musym === "L138B")!;
      const watched = await open(`#17/${l138b.lat}/${l138b.lon}`, form, "mapUnitState");
      const { page } = watched;
      if (isPhone(form)) await page.tap("#menu-toggle");
      // The tool closes the phone's menu itself.
      await page.click("#aoi-rectangle");
      for (const [lat, lon] of [[41.9452, -94.3612], [41.9438, -94.3589]] as const) await click(page, form, lat, lon);
      await page.waitForSelector("#aoi-summaries tbody tr", { timeout: 20_000 });
      await expectTablesFit(page, form, true);
      await page.screenshot({ path: artifactPath(`panel-aoi-${name}.png`) });
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);
  }
});

describe("a panel's detail (panel.js `detail`, shared by every panel)", () => {
  test("an answer that fails is said in the panel as '<what could not be loaded>: <the ErrorResponse message> (HTTP status, request id)'", async () => {
    const watched = await open(`#12/${KIMO.lat}/${KIMO.lon}`, DESKTOP, "pedonState");
    const { page } = watched;
    // Loam's own refusal of a pedon it does not hold, handed to the page as the answer for Kimo.
    const refused = await loam.get("/v1/pedons/99Z9999");
    const text = await refused.text();
    const error = JSON.parse(text).error;
    await page.route((url) => url.pathname === `/v1/pedons/${KIMO.key}`, (route) => route.fulfill({ status: refused.status, contentType: "application/json", body: text }));
    await click(page, DESKTOP, KIMO.lat, KIMO.lon);
    await page.waitForSelector("#panel-body .panel-error", { timeout: 20_000 });
    expect(await page.textContent("#panel-title")).toBe(`Pedon ${KIMO.key}`);
    expect(await page.textContent("#panel-body")).toBe(`The pedon could not be loaded: ${error.message} (HTTP ${refused.status}, request id ${error.request_id})`);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("a detail replaced while it loads is dropped: its answer, even a failure, never reaches the panel of the next", async () => {
    const watched = await open(`#12/${KIMO.lat}/${KIMO.lon}`, DESKTOP, "pedonState");
    const { page } = watched;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let done!: () => void;
    const answered = new Promise<void>((resolve) => (done = resolve));
    await page.route((url) => url.pathname === `/v1/pedons/${KIMO.key}`, async (route) => {
      await held;
      // The request was aborted when the next detail opened: fulfilling it may fail, and either way the page has it.
      await route.fulfill({ status: 502, contentType: "application/json", body: JSON.stringify({ error: { code: "upstream_error", message: "held", request_id: "x" } }) }).catch(() => {});
      done();
    });
    await click(page, DESKTOP, KIMO.lat, KIMO.lon);
    await page.waitForSelector("#panel-body .panel-busy", { timeout: 20_000 });
    expect(await page.textContent("#panel-title")).toBe(`Pedon ${KIMO.key}`);
    // Another detail: the survey at a point away from the pedon.
    await click(page, DESKTOP, KIMO.lat + 0.02, KIMO.lon + 0.02);
    await page.waitForFunction(() => document.getElementById("panel-title")?.textContent?.startsWith("Mapped soil survey at") && !document.querySelector("#panel-body .panel-busy"), null, { timeout: 20_000 });
    release();
    await answered;
    const after = await page.textContent("#panel-body");
    expect(await page.textContent("#panel-title")).toStartWith("Mapped soil survey at");
    expect(after).not.toContain("The pedon could not be loaded");
    expect(await page.locator("#panel-body .panel-error").count()).toBe(0);
    await watched.close();
  }, BROWSER_TEST_MS);
});
