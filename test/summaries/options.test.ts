/**
 * Summary options (docs/decisions.md#summary-options): include_minors and
 * miscellaneous_areas. The defaults count every component (NRCS muaggatt, proven by http.test.ts);
 * include_minors=false&miscellaneous_areas=exclude reproduces soilDB get_SDA_property's defaults. The
 * expected numbers are computed from the source files by the tests' own reader, not by Loam's code.
 */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";
import { parseRfc4180, records } from "../support/csv";
import { sourceMapUnits, type SourceMapUnit } from "./source-files";
import { boxOf } from "../support/mh936-box";

const UNITS = sourceMapUnits();
const { loam, contract } = useLoam();
const SOILDB = "include_minors=false&miscellaneous_areas=exclude";

/** Thickness-weighted mean of a chorizon column over [top, bottom) for one component, from the raw rows. */
function componentMean(unit: SourceMapUnit, cokey: string, column: string, top: number, bottom: number): number | null {
  let sum = 0;
  let thickness = 0;
  for (const h of unit.horizonRows.filter((r) => r.cokey === cokey)) {
    const value = h[column];
    if (value == null || h.hzdept_r == null || h.hzdepb_r == null) continue;
    const overlap = Math.min(Number(h.hzdepb_r), bottom) - Math.max(Number(h.hzdept_r), top);
    if (overlap <= 0) continue;
    sum += Number(value) * overlap;
    thickness += overlap;
  }
  return thickness === 0 ? null : sum / thickness;
}

/** soilDB get_SDA_property(method = "Weighted Average") with its defaults: major components only, no miscellaneous areas. */
function soilDbWeightedAverage(unit: SourceMapUnit, column: string, top: number, bottom: number, keep: (c: Record<string, string | null>) => boolean): number | null {
  let sum = 0;
  let percent = 0;
  for (const c of unit.componentRows.filter(keep)) {
    const v = componentMean(unit, c.cokey!, column, top, bottom);
    if (v === null || c.comppct_r == null) continue;
    sum += v * Number(c.comppct_r);
    percent += Number(c.comppct_r);
  }
  return percent === 0 ? null : sum / percent;
}

const major = (c: Record<string, string | null>) => c.majcompflag === "Yes";
const soil = (c: Record<string, string | null>) => c.compkind !== "Miscellaneous area";

