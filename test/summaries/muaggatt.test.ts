/**
 * Loam's aggregation against NRCS's own map-unit aggregates (muaggatt) for every map unit in
 * datasets/: available water storage by weighted_average, drainage class and hydrologic group by
 * dominant_condition. Inputs and expected values both come from the source text files, read by the
 * tests' own reader.
 */
import { describe, expect, test } from "bun:test";
import { summarize } from "../../src/aggregation/aggregate";
import { summaryProperty } from "../../src/providers/usda_ssurgo/summary-properties";
import { MUAGGATT_AWS, MUAGGATT_CLASSES, sourceMapUnits, twoDecimals } from "./source-files";

const UNITS = sourceMapUnits();

describe("muaggatt: Loam reproduces NRCS's map-unit aggregates", () => {
  test("datasets/ holds 21 map units in 4 survey areas", () => {
    expect(UNITS.length).toBe(21);
    expect(new Set(UNITS.map((u) => u.area)).size).toBe(4);
  });

  for (const unit of UNITS) {
    test(`${unit.area} ${unit.musym} (${unit.mukey}): available_water_storage weighted_average 0–25/50/100/150 cm = aws0xxwta`, () => {
      const aws = summaryProperty("available_water_storage")!;
      for (const [bottom, column] of MUAGGATT_AWS) {
        const s = summarize(unit.components, aws, "weighted_average", { top_cm: 0, bottom_cm: bottom });
        const expected = unit.muaggatt[column];
        expect({ column, value: twoDecimals(s.value) }).toEqual({ column, value: twoDecimals(expected) });
        expect(s.unit).toBe("cm");
      }
    });

    test(`${unit.area} ${unit.musym} (${unit.mukey}): drainage_class / hydrologic_group dominant_condition = drclassdcd / hydgrpdcd`, () => {
      for (const [id, column] of MUAGGATT_CLASSES) {
        const s = summarize(unit.components, summaryProperty(id)!, "dominant_condition", { top_cm: 0, bottom_cm: 200 });
        expect({ column, category: s.category }).toEqual({ column, category: unit.muaggatt[column] ?? null });
        expect(s.value).toBeNull();
      }
    });
  }

  test("all 84 storage values and 42 classes match (counted, so a silently skipped unit fails)", () => {
    let aws = 0;
    let classes = 0;
    for (const unit of UNITS) {
      for (const [bottom, column] of MUAGGATT_AWS) {
        const s = summarize(unit.components, summaryProperty("available_water_storage")!, "weighted_average", { top_cm: 0, bottom_cm: bottom });
        const expected = unit.muaggatt[column];
        if (twoDecimals(s.value) === twoDecimals(expected)) aws++;
      }
      for (const [id, column] of MUAGGATT_CLASSES) {
        const s = summarize(unit.components, summaryProperty(id)!, "dominant_condition", { top_cm: 0, bottom_cm: 200 });
        if (s.category === (unit.muaggatt[column] ?? null)) classes++;
      }
    }
    expect({ aws, classes }).toEqual({ aws: 84, classes: 42 });
  });

  test("Urban land-Ngedebus complex (MH936 465586): no dominant drainage class, because the 60 % Urban land has none", () => {
    const unit = UNITS.find((u) => u.mukey === "465586")!;
    expect(unit.muaggatt.drclassdcd).toBeNull();
    const s = summarize(unit.components, summaryProperty("drainage_class")!, "dominant_condition", { top_cm: 0, bottom_cm: 200 });
    expect(s.category).toBeNull();
    expect(s.percent_of_map_unit).toBe(0);
    expect(s.warnings.join(" ")).toContain("60 % of the map unit, more than any class");
    // The classes that were there are still shown, with their components.
    expect(s.contributions.map((c) => [c.component_name, c.category])).toEqual([
      ["Ngedebus", "Somewhat excessively drained"],
      ["Beaches", "Excessively drained"],
    ]);
  });
});
