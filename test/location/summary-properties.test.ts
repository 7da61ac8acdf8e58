/**
 * The point query and the 0.3.0 vocabulary: available_water_capacity and ksat are observations
 * (values from the source files), class and storage properties point to /v1/soil/summary, and
 * values of miscellaneous areas carry a warning.
 */
import { describe, expect, test } from "bun:test";
import { useSnapshotAndFakeSda } from "../support/server";
import { sourceMapUnits } from "../summaries/source-files";

const UNITS = sourceMapUnits();
const { snapshot, viaSda, contract } = useSnapshotAndFakeSda();
const L138B = "latitude=41.944131&longitude=-94.359608"; // IA073 L138B Clarion (data README known answer)
const MAJURO = "latitude=7.087128&longitude=171.140451"; // MH936 map unit 1, with Rubble land and Beaches
// Inside a MH936 polygon of map unit 7 (465586, Urban land-Ngedebus complex), picked from the snapshot's polygons.
const URBAN = "latitude=7.076486&longitude=171.330437";

for (const [mode, loam] of [["snapshot", snapshot], ["fake SDA", viaSda]] as const) {
  describe(`GET /v1/soil/location (${mode})`, () => {
    test("available_water_capacity and ksat are observations with the source files' awc_r and ksat_r", async () => {
      const { status, body } = await loam.json(`/v1/soil/location?${L138B}&properties=awc,ksat`);
      expect(status).toBe(200);
      contract.assert("LocationResponse", body);
      const unit = UNITS.find((u) => u.area === "IA073-aoi" && u.musym === "L138B")!;
      const expected = unit.horizonRows.flatMap((h) => [
        ...(h.awc_r === null ? [] : [[h.chkey, "available_water_capacity", Number(h.awc_r), "cm/cm", "chorizon.awc_r"]]),
        ...(h.ksat_r === null ? [] : [[h.chkey, "ksat", Number(h.ksat_r), "µm/s", "chorizon.ksat_r"]]),
      ]);
      const served = body.observations.map((o: any) => [o.survey_context.horizon_key, o.property.id, o.value, o.unit, o.source.original_property_name]);
      const order = (rows: any[][]) => [...rows].sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`));
      expect(order(served)).toEqual(order(expected));
      expect(body.warnings.join(" ")).not.toMatch(/does not (report|serve)/);
    });

    test("class and storage properties name GET /v1/soil/summary instead of saying SSURGO does not report them", async () => {
      const { status, body } = await loam.json(`/v1/soil/location?${L138B}&properties=clay,drainage_class,hydrologic_group,aws`);
      expect(status).toBe(200);
      expect(body.observations.every((o: any) => o.property.id === "clay")).toBe(true);
      for (const id of ["drainage_class", "hydrologic_group", "available_water_storage"]) {
        const warning = body.warnings.find((w: string) => w.startsWith(`'${id}'`));
        expect(warning).toContain(`/v1/soil/summary?latitude=41.944131&longitude=-94.359608&properties=${id}`);
      }
      expect(body.warnings.join(" ")).not.toMatch(/does not (report|serve) .(drainage_class|hydrologic_group|available_water_storage)./);
    });

    test("MH936 Urban land-Ngedebus complex: Urban land (60 %, no horizons) is listed with has_horizon_data false, in location and summary", async () => {
      const source = UNITS.find((u) => u.mukey === "465586")!;
      const location = await loam.json(`/v1/soil/location?${URBAN}&properties=clay`);
      expect(location.status).toBe(200);
      contract.assert("LocationResponse", location.body);
      expect(location.body.map_units.map((m: any) => m.map_unit_key)).toEqual(["465586"]);
      // Exactly the spec's four fields; Urban land and Beaches (no horizons in comp/chorizon) are named in a warning.
      expect(Object.keys(location.body.map_units[0]).sort()).toEqual(["area_symbol", "map_unit_key", "map_unit_name", "map_unit_symbol"]);
      const bare = source.components.filter((c) => c.horizons.length === 0);
      expect(bare.map((c) => [c.name, c.percent]).sort()).toEqual([["Beaches", 5], ["Urban land", 60]]);
      const warning = location.body.warnings.find((w: string) => w.includes("no horizon data"));
      for (const c of bare) expect(warning).toContain(`${c.name} (${c.percent} %, ${c.kind}`);
      expect(warning).toContain(`no observation describes ${bare.reduce((s, c) => s + c.percent!, 0)} % of the map unit`);
      expect(warning).toContain("/v1/soil/mapunits/465586");
      // No observation can come from Urban land: it has no horizons.
      expect(location.body.observations.some((o: any) => o.survey_context.component_name === "Urban land")).toBe(false);
      const summary = await loam.json(`/v1/soil/summary?${URBAN}&properties=clay,hydrologic_group`);
      expect(summary.status).toBe(200);
      expect(summary.body.map_unit.components.find((c: any) => c.component_name === "Urban land").has_horizon_data).toBe(false);
    });

    test("miscellaneous areas (Rubble land, Beaches) carry a warning on each of their observations; soils do not", async () => {
      const { status, body } = await loam.json(`/v1/soil/location?${MAJURO}&properties=clay,ksat`);
      expect(status).toBe(200);
      const unit = UNITS.find((u) => u.mukey === body.map_units[0].map_unit_key)!;
      const kindOf = new Map(unit.components.map((c) => [c.key, c.kind]));
      const miscellaneous = body.observations.filter((o: any) => kindOf.get(o.survey_context.component_key) === "Miscellaneous area");
      const soils = body.observations.filter((o: any) => kindOf.get(o.survey_context.component_key) !== "Miscellaneous area");
      expect(miscellaneous.length).toBeGreaterThan(0);
      expect(soils.length).toBeGreaterThan(0);
      for (const o of miscellaneous) expect(o.warnings.join(" ")).toContain("Miscellaneous area");
      for (const o of soils) expect(o.warnings.join(" ")).not.toContain("Miscellaneous area");
      expect(body.warnings.join(" ")).toContain("miscellaneous areas");
      // The map unit is the spec's four fields; its components are listed by /v1/soil/mapunits/{key}.
      expect(Object.keys(body.map_units[0]).sort()).toEqual(["area_symbol", "map_unit_key", "map_unit_name", "map_unit_symbol"]);
    });
  });
}
