/**
 * Issue 37, item 5 (docs/decisions.md#pages-text): no data value is ever inserted into a page as HTML.
 * The geochemistry layer passed a string built from the site's values to Leaflet's bindTooltip, which
 * inserts HTML: a hostile file at GEOCHEM_URL put a real <img> (running its onerror) and an off-site
 * link into the map page. Here Loam runs in live mode against a stand-in on 127.0.0.1 serving the real
 * DS 801 file with site 3560's arsenic cell, state and land cover replaced by markup; hovering and
 * clicking the site must show that markup as text, and no element of it may exist in the page.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SdaTransport } from "../../src/upstream/sda/client";
import { DATA_DIR, startLoam, type RunningLoam } from "../support/server";
import { BROWSER_TEST_MS, DESKTOP, pixelOf, READY_MS, useBrowser, watchedPage } from "./browser";

const IMG = `<img src=x onerror="window.__pwned=1">`;
const LINK = `<a href=http://evil.example>evil</a>`;
const LAND = `<img src=x onerror="window.__pwned=2">`;
const SITE = "3560";

let server: ReturnType<typeof Bun.serve>;
let loam: RunningLoam;
const browser = useBrowser();
let site: { lat: number; lon: number };

/** The real file with three cells of one site's row replaced (same columns, same row count). */
function hostileFile(): Uint8Array<ArrayBuffer> {
  const lines = readFileSync(join(DATA_DIR, "geochem/Appendix_2b_Top5_18Sept2013.txt"), "latin1").split("\r\n");
  const headerAt = lines.findIndex((line) => line.startsWith("Top5_LabID\t"));
  const header = lines[headerAt]!.split("\t");
  const col = (name: string) => header.indexOf(name);
  const out = lines.map((line, i) => {
    const cells = line.split("\t");
    if (i <= headerAt + 1 || cells[col("SiteID")] !== SITE) return line;
    site = { lat: Number(cells[col("Latitude")]), lon: Number(cells[col("Longitude")]) };
    cells[col("Top5_As")] = IMG;
    cells[col("StateID")] = LINK;
    cells[col("LandCover1")] = LAND;
    return cells.join("\t");
  });
  return new Uint8Array(Buffer.from(out.join("\r\n"), "latin1"));
}

beforeAll(async () => {
  const body = hostileFile();
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(body, { headers: { "content-type": "text/plain" } }) });
  loam = await startLoam({
    // SDA is not reachable (port 9): only the geochemistry layer is used.
    source: new SdaTransport({ url: "http://127.0.0.1:9/Tabular/post.rest", timeoutMs: 500 }),
    env: { LOAM_UPSTREAM: "sda", GEOCHEM_URL: `http://127.0.0.1:${server.port}/ds/801/downloads/Appendix_2b_Top5_18Sept2013.txt`, LOAM_DATA_DIR: DATA_DIR },
  });
}, READY_MS);
afterAll(async () => {
  await loam?.stop();
  server?.stop(true);
});

/** Elements the data's markup would have made, anywhere in the page. */
const injected = (page: import("playwright-core").Page) =>
  page.evaluate(() => ({
    images: document.querySelectorAll('img[src="x"], img[onerror]').length,
    links: document.querySelectorAll('a[href^="http://evil.example"]').length,
    pwned: (window as any).__pwned ?? null,
  }));

describe("a hostile geochemistry file", () => {
  test("its markup shows as text in the site's tooltip and panel; no <img> or <a> of it exists in the page", async () => {
    // The API serves the cells as they are (the page must not trust them).
    const api = await loam.json(`/v1/geochem/sites/${SITE}?properties=arsenic`);
    expect(api.status).toBe(200);
    expect(api.body.observations[0].reported_value).toBe(IMG);

    const watched = await watchedPage(browser, DESKTOP.viewport, DESKTOP.device);
    const { page } = watched;
    await page.goto(`${loam.base}/map`, { waitUntil: "load" });
    await page.waitForSelector('#places-list button[data-kind="sites"]', { timeout: READY_MS });
    await page.click('#places-list button[data-kind="sites"]');
    await page.waitForFunction(() => (window as any).loam.geochemState === "ready", null, { timeout: READY_MS });
    await page.evaluate(([la, lo]) => (window as any).loamMap.setView([la, lo], 9, { animate: false }), [site.lat, site.lon] as const);
    await page.waitForFunction((id) => (window as any).loam.geochemState === "ready" && (window as any).loam.geochem.marker(Number(id)), SITE, { timeout: READY_MS });

    // Hover: the tooltip names the site and its reported value, as text.
    const at = await pixelOf(page, site.lat, site.lon);
    await page.mouse.move(at.x, at.y);
    await page.waitForSelector(".leaflet-tooltip:not(.place-tooltip)", { timeout: READY_MS });
    expect(await page.textContent(".leaflet-tooltip:not(.place-tooltip)")).toContain(`Site ${SITE}: ${IMG}`);
    expect(await injected(page)).toEqual({ images: 0, links: 0, pwned: null });

    // Click: the panel shows the cells as text too.
    await page.mouse.click(at.x, at.y);
    await page.waitForSelector("#geo-elements tbody tr", { timeout: READY_MS });
    const panel = (await page.textContent("#panel-body")) ?? "";
    expect(panel).toContain(IMG);
    expect(panel).toContain(LINK);
    expect(panel).toContain(LAND);
    expect(await injected(page)).toEqual({ images: 0, links: 0, pwned: null });
    expect(watched.foreign()).toEqual([]);
    await watched.close();
  }, BROWSER_TEST_MS);
});
