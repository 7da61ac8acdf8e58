/**
 * A second provider's map layer is first-class (issue 48, docs/decisions.md#provider-links): registered
 * with one line beside the defaults, a second station network and a second sample-site provider each get
 * a layer of their own on the map page, which reads the endpoint GET /v1/layers gives that layer (its
 * `?provider=<id>`), draws that provider's symbols and opens that provider's details, while the default's
 * layer of the same kind draws the default's. Expected values come from the fixture's own records and
 * from the API's answers for the same URLs.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { fixtureStations, STATIONS, STATION } from "../fixtures/fixture_stations";
import { fixtureSites } from "../fixtures/fixture_copy";
import { artifactPath, BROWSER_TEST_MS, expectClean, pixelOf, READY_MS, useLoamAndBrowser, watchedPage, type WatchedPage } from "./browser";

const { loam, browser } = useLoamAndBrowser({ providers: [...DEFAULT_PROVIDERS, fixtureStations, fixtureSites] });
const WAIT = { timeout: READY_MS };

async function open(path: string): Promise<WatchedPage> {
  const watched = await watchedPage(browser);
  await watched.page.goto(loam.base + path, { waitUntil: "load" });
  await watched.page.waitForFunction(() => (window as any).loam?.basemapState === "ready" && (window as any).loam?.layersState === "ready" && (window as any).loam?.placesReady === true, null, WAIT);
  return watched;
}

/** The /v1/layers entry of a provider, and the page's key for its layer (its kind and id: the default keeps the kind). */
async function layerOf(id: string): Promise<{ entry: any; key: string }> {
  const { body } = await loam.json("/v1/layers");
  const entry = body.layers.find((layer: { id: string }) => layer.id === id);
  expect(entry.endpoint).toContain(`provider=${id}`);
  return { entry, key: `${entry.kind}-${id}` };
}

/** The paths (with query) of the page's requests to a route: its list endpoint and its details. */
const pathsTo = (watched: WatchedPage, prefix: string) =>
  watched.requests.map((url) => new URL(url)).filter((url) => url.pathname.startsWith(prefix)).map((url) => url.pathname + url.search);

/** The layer's own checkbox: named with its provider's title, switched on. */
async function switchOn(page: Page, entry: any, key: string): Promise<void> {
  expect(await page.getAttribute(`#layer-${key}`, "data-provider")).toBe(entry.id);
  expect(await page.textContent(`label[for="layer-${key}"]`)).toBe(`${entry.label} (${entry.title})`);
  expect(await page.isChecked(`#layer-${key}`)).toBe(false);
  await page.check(`#layer-${key}`);
}

