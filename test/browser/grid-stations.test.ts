/**
 * The two layer kinds added in 0.5.0 (issues #35, #36, #39), on a phone (390x844) and a desktop (1440x900):
 * the modeled grid drawn as an image with the API's legend classes (a pixel checked against the clip's
 * value as GDAL reads it), the point panel with modeled values beside the mapped survey's, and the sensor
 * stations as triangles with a station's series chart and its lab pedon beside the sensor depth.
 * Expected values come from GDAL (gdallocationinfo on datasets), and from the API's own answers.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { DATA_DIR } from "../support/server";
import { tool } from "../support/tools";
import { artifactPath, DESKTOP, expectClean, near, PHONE, pixelOf, rgbOf, screenshotPixels, useLoamAndBrowser, watchedPage, type WatchedPage } from "./browser";

const BROWSER_TEST_MS = 90_000;
const { loam, browser } = useLoamAndBrowser();
const gdal = tool("gdallocationinfo", "gdal-bin");
const FORMS = [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const;
/** The clip's cell the brief names: column 101, row 21 of clay 0-5 cm (near -71.6, 18.65). */
const CELL = { column: 101, row: 21 };

async function open(path: string, form: typeof PHONE | typeof DESKTOP): Promise<WatchedPage> {
  const watched = await watchedPage(browser, form.viewport, form.device);
  await watched.page.goto(loam.base + path, { waitUntil: "load" });
  await watched.page.waitForFunction(() => (window as any).loam?.basemapState === "ready" && (window as any).loam?.layersState === "ready" && (window as any).loam?.placesReady === true, null, { timeout: 30_000 });
  return watched;
}
const isPhone = (form: typeof PHONE | typeof DESKTOP) => form.viewport.width < 500;
async function menu(page: Page, form: typeof PHONE | typeof DESKTOP, open: boolean): Promise<void> {
  if (!isPhone(form)) return;
  if ((await page.getAttribute("#menu-toggle", "aria-expanded")) !== String(open)) await page.tap("#menu-toggle");
}

/** The clip's integer at a pixel as GDAL reads it (SoilGrids clay is g/kg; the API serves % = /10). */
function gdalCell(file: string, column: number, row: number): number {
  const run = Bun.spawnSync([gdal!, "-valonly", join(DATA_DIR, "soilgrids/raster", file), String(column), String(row)]);
  return Number(new TextDecoder().decode(run.stdout).trim());
}

