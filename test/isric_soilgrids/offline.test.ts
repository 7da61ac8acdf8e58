/**
 * isric_soilgrids offline: the snapshot's clips answer GET /v1/soil/modeled, the raw route and the grid
 * route; expected values are read from the GeoTIFFs by GDAL's own gdallocationinfo (not Loam's reader).
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { tool } from "../support/tools";
import { DATA_DIR, useLoam } from "../support/server";

const { loam, contract } = useLoam();
const gdal = tool("gdallocationinfo", "gdal-bin");
const RASTER = join(DATA_DIR, "soilgrids/raster");

/** The clip's integer at a WGS84 point, or at a pixel, as GDAL reads it. */
function gdalValue(file: string, at: { lon: number; lat: number } | { column: number; row: number }): number {
  const args = "lon" in at ? ["-wgs84", String(at.lon), String(at.lat)] : [String(at.column), String(at.row)];
  const run = Bun.spawnSync([gdal!, "-valonly", join(RASTER, file), ...args]);
  return Number(new TextDecoder().decode(run.stdout).trim());
}

describe.skipIf(!gdal)("SoilGrids offline clips", () => {
  test("the cell containing the point answers each clip's mean / d_factor, with the integer as original_value (GDAL's reading)", async () => {
    const { status, body } = await loam.json("/v1/soil/modeled?latitude=18.65&longitude=-71.6&properties=clay,silt&depth_bottom_cm=15");
    expect(status).toBe(200);
    contract.assert("ModeledResponse", body);
    expect(body.data_kind).toBe("modeled");
    const seen = body.observations.map((o: any) => [o.property.id, o.grid_context.depth_label, o.source.original_value, o.value]);
    const expected = ["clay", "silt"].flatMap((p) => ["0-5cm", "5-15cm"].map((d) => {
      const raw = gdalValue(`${p}_${d}_mean.tif`, { lon: -71.6, lat: 18.65 });
      return [p, d, raw, raw / 10];
    }));
    expect(seen).toEqual(expected);
    // The README's known values for this cell.
    expect(seen.map((s: any[]) => s[2])).toEqual([319, 333, 359, 354]);
    const clay = body.observations[0];
    expect(clay.unit).toBe("%");
    expect(clay.transformations[0]).toMatchObject({ from_unit: "g/kg", to_unit: "%" });
    expect(clay.grid_context).toMatchObject({ resolution_m: 250, model: "SoilGrids", release: "2.0", statistics: { mean: 31.9 } });
    expect(clay.grid_context.cell_center.longitude).toBeCloseTo(-71.599684, 5);
    expect(clay.grid_context.cell_center.latitude).toBeCloseTo(18.64959, 5);
    expect(clay.uncertainty).toMatchObject({ lower: null, upper: null });
    expect(clay.license.name).toBe("CC BY 4.0");
    expect(clay.source.citation).toContain("doi.org/10.5194/soil-7-217-2021");
    expect(clay.source.source_url).not.toContain("/tmp");
    expect(body.warnings.some((w: string) => w.startsWith("Modeled values, not observations"))).toBe(true);
    expect(body.warnings.some((w: string) => w.includes("250 m grid cell"))).toBe(true);
    expect(body.warnings.some((w: string) => w.includes("reprojected") && w.includes("resampled"))).toBe(true);
    expect(body.warnings.some((w: string) => w.includes("Statistics absent") && w.includes("Q0.05"))).toBe(true);
  });

  test("NoData (65535) in the cell is no observation and a warning", async () => {
    expect(gdalValue("clay_0-5cm_mean.tif", { column: 0, row: 0 })).toBe(65535);
    const { status, body } = await loam.json("/v1/soil/modeled?latitude=18.697297&longitude=-71.829129&properties=clay&depth_bottom_cm=5");
    expect(status).toBe(200);
    expect(body.observations).toEqual([]);
    expect(body.warnings.some((w: string) => w.includes("NoData (65535)") && w.includes("clay 0-5cm"))).toBe(true);
  });

  test("outside the clips: no observation and a coverage warning naming the extent and how to go live", async () => {
    const { status, body } = await loam.json("/v1/soil/modeled?latitude=41.9&longitude=-94.3&properties=clay");
    expect(status).toBe(200);
    expect(body.observations).toEqual([]);
    expect(body.warnings.some((w: string) => w.includes("outside the offline snapshot's SoilGrids clips") && w.includes("-71.8303") && w.includes("LOAM_UPSTREAM=sda"))).toBe(true);
  });

  test("the raw route shows the clip cells with each file's metadata, for this provider only", async () => {
    const { status, body } = await loam.json("/v1/providers/isric_soilgrids/raw/location?latitude=18.65&longitude=-71.6&properties=silt");
    expect(status).toBe(200);
    contract.assert("RawProviderResponse", body);
    const cell = body.upstream_response.snapshot_clips[0];
    expect(cell).toMatchObject({ file: "silt_0-5cm_mean.tif", pixel: { column: 101, row: 21 }, nodata: 65535, width: 228, height: 53 });
    expect(cell.value).toBe(gdalValue("silt_0-5cm_mean.tif", { column: 101, row: 21 }));
  });

  test("the grid route serves the clip as origin, cell size, size and values in % (GDAL's pixels / 10, null for NoData)", async () => {
    const { status, body } = await loam.json("/v1/soil/modeled/grid?property=clay&depth=0-5cm");
    expect(status).toBe(200);
    contract.assert("GridResponse", body);
    expect([body.width, body.height, body.unit, body.nodata]).toEqual([228, 53, "%", null]);
    expect(body.origin[0]).toBeCloseTo(-71.830265, 6);
    expect(body.cell_size[0]).toBeCloseTo(0.002271736726, 9);
    for (const [column, row] of [[50, 10], [101, 21], [114, 26]] as const) {
      expect(body.values[row * body.width + column]).toBe(gdalValue("clay_0-5cm_mean.tif", { column, row }) / 10);
    }
    expect(body.values[0]).toBeNull();
    expect(body.legend.classes.length).toBe(6);
    expect(body.layers).toContainEqual({ property: "silt", depth: "5-15cm" });
    const missing = await loam.json("/v1/soil/modeled/grid?property=sand&depth=0-5cm");
    expect(missing.status).toBe(404);
  });

  test("the CSV has one row per observation with grid_context columns", async () => {
    const response = await loam.get("/v1/soil/modeled?latitude=18.65&longitude=-71.6&properties=clay&depth_bottom_cm=5&format=csv");
    expect(response.headers.get("content-type")).toContain("text/csv");
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines.length).toBe(2);
    const header = lines[0]!.split(",");
    const row = lines[1]!.split(",");
    expect(row[header.indexOf("value")]).toBe("31.9");
    expect(row[header.indexOf("original_value")]).toBe("319");
    expect(header).toContain("grid_context_statistics_mean");
  });

  test("bad input is refused as on the point query: 422, 404 unknown provider, 422 another role (planned: test/providers/planned.test.ts)", async () => {
    const cases: [string, number, string][] = [
      ["latitude=95&longitude=-71.6", 422, "validation_error"],
      ["latitude=18.65&longitude=-71.6&depth_top_cm=10&depth_bottom_cm=5", 422, "validation_error"],
      ["latitude=18.65&longitude=-71.6&properties=nonsense", 422, "validation_error"],
      ["latitude=18.65&longitude=-71.6&properties=clay,sand,silt,ph,cec,bd,tn,oc,cfvo", 422, "validation_error"],
      ["latitude=18.65&longitude=-71.6&provider=nope", 404, "unknown_provider"],
      ["latitude=18.65&longitude=-71.6&provider=usda_scan", 422, "validation_error"],
      ["latitude=18.65&longitude=-71.6&provider=usda_ssurgo", 422, "validation_error"],
    ];
    for (const [query, status, code] of cases) {
      const { status: got, body } = await loam.json(`/v1/soil/modeled?${query}`);
      expect([query, got, body.error.code]).toEqual([query, status, code]);
    }
  });
});

describe("retrieved_at of the offline clips", () => {
  test("is the day the clips were read from ISRIC (datasets/soilgrids/README.md), not the snapshot's build", async () => {
    const readme = await Bun.file(join(DATA_DIR, "soilgrids/README.md")).text();
    const day = /bytes were\s+last written in commit `[0-9a-f]+` \((\d{4}-\d{2}-\d{2})/.exec(readme)![1]!;
    expect(day.startsWith("2022")).toBe(true);
    const { body } = await loam.json("/v1/soil/modeled?latitude=18.65&longitude=-71.6&properties=clay&depth_bottom_cm=5");
    expect(body.observations[0].source.retrieved_at).toBe(`${day}T00:00:00.000Z`);
  });
});
