/**
 * Profile sketches on the map page and the series page, in real Chromium against Loam on the test
 * snapshot: the L138B map-unit panel (the map-unit layer, then GET /v1/soil/mapunits/2765528) draws Clarion's
 * sketch (7 horizons, each box filled with the API's moist sRGB) and Storden's, and a sketch opens the
 * series page; the pedon panel links the series its pedon was sampled as.
 */
import { describe, expect, test } from "bun:test";
import { knownPoints } from "../location/known-answers";
import { artifactPath, pixelOf, useLoamAndBrowser, watchedPage } from "./browser";

const BROWSER_TEST_MS = 60_000;
const { loam, browser } = useLoamAndBrowser();

describe("profile sketches and the series page", () => {
  test("the L138B panel sketches Clarion (7 horizons, the API's colours) and Storden; a sketch opens the series page", async () => {
    const l138b = knownPoints().find((p) => p.area === "IA073-aoi" && p.musym === "L138B")!;
    const clarion = (await loam.json("/v1/series/CLARION")).body;
    const storden = (await loam.json("/v1/series/STORDEN")).body;
    expect(clarion.horizons).toHaveLength(7);

    const watched = await watchedPage(browser);
    const { page } = watched;
    await page.goto(`${loam.base}/map#17/${l138b.lat}/${l138b.lon}`, { waitUntil: "load" });
    // The map-unit layer loads the view's polygons (GET /v1/soil/mapunits?bbox=…); a click inside L138B opens it.
    await page.waitForFunction(() => (window as any).loam?.basemapState === "ready" && (window as any).loam.mapUnitState === "ready", null, { timeout: 20_000 });
    const at = await pixelOf(page, l138b.lat, l138b.lon);
    await page.mouse.click(at.x, at.y);
    await page.waitForSelector('.profile[data-series="Clarion"] rect.profile-horizon', { timeout: 20_000 });
    expect(await page.textContent("#panel-title")).toBe("Map unit L138B");

    const boxes = async (series: string) =>
      page.$$eval(`.profile[data-series="${series}"] rect.profile-horizon`, (rects) => rects.map((r) => ({ name: r.getAttribute("data-horizon"), fill: r.getAttribute("fill"), y: Number(r.getAttribute("y")), h: Number(r.getAttribute("height")) })));
    const clarionBoxes = await boxes("Clarion");
    expect(clarionBoxes.map((b) => b.name)).toEqual(clarion.horizons.map((h: any) => h.name));
    expect(clarionBoxes.map((b) => b.fill)).toEqual(clarion.horizons.map((h: any) => h.moist_color.srgb_hex));
    // Boxes stack from the surface down without gaps, thicker for thicker horizons.
    for (let i = 1; i < clarionBoxes.length; i++) expect(clarionBoxes[i]!.y).toBeCloseTo(clarionBoxes[i - 1]!.y + clarionBoxes[i - 1]!.h, 5);
    const stordenBoxes = await boxes("Storden");
    expect(stordenBoxes.map((b) => b.name)).toEqual(storden.horizons.map((h: any) => h.name));
    expect(stordenBoxes.map((b) => b.fill)).toEqual(storden.horizons.map((h: any) => h.moist_color?.srgb_hex ?? "#d9d9d9"));
    // One depth scale: 1 cm is as tall in both sketches.
    const perCm = (b: { h: number }, h: any) => b.h / (h.depth.bottom_cm - h.depth.top_cm);
    expect(perCm(stordenBoxes[0]!, storden.horizons[0])).toBeCloseTo(perCm(clarionBoxes[0]!, clarion.horizons[0]), 5);
    // Horizon names beside the boxes.
    expect(await page.$$eval('.profile[data-series="Clarion"] .profile-label', (t) => t.map((x) => x.textContent))).toEqual(clarion.horizons.map((h: any) => h.name));
    await page.screenshot({ path: artifactPath("map-mapunit-profiles-L138B.png") });

    // The Clarion sketch opens the series page.
    await Promise.all([page.waitForURL(/\/series\?name=CLARION$/), page.click('.profile[data-series="Clarion"] a.profile-link')]);
    await page.waitForSelector(".series-horizons tbody tr", { timeout: 20_000 });
    expect(await page.textContent(".series-name")).toBe("CLARION series");
    expect(await page.textContent(".taxonomic-class")).toBe("Fine-loamy, mixed, superactive, mesic Typic Hapludolls");
    const first = await page.locator(".series-horizons tbody tr").first().locator("th, td").allTextContents();
    expect(first.slice(0, 5)).toEqual(["Ap", "0–18", " 10YR 2/1", " 10YR 3/1", "loam"]);
    expect(await page.locator(".series-horizons tbody tr").count()).toBe(7);
    expect(await page.$$eval(".series-profile rect.profile-horizon", (r) => r.map((x) => x.getAttribute("fill")))).toEqual(clarion.horizons.map((h: any) => h.moist_color.srgb_hex));
    expect(await page.locator(".series-section").count()).toBe(clarion.sections.length);
    expect(await page.textContent(".citation")).toContain("revised 10/2005");
    await page.screenshot({ path: artifactPath("series-page-CLARION.png"), fullPage: true });
    expect(watched.errors).toEqual([]);
    expect(watched.foreign()).toEqual([]);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("an unknown series on the series page says so; MAJURO's missing dry colour shows as a dash", async () => {
    const watched = await watchedPage(browser);
    const { page } = watched;
    await page.goto(`${loam.base}/series?name=Meade`, { waitUntil: "load" });
    await page.waitForSelector(".panel-error", { timeout: 20_000 });
    expect(await page.textContent(".panel-error")).toContain("No Official Series Description named 'MEADE'");
    await page.goto(`${loam.base}/series?name=majuro`, { waitUntil: "load" });
    await page.waitForSelector(".series-horizons tbody tr", { timeout: 20_000 });
    expect(await page.locator(".series-horizons tbody tr").first().locator("td.dry").textContent()).toBe("—");
    // The 404 of the first page is the only failed request it may log.
    expect(watched.errors.filter((e) => !e.includes("404"))).toEqual([]);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("the pedon panel of 02N0245 (sampled as Kimo) links the Kimo series page", async () => {
    const watched = await watchedPage(browser);
    const { page } = watched;
    await page.goto(`${loam.base}/map#12/39.0783539/-95.7708282`, { waitUntil: "load" });
    await page.waitForFunction(() => document.querySelectorAll("#pedon-select option[value='02N0245']").length === 1, null, { timeout: 20_000 });
    await page.selectOption("#pedon-select", "02N0245");
    await page.waitForSelector("#panel-body a.series-link", { timeout: 20_000 });
    expect(await page.getAttribute("#panel-body a.series-link", "href")).toBe("/series?name=KIMO");
    expect(await page.textContent("#panel-body a.series-link")).toBe("Kimo (series description)");
    await Promise.all([page.waitForURL(/\/series\?name=KIMO$/), page.click("#panel-body a.series-link")]);
    await page.waitForSelector(".series-horizons tbody tr", { timeout: 20_000 });
    expect(await page.textContent(".series-name")).toBe("KIMO series");
    expect(watched.errors).toEqual([]);
    expect(watched.foreign()).toEqual([]);
    await watched.close();
  }, BROWSER_TEST_MS);
});