describe("the modeled grid and the sensor stations on the map", () => {
  for (const [name, form] of FORMS) {
    test.skipIf(!gdal)(`${name}: the grid's coverage entry flies to the clip and draws it in the API's legend classes (cell 101,21 = GDAL's value); a click there shows modeled values beside the mapped survey, each labelled with its data kind and cell size`, async () => {
      const grid = (await loam.json("/v1/soil/modeled/grid?property=clay&depth=0-5cm")).body;
      const expected = gdalCell("clay_0-5cm_mean.tif", CELL.column, CELL.row) / 10;
      expect(grid.values[CELL.row * grid.width + CELL.column]).toBe(expected);
      const watched = await open("/map", form);
      const { page } = watched;
      await menu(page, form, true);
      await page.click('#places-list button[data-kind="grid"]');
      await page.waitForFunction(() => (window as any).loam.gridState === "ready", null, { timeout: 30_000 });
      expect(await page.isChecked("#layer-grid")).toBe(true);
      // The view is the clip's box.
      const [w, s, e, n] = [grid.origin[0], grid.origin[1] - grid.height * grid.cell_size[1], grid.origin[0] + grid.width * grid.cell_size[0], grid.origin[1]];
      const view = await page.evaluate(() => (window as any).loamMap.getBounds().toBBoxString().split(",").map(Number));
      expect(view[0] <= w && view[1] <= s && view[2] >= e && view[3] >= n).toBe(true);
      expect(view[2] - view[0]).toBeLessThan((e - w) * 4);
      // The picker lists every layer the grid holds; the legend's classes are the API's.
      expect(await page.$$eval("#grid-choice option", (o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual(grid.layers.map((l: any) => `${l.property}|${l.depth}`));
      const classes = await page.$$eval(".grid-legend .class-row", (rows) => rows.map((r) => ({ min: Number(r.getAttribute("data-from")), max: Number(r.getAttribute("data-to")), color: r.getAttribute("data-colour") })));
      expect(classes).toEqual(grid.legend.classes.map((c: any) => ({ min: c.min, max: c.max, color: c.color })));
      // The painted cell: zoomed in on its centre, its pixel is its class's colour.
      const lon = grid.origin[0] + (CELL.column + 0.5) * grid.cell_size[0];
      const lat = grid.origin[1] - (CELL.row + 0.5) * grid.cell_size[1];
      await menu(page, form, false);
      await page.evaluate(([la, lo]) => void (window as any).loamMap.setView([la, lo], 15, { animate: false }), [lat, lon] as const);
      const at = await pixelOf(page, lat, lon);
      const shot = await page.screenshot({ path: artifactPath(`grid-cell-${name}.png`) });
      const [painted] = await screenshotPixels(browser, shot, [at]);
      const cls = grid.legend.classes.find((c: any) => expected >= c.min && expected <= c.max);
      expect(near(painted!, rgbOf(cls.color), 6)).toBe(true);
      // A click there: the modeled part (data kind, 250 m, the value) and the survey part, both labelled.
      const modeled = (await loam.json(`/v1/soil/modeled?latitude=${lat.toFixed(6)}&longitude=${lon.toFixed(6)}&properties=clay,silt`)).body;
      const clay = modeled.observations.find((o: any) => o.property.id === "clay" && o.depth.top_cm === 0);
      expect(clay.value).toBe(expected);
      await page.mouse.click(at.x, at.y);
      await page.waitForSelector(".modeled-part .modeled-row", { timeout: 30_000 });
      const part = (await page.textContent(".modeled-part")) ?? "";
      expect(part).toContain("Data kind: modeled");
      expect(part).toContain(`cell size ${clay.grid_context.resolution_m} m`);
      expect(part).toContain(modeled.observations[0].warnings[0]);
      expect(Number(await page.getAttribute('.modeled-row[data-property="clay"][data-top="0"]', "data-value"))).toBe(expected);
      expect(await page.textContent('.modeled-row[data-property="clay"][data-top="0"]')).toContain(`${expected} %`);
      expect(await page.textContent(".survey-part h3")).toContain("mapped survey");
      // No map unit in the Dominican Republic: the modeled part leads.
      expect(await page.$eval("#panel-body > section", (s) => s.getAttribute("data-kind"))).toBe("modeled");
      await page.screenshot({ path: artifactPath(`grid-panel-${name}.png`) });
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);

    test(`${name}: stations are triangles; 2092:KS:SCAN's panel charts its offline series (y axis from zero, gaps kept) and shows pedon 04N0873's layers beside the 5.08 cm sensor; a station with no offline series says so`, async () => {
      const all = (await loam.json("/v1/stations?limit=1000")).body.features as any[];
      const station = (await loam.json("/v1/stations/2092:KS:SCAN")).body;
      const held = station.station.properties.series_offline[0];
      const series = (await loam.json(`/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=${held.depth_cm}&interval=daily&start=${held.start.slice(0, 10)}&end=${held.end.slice(0, 10)}`)).body;
      const pedon = (await loam.json("/v1/pedons/04N0873?properties=clay")).body;
      const watched = await open("/map", form);
      const { page } = watched;
      await menu(page, form, true);
      await page.click('label[for="layer-stations"]');
      await menu(page, form, false);
      await page.waitForFunction(() => (window as any).loam.stationsState === "ready", null, { timeout: 30_000 });
      const [lon, lat] = station.station.geometry.coordinates;
      await page.evaluate(([la, lo]) => void (window as any).loamMap.setView([la, lo], 9, { animate: false }), [lat, lon] as const);
      expect(await page.locator("path.station-marker").count()).toBe(all.length);
      // A triangle: three corners, none of them a circle's arc.
      const d = await page.evaluate(() => (window as any).loam.stations.marker("2092:KS:SCAN").getElement().getAttribute("d"));
      expect(d).toMatch(/^M[\d.,-]+L[\d.,-]+L[\d.,-]+Z$/);
      expect(await page.locator(".legend .sym-stations").count()).toBeGreaterThan(0);
      const at = await pixelOf(page, lat, lon);
      const shot = await page.screenshot({ path: artifactPath(`stations-${name}.png`) });
      const [centre] = await screenshotPixels(browser, shot, [{ x: at.x, y: at.y + 3 }]);
      expect(near(centre!, rgbOf("#1a6f73"))).toBe(true);

      await page.mouse.click(at.x, at.y + 3);
      await page.waitForSelector(".series-chart .series-line", { timeout: 30_000 });
      await page.waitForSelector(".sensor-depth-chart .pedon-layer", { timeout: 30_000 });
      expect(await page.textContent("#station-name")).toContain("Abrams (2092:KS:SCAN)");
      const body = (await page.textContent("#panel-body")) ?? "";
      for (const disagreement of station.disagreements) expect(body).toContain(disagreement.note);
      expect(body).toContain(`${station.station.properties.elevation_m} m`);
      // The chart: every daily value, the y axis from zero, a new run at each gap.
      const chart = await page.$eval(".series-chart", (svg) => ({
        from: svg.getAttribute("data-y-from"),
        ticks: [...svg.querySelectorAll(".tick-y")].map((t) => ({ value: Number(t.getAttribute("data-value")), y: Number(t.getAttribute("y")) })),
        points: Number(svg.querySelector(".series-line")!.getAttribute("data-points")),
        runs: Number(svg.querySelector(".series-line")!.getAttribute("data-runs")),
        axisY: Number(svg.querySelector(".axis")!.getAttribute("y1")),
      }));
      expect(chart.from).toBe("0");
      expect(chart.ticks[0]!.value).toBe(0);
      expect(chart.ticks[0]!.y).toBe(Math.max(...chart.ticks.map((t) => t.y)));
      expect(chart.points).toBe(series.values.length);
      const days = series.values.map((v: any) => Date.parse(v.time));
      const gaps = days.slice(1).filter((t: number, i: number) => t - days[i]! > 1.5 * 86_400_000).length;
      expect(chart.runs).toBe(gaps + 1);
      // The pedon beside the sensor: its layers with the API's clay, the sensor line inside the layer holding 5.08 cm.
      const layers = await page.$$eval(".sensor-depth-chart .pedon-layer", (gs) => gs.map((g) => ({ top: Number(g.getAttribute("data-top")), bottom: Number(g.getAttribute("data-bottom")), value: Number(g.getAttribute("data-value")), y: Number(g.querySelector("rect")!.getAttribute("y")), h: Number(g.querySelector("rect")!.getAttribute("height")) })));
      expect(layers.map((l) => [l.top, l.bottom, l.value])).toEqual(pedon.layers.map((l: any) => [l.depth.top_cm, l.depth.bottom_cm, l.observations.find((o: any) => o.property.id === "clay").value]));
      const sensorY = Number(await page.$eval(`.sensor-depth[data-depth="${held.depth_cm}"] line`, (l) => l.getAttribute("y1")));
      const holding = layers.find((l) => l.top <= held.depth_cm && held.depth_cm < l.bottom)!;
      expect(sensorY).toBeGreaterThan(holding.y);
      expect(sensorY).toBeLessThan(holding.y + holding.h);
      expect(await page.textContent(".station-pedon")).toContain("04N0873");
      await page.locator(".station-series").scrollIntoViewIfNeeded();
      await page.screenshot({ path: artifactPath(`station-panel-${name}.png`) });
      // A station whose series this instance does not hold: the API's warning.
      const other = all.find((f) => f.properties.series_offline.length === 0)!.properties.station_triplet;
      const missing = (await loam.json(`/v1/stations/${other}/series?element=soil_moisture&depth_cm=5.08&interval=daily`)).body;
      const warning = missing.warnings.find((w: string) => w.includes("holds no"));
      expect(warning).toBeTruthy();
      await page.evaluate((t) => (window as any).loam.openStation(t), other);
      await page.waitForSelector(".series-missing", { timeout: 30_000 });
      expect(await page.textContent(".series-missing")).toContain(warning);
      expectClean(watched);
      await watched.close();
    }, BROWSER_TEST_MS);
  }
});