describe("include_minors and miscellaneous_areas", () => {
  test("465581 clay 0–30 cm: 6.0 with soilDB's defaults (Rubble land's zeros left out); the default counts them", async () => {
    const unit = UNITS.find((u) => u.mukey === "465581")!;
    const expectedSoilDb = soilDbWeightedAverage(unit, "claytotal_r", 0, 30, (c) => major(c) && soil(c));
    const expectedAll = soilDbWeightedAverage(unit, "claytotal_r", 0, 30, () => true);
    expect(expectedSoilDb).toBe(6);
    const chosen = await loam.json(`/v1/soil/mapunits/465581?properties=clay&depth_bottom_cm=30&${SOILDB}`);
    expect(chosen.status).toBe(200);
    contract.assert("SummaryResponse", chosen.body);
    expect(chosen.body.summaries[0].value).toBe(expectedSoilDb);
    expect(chosen.body.summaries[0].options).toEqual({ include_minors: false, miscellaneous_areas: "exclude" });
    expect(chosen.body.query).toMatchObject({ include_minors: false, miscellaneous_areas: "exclude" });
    // The components left out are named, with their percents.
    const left = unit.componentRows.filter((c) => !(major(c) && soil(c)));
    const warning = chosen.body.summaries[0].warnings.find((w: string) => w.includes("do not count"));
    for (const c of left) expect(warning).toContain(`${c.compname} (${c.comppct_r} %)`);
    const all = await loam.json("/v1/soil/mapunits/465581?properties=clay&depth_bottom_cm=30");
    expect(all.body.summaries[0].value).toBeCloseTo(expectedAll!, 3);
    expect(all.body.summaries[0].value).not.toBe(expectedSoilDb);
    expect(all.body.summaries[0].options).toEqual({ include_minors: true, miscellaneous_areas: "include" });
    expect(all.body.summaries[0].warnings.join(" ")).not.toContain("do not count");
  });

  test("every map unit, clay, sand and ph over 0–30 and 30–100 cm, each option alone and both: the source files' weighted averages", async () => {
    const cases = [
      ["include_minors=false", major],
      ["miscellaneous_areas=exclude", soil],
      [SOILDB, (c: Record<string, string | null>) => major(c) && soil(c)],
    ] as const;
    let compared = 0;
    for (const unit of UNITS) {
      for (const [query, keep] of cases) {
        for (const [top, bottom] of [[0, 30], [30, 100]]) {
          const { status, body } = await loam.json(`/v1/soil/mapunits/${unit.mukey}?properties=clay,sand,ph&depth_top_cm=${top}&depth_bottom_cm=${bottom}&${query}`);
          expect(status).toBe(200);
          for (const [id, column] of [["clay", "claytotal_r"], ["sand", "sandtotal_r"], ["ph", "ph1to1h2o_r"]]) {
            const s = body.summaries.find((x: any) => x.property.id === id);
            const expected = soilDbWeightedAverage(unit, column!, top!, bottom!, keep);
            if (expected === null) expect(s.value).toBeNull();
            else expect(Math.abs(s.value - expected) / Math.max(Math.abs(expected), 1e-9)).toBeLessThan(5e-4);
            compared++;
          }
        }
      }
    }
    expect(compared).toBe(UNITS.length * 3 * 2 * 3);
  }, 60_000);

  test("the point summary and the CSV say which options were used", async () => {
    const { body } = await loam.json(`/v1/soil/summary?latitude=7.087128&longitude=171.140451&properties=clay&${SOILDB}`);
    expect(body.summaries[0].options).toEqual({ include_minors: false, miscellaneous_areas: "exclude" });
    const csv = await (await loam.get(`/v1/soil/mapunits/465581?properties=clay&format=csv&${SOILDB}`)).text();
    const [row] = records(parseRfc4180(csv));
    expect(row).toMatchObject({ include_minors: "false", miscellaneous_areas: "exclude" });
  });

  test("a value other than true/false or include/exclude is a 422 naming the parameter", async () => {
    for (const [query, name] of [["include_minors=no", "include_minors"], ["miscellaneous_areas=drop", "miscellaneous_areas"]]) {
      const { status, body } = await loam.json(`/v1/soil/mapunits/465581?properties=clay&${query}`);
      expect(status).toBe(422);
      contract.assert("ErrorResponse", body);
      expect(body.error.message).toContain(`'${name}'`);
    }
  });

  test("the polygon collection, the OGC items and an area report take the same options: 465581 clay 0–30 cm = 6.0 with soilDB's defaults", async () => {
    const unit = UNITS.find((u) => u.mukey === "465581")!;
    const expected = soilDbWeightedAverage(unit, "claytotal_r", 0, 30, (c) => major(c) && soil(c));
    const box = await boxOf("465581");
    const polygons = await loam.json(`/v1/soil/mapunits?bbox=${box}&properties=clay&depth_bottom_cm=30&${SOILDB}`);
    expect(polygons.status).toBe(200);
    contract.assert("MapUnitCollection", polygons.body);
    expect(polygons.body.query).toMatchObject({ include_minors: false, miscellaneous_areas: "exclude" });
    const features = polygons.body.features.filter((f: any) => f.properties.map_unit_key === "465581");
    expect(features.length).toBeGreaterThan(0);
    for (const f of features) expect(f.properties.clay).toBe(expected);
    const defaults = await loam.json(`/v1/soil/mapunits?bbox=${box}&properties=clay&depth_bottom_cm=30`);
    expect(defaults.body.features.find((f: any) => f.properties.map_unit_key === "465581").properties.clay).not.toBe(expected);
    const ogc = await loam.json(`/ogc/collections/mapunits/items?bbox=${box}&properties=clay&depth_bottom_cm=30&${SOILDB}&limit=1000`);
    expect(ogc.status).toBe(200);
    expect(ogc.body.features.find((f: any) => f.properties.map_unit_key === "465581").properties.clay).toBe(expected);
    const area = await loam.json(`/v1/soil/aoi?bbox=${box}&properties=clay&depth_bottom_cm=30&${SOILDB}`);
    expect(area.status).toBe(200);
    expect(area.body.query).toMatchObject({ include_minors: false, miscellaneous_areas: "exclude" });
    const inArea = area.body.map_units.find((m: any) => m.map_unit_key === "465581");
    expect(inArea.summaries[0].value).toBe(expected);
    expect(inArea.summaries[0].options).toEqual({ include_minors: false, miscellaneous_areas: "exclude" });
  });
});
