/**
 * method=weighted_average on GET /v1/soil/modeled (DESIGN §14, docs/decisions.md#modeled-weighted-average):
 * one derived observation per property over the asked interval, SoilGrids' depths weighted by their
 * overlap; the expected values are computed here from the clips' integers as GDAL reads them.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { tool } from "../support/tools";
import { parseRfc4180, records } from "../support/csv";
import { DATA_DIR, useLoam } from "../support/server";

const { loam, contract } = useLoam();
const gdal = tool("gdallocationinfo", "gdal-bin");
const RASTER = join(DATA_DIR, "soilgrids/raster");
const AT = "latitude=18.65&longitude=-71.6";

function gdalValue(file: string, lon: number, lat: number): number {
  const run = Bun.spawnSync([gdal!, "-valonly", "-wgs84", join(RASTER, file), String(lon), String(lat)]);
  return Number(new TextDecoder().decode(run.stdout).trim());
}

/** The clips' depths' overlap-weighted mean over [top, bottom), in % (g/kg / 10). */
function expectedAverage(property: string, top: number, bottom: number): number {
  const depths = [[0, 5], [5, 15]].map(([t, b]) => ({ label: `${t}-${b}cm`, overlap: Math.max(0, Math.min(b!, bottom) - Math.max(t!, top)) }));
  const used = depths.filter((d) => d.overlap > 0);
  const sum = used.reduce((n, d) => n + d.overlap * gdalValue(`${property}_${d.label}_mean.tif`, -71.6, 18.65), 0);
  return sum / used.reduce((n, d) => n + d.overlap, 0) / 10;
}

const fourDigits = (value: number) => Number(value.toPrecision(4)) === value;

