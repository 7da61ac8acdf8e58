/**
 * First contact (issue #39), on a phone (390x844) and a desktop (1440x900): what Loam is, every layer
 * GET /v1/layers declares with its own symbol and one legend, what the snapshot covers and how to get
 * there, geochemistry colour classes fixed from the whole dataset, and status that belongs to the
 * active layer or tool. Expected values come from GET /v1/layers, the USGS file read here, and what was
 * painted (screenshot pixels). No request leaves 127.0.0.1.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { DATA_DIR } from "../support/server";
import { artifactPath, BROWSER_TEST_MS, DESKTOP, expectClean, near, PHONE, READY_MS, rgbOf, screenshotPixels, useLoamAndBrowser, watchedPage, type WatchedPage } from "./browser";

const { loam, browser } = useLoamAndBrowser();
const FORMS = [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const;
/** The kinds this page draws (a kind /v1/layers declares without a page module stays dormant). */
const PAGE_KINDS = ["survey_polygons", "pedons", "sites", "grid", "stations"];

async function open(path: string, form: typeof PHONE | typeof DESKTOP): Promise<WatchedPage> {
  const watched = await watchedPage(browser, form.viewport, form.device);
  await watched.page.goto(loam.base + path, { waitUntil: "load" });
  await watched.page.waitForFunction(() => (window as any).loam?.basemapState === "ready" && (window as any).loam?.layersState === "ready", null, { timeout: READY_MS });
  return watched;
}
const isPhone = (form: typeof PHONE | typeof DESKTOP) => form.viewport.width < 500;
async function menu(page: Page, form: typeof PHONE | typeof DESKTOP, open: boolean): Promise<void> {
  if (!isPhone(form)) return;
  if ((await page.getAttribute("#menu-toggle", "aria-expanded")) !== String(open)) await page.tap("#menu-toggle");
}

/** Arsenic of every site of the USGS file (Top5_As), numbers only: "<0.6" (censored) and "N.S." have no value. */
function fileArsenic(): number[] {
  const lines = readFileSync(join(DATA_DIR, "geochem/Appendix_2b_Top5_18Sept2013.txt"), "latin1").split(/\r?\n/);
  const column = lines[12]!.split("\t").indexOf("Top5_As");
  return lines
    .slice(14)
    .filter((line) => line.trim())
    .map((line) => (line.split("\t")[column] ?? "").trim())
    .filter((cell) => /^\d+(\.\d+)?$/.test(cell))
    .map(Number);
}

/** Five classes at the quantiles of `values`, bounds to two significant figures, outer bounds outward (docs/map.md). */
function quantileBounds(values: number[]): number[] {
  const sorted = values.slice().sort((a, b) => a - b);
  const step = (x: number) => Math.pow(10, Math.floor(Math.log10(Math.abs(x) || 1)) - 1);
  const lo = Number((Math.floor(sorted[0]! / step(sorted[0]!)) * step(sorted[0]!)).toPrecision(12));
  const last = sorted[sorted.length - 1]!;
  const hi = Number((Math.ceil(last / step(last)) * step(last)).toPrecision(12));
  const cuts = [1, 2, 3, 4].map((i) => Number(sorted[Math.floor((i * sorted.length) / 5)]!.toPrecision(2)));
  return [lo, ...cuts.filter((c) => c > lo && c < hi), hi].filter((b, i, all) => i === 0 || b > all[i - 1]!);
}

async function legendBounds(page: Page): Promise<number[]> {
  const rows = await page.$$eval(".geo-legend .class-row", (list) => list.map((r) => [Number(r.getAttribute("data-from")), Number(r.getAttribute("data-to"))]));
  return [rows[0]![0]!, ...rows.map((r) => r[1]!)];
}

