/**
 * The geochemistry layer of the map page, in Chromium: reachable from the first view, sites
 * of the view coloured by an element with censored results marked, the site panel's element table, and
 * the nearest sites of a point. Expected values come from the USGS file itself, read here
 * (datasets/geochem, tab-separated: header on line 13, units on line 14), and from the API's
 * answers for the very requests the page made. No request leaves 127.0.0.1.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR } from "../support/server";
import { artifactPath, DESKTOP, expectClean, PHONE, pixelOf, useLoamAndBrowser, watchedPage, type WatchedPage } from "./browser";

const BROWSER_TEST_MS = 60_000;
const { loam, browser } = useLoamAndBrowser();

/** The file's rows as {column: cell}, by SiteID. */
function geochemRows(): Map<string, Record<string, string>> {
  const lines = readFileSync(join(DATA_DIR, "geochem/Appendix_2b_Top5_18Sept2013.txt"), "latin1").split(/\r?\n/);
  const header = lines[12]!.split("\t");
  const rows = new Map<string, Record<string, string>>();
  for (const line of lines.slice(14)) {
    if (!line.trim()) continue;
    const cells = line.split("\t");
    const row = Object.fromEntries(header.map((h, i) => [h, (cells[i] ?? "").trim()]));
    rows.set(row.SiteID!, row);
  }
  return rows;
}
const ROWS = geochemRows();

async function open(path: string, form: typeof PHONE | typeof DESKTOP): Promise<WatchedPage> {
  const watched = await watchedPage(browser, form.viewport, form.device);
  await watched.page.goto(loam.base + path, { waitUntil: "load" });
  await watched.page.waitForFunction(() => (window as any).loam?.basemapState === "ready", null, { timeout: 20_000 });
  return watched;
}