describe.skipIf(!gdal)("method=weighted_average on the offline clips", () => {
  test("0-10 cm: one derived observation per property, 0-5 and 5-15 cm weighted 5 and 5 cm, contract-valid", async () => {
    const { status, body } = await loam.json(`/v1/soil/modeled?${AT}&properties=clay,silt&depth_bottom_cm=10&method=weighted_average`);
    expect(status).toBe(200);
    contract.assert("ModeledResponse", body);
    expect(body.query.method).toBe("weighted_average");
    expect(body.observations.map((o: any) => [o.property.id, o.depth, o.data_kind])).toEqual([
      ["clay", { top_cm: 0, bottom_cm: 10 }, "derived"],
      ["silt", { top_cm: 0, bottom_cm: 10 }, "derived"],
    ]);
    for (const o of body.observations) {
      expect(o.value).toBeCloseTo(expectedAverage(o.property.id, 0, 10), 2);
      expect(fourDigits(o.value)).toBe(true);
      expect(o.grid_context.depth_label).toBe("0-5cm+5-15cm");
      expect(o.grid_context.statistics).toEqual({ mean: o.value });
      // A computed original is labelled computed (issue 43).
      expect(o.source.original_property_name).toBe(`depth-weighted average of ${o.property.id}_0-5cm_mean + ${o.property.id}_5-15cm_mean`);
      expect(o.warnings.join(" ")).toContain("source.original_value is computed by Loam, not published by the provider");
      expect(o.source.original_depth).toEqual({ top_cm: 0, bottom_cm: 15 });
      // The interval's own uncertainty is not derived, and says why.
      expect(o.uncertainty.lower).toBeNull();
      expect(o.uncertainty.upper).toBeNull();
      expect(o.uncertainty.method).toStartWith("Not derived");
      const step = o.transformations.at(-1);
      expect(step).toMatchObject({ operation: "depth_weighted_average", from_unit: "%", to_unit: "%" });
      expect(step.formula).toContain("0-5cm (5 cm), 5-15cm (5 cm)");
      expect(o.transformations[0].operation).toBe("d_factor");
    }
    expect(body.warnings.some((w: string) => w.startsWith("method=weighted_average"))).toBe(true);
    // The answer does not describe a Q0.05/Q0.95 interval as if the averages had one.
    expect(body.warnings.filter((w: string) => w.includes("uncertainty.upper are Q0.05") && !w.includes("depth-weighted average"))).toEqual([]);
  });

  test("2-12 cm: the depths weigh by their overlap (3 and 7 cm)", async () => {
    const { body } = await loam.json(`/v1/soil/modeled?${AT}&properties=clay&depth_top_cm=2&depth_bottom_cm=12&method=weighted_average`);
    const [clay] = body.observations;
    expect(clay.depth).toEqual({ top_cm: 2, bottom_cm: 12 });
    expect(clay.value).toBeCloseTo(expectedAverage("clay", 2, 12), 2);
    expect(clay.transformations.at(-1).formula).toContain("0-5cm (3 cm), 5-15cm (7 cm)");
  });

  test("the default 0-200 cm: the clips cover 0-15 cm, so the average is over 0-15 cm and a warning says so", async () => {
    const { body } = await loam.json(`/v1/soil/modeled?${AT}&properties=silt&method=weighted_average`);
    const [silt] = body.observations;
    expect(silt.depth).toEqual({ top_cm: 0, bottom_cm: 15 });
    expect(silt.value).toBeCloseTo(expectedAverage("silt", 0, 15), 2);
    expect(body.warnings).toContain("silt: values cover only 0-15 cm of the asked 0-200 cm; its weighted average is over 0-15 cm (its depth says so).");
  });

  test("one depth in the interval: its value, derived, over the asked part of it", async () => {
    const { body } = await loam.json(`/v1/soil/modeled?${AT}&properties=clay&depth_top_cm=1&depth_bottom_cm=4&method=weighted_average`);
    expect(body.observations.map((o: any) => [o.value, o.depth, o.data_kind])).toEqual([[gdalValue("clay_0-5cm_mean.tif", -71.6, 18.65) / 10, { top_cm: 1, bottom_cm: 4 }, "derived"]]);
  });

  test("without method (none) the depths stay apart; NoData averages to nothing; an unknown method is a 422", async () => {
    const plain = await loam.json(`/v1/soil/modeled?${AT}&properties=clay&depth_bottom_cm=10`);
    expect(plain.body.query.method).toBe("none");
    expect(plain.body.observations.map((o: any) => o.data_kind)).toEqual(["modeled", "modeled"]);
    const nodata = await loam.json("/v1/soil/modeled?latitude=18.697297&longitude=-71.829129&properties=clay&depth_bottom_cm=15&method=weighted_average");
    expect([nodata.status, nodata.body.observations]).toEqual([200, []]);
    const bad = await loam.json(`/v1/soil/modeled?${AT}&method=mean`);
    expect([bad.status, bad.body.error.code]).toEqual([422, "validation_error"]);
    expect(bad.body.error.message).toContain("'method'");
  });

  test("the OpenAPI document lists method (none, weighted_average; default none) on GET /v1/soil/modeled and method in the effective query", async () => {
    const { body } = await loam.json("/openapi.json");
    const method = body.paths["/v1/soil/modeled"].get.parameters.find((p: any) => p.name === "method");
    expect(method.in).toBe("query");
    expect(method.schema.enum ?? method.schema.anyOf?.map((a: any) => a.const)).toEqual(["none", "weighted_average"]);
    expect(method.schema.default).toBe("none");
    expect(body.components.schemas.ModeledQuery.required).toContain("method");
  });

  test("its CSV has one row per property with the derived value", async () => {
    const response = await loam.get(`/v1/soil/modeled?${AT}&properties=clay,silt&depth_bottom_cm=10&method=weighted_average&format=csv`);
    const rows = records(parseRfc4180(await response.text()));
    expect(rows.map((r) => [r.property_id, r.data_kind, r.depth_top_cm, r.depth_bottom_cm])).toEqual([
      ["clay", "derived", "0", "10"],
      ["silt", "derived", "0", "10"],
    ]);
    expect(Number(rows[0]!.value)).toBeCloseTo(expectedAverage("clay", 0, 10), 2);
  });
});
