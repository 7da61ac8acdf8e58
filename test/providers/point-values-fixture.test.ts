/**
 * The point_values shape is generic (issue #35, DESIGN §13's proof): a fixture provider registered from
 * one folder (test/fixtures/fixture_grid) plus one registration line is served by GET /v1/soil/modeled
 * (JSON and CSV), the spec's raw route, the grid route, the OpenAPI document and the catalog, through
 * its own transport and Loam's cache. Its cells were copied from the real SoilGrids clips; the expected
 * values are GDAL's reading of those clips at the same point (gdallocationinfo), not the fixture's table.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { fixtureGrid, fixtureGridOffline, gridTransport, GRID } from "../fixtures/fixture_grid";
import { DATA_DIR, useLoam } from "../support/server";
import { tool } from "../support/tools";
import { parseRfc4180, records } from "../support/csv";

const { loam, contract } = useLoam({ providers: [...DEFAULT_PROVIDERS, fixtureGrid, fixtureGridOffline] });
const gdal = tool("gdallocationinfo", "gdal-bin");
const RASTER = join(DATA_DIR, "soilgrids/raster");

function gdalValue(file: string, args: string[]): number {
  const run = Bun.spawnSync([gdal!, "-valonly", join(RASTER, file), ...args]);
  return Number(new TextDecoder().decode(run.stdout).trim());
}
const atPoint = (file: string, lon: number, lat: number) => gdalValue(file, ["-wgs84", String(lon), String(lat)]);

/** A point inside the fixture's cell (column, row), the clip's cell (100 + column, 21 + row). */
const inside = (column: number, row: number) => ({ lon: GRID.originLon + (column + 0.3) * GRID.cell, lat: GRID.originLat - (row + 0.6) * GRID.cell });