describe("geochemistry sites on the map page", () => {
  test("the places list opens the layer; every site of the view is drawn, coloured by its arsenic class, censored ones hollow; site 3560's panel shows the file's values", async () => {
    const watched = await open("/map", DESKTOP);
    const { page } = watched;
    await page.waitForSelector('#places-list button[data-place="sites"]:not([disabled])', { timeout: 20_000 });
    await page.click('#places-list button[data-place="sites"]');
    await page.waitForFunction(() => (window as any).loam.geochemState === "ready", null, { timeout: 20_000 });
    const url: string = await page.evaluate(() => (window as any).loam.geochemUrl);
    expect(url).toMatch(/^\/v1\/geochem\/sites\?bbox=[-0-9.,]+&property=arsenic&limit=1000$/);
    const api = await loam.json(url);
    expect(api.status).toBe(200);
    const features = api.body.features as any[];
    expect(features.length).toBeGreaterThan(50);
    const drawn: any[] = await page.evaluate(() => (window as any).loam.geochem.drawn());
    expect(drawn.map((d) => d.site_id).sort((a, b) => a - b)).toEqual(features.map((f) => f.properties.site_id).sort((a: number, b: number) => a - b));
    // Each site's colour is the legend class of its API value; a censored one is hollow, never at its limit.
    const classes = await page.$$eval(".geo-legend .class-row", (rows) => rows.map((r) => ({ from: Number(r.getAttribute("data-from")), to: Number(r.getAttribute("data-to")), colour: r.getAttribute("data-colour") })));
    expect(classes.length).toBeGreaterThanOrEqual(2);
    for (const d of drawn) {
      const f = features.find((x) => x.properties.site_id === d.site_id);
      if (typeof f.properties.value === "number") {
        const c = classes.find((k, i) => f.properties.value >= k.from && (f.properties.value < k.to || i === classes.length - 1));
        expect(`${d.site_id} ${d.colour}`).toBe(`${d.site_id} ${c!.colour}`);
      } else if (f.properties.value_qualifier === "less_than") {
        expect(`${d.site_id} ${d.kind}`).toBe(`${d.site_id} censored`);
      }
    }
    // Every censored result in view (if any) is drawn as censored: as many hollow sites as the API has censored ones.
    expect(drawn.filter((d) => d.kind === "censored").length).toBe(features.filter((f) => f.properties.value === null && f.properties.value_qualifier === "less_than").length);
    await page.waitForTimeout(300);
    await page.screenshot({ path: artifactPath("geochem-layer-arsenic.png") });

    // Silver is mostly censored ("<1"): those sites are drawn hollow, counted in the legend, never coloured as 1.
    await page.selectOption("#geo-element", "silver");
    await page.waitForFunction(() => (window as any).loam.geochemState === "ready" && (window as any).loam.geochemUrl.includes("property=silver"), null, { timeout: 20_000 });
    const silverUrl: string = await page.evaluate(() => (window as any).loam.geochemUrl);
    const silverSites = (await loam.json(silverUrl)).body.features as any[];
    const censoredIds = silverSites.filter((f) => f.properties.value === null && f.properties.value_qualifier === "less_than").map((f) => f.properties.site_id).sort((a: number, b: number) => a - b);
    expect(censoredIds.length).toBeGreaterThan(10);
    // The file agrees: those sites' Top5_Ag cells begin with "<".
    for (const id of censoredIds) expect(ROWS.get(String(id))!.Top5_Ag!.startsWith("<")).toBe(true);
    const drawnSilver: any[] = await page.evaluate(() => (window as any).loam.geochem.drawn());
    expect(drawnSilver.filter((d) => d.kind === "censored").map((d) => d.site_id).sort((a, b) => a - b)).toEqual(censoredIds);
    expect(await page.textContent(".geo-legend .geo-censored-row")).toContain(`${censoredIds.length} in view`);
    await page.waitForTimeout(300);
    await page.screenshot({ path: artifactPath("geochem-layer-silver-censored.png") });
    await page.selectOption("#geo-element", "arsenic");
    await page.waitForFunction(() => (window as any).loam.geochemState === "ready" && (window as any).loam.geochemUrl.includes("property=arsenic"), null, { timeout: 20_000 });

    // Site 3560: a click opens its element table; values as the file has them, Ag censored "<1".
    const file = ROWS.get("3560")!;
    expect(file.Top5_As).toBe("4.7");
    expect(file.Top5_Ag).toBe("<1");
    // Returns nothing: serializing the Leaflet map back to the test would take seconds.
    await page.evaluate(([la, lo]) => {
      (window as any).loamMap.setView([la, lo], 9, { animate: false });
    }, [Number(file.Latitude), Number(file.Longitude)] as const);
    await page.waitForFunction(() => (window as any).loam.geochemState === "ready" && (window as any).loam.geochem.marker(3560), null, { timeout: 20_000 });
    const at = await pixelOf(page, Number(file.Latitude), Number(file.Longitude));
    await page.mouse.click(at.x, at.y);
    await page.waitForSelector("#geo-elements tbody tr", { timeout: 20_000 });
    expect(await page.textContent("#panel-title")).toBe("Geochemistry site 3560");
    const row = async (property: string) => page.locator(`#geo-elements tbody tr[data-property="${property}"] td`).allTextContents();
    const arsenic = await row("arsenic");
    expect(arsenic[0]).toBe(file.Top5_As);
    expect(arsenic[1]).toBe("mg/kg");
    const silver = await row("silver");
    expect(silver[0]).toBe("<1");
    expect(await page.getAttribute('#geo-elements tbody tr[data-property="silver"] td.col-value', "class")).toContain("censored");
    expect((await row("lead"))[0]).toBe(file.Top5_Pb);
    expect(await page.locator("#geo-elements tbody tr").count()).toBe((await loam.json("/v1/geochem/sites/3560")).body.observations.length);
    expect(await page.getAttribute('#panel-body a:text("Site JSON")', "href")).toBe("/v1/geochem/sites/3560");
    await page.screenshot({ path: artifactPath("geochem-site-3560.png") });
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("a point's panel lists the nearest sites (site 3560 first near it) and opens one; on a phone", async () => {
    const file = ROWS.get("3560")!;
    const lat = Number(file.Latitude) + 0.01, lon = Number(file.Longitude) + 0.01;
    const watched = await open("/map", PHONE);
    const { page } = watched;
    await page.fill("#search-input", `${lat}, ${lon}`);
    await page.press("#search-input", "Enter");
    await page.waitForSelector(".geo-near-list li", { timeout: 20_000 });
    const near = await loam.json(`/v1/geochem/sites?near=${lat},${lon}&limit=5&property=arsenic`);
    const listed = await page.$$eval(".geo-near-list .geo-near", (buttons) => buttons.map((b) => Number(b.getAttribute("data-site"))));
    expect(listed).toEqual(near.body.features.filter((f: any) => f.properties.distance_km <= 300).map((f: any) => f.properties.site_id));
    expect(listed[0]).toBe(3560);
    await page.screenshot({ path: artifactPath("geochem-nearest-phone.png") });
    await page.tap('.geo-near-list .geo-near[data-site="3560"]');
    await page.waitForSelector("#geo-elements tbody tr", { timeout: 20_000 });
    expect(await page.textContent("#panel-title")).toBe("Geochemistry site 3560");
    expect(await page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth))).toBeLessThanOrEqual(PHONE.viewport.width);
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);
});
