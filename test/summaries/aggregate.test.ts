/**
 * The summary methods on the real map units of datasets/. Expected values are computed here,
 * straight from the raw source rows with plain loops, not with Loam's code.
 */
import { describe, expect, test } from "bun:test";
import { summarize } from "../../src/aggregation/aggregate";
import type { SummaryComponent } from "../../src/domain/component";
import { summaryProperty } from "../../src/providers/usda_ssurgo/summary-properties";
import { sourceMapUnits, type SourceMapUnit } from "./source-files";

const UNITS = sourceMapUnits();
const unit = (mukey: string) => UNITS.find((u) => u.mukey === mukey)!;
const INTERVALS: Array<[number, number]> = [[0, 30], [20, 60], [50, 100], [10, 15], [0, 200]];
const COLUMNS = { clay: "claytotal_r", ph: "ph1to1h2o_r", organic_matter: "om_r" } as const;

/** Thickness-weighted mean of one component's horizons over [top, bottom), from raw rows. */
function expectedComponentMean(u: SourceMapUnit, cokey: string, column: string, top: number, bottom: number): number | null {
  let sum = 0;
  let cm = 0;
  for (const h of u.horizonRows) {
    if (h.cokey !== cokey || h[column] === null) continue;
    const overlap = Math.min(Number(h.hzdepb_r), bottom) - Math.max(Number(h.hzdept_r), top);
    if (overlap <= 0) continue;
    sum += Number(h[column]) * overlap;
    cm += overlap;
  }
  return cm === 0 ? null : sum / cm;
}

function expectedWeighted(u: SourceMapUnit, column: string, top: number, bottom: number): number | null {
  let sum = 0;
  let pct = 0;
  for (const c of u.componentRows) {
    const v = expectedComponentMean(u, c.cokey!, column, top, bottom);
    if (v === null) continue;
    sum += v * Number(c.comppct_r);
    pct += Number(c.comppct_r);
  }
  return pct === 0 ? null : sum / pct;
}

function expectedDominant(u: SourceMapUnit, column: string, top: number, bottom: number): number | null {
  const sorted = [...u.componentRows].sort((a, b) => Number(b.comppct_r) - Number(a.comppct_r) || Number(a.cokey) - Number(b.cokey));
  return expectedComponentMean(u, sorted[0]!.cokey!, column, top, bottom);
}

function expectedExtreme(u: SourceMapUnit, column: string, top: number, bottom: number, pick: (...v: number[]) => number): number | null {
  const values = u.horizonRows
    .filter((h) => h[column] !== null && Math.min(Number(h.hzdepb_r), bottom) - Math.max(Number(h.hzdept_r), top) > 0)
    .map((h) => Number(h[column]));
  return values.length === 0 ? null : pick(...values);
}

/** Loam rounds what it computes to four significant digits (docs/decisions.md#precision): within half a unit of the fourth digit. */
const close = (actual: number | null, expected: number | null) => {
  if (expected === null) expect(actual).toBeNull();
  else if (expected === 0) expect(actual).toBe(0);
  else {
    const halfUnit = 0.5 * 10 ** (Math.floor(Math.log10(Math.abs(expected))) - 3);
    expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(halfUnit * (1 + 1e-9));
    expect(Number(actual!.toPrecision(4))).toBe(actual!);
  }
};

describe("weighted_average, dominant_component, min, max against values computed from the source rows", () => {
  for (const [id, column] of Object.entries(COLUMNS)) {
    test(`${id}: all 21 map units x ${INTERVALS.length} intervals`, () => {
      const property = summaryProperty(id)!;
      let compared = 0;
      for (const u of UNITS) {
        for (const [top, bottom] of INTERVALS) {
          const depth = { top_cm: top, bottom_cm: bottom };
          close(summarize(u.components, property, "weighted_average", depth).value, expectedWeighted(u, column, top, bottom));
          close(summarize(u.components, property, "dominant_component", depth).value, expectedDominant(u, column, top, bottom));
          close(summarize(u.components, property, "min", depth).value, expectedExtreme(u, column, top, bottom, Math.min));
          close(summarize(u.components, property, "max", depth).value, expectedExtreme(u, column, top, bottom, Math.max));
          compared += 4;
        }
      }
      expect(compared).toBe(21 * INTERVALS.length * 4);
    });
  }

  test("organic_carbon is organic matter / 1.724, with the formula and the derived-value warning", () => {
    const u = unit("2765528");
    const oc = summarize(u.components, summaryProperty("organic_carbon")!, "weighted_average", { top_cm: 0, bottom_cm: 30 });
    close(oc.value, expectedWeighted(u, "om_r", 0, 30)! / 1.724);
    expect(oc.transformations[0]).toEqual({
      operation: "derive_organic_carbon_from_organic_matter",
      from_unit: "% (by weight)",
      to_unit: "% (by weight)",
      formula: "organic_carbon = om_r / 1.724",
    });
    expect(oc.warnings.some((w) => w.includes("not a measurement"))).toBe(true);
  });
});