describe.skipIf(!gdal)("a point_values fixture provider registered with one line", () => {
  test("/v1/providers and /v1 list it as operational, modeled, with its supported properties", async () => {
    const { status, body } = await loam.json("/v1/providers");
    expect(status).toBe(200);
    contract.assert("ProvidersResponse", body);
    const record = body.providers.find((p: { id: string }) => p.id === "fixture_grid");
    expect(record).toMatchObject({ operational: true, data_kind: "modeled", supported_properties: ["clay", "silt"] });
    const meta = await loam.json("/v1");
    expect(meta.body.supported_providers).toContain("fixture_grid");
  });

  test("GET /v1/soil/modeled?provider=fixture_grid (or its alias) serves GDAL's clip value / 10 at every cell, contract-valid", async () => {
    for (const [column, row] of [[0, 0], [1, 0], [2, 1]] as const) {
      const { lon, lat } = inside(column, row);
      for (const name of ["fixture_grid", "fixture_modeled"]) {
        const { status, body } = await loam.json(`/v1/soil/modeled?latitude=${lat}&longitude=${lon}&provider=${name}&depth_bottom_cm=15`);
        expect(status).toBe(200);
        contract.assert("ModeledResponse", body);
        expect(body.query.provider).toBe("fixture_grid");
        expect(body.query.properties).toEqual(["clay", "silt"]);
        expect(body.data_kind).toBe("modeled");
        const seen = body.observations.map((o: any) => [o.property.id, o.grid_context.depth_label, o.source.original_value, o.value]);
        const expected = ["clay", "silt"].flatMap((p) => ["0-5cm", "5-15cm"].map((d) => {
          const raw = atPoint(`${p}_${d}_mean.tif`, lon, lat);
          return [p, d, raw, raw / 10];
        }));
        expect(seen).toEqual(expected);
        expect(body.observations[0].source.provider).toBe("fixture_grid");
      }
    }
  });

  test("method=weighted_average works for it too: one derived observation per property, GDAL's 0-5 and 5-15 cm weighted 5 and 10 cm", async () => {
    const { lon, lat } = inside(0, 1);
    const { status, body } = await loam.json(`/v1/soil/modeled?latitude=${lat}&longitude=${lon}&provider=fixture_grid&depth_bottom_cm=15&method=weighted_average`);
    expect(status).toBe(200);
    contract.assert("ModeledResponse", body);
    for (const property of ["clay", "silt"]) {
      const o = body.observations.find((x: any) => x.property.id === property);
      const expected = (5 * atPoint(`${property}_0-5cm_mean.tif`, lon, lat) + 10 * atPoint(`${property}_5-15cm_mean.tif`, lon, lat)) / 15 / 10;
      expect([o.data_kind, o.depth, o.source.provider]).toEqual(["derived", { top_cm: 0, bottom_cm: 15 }, "fixture_grid"]);
      expect(o.value).toBeCloseTo(expected, 2);
    }
  });

  test("its CSV has one row per observation, the columns derived from the model", async () => {
    const { lon, lat } = inside(1, 0);
    const response = await loam.get(`/v1/soil/modeled?latitude=${lat}&longitude=${lon}&provider=fixture_grid&properties=silt&depth_bottom_cm=5&format=csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const rows = records(parseRfc4180(await response.text()));
    expect(rows.length).toBe(1);
    expect([rows[0]!.provider, rows[0]!.value, rows[0]!.grid_context_depth_label]).toEqual(["fixture_grid", String(atPoint("silt_0-5cm_mean.tif", lon, lat) / 10), "0-5cm"]);
  });

  test("the spec's raw route serves its own JSON in the raw wrapper, cached: a repeat makes no transport call", async () => {
    const { lon, lat } = inside(2, 1);
    const path = `/v1/providers/fixture_grid/raw/location?latitude=${lat}&longitude=${lon}&properties=clay`;
    const first = await loam.json(path);
    expect(first.status).toBe(200);
    contract.assert("RawProviderResponse", first.body);
    expect(first.body.provider).toBe("fixture_grid");
    expect(first.body.upstream_response.cell).toMatchObject({ column: 2, row: 1 });
    expect(first.body.upstream_response.values).toEqual(["0-5cm", "5-15cm"].map((depth) => ({ layer: "clay", depth, value: gdalValue(`clay_${depth}_mean.tif`, ["102", "22"]) })));
    expect(first.body.warnings).toContain(fixtureGrid.pointValues.note);
    const calls = gridTransport.calls;
    const second = await loam.json(path);
    expect(second.body.cache.hit).toBe(true);
    expect(gridTransport.calls).toBe(calls);
  });

  test("read from an offline snapshot, its raw answer says so in the shape's words, not in another provider's (clips)", async () => {
    const { lon, lat } = inside(1, 1);
    const offline = await loam.json(`/v1/providers/fixture_grid_offline/raw/location?latitude=${lat}&longitude=${lon}&properties=clay`);
    expect(offline.status).toBe(200);
    contract.assert("RawProviderResponse", offline.body);
    expect(offline.body.warnings).toContain("In snapshot mode this payload is what the offline snapshot holds for the point, not a live answer.");
    expect(offline.body.warnings.filter((w: string) => w.includes("clip"))).toEqual([]);
    const soilgrids = await loam.json("/v1/providers/isric_soilgrids/raw/location?latitude=18.65&longitude=-71.6&properties=clay");
    expect(soilgrids.body.warnings.some((w: string) => w.startsWith("In snapshot mode this payload is the offline clips' cells"))).toBe(true);
  });

  test("the grid route serves its layer: origin, cell size and values GDAL reads at the clip's pixels", async () => {
    const { status, body } = await loam.json("/v1/soil/modeled/grid?provider=fixture_grid&property=silt&depth=5-15cm");
    expect(status).toBe(200);
    contract.assert("GridResponse", body);
    expect([body.provider, body.width, body.height, body.unit]).toEqual(["fixture_grid", 3, 2, "%"]);
    const expected = [21, 22].flatMap((row) => [100, 101, 102].map((column) => gdalValue("silt_5-15cm_mean.tif", [String(column), String(row)]) / 10));
    expect(body.values).toEqual(expected);
    // The fixture's grid lies on the clip's: the same origin as the clip's pixel (100, 21).
    const clip = await loam.json("/v1/soil/modeled/grid?property=silt&depth=5-15cm");
    expect(body.origin[0]).toBeCloseTo(clip.body.origin[0] + 100 * clip.body.cell_size[0], 9);
    expect(body.origin[1]).toBeCloseTo(clip.body.origin[1] - 21 * clip.body.cell_size[1], 9);
    expect(body.layers).toContainEqual({ property: "clay", depth: "0-5cm" });
    const missing = await loam.json("/v1/soil/modeled/grid?provider=fixture_grid&property=sand&depth=0-5cm");
    expect([missing.status, missing.body.error.code]).toEqual([404, "not_found"]);
  });

  test("the location route refuses it naming /v1/soil/modeled; a property it does not serve is a 422 naming what it serves", async () => {
    const wrong = await loam.json("/v1/soil/location?latitude=18.65&longitude=-71.6&providers=fixture_grid");
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.message).toContain("/v1/soil/modeled");
    const notServed = await loam.json(`/v1/soil/modeled?latitude=18.65&longitude=-71.6&provider=fixture_grid&properties=ph`);
    expect(notServed.status).toBe(422);
    expect(notServed.body.error.message).toContain("clay, silt");
  });

  test("the default provider stays the registry's first point_values provider (isric_soilgrids) beside it", async () => {
    const { body } = await loam.json("/v1/soil/modeled?latitude=18.65&longitude=-71.6&properties=clay&depth_bottom_cm=5");
    expect(body.query.provider).not.toBe("fixture_grid");
    expect(body.observations[0].value).toBe(atPoint("clay_0-5cm_mean.tif", -71.6, 18.65) / 10);
  });
});
