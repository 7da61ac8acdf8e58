/**
 * `geochemSitesPage` (src/geochem/service.ts), the walk the OGC API collection `geochem_sites` pages
 * with its own cursors: sites in a box after a site id, at most `limit`, flat string and number
 * properties. Called as that feature calls it, over the test snapshot; expected values from the
 * test's own reading of the file.
 */
import { describe, expect, test } from "bun:test";
import type { Bbox } from "../../src/domain/bbox";
import { geochemSitesPage } from "../../src/geochem/service";
import { useServiceDeps } from "../support/server";
import { reference } from "./reference";

const deps = useServiceDeps();


describe("geochemSitesPage", () => {
  test("walking a box around Kansas by `after` returns every site in it once, in site-id order", async () => {
    const box: Bbox = [-102.1, 36.9, -94.5, 40.1];
    const expected = [...reference().sites.values()]
      .filter((r) => Number(r.Longitude) >= box[0] && Number(r.Longitude) <= box[2] && Number(r.Latitude) >= box[1] && Number(r.Latitude) <= box[3])
      .map((r) => Number(r.SiteID))
      .sort((a, b) => a - b);
    expect([...reference().sites.values()].filter((r) => r.StateID === "KS")).toHaveLength(132);
    const seen: number[] = [];
    let after: number | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const page = await geochemSitesPage(deps, { bbox: box, after, limit: 25 });
      seen.push(...page.features.map((f) => f.id));
      if (page.nextAfter === null) break;
      expect(page.features).toHaveLength(25);
      expect(page.nextAfter).toBe(page.features[24]!.id);
      after = page.nextAfter;
    }
    expect(seen).toEqual(expected);
  });

  test("properties are flat strings, numbers and nulls; with a property its result is flat too", async () => {
    const page = await geochemSitesPage(deps, { bbox: [-93.8, 42, -93.7, 42.1], after: null, limit: 10, property: "arsenic" });
    const site = page.features.find((f) => f.id === 3560)!;
    expect(site.coordinates).toEqual([-93.7571, 42.0864]);
    expect(site.properties).toEqual({
      site_id: 3560,
      lab_id: "C-349023",
      state: "IA",
      collection_date: "2010-06-17",
      land_cover_primary: "Planted/Cultivated",
      land_cover_secondary: "Row Crops",
      depth_top_cm: 0,
      depth_bottom_cm: 5,
      property: "arsenic",
      value: 4.7,
      reported_value: "4.7",
      value_qualifier: null,
      result_status: "measured",
      reporting_limit: null,
      unit: "mg/kg",
    });
    for (const f of page.features) {
      for (const value of Object.values(f.properties)) expect(value === null || ["string", "number"].includes(typeof value)).toBe(true);
    }
    expect(page.warnings.join(" ")).toContain("1,600 km2");
    expect(Date.parse(page.retrievedAt)).not.toBeNaN();
  });
});