describe("Clarion loam L138B (IA073, mukey 2765528), clay 0–30 cm", () => {
  const u = unit("2765528");
  const s = summarize(u.components, summaryProperty("clay")!, "weighted_average", { top_cm: 0, bottom_cm: 30 });
  const byName = (name: string) => s.contributions.find((c) => c.component_name === name)!;

  test("shows Clarion, Storden and Nicollet contributions, largest first, each with its horizons and covered depth", () => {
    expect(s.contributions.map((c) => [c.component_name, c.component_percent])).toEqual([["Clarion", 85], ["Storden", 10], ["Nicollet", 5]]);
    for (const name of ["Clarion", "Storden"]) {
      const row = u.componentRows.find((c) => c.compname === name)!;
      const c = byName(name);
      expect(c.component_key).toBe(row.cokey!);
      close(c.value, expectedComponentMean(u, row.cokey!, "claytotal_r", 0, 30));
      expect(c.covered_depth).toEqual({ top_cm: 0, bottom_cm: 30 });
      const expectedKeys = u.horizonRows
        .filter((h) => h.cokey === row.cokey && Number(h.hzdept_r) < 30 && Number(h.hzdepb_r) > 0)
        .map((h) => h.chkey);
      expect(c.horizon_keys.slice().sort()).toEqual(expectedKeys.slice().sort() as string[]);
    }
    // Clarion's Ap (chkey 59949744, 0–23 cm, 21 % clay, a known answer of the data set) is one of its horizons here.
    expect(byName("Clarion").horizon_keys).toContain("59949744");
  });

  test("value, unit, percent of the map unit and the two formulas", () => {
    close(s.value, expectedWeighted(u, "claytotal_r", 0, 30));
    expect(s.unit).toBe("%");
    expect(s.depth).toEqual({ top_cm: 0, bottom_cm: 30 });
    expect(s.percent_of_map_unit).toBe(100);
    expect(s.transformations.map((t) => t.operation)).toEqual(["thickness_weighted_mean", "component_percent_weighted_mean"]);
    expect(s.transformations[0]!.formula).toContain("0–30 cm");
    expect(s.warnings).toEqual([]);
  });

  test("dominant_component takes Clarion alone; min and max name the horizons that hold them", () => {
    const d = summarize(u.components, summaryProperty("clay")!, "dominant_component", { top_cm: 0, bottom_cm: 30 });
    expect(d.contributions.map((c) => c.component_name)).toEqual(["Clarion"]);
    expect(d.percent_of_map_unit).toBe(85);
    const max = summarize(u.components, summaryProperty("clay")!, "max", { top_cm: 0, bottom_cm: 30 });
    for (const c of max.contributions) {
      for (const key of c.horizon_keys) expect(Number(u.horizonRows.find((h) => h.chkey === key)!.claytotal_r)).toBe(c.value!);
    }
  });
});

describe("components without horizon data (MH936 Urban land-Ngedebus complex, mukey 465586)", () => {
  const u = unit("465586");

  test("Urban land (60 %) has no horizons: no contribution, a warning, and the average is over the components with data", () => {
    const urban = u.components.find((c) => c.name === "Urban land")!;
    expect(urban.horizons).toEqual([]);
    expect(urban.percent).toBe(60);
    const s = summarize(u.components, summaryProperty("clay")!, "weighted_average", { top_cm: 0, bottom_cm: 30 });
    expect(s.contributions.map((c) => c.component_name)).not.toContain("Urban land");
    expect(s.warnings.some((w) => w.includes("Urban land (60 %): no horizons"))).toBe(true);
    close(s.value, expectedWeighted(u, "claytotal_r", 0, 30));
    // Beaches (5 %) has no horizons either (Beaches, Urban land, Water and Dumps have none in MH936); Ngedebus' 35 % remain.
    expect(u.components.find((c) => c.name === "Beaches")!.horizons).toEqual([]);
    expect(s.percent_of_map_unit).toBe(35);
  });

  test("dominant_component: Urban land is dominant and has no data, so the value is null with a warning", () => {
    const s = summarize(u.components, summaryProperty("clay")!, "dominant_component", { top_cm: 0, bottom_cm: 30 });
    expect(s.value).toBeNull();
    expect(s.contributions).toEqual([]);
    expect(s.warnings[0]).toContain("The dominant component, Urban land (60 %), has no clay data");
  });

  test("its hydrologic group (D) still counts: component-level classes do not need horizons", () => {
    const s = summarize(u.components, summaryProperty("hydrologic_group")!, "dominant_condition", { top_cm: 0, bottom_cm: 30 });
    expect(s.category).toBe("D");
    expect(s.percent_of_map_unit).toBe(60);
    expect(s.warnings.some((w) => w.includes("Miscellaneous area(s) Urban land (60 %)"))).toBe(true);
  });
});