describe("first contact", () => {
  for (const [name, form] of FORMS) {
    test(`${name}: one line at the top of the page says what Loam is, whole and unclipped`, async () => {
      const watched = await open("/map", form);
      const { page } = watched;
      const line = page.locator("#tagline");
      expect(await line.isVisible()).toBe(true);
      const text = (await line.textContent()) ?? "";
      expect(text).toMatch(/soil data/);
      expect(text).toMatch(/API/);
      expect(text.split(/[.!?](\s|$)/).filter((s) => s && s.trim()).length).toBe(1);
      const box = (await line.boundingBox())!;
      // At the top, above the map, within the screen and not cut off.
      const mapTop = (await page.locator("#map").boundingBox())!.y;
      expect(box.y + box.height).toBeLessThanOrEqual(mapTop);
      expect(box.y).toBeLessThan(120);
      expect(box.x + box.width).toBeLessThanOrEqual(form.viewport.width);
      expect(await line.evaluate((node) => node.scrollWidth <= node.clientWidth && getComputedStyle(node).overflow !== "hidden")).toBe(true);
      // One line on a desktop; on a phone at most two short lines, so the map keeps the screen.
      const lineHeight = await line.evaluate((node) => parseFloat(getComputedStyle(node).lineHeight));
      expect(box.height).toBeLessThanOrEqual((isPhone(form) ? 2 : 1) * lineHeight + 2);
      await page.screenshot({ path: artifactPath(`first-contact-tagline-${name}.png`) });
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: every layer /v1/layers declares is listed with its own symbol, the one legend names each shown layer, and sites are painted as diamonds beside round pedons`, async () => {
      const layers = (await loam.json("/v1/layers")).body.layers as any[];
      // Kansas, zoomed in enough for the pedon box limits on this screen.
      const watched = await open(`/map#${isPhone(form) ? 9 : 10}/39.05/-95.7`, form);
      const { page } = watched;
      await menu(page, form, true);
      for (const layer of layers.filter((l) => PAGE_KINDS.includes(l.kind))) {
        const box = page.locator(`#layer-${layer.kind}`);
        expect(await box.getAttribute("data-provider")).toBe(layer.id);
        expect(await page.textContent(`label[for="layer-${layer.kind}"]`)).toBe(layer.label);
        expect(await page.locator(`label[for="layer-${layer.kind}"] .sym-${layer.kind}`).count()).toBe(1);
      }
      // Each kind's symbol has its own shape or colour (the grid's is a gradient, the stations' a triangle drawn by its bottom border).
      const looks = await page.$$eval("#layer-list-items .sym", (list) => list.map((s) => { const c = getComputedStyle(s); return [c.borderRadius, c.transform, c.backgroundColor, c.backgroundImage, c.borderBottomColor, c.borderBottomWidth].join(" "); }));
      expect(new Set(looks).size).toBe(looks.length);
      if (!(await page.isChecked("#layer-sites"))) await page.click('label[for="layer-sites"]');
      await menu(page, form, false);
      await page.waitForFunction(() => (window as any).loam.geochemState === "ready" && (window as any).loam.pedonState === "ready", null, { timeout: READY_MS });
      // The legend names every shown layer, each with its symbol and its catalog title.
      if (isPhone(form)) await page.click("#legend > summary");
      const legend = (await page.textContent("#legend")) ?? "";
      for (const layer of layers.filter((l) => ["pedons", "sites"].includes(l.kind))) {
        expect(legend).toContain(layer.label);
        expect(legend).toContain(layer.title);
        expect(await page.locator(`#legend .legend-layer[data-kind="${layer.kind}"]:not([hidden]) .sym-${layer.kind}`).count()).toBe(1);
      }
      if (isPhone(form)) await page.click("#legend > summary");
      // What was painted: a site's centre is its class colour and a point 5 px right and up of it (inside a circle of radius 8,
      // outside a diamond) is not; a pedon's fill reaches 3 px right and up of its centre (a circle of radius 6).
      const marks = await page.evaluate(() => {
        const map = (window as any).loamMap;
        const rect = map.getContainer().getBoundingClientRect();
        const px = (ll: any) => { const p = map.latLngToContainerPoint(ll); return { x: rect.left + p.x, y: rect.top + p.y }; };
        const inside = (p: { x: number; y: number }) => p.x > rect.left + 60 && p.x < rect.right - 60 && p.y > rect.top + 60 && p.y < rect.bottom - 60;
        const sites = (window as any).loam.geochem.drawn().filter((d: any) => d.kind === "value").map((d: any) => ({ ...px((window as any).loam.geochem.marker(d.site_id).getLatLng()), colour: d.colour }));
        const pedons = (window as any).loam.pedonLayer.getLayers().map((m: any) => px(m.getLatLng()));
        const alone = (p: any) => [...sites, ...pedons].every((q: any) => q === p || Math.hypot(q.x - p.x, q.y - p.y) > 24);
        return { site: sites.find((s: any) => inside(s) && alone(s)) ?? null, pedon: pedons.find((p: any) => inside(p) && alone(p)) ?? null };
      });
      expect(marks.site).not.toBeNull();
      expect(marks.pedon).not.toBeNull();
      await page.mouse.move(0, 0);
      const png = await page.screenshot({ path: artifactPath(`first-contact-symbols-${name}.png`) });
      const [siteCentre, siteCorner, pedonCentre, pedonEdge] = await screenshotPixels(browser, png, [
        { x: marks.site!.x, y: marks.site!.y },
        { x: marks.site!.x + 5, y: marks.site!.y - 5 },
        { x: marks.pedon!.x, y: marks.pedon!.y },
        { x: marks.pedon!.x + 3, y: marks.pedon!.y - 3 },
      ]);
      expect(near(siteCentre!, rgbOf(marks.site!.colour))).toBe(true);
      expect(near(siteCorner!, rgbOf(marks.site!.colour), 20)).toBe(false);
      expect(near(pedonCentre!, rgbOf("#d0782c"))).toBe(true);
      expect(near(pedonEdge!, rgbOf("#d0782c"))).toBe(true);
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: the first view names what the snapshot covers, as /v1/layers declares it, and an entry flies there with its layer shown`, async () => {
      const layers = (await loam.json("/v1/layers")).body.layers as any[];
      const watched = await open("/map", form);
      const { page } = watched;
      await page.waitForFunction(() => (window as any).loam.placesReady === true, null, { timeout: READY_MS });
      await menu(page, form, true);
      const listed = await page.$$eval("#places-list button[data-kind]", (list) => list.map((b) => ({ id: b.getAttribute("data-place"), text: b.textContent, disabled: (b as HTMLButtonElement).disabled })));
      const expected = layers.flatMap((l) => (l.coverage.places.length ? l.coverage.places.map((p: any) => p.id) : [l.kind]));
      expect(listed.map((p) => p.id)).toEqual(expected);
      for (const p of listed) expect(`${p.id} ${p.disabled}`).toBe(`${p.id} false`);
      const text = listed.map((p) => p.text).join(" | ");
      for (const words of ["IA073", "IA015", "IA183", "MH936", "Majuro", "Kansas", "Conterminous United States"]) expect(text).toContain(words);
      // Seen without scrolling: on a desktop in the first screen, on a phone in the menu.
      for (const button of await page.locator("#places-list button").all()) expect(await button.isVisible()).toBe(true);
      const last = (await page.locator("#places-list li").last().boundingBox())!;
      expect(last.y + last.height).toBeLessThanOrEqual(form.viewport.height);
      await page.screenshot({ path: artifactPath(`first-contact-coverage-${name}.png`) });
      // MH936 is larger than a polygon view: the page flies to its box, then to a view where its polygons are drawn.
      await page.click('#places-list button[data-place="MH936"]');
      await page.waitForFunction(() => (window as any).loam.mapUnitState === "ready" && (window as any).loam.mapUnitRange.count > 0, null, { timeout: READY_MS });
      const mapUnits = (await loam.json(await page.evaluate(() => (window as any).loam.mapUnitUrl))).body.features as any[];
      expect(mapUnits.every((f) => f.properties.area_symbol === "MH936")).toBe(true);
      expect(await page.textContent("#where")).toContain("MH936");
      // The geochemistry entry shows that layer (switched on, active) over its extent.
      await menu(page, form, true);
      await page.click('#places-list button[data-place="sites"]');
      await page.waitForFunction(() => (window as any).loam.geochemState === "ready", null, { timeout: READY_MS });
      expect(await page.isChecked("#layer-sites")).toBe(true);
      expect(await page.textContent("#status")).toMatch(/geochemistry site/);
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: arsenic classes are the national quantiles of every site in the USGS file, the same over Iowa and over Kansas`, async () => {
      const values = fileArsenic();
      const expected = quantileBounds(values);
      const watched = await open("/map#7/42/-93.4", form);
      const { page } = watched;
      await menu(page, form, true);
      await page.click('label[for="layer-sites"]');
      await menu(page, form, false);
      await page.waitForFunction(() => (window as any).loam.geochemState === "ready", null, { timeout: READY_MS });
      const iowa = await legendBounds(page);
      expect(iowa).toEqual(expected);
      expect(await page.textContent(".geo-legend .geo-basis")).toContain(`national quantiles of ${values.length} sites`);
      const iowaUrl: string = await page.evaluate(() => (window as any).loam.geochemUrl);
      await page.evaluate(() => (window as any).loamMap.setView([38.5, -98.3], 7, { animate: false }));
      await page.waitForFunction((before) => (window as any).loam.geochemState === "ready" && (window as any).loam.geochemUrl !== before, iowaUrl, { timeout: READY_MS });
      expect(await legendBounds(page)).toEqual(expected);
      // Each drawn site in Kansas has the colour of its value's national class.
      const classes = await page.$$eval(".geo-legend .class-row", (rows) => rows.map((r) => ({ from: Number(r.getAttribute("data-from")), to: Number(r.getAttribute("data-to")), colour: r.getAttribute("data-colour") })));
      const drawn: any[] = await page.evaluate(() => (window as any).loam.geochem.drawn());
      expect(drawn.length).toBeGreaterThan(20);
      for (const d of drawn.filter((x) => typeof x.value === "number")) {
        const c = classes.find((k, i) => d.value >= k.from && (d.value < k.to || i === classes.length - 1))!;
        expect(`${d.site_id} ${d.colour}`).toBe(`${d.site_id} ${c.colour}`);
      }
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: soil-map classes are fixed from every map unit of the snapshot: the same classes over IA073 and over IA183, covering the whole dataset`, async () => {
      // Every map unit of the places /v1/layers declares, read here in boxes the endpoint accepts (0.25° a side).
      const survey = ((await loam.json("/v1/layers")).body.layers as any[]).find((l) => l.kind === "survey_polygons");
      const values = new Map<string, number>();
      for (const place of survey.coverage.places) {
        const [w, s, e, n] = place.bbox;
        for (let x = w; x < e; x += 0.25)
          for (let y = s; y < n; y += 0.25) {
            const box = [x, y, Math.min(e, x + 0.25), Math.min(n, y + 0.25)].map((v) => Math.round(v * 1e6) / 1e6).join(",");
            const answer = (await loam.json(`/v1/soil/mapunits?bbox=${box}&limit=2000&property=clay&method=weighted_average&depth_top_cm=0&depth_bottom_cm=30`)).body;
            for (const f of answer.features) if (typeof f.properties.summary.value === "number") values.set(f.properties.map_unit_key, f.properties.summary.value);
          }
      }
      const all = [...values.values()];
      expect(all.length).toBeGreaterThan(10);
      const watched = await open("/map#17/41.944131/-94.359608", form);
      const { page } = watched;
      await page.waitForFunction(() => (window as any).loam.mapUnitState === "ready", null, { timeout: READY_MS });
      const rows = () => page.$$eval(".scale-legend .class-row", (list) => list.map((r) => [Number(r.getAttribute("data-from")), Number(r.getAttribute("data-to")), r.getAttribute("data-colour")]));
      const ia073 = await rows();
      expect(ia073[0]![0] as number).toBeLessThanOrEqual(Math.min(...all));
      expect(ia073.at(-1)![1] as number).toBeGreaterThanOrEqual(Math.max(...all));
      expect(await page.textContent(".scale-legend .scale-basis")).toBe(`Classes: every map unit of this instance (${all.length}), the same in every view.`);
      const before: string = await page.evaluate(() => (window as any).loam.mapUnitUrl);
      await page.evaluate(() => (window as any).loamMap.setView([41.30448, -91.81449], 17, { animate: false }));
      await page.waitForFunction((url) => (window as any).loam.mapUnitState === "ready" && (window as any).loam.mapUnitUrl !== url && (window as any).loam.mapUnitRange.count > 0, before, { timeout: READY_MS });
      expect(await rows()).toEqual(ia073);
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: text from the API is never HTML: a hostile layer document and hostile site results are shown as text, and run nothing`, async () => {
      const hostile = `<img src=x onerror="window.__pwned=1">`;
      const watched = await watchedPage(browser, form.viewport, form.device);
      const { page } = watched;
      // Real answers with text replaced in the browser (page.route): nothing reaches the network.
      await page.route((url) => url.pathname === "/v1/layers", async (route) => {
        const body = await (await route.fetch()).json();
        for (const layer of body.layers) {
          layer.title = hostile;
          layer.label = hostile + " " + layer.kind;
          for (const place of layer.coverage.places) place.label = hostile + " " + place.id;
        }
        await route.fulfill({ contentType: "application/json", body: JSON.stringify(body) });
      });
      await page.route((url) => url.pathname === "/v1/geochem/sites" && url.searchParams.has("bbox"), async (route) => {
        const body = await (await route.fetch()).json();
        for (const f of body.features) f.properties.reported_value = hostile;
        await route.fulfill({ contentType: "application/json", body: JSON.stringify(body) });
      });
      await page.goto(loam.base + "/map#7/42/-93.4", { waitUntil: "load" });
      await page.waitForFunction(() => (window as any).loam?.layersState === "ready" && (window as any).loam?.placesReady === true, null, { timeout: READY_MS });
      await menu(page, form, true);
      expect(await page.textContent('label[for="layer-sites"]')).toBe(hostile + " sites");
      expect(await page.textContent("#places-list")).toContain(hostile + " IA073");
      await page.click('label[for="layer-sites"]');
      await menu(page, form, false);
      await page.waitForFunction(() => (window as any).loam.geochemState === "ready", null, { timeout: READY_MS });
      // That site's own tooltip (the pointer left over the map by the menu's click may hover another site).
      const { site, tooltip } = await page.evaluate(() => { const d = (window as any).loam.geochem.drawn()[0]; const marker = (window as any).loam.geochem.marker(d.site_id); marker.openTooltip(); return { site: d.site_id, tooltip: marker.getTooltip().getElement().textContent }; });
      expect(tooltip).toBe(`Site ${site}: ${hostile} mg/kg`);
      expect(await page.locator(".leaflet-tooltip:not(.place-tooltip)", { hasText: `Site ${site}: ` }).textContent()).toBe(`Site ${site}: ${hostile} mg/kg`);
      if (isPhone(form)) await page.click("#legend > summary");
      expect(await page.textContent("#legend")).toContain(hostile);
      // Any image the markup had made would have been asked for by now and failed (its onerror run): the page's requests have settled.
      await page.waitForLoadState("networkidle");
      expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
      expect(await page.locator("img[src=x], #legend img, #layer-list img, #places-list img, .leaflet-tooltip img").count()).toBe(0);
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: status belongs to the active layer or tool: no "Zoom in to see pedons" over geochemistry, and the drawing instruction owns the status line`, async () => {
      const watched = await open("/map#5/39/-96", form);
      const { page } = watched;
      await page.waitForFunction(() => (window as any).loam.pedonState === "zoom", null, { timeout: READY_MS });
      // Pedons active over a view too wide for them: their message.
      expect(await page.isVisible("#zoom-message")).toBe(true);
      expect(await page.textContent("#status")).toContain("Zoom in to see pedons");
      await menu(page, form, true);
      await page.click('label[for="layer-sites"]');
      await page.waitForFunction(() => (window as any).loam.geochemState === "ready", null, { timeout: READY_MS });
      // Geochemistry active: its status, and nothing of the pedons over the map.
      expect(await page.isHidden("#zoom-message")).toBe(true);
      expect(await page.textContent("#status")).toMatch(/\d+ geochemistry sites? in view/);
      expect(await page.textContent('li[data-kind="pedons"] .layer-state')).toContain("Zoom in to see pedons");
      await page.screenshot({ path: artifactPath(`first-contact-status-geochem-${name}.png`) });
      // Drawing: the tool's instruction is the status line, and no layer's message covers the map.
      await page.click("#aoi-rectangle");
      await menu(page, form, false);
      expect(await page.textContent("#status")).toBe("Draw a rectangle: click one corner, then the opposite corner.");
      expect(await page.isHidden("#zoom-message")).toBe(true);
      expect(await page.isHidden("#where")).toBe(true);
      await page.screenshot({ path: artifactPath(`first-contact-status-drawing-${name}.png`) });
      await page.keyboard.press("Escape");
      await page.waitForFunction(() => !(window as any).loam.aoiMode, null, { timeout: READY_MS });
      expect(await page.textContent("#status")).toMatch(/geochemistry site/);
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);
  }
});
