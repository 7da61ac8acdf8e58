/**
 * An area's totals are honest derived numbers (docs/decisions.md#areas, #precision): the weighted value
 * is rounded as every value Loam computes (4 significant digits) in JSON and CSV, and a class's share is
 * the share of the area in that class, as the test computes it from the shapefiles (reference.py) and
 * each map unit's class.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { useLoam } from "../support/server";
import { parseRfc4180, records } from "../support/csv";
import { referenceAvailable, referenceCut, within } from "./reference";

setDefaultTimeout(60_000);
const { loam } = useLoam();
const HAS_REFERENCE = referenceAvailable();
/** Inside the IA073 export: several map units, two drainage classes. */
const BBOX = [-94.361846, 41.943158, -94.358198, 41.945788] as const;
const WKT = (() => {
  const [w, s, e, n] = BBOX;
  return `POLYGON ((${w} ${s}, ${e} ${s}, ${e} ${n}, ${w} ${n}, ${w} ${s}))`;
})();

/** Significant digits of a number as JSON writes it. */
const significant = (value: number) => String(Math.abs(value)).replace(".", "").replace(/^0+/, "").replace(/e.*$/, "").length;

describe.skipIf(!HAS_REFERENCE)("GET /v1/soil/aoi totals", () => {
  test("the area-weighted values are rounded to 4 significant digits (JSON and CSV), and equal the test's own weighting", async () => {
    const reference = referenceCut(WKT);
    const { body } = await loam.json(`/v1/soil/aoi?bbox=${BBOX.join(",")}&properties=clay,available_water_storage,ph`);
    const rows = records(parseRfc4180(await (await loam.get(`/v1/soil/aoi?bbox=${BBOX.join(",")}&properties=clay,available_water_storage,ph&format=csv`)).text()));
    for (const summary of body.summaries) {
      expect(summary.value).not.toBeNull();
      expect(significant(summary.value)).toBeLessThanOrEqual(4);
      let sum = 0;
      let weight = 0;
      for (const unit of body.map_units) {
        const value = unit.summaries.find((s: any) => s.property.id === summary.property.id)?.value;
        if (value === null || value === undefined) continue;
        sum += value * reference.by_mukey[unit.map_unit_key]!;
        weight += reference.by_mukey[unit.map_unit_key]!;
      }
      expect(within(summary.value, sum / weight, 1e-3)).toBe(true);
      expect(summary.transformations[0].formula).toContain("result rounded to 4 significant digits");
      const row = rows.find((r) => r.scope === "aoi" && r.property_id === summary.property.id)!;
      expect(row.value).toBe(String(summary.value));
    }
  });

  test("a class's share is the share of the area in that class (Well drained), not of the area with any class", async () => {
    const reference = referenceCut(WKT);
    const { body } = await loam.json(`/v1/soil/aoi?bbox=${BBOX.join(",")}&properties=drainage_class`);
    const byClass = new Map<string, number>();
    for (const unit of body.map_units) {
      const category = unit.summaries[0].category;
      if (category === null) continue;
      byClass.set(category, (byClass.get(category) ?? 0) + reference.by_mukey[unit.map_unit_key]!);
    }
    expect(byClass.size).toBeGreaterThan(1);
    const [topClass, topM2] = [...byClass.entries()].sort((a, b) => b[1] - a[1])[0]!;
    const summary = body.summaries[0];
    expect(summary.category).toBe(topClass);
    const share = (topM2 / reference.aoi_m2) * 100;
    expect(share).toBeLessThan(90);
    expect(within(summary.percent_of_aoi, share, 1e-3)).toBe(true);
  });
});