describe("miscellaneous areas, texture class, ties", () => {
  test("Rubble land's placeholder horizon values carry a warning when they contribute (MH936 465581)", () => {
    const u = unit("465581");
    const s = summarize(u.components, summaryProperty("clay")!, "weighted_average", { top_cm: 0, bottom_cm: 30 });
    expect(s.contributions.map((c) => c.component_name)).toContain("Rubble land");
    expect(s.warnings.some((w) => w.startsWith("Miscellaneous area(s) Rubble land (30 %)") && w.includes("placeholders"))).toBe(true);
  });

  test("texture_class: each component's thickest representative texture, then dominant_condition over the map unit", () => {
    const u = unit("2765528");
    const s = summarize(u.components, summaryProperty("texture_class")!, "dominant_condition", { top_cm: 0, bottom_cm: 30 });
    // Clarion's Ap (0–23 cm) is loam: its representative texture group (rvindicator Yes) is "L".
    const clarion = s.contributions.find((c) => c.component_name === "Clarion")!;
    expect(clarion.category).toBe("L");
    expect(clarion.horizon_keys).toContain("59949744");
    expect(s.category).toBe("L");
    expect(s.value).toBeNull();
    expect(s.unit).toBeNull();
    expect(s.transformations.map((t) => t.operation)).toEqual(["dominant_texture_by_thickness", "dominant_condition"]);
  });

  test("slope: component-level numbers average without depth (covered_depth null)", () => {
    const u = unit("2765528");
    const s = summarize(u.components, summaryProperty("slope")!, "weighted_average", { top_cm: 0, bottom_cm: 30 });
    const expected = u.componentRows.reduce((a, c) => a + Number(c.slope_r) * Number(c.comppct_r), 0) / 100;
    close(s.value, expected);
    expect(s.contributions.every((c) => c.covered_depth === null && c.horizon_keys.length === 0)).toBe(true);
  });

  // The tie rules need percents that tie; the real Clarion L138B components are re-weighted here.
  const retied = (percents: Record<string, number>): SummaryComponent[] =>
    unit("2765528").components.map((c) => ({ ...c, percent: percents[c.name] ?? c.percent }));

  test("dominant_condition tie: reported, and broken by the class of the component with the highest percent", () => {
    // Well drained: Clarion 45 + Storden 5 = 50; Somewhat poorly drained: Nicollet 50.
    const s = summarize(retied({ Clarion: 45, Storden: 5, Nicollet: 50 }), summaryProperty("drainage_class")!, "dominant_condition", { top_cm: 0, bottom_cm: 30 });
    expect(s.category).toBe("Somewhat poorly drained");
    expect(s.warnings[0]).toContain("Tie: 'Somewhat poorly drained' and 'Well drained' each cover 50 %");
  });

  test("dominant_component tie: the lowest component key wins, and the tie is reported", () => {
    const components = retied({ Clarion: 45, Storden: 45, Nicollet: 10 });
    const s = summarize(components, summaryProperty("clay")!, "dominant_component", { top_cm: 0, bottom_cm: 30 });
    const lowest = components.filter((c) => c.percent === 45).map((c) => c.key).sort()[0];
    expect(s.contributions.map((c) => c.component_key)).toEqual([lowest!]);
    expect(s.warnings[0]).toContain(`the lowest component key, ${lowest}, is taken as dominant`);
  });

  test("a map unit without components gives null and says why", () => {
    const s = summarize([], summaryProperty("clay")!, "weighted_average", { top_cm: 0, bottom_cm: 30 });
    expect(s.value).toBeNull();
    expect(s.percent_of_map_unit).toBe(0);
    expect(s.warnings).toEqual(["The map unit has no components, so there is nothing to summarize."]);
  });
});
