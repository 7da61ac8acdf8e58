/**
 * The soil map of the map page (real Chromium, real Loam on the snapshot): one documented click ("Go to
 * the soil map") shows IA073's map-unit polygons from GET /v1/soil/mapunits, coloured by clay 0–30 cm
 * weighted average. The test asks the API for the same collection and checks what is painted against
 * it: colours of at least three map units, the legend's range and unit, and a polygon click's panel.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { knownPoints } from "../location/known-answers";
import { contains, edgeDistance } from "../support/geometry";
import { artifactPath, pixelOf, useLoamAndBrowser, watchedPage } from "./browser";

const BROWSER_TEST_MS = 60_000;
const { loam, browser } = useLoamAndBrowser();



/** A point well inside the feature (grid search over its box, farthest from any edge), inside `view`. */
function interiorPoint(feature: any, view: number[]): { lon: number; lat: number } | null {
  const coords: number[][] = (feature.geometry.type === "Polygon" ? [feature.geometry.coordinates] : feature.geometry.coordinates).flat(2);
  const xs = coords.map((p) => p[0]!), ys = coords.map((p) => p[1]!);
  const [w, s, e, n] = [Math.max(Math.min(...xs), view[0]!), Math.max(Math.min(...ys), view[1]!), Math.min(Math.max(...xs), view[2]!), Math.min(Math.max(...ys), view[3]!)];
  let best: { lon: number; lat: number; d: number } | null = null;
  for (let i = 1; i < 30; i++)
    for (let j = 1; j < 30; j++) {
      const lon = w + ((e - w) * i) / 30, lat = s + ((n - s) * j) / 30;
      if (!contains(feature.geometry, lon, lat)) continue;
      const d = edgeDistance(feature.geometry, lon, lat);
      if (!best || d > best.d) best = { lon, lat, d };
    }
  return best && best.d > 0.00004 ? best : null;
}

/** The RGB of the map-unit canvas at a lat/lon (only polygons are drawn on it). */
async function canvasColour(page: Page, lat: number, lon: number): Promise<number[]> {
  return page.evaluate(
    ([la, lo]) => {
      const map = (window as any).loamMap;
      const canvas = map.getPane("mapunits").querySelector("canvas") as HTMLCanvasElement;
      const at = map.latLngToContainerPoint([la, lo]);
      const box = map.getContainer().getBoundingClientRect();
      const c = canvas.getBoundingClientRect();
      const x = Math.round(box.left + at.x - c.left), y = Math.round(box.top + at.y - c.top);
      return [...canvas.getContext("2d")!.getImageData(x, y, 1, 1).data];
    },
    [lat, lon] as const,
  );
}

/** The legend's classes as drawn: [from, to) bounds as written, and the swatch colour. */
async function legendClasses(page: Page): Promise<{ from: number; to: number; colour: string; text: string }[]> {
  return page.$$eval(".scale-legend .class-row", (rows) =>
    rows.map((r) => ({ from: Number(r.getAttribute("data-from")), to: Number(r.getAttribute("data-to")), colour: r.getAttribute("data-colour")!, text: r.textContent ?? "" })),
  );
}

/** The class a value falls in: [from, to), the last one closed. */
function classOf(classes: { from: number; to: number; colour: string }[], value: number) {
  return classes.find((c, i) => value >= c.from && (value < c.to || i === classes.length - 1));
}

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