describe("a second provider's map layer", () => {
  test("a second station network: its layer reads its own endpoint, draws its own stations and opens its own station and series", async () => {
    const { entry, key } = await layerOf(fixtureStations.id);
    const listUrl = `${entry.endpoint}&limit=1000`;
    const api = (await loam.json(listUrl)).body.features as any[];
    expect(api.map((f) => f.properties.station_triplet).sort()).toEqual(STATIONS.map((s) => s.properties.station_triplet).sort());
    const watched = await open(`/map#9/${STATION.latitude}/${STATION.longitude}`);
    const { page } = watched;
    await switchOn(page, entry, key);
    await page.waitForFunction((k) => (window as any).loam.layers[k]?.stationsState === "ready", key, WAIT);
    // Every station request was the second provider's (the default's layer is off); its own stations are drawn.
    expect(await page.isChecked("#layer-stations")).toBe(false);
    expect(pathsTo(watched, "/v1/stations")).toEqual([listUrl]);
    const drawn = await page.evaluate((k) => (window as any).loam.layers[k].stations.items().map((item: { key: string }) => item.key).sort(), key);
    expect(drawn).toEqual(api.map((f) => String(f.properties.station_triplet)).sort());
    expect(await page.locator(`.leaflet-stations-${key}-pane path.station-marker`).count()).toBeGreaterThan(0);
    expect(await page.textContent(`#legend .legend-layer[data-kind="stations"]:not([hidden]) .legend-layer-source`)).toBe(entry.title);

    // A click on its triangle opens its station at its detail endpoint, and the series the station's own link names.
    const at = await pixelOf(page, STATION.latitude, STATION.longitude);
    await page.mouse.click(at.x, at.y + 3);
    await page.waitForFunction((k) => (window as any).loam.layers[k].stationPanel === "abrams-1", key, WAIT);
    const triplet = STATION.properties.station_triplet;
    const detail = entry.detail_endpoint.replace("{station_triplet}", triplet);
    const station = (await loam.json(detail)).body;
    expect(station.provider).toBe(entry.id);
    expect(await page.textContent("#station-name")).toContain(`${STATION.properties.name} (${triplet})`);
    const series = pathsTo(watched, "/v1/stations/").filter((path) => path !== detail);
    expect(pathsTo(watched, "/v1/stations/")[0]).toBe(detail);
    expect(series).toHaveLength(1);
    expect(series[0]).toStartWith(`/v1/stations/${triplet}/series?provider=${entry.id}&`);
    expect(await page.getAttribute('#panel-body a:text-is("Station JSON")', "href")).toBe(detail);
    expect(await page.getAttribute('#panel-body a:text-is("Series JSON")', "href")).toBe(series[0]!);
    await page.screenshot({ path: artifactPath("second-provider-stations.png") });

    // The default's layer beside it draws the default's stations, none of the second's.
    await page.check("#layer-stations");
    await page.waitForFunction(() => (window as any).loam.stationsState === "ready", null, WAIT);
    const defaults = (await loam.json("/v1/stations?limit=1000")).body.features.map((f: any) => String(f.properties.station_triplet)).sort();
    expect(await page.evaluate(() => (window as any).loam.stations.items().map((item: { key: string }) => item.key).sort())).toEqual(defaults);
    expect(defaults).not.toContain(triplet);
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);

  test("a second sample-site provider: its layer reads its own endpoint for the view, draws its answer and opens its own site", async () => {
    const { entry, key } = await layerOf(fixtureSites.id);
    const watched = await open("/map#8/39.0/-95.7");
    const { page } = watched;
    await switchOn(page, entry, key);
    await page.waitForFunction((k) => (window as any).loam.layers[k]?.geochemState === "ready", key, WAIT);
    const url: string = await page.evaluate((k) => (window as any).loam.layers[k].geochemUrl, key);
    expect(url).toStartWith(`${entry.endpoint}&bbox=`);
    // Every request for sites (the view's and the element's classes over all sites) was the second provider's.
    const asked = pathsTo(watched, "/v1/geochem/sites");
    expect(asked).toContain(url);
    for (const path of asked) expect(new URL(path, loam.base).searchParams.get("provider")).toBe(entry.id);
    const answer = (await loam.json(url)).body;
    expect(answer.provider).toBe(entry.id);
    const ids = answer.features.map((f: any) => String(f.properties.site_id)).sort();
    expect(ids.length).toBeGreaterThan(0);
    expect(await page.evaluate((k) => (window as any).loam.layers[k].geochem.items().map((item: { key: string }) => item.key).sort(), key)).toEqual(ids);
    expect(await page.locator(`.leaflet-geochem-${key}-pane path`).count()).toBe(ids.length);

    // Opened from the list of what is in view: the site at the layer's detail endpoint, its raw row the provider's own.
    const site = ids[0]!;
    await page.click(`#in-view-lists ul[data-kind="${key}"] button[data-key="${site}"]`);
    await page.waitForFunction((title) => document.querySelector("#panel-title")?.textContent === title, `Geochemistry site ${site}`, WAIT);
    const detail = entry.detail_endpoint.replace("{site_id}", site);
    await page.waitForSelector('#panel-body a:text-is("Site JSON")', WAIT);
    expect(pathsTo(watched, "/v1/geochem/sites/")).toEqual([detail]);
    expect(await page.getAttribute('#panel-body a:text-is("Site JSON")', "href")).toBe(detail);
    expect(await page.getAttribute('#panel-body a:text-is("Raw file row")', "href")).toBe(`/v1/providers/${entry.id}/raw/sites/${site}`);
    expect((await loam.json(detail)).body.provider).toBe(entry.id);
    await page.screenshot({ path: artifactPath("second-provider-sites.png") });
    expectClean(watched);
    await watched.close();
  }, BROWSER_TEST_MS);
});
