/**
 * The map-unit choropleth layer and panel of the map page (issue 16), before GET /v1/soil/mapunits
 * exists: the page's own layer (window.loam.mapUnits) draws a FeatureCollection of the shape that
 * endpoint will answer, built here from the real IA073 polygons of the test snapshot, each summarized
 * by SSURGO's own muaggatt.aws025wta (available water storage 0–25 cm, weighted average, cm).
 * The polygon click's panel is answered in the browser (page.route) with the DESIGN body of
 * GET /v1/soil/mapunits/{key}, built from the snapshot's mapunit and component rows.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import type { Page } from "playwright-core";
import { decodeRings } from "../../src/snapshot/geometry";
import { testSnapshot } from "../support/server";
import { knownPoints } from "../location/known-answers";
import { artifactPath, useLoamAndBrowser, watchedPage } from "./browser";

const BROWSER_TEST_MS = 45_000;
const { loam, browser } = useLoamAndBrowser();

interface Row {
  id: number;
  mukey: string;
  musym: string;
  muname: string;
  areasymbol: string;
  aws025wta: number | null;
  rings: Uint8Array;
}

async function ia073() {
  const db = new Database(await testSnapshot(), { readonly: true });
  try {
    const rows = db
      .query<Row, []>(
        `SELECT p.id, p.mukey, p.musym, m.muname, p.areasymbol, a.aws025wta, p.rings
         FROM mupolygon p JOIN mapunit m ON m.mukey = p.mukey LEFT JOIN muaggatt a ON a.mukey = p.mukey
         WHERE p.areasymbol = 'IA073' ORDER BY p.id`,
      )
      .all();
    const components = db
      .query<{ mukey: string; cokey: string; compname: string; comppct_r: number; compkind: string; majcompflag: string }, []>(
        "SELECT mukey, cokey, compname, comppct_r, compkind, majcompflag FROM component WHERE mukey IN (SELECT mukey FROM mupolygon WHERE areasymbol = 'IA073')",
      )
      .all();
    const collection = {
      type: "FeatureCollection",
      features: rows.map((r) => ({
        type: "Feature",
        id: String(r.id),
        geometry: { type: "Polygon", coordinates: decodeRings(r.rings) },
        properties: { map_unit_key: r.mukey, map_unit_symbol: r.musym, map_unit_name: r.muname, area_symbol: r.areasymbol, summary: { value: r.aws025wta, category: null, unit: "cm" } },
      })),
    };
    return { rows, components, collection };
  } finally {
    db.close();
  }
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

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const luminance = (hex: string) => rgb(hex).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);

describe("map-unit choropleth (layer ready for GET /v1/soil/mapunits)", () => {
  test("IA073 polygons coloured by their values, legend range = the data's, a polygon click opens the map-unit panel (L138B, Clarion 85 %)", async () => {
    const { rows, components, collection } = await ia073();
    const values = rows.map((r) => r.aws025wta).filter((v): v is number => v !== null);
    const byKey = new Map(rows.map((r) => [r.mukey, r.aws025wta]));
    expect(new Set(values).size).toBeGreaterThanOrEqual(3);
    const l138b = knownPoints().find((p) => p.area === "IA073-aoi" && p.musym === "L138B")!;
    const l55 = knownPoints().find((p) => p.area === "IA073-aoi" && p.musym === "L55")!;

    const watched = await watchedPage(browser);
    const { page } = watched;
    await page.goto(`${loam.base}/map#17/${l138b.lat}/${l138b.lon}`, { waitUntil: "load" });
    await page.waitForFunction(() => (window as any).loam?.basemapState === "ready" && (window as any).loam.mapUnits, null, { timeout: 20_000 });
    // Switched off until the endpoint exists: no request for it.
    expect(await page.evaluate(() => (window as any).loam.mapUnitState)).toBe("off");
    const range = await page.evaluate((c) => (window as any).loam.mapUnits.show(c, { name: "Available water storage", unit: "cm" }), collection);
    expect(range).toEqual({ count: rows.length, min: Math.min(...values), max: Math.max(...values), unit: "cm" });

    // The legend states the data's range and unit.
    expect(await page.textContent(".scale-legend .scale-min")).toBe(String(Math.min(...values)));
    expect(await page.textContent(".scale-legend .scale-max")).toBe(`${Math.max(...values)} cm`);
    expect(await page.textContent(".scale-legend .legend-title")).toBe("Available water storage (cm)");

    // Colours follow the values: the least is the lightest, the greatest the darkest, and a larger value is never lighter.
    const colours: { value: number; colour: string }[] = await page.evaluate(
      (features) => features.map((f: any) => ({ value: f.properties.summary.value, colour: (window as any).loam.mapUnits.colourOf(f.id) })),
      collection.features.filter((f) => f.properties.summary.value !== null),
    );
    const sorted = [...colours].sort((a, b) => a.value - b.value);
    expect(sorted[0]!.colour).toBe("#ffffd4");
    expect(sorted.at(-1)!.colour).toBe("#8c2d04");
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]!.value > sorted[i - 1]!.value) expect(luminance(sorted[i]!.colour)).toBeLessThan(luminance(sorted[i - 1]!.colour));
      else expect(sorted[i]!.colour).toBe(sorted[i - 1]!.colour);
    }
    // What is painted at two known points is the colour of their map unit's value (L138B 5.12 cm, L55 5.21 cm).
    await page.waitForTimeout(300);
    for (const point of [l138b, l55]) {
      const expected = colours.find((c) => c.value === byKey.get(point.mukey))!.colour;
      const painted = await canvasColour(page, point.lat, point.lon);
      rgb(expected).forEach((v, i) => expect(Math.abs(painted[i]! - v)).toBeLessThanOrEqual(3));
    }
    await page.screenshot({ path: artifactPath("map-mapunits-IA073-choropleth.png") });

    // A click inside L138B's polygon opens its map unit from GET /v1/soil/mapunits/{key}.
    const asked: string[] = [];
    await page.route((url) => url.pathname === `/v1/soil/mapunits/${l138b.mukey}`, (route) => {
      asked.push(route.request().url());
      const unit = rows.find((r) => r.mukey === l138b.mukey)!;
      return route.fulfill({
        contentType: "application/json",
        body: JSON.stringify({
          api_version: "0.3.0",
          status: "experimental",
          data_kind: "derived",
          map_unit: {
            provider: "usda_ssurgo",
            area_symbol: unit.areasymbol,
            map_unit_key: unit.mukey,
            map_unit_symbol: unit.musym,
            map_unit_name: unit.muname,
            components: components
              .filter((c) => c.mukey === unit.mukey)
              .map((c) => ({ component_key: c.cokey, component_name: c.compname, component_kind: c.compkind, component_percent: c.comppct_r, major_component: c.majcompflag.trim() === "Yes" })),
          },
          summaries: [
            {
              property: { id: "available_water_storage", name: "Available water storage" },
              method: "weighted_average",
              value: unit.aws025wta,
              category: null,
              unit: "cm",
              depth: { top_cm: 0, bottom_cm: 25 },
              percent_of_map_unit: 100,
              warnings: ["<b>a summary warning</b>"],
            },
          ],
          warnings: ["Mapped survey data are not a laboratory observation"],
        }),
      });
    });
    const at = await page.evaluate(([la, lo]) => {
      const map = (window as any).loamMap;
      const p = map.latLngToContainerPoint([la, lo]);
      const r = map.getContainer().getBoundingClientRect();
      return { x: r.left + p.x, y: r.top + p.y };
    }, [l138b.lat, l138b.lon] as const);
    await page.mouse.click(at.x, at.y);
    await page.waitForSelector(".map-unit-components tbody tr", { timeout: 20_000 });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("method=weighted_average");
    expect(await page.textContent("#panel-title")).toBe("Map unit L138B");
    expect(await page.textContent(".map-unit-name")).toBe(`Map unit ${l138b.musym}: ${l138b.muname}`);
    const first = await page.locator(".map-unit-components tbody tr").first().locator("th, td").allTextContents();
    expect(first).toEqual([l138b.component, `${l138b.comppct} %`, "Series", "yes"]);
    expect(await page.locator(".map-unit-components tbody tr").count()).toBe(components.filter((c) => c.mukey === l138b.mukey).length);
    const summary = await page.locator(".map-unit-summaries tbody tr").first().locator("th, td").allTextContents();
    expect(summary).toEqual(["Available water storage", `${byKey.get(l138b.mukey)} cm`, "weighted_average", "0–25", "100 %"]);
    // API text stays text.
    expect(await page.textContent(".summary-warnings li")).toBe("<b>a summary warning</b>");
    expect(await page.locator("#panel-body b").count()).toBe(0);
    // No point query was sent for this click: the polygon took it.
    expect(watched.requests.some((url) => url.includes("/v1/soil/location"))).toBe(false);
    await page.waitForTimeout(300);
    await page.screenshot({ path: artifactPath("map-mapunit-panel-L138B.png") });
    expect(watched.errors).toEqual([]);
    expect(watched.foreign()).toEqual([]);
    await watched.close();
  }, BROWSER_TEST_MS);
});