describe("the soil map (GET /v1/soil/mapunits drawn as a choropleth)", () => {
  test("one click shows IA073's polygons coloured by clay 0–30 cm weighted average; legend = the data's range; a polygon click opens L138B (Clarion 85 %)", async () => {
    const l138b = knownPoints().find((p) => p.area === "IA073-aoi" && p.musym === "L138B")!;
    const watched = await watchedPage(browser);
    const { page } = watched;
    await page.goto(`${loam.base}/map`, { waitUntil: "load" });
    await page.waitForFunction(() => (window as any).loam?.basemapState === "ready" && (window as any).loam.mapUnitState === "zoom", null, { timeout: 20_000 });
    // The first screen (Kansas pedons) offers the pedons in view as CSV.
    const pedonsCsv = (await page.getAttribute("#pedons-csv", "href"))!;
    expect(await page.isVisible("#pedons-csv")).toBe(true);
    expect(pedonsCsv).toMatch(/^\/v1\/pedons\?bbox=.*&format=csv$/);
    const csv = await fetch(loam.base + pedonsCsv);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");

    // The one documented click.
    expect(await page.textContent("#go-soil-map")).toBe("Go to the soil map: IA073 (Iowa)");
    await page.click("#go-soil-map");
    await page.waitForFunction(() => (window as any).loam.mapUnitState === "ready", null, { timeout: 20_000 });
    const url: string = await page.evaluate(() => (window as any).loam.mapUnitUrl);
    expect(url).toMatch(/^\/v1\/soil\/mapunits\?bbox=[-0-9.,]+&limit=2000&property=clay&method=weighted_average&depth_top_cm=0&depth_bottom_cm=30$/);
    const view = url.split("bbox=")[1]!.split("&")[0]!.split(",").map(Number);

    // The same collection from the API.
    const { status, body } = await loam.json(url);
    expect(status).toBe(200);
    const features = body.features as any[];
    const values = features.map((f) => f.properties.summary.value).filter((v): v is number => typeof v === "number");
    const min = Math.min(...values), max = Math.max(...values);
    expect(new Set(values).size).toBeGreaterThanOrEqual(3);
    expect(await page.evaluate(() => (window as any).loam.mapUnitRange)).toEqual({ count: features.length, min, max, unit: "%" });
    // A classed legend with round bounds covering the values in view, the unit on every class.
    const classes = await legendClasses(page);
    expect(classes.length).toBeGreaterThanOrEqual(2);
    expect(classes.length).toBeLessThanOrEqual(7);
    expect(classes[0]!.from).toBeLessThanOrEqual(min);
    expect(classes.at(-1)!.to).toBeGreaterThanOrEqual(max);
    for (const c of classes) {
      expect(c.text).toMatch(/^-?\d+(\.\d{1,2})?–-?\d+(\.\d{1,2})? %$/);
      expect(c.to).toBeGreaterThan(c.from);
    }
    for (let i = 1; i < classes.length; i++) expect(classes[i]!.from).toBe(classes[i - 1]!.to);
    // The range in view, to one decimal more than the classes (never the data's 9 digits).
    expect(Math.abs(Number(await page.textContent(".scale-legend .scale-min")) - min)).toBeLessThan(0.5);
    expect(await page.textContent(".scale-legend .scale-max")).toMatch(/^\d+(\.\d)? %$/);
    const catalog = (await loam.json("/v1/properties")).body.properties as { id: string; name: string }[];
    const nameOf = (id: string) => catalog.find((p) => p.id === id)!.name;
    expect(await page.textContent(".scale-legend .legend-title")).toBe(`${nameOf("clay")}, 0–30 cm, weighted average of components (%)`);
    expect(await page.textContent("#mu-state")).toBe(`${features.length} map-unit polygons in view.`);

    // Zoomed in (17), the map-unit symbols are written on the polygons: each label is a symbol of the collection.
    const labels = await page.locator(".mu-label span").allTextContents();
    const symbols = new Set(features.map((f) => f.properties.map_unit_symbol));
    expect(labels.length).toBeGreaterThanOrEqual(3);
    for (const label of labels) expect(symbols.has(label)).toBe(true);
    // Export of the view: the API's own answers for the drawn box (GeoJSON as drawn, and CSV).
    expect(await page.getAttribute("#mu-geojson", "href")).toBe(url);
    const exported = await fetch(loam.base + (await page.getAttribute("#mu-csv", "href"))!);
    expect(exported.headers.get("content-type")).toContain("text/csv");
    const csvRows = (await exported.text()).trim().split("\n");
    expect(csvRows.length - 1).toBe(features.length);

    // What is painted inside each of at least three map units is the colour of the legend class of its API value.
    await page.waitForTimeout(400);
    const checked = new Set<string>();
    for (const f of features) {
      const key = f.properties.map_unit_key;
      if (checked.has(key) || typeof f.properties.summary.value !== "number") continue;
      const inside = interiorPoint(f, view);
      if (!inside) continue;
      // The polygons' own canvas holds the fill colour at fillOpacity 0.75 (alpha 191), un-premultiplied.
      const expected = rgb(classOf(classes, f.properties.summary.value)!.colour);
      const got = await canvasColour(page, inside.lat, inside.lon);
      expected.forEach((v, i) => expect(Math.abs(got[i]! - v)).toBeLessThanOrEqual(3));
      expect(Math.abs(got[3]! - 191)).toBeLessThanOrEqual(2);
      checked.add(key);
    }
    expect(checked.size).toBeGreaterThanOrEqual(3);
    // At least two classes are painted: the classes tell polygons apart.
    expect(new Set(features.map((f) => classOf(classes, f.properties.summary.value)?.colour)).size).toBeGreaterThanOrEqual(2);
    await page.screenshot({ path: artifactPath("map-soil-map-IA073-clay.png") });

    // A click inside L138B's polygon opens its map unit from GET /v1/soil/mapunits/{key}.
    const at = await pixelOf(page, l138b.lat, l138b.lon);
    await page.mouse.click(at.x, at.y);
    await page.waitForSelector(".map-unit-summaries tbody tr", { timeout: 20_000 });
    expect(await page.textContent("#panel-title")).toBe("Map unit L138B");
    expect(await page.textContent(".map-unit-name")).toBe(`Map unit ${l138b.musym}: ${l138b.muname}`);
    const first = await page.locator(".map-unit-components tbody tr").first().locator("th, td").allTextContents();
    expect(first.slice(0, 3)).toEqual([l138b.component, `${l138b.comppct} %`, "Series"]);
    expect(`${first[0]} ${first[1]}`).toBe("Clarion 85 %");
    const l138bValue = features.find((f) => f.properties.map_unit_key === l138b.mukey).properties.summary.value;
    const summary = await page.locator(".map-unit-summaries tbody tr").first().locator("th, td").allTextContents();
    const unit = (await loam.json(`/v1/soil/mapunits/${l138b.mukey}?properties=clay&method=weighted_average&depth_top_cm=0&depth_bottom_cm=30`)).body;
    expect(unit.summaries[0].value).toBe(l138bValue);
    expect(summary).toEqual([unit.summaries[0].property.name, `${l138bValue} %`, "weighted average of components", "0–30", expect.stringMatching(/ %$/)]);
    // The clicked polygon is outlined (its map unit's polygons in the selection layer).
    const selected = await page.evaluate(() => (window as any).loam.mapUnits.selected());
    expect(selected.key).toBe(l138b.mukey);
    expect(selected.polygons).toBe(features.filter((f) => f.properties.map_unit_key === l138b.mukey).length);
    expect(await page.locator("path.mu-selected").count()).toBe(selected.polygons);
    expect(watched.requests.some((u) => u.includes(`/v1/soil/mapunits/${l138b.mukey}?properties=clay&method=weighted_average&depth_top_cm=0&depth_bottom_cm=30`))).toBe(true);
    expect(watched.requests.some((u) => u.includes("/v1/soil/location"))).toBe(false);
    await page.waitForTimeout(300);
    await page.screenshot({ path: artifactPath("map-mapunit-panel-L138B.png") });

    // Another choice redraws: sand 0–100 cm dominant component, legend from that collection.
    await page.selectOption("#mu-property", "sand");
    await page.waitForFunction(() => (window as any).loam.mapUnitState === "ready" && (window as any).loam.mapUnitUrl.includes("property=sand"), null, { timeout: 20_000 });
    await page.selectOption("#mu-depth", "0-100");
    await page.selectOption("#mu-method", "dominant_component");
    await page.waitForFunction(() => /property=sand&method=dominant_component&depth_top_cm=0&depth_bottom_cm=100$/.test((window as any).loam.mapUnitUrl) && (window as any).loam.mapUnitState === "ready", null, { timeout: 20_000 });
    const sand = await loam.json(await page.evaluate(() => (window as any).loam.mapUnitUrl));
    const sandValues = (sand.body.features as any[]).map((f) => f.properties.summary.value).filter((v): v is number => typeof v === "number");
    const sandClasses = await legendClasses(page);
    expect(sandClasses[0]!.from).toBeLessThanOrEqual(Math.min(...sandValues));
    expect(sandClasses.at(-1)!.to).toBeGreaterThanOrEqual(Math.max(...sandValues));
    expect(await page.textContent(".scale-legend .legend-title")).toBe(`${nameOf("sand")}, 0–100 cm, dominant component (%)`);

    expect(watched.errors).toEqual([]);
    expect(watched.foreign()).toEqual([]);
    await watched.close();
  }, BROWSER_TEST_MS);
});
