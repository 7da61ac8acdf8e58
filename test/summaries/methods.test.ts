import { describe, expect, test } from "bun:test";
import { LoamError } from "../../src/errors";
import { assertMethodFits, defaultMethod, methodsFor, SUMMARY_METHODS } from "../../src/aggregation/methods";
import { SSURGO_SUMMARY_PROPERTIES, summaryProperty } from "../../src/providers/usda_ssurgo/summary-properties";

describe("which methods fit which property", () => {
  test("numbers take weighted_average (default), dominant_component, min, max; classes dominant_condition (default), dominant_component", () => {
    expect(methodsFor(summaryProperty("clay")!)).toEqual(["weighted_average", "dominant_component", "min", "max"]);
    expect(methodsFor(summaryProperty("drainage_class")!)).toEqual(["dominant_condition", "dominant_component"]);
    expect(defaultMethod(summaryProperty("available_water_storage")!)).toBe("weighted_average");
    expect(defaultMethod(summaryProperty("texture_class")!)).toBe("dominant_condition");
  });

  test("a method that does not fit is a 422 naming both (weighted_average of drainage_class, dominant_condition of clay)", () => {
    for (const [id, method] of [["drainage_class", "weighted_average"], ["clay", "dominant_condition"], ["taxonomic_class", "max"]] as const) {
      let error: unknown;
      try {
        assertMethodFits(summaryProperty(id)!, method);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(LoamError);
      expect((error as LoamError).status).toBe(422);
      expect((error as LoamError).code).toBe("validation_error");
      expect((error as LoamError).message).toContain(`'${method}'`);
      expect((error as LoamError).message).toContain(`'${id}'`);
    }
  });

  test("every summary property accepts its default method and dominant_component", () => {
    for (const p of SSURGO_SUMMARY_PROPERTIES) {
      expect(() => assertMethodFits(p, defaultMethod(p))).not.toThrow();
      expect(() => assertMethodFits(p, "dominant_component")).not.toThrow();
      expect(SUMMARY_METHODS).toContain(defaultMethod(p));
    }
  });

  test("the summary properties: 17 ids, class properties have no unit, available_water_storage is a storage in cm", () => {
    expect(SSURGO_SUMMARY_PROPERTIES.map((p) => p.id)).toEqual([
      "ph", "organic_matter", "organic_carbon", "sand", "silt", "clay", "bulk_density", "cec", "ec",
      "available_water_capacity", "available_water_storage", "ksat", "slope",
      "drainage_class", "hydrologic_group", "taxonomic_class", "texture_class",
    ]);
    for (const p of SSURGO_SUMMARY_PROPERTIES) expect(p.unit === null).toBe(p.kind === "class");
    expect(summaryProperty("available_water_storage")!.storage?.unit).toBe("cm");
    expect(summaryProperty("ksat")!.unit).toBe("µm/s");
  });
});

describe("summarize refuses what the route must refuse", () => {
  test("a misfit method or an empty interval throws a 422, never a silent number", async () => {
    const { summarize } = await import("../../src/aggregation/aggregate");
    const status = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as LoamError).status;
      }
      return 200;
    };
    expect(status(() => summarize([], summaryProperty("clay")!, "dominant_condition", { top_cm: 0, bottom_cm: 30 }))).toBe(422);
    expect(status(() => summarize([], summaryProperty("drainage_class")!, "max", { top_cm: 0, bottom_cm: 30 }))).toBe(422);
    expect(status(() => summarize([], summaryProperty("clay")!, "weighted_average", { top_cm: 30, bottom_cm: 30 }))).toBe(422);
    expect(status(() => summarize([], summaryProperty("clay")!, "weighted_average", { top_cm: 0, bottom_cm: 30 }))).toBe(200);
  });
});
