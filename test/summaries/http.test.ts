/**
 * Map-unit summaries through HTTP (GET /v1/soil/mapunits/{map_unit_key}, GET /v1/soil/summary), on
 * the snapshot and through the fake SDA: NRCS's own muaggatt values for all 21 map units, expected
 * values computed from the source files by the tests' own reader, the body's contract, and bad input.
 */
import { describe, expect, test } from "bun:test";
import { useSnapshotAndFakeSda } from "../support/server";
import { MUAGGATT_AWS, MUAGGATT_CLASSES, sourceMapUnits, twoDecimals, type SourceMapUnit } from "./source-files";

const UNITS = sourceMapUnits();
const { snapshot, viaSda, fake, contract } = useSnapshotAndFakeSda();
const MODES = ["snapshot", "fake SDA"] as const;
const loamOf = (mode: (typeof MODES)[number]) => (mode === "snapshot" ? snapshot : viaSda);


/** muaggatt prints two decimals, rounded half up (18.845 → 18.85): compare at that precision, exactly. */

/** Thickness-weighted mean of one chorizon column over [top, bottom) for one component, from the source rows. */
function componentMean(unit: SourceMapUnit, cokey: string, column: string, top: number, bottom: number): number | null {
  let sum = 0;
  let thickness = 0;
  for (const h of unit.horizonRows.filter((r) => r.cokey === cokey)) {
    const value = h[column];
    if (value === null || value === undefined || h.hzdept_r === null || h.hzdepb_r === null) continue;
    const overlap = Math.min(Number(h.hzdepb_r), bottom) - Math.max(Number(h.hzdept_r), top);
    if (overlap <= 0) continue;
    sum += Number(value) * overlap;
    thickness += overlap;
  }
  return thickness === 0 ? null : sum / thickness;
}

for (const mode of MODES) {
  describe(`muaggatt through HTTP (${mode})`, () => {
    test("available_water_storage weighted_average 0–25/50/100/150 cm equals aws0xxwta for all 21 map units (84 values)", async () => {
      const loam = loamOf(mode);
      let matched = 0;
      for (const unit of UNITS) {
        for (const [bottom, column] of MUAGGATT_AWS) {
          const { status, body } = await loam.json(`/v1/soil/mapunits/${unit.mukey}?properties=aws&method=weighted_average&depth_bottom_cm=${bottom}`);
          expect(status).toBe(200);
          const s = body.summaries[0];
          expect({ mukey: unit.mukey, column, value: twoDecimals(s.value) }).toEqual({ mukey: unit.mukey, column, value: twoDecimals(unit.muaggatt[column]) });
          expect(s).toMatchObject({ property: { id: "available_water_storage" }, method: "weighted_average", unit: "cm", depth: { top_cm: 0, bottom_cm: bottom } });
          matched++;
        }
      }
      expect(matched).toBe(84);
    });

    test("drainage_class and hydrologic_group by default (dominant_condition) equal drclassdcd and hydgrpdcd (42 values)", async () => {
      const loam = loamOf(mode);
      let matched = 0;
      for (const unit of UNITS) {
        const { status, body } = await loam.json(`/v1/soil/mapunits/${unit.mukey}?properties=drainage_class,hydrologic_group`);
        expect(status).toBe(200);
        for (const [id, column] of MUAGGATT_CLASSES) {
          const s = body.summaries.find((x: any) => x.property.id === id);
          expect({ mukey: unit.mukey, id, method: s.method, category: s.category, value: s.value }).toEqual({
            mukey: unit.mukey,
            id,
            method: "dominant_condition",
            category: unit.muaggatt[column] ?? null,
            value: null,
          });
          matched++;
        }
      }
      expect(matched).toBe(42);
    });
  });
}

describe("one map unit, its components and summaries", () => {
  test("every map unit lists every component of the source files, with has_horizon_data, and matches the contract", async () => {
    for (const unit of UNITS) {
      const { status, body } = await snapshot.json(`/v1/soil/mapunits/${unit.mukey}`);
      expect(status).toBe(200);
      contract.assert("SummaryResponse", body);
      expect(body.data_kind).toBe("derived");
      expect(body.map_unit).toMatchObject({ provider: "usda_ssurgo", map_unit_key: unit.mukey, map_unit_symbol: unit.musym, area_symbol: unit.area.replace("-aoi", "") });
      const listed = body.map_unit.components.map((c: any) => [c.component_key, c.component_name, c.component_kind, c.component_percent, c.major_component, c.drainage_class, c.hydrologic_group, c.has_horizon_data]);
      const expected = unit.components.map((c) => [c.key, c.name, c.kind, c.percent, c.major, c.drainage_class, c.hydrologic_group, c.horizons.length > 0]);
      expect(listed.sort()).toEqual(expected.sort());
      // Without properties, the map unit and its components only.
      expect(body.query.properties).toEqual([]);
      expect(body.summaries).toEqual([]);
    }
  });

  test("MH936 Urban land-Ngedebus complex (465586): Urban land is listed at 60 % with has_horizon_data false, and warned", async () => {
    const { status, body } = await snapshot.json("/v1/soil/mapunits/465586?properties=hydrologic_group,drainage_class");
    expect(status).toBe(200);
    const urban = body.map_unit.components.find((c: any) => c.component_name === "Urban land");
    expect(urban).toMatchObject({ component_kind: "Miscellaneous area", component_percent: 60, major_component: true, hydrologic_group: "D", has_horizon_data: false });
    expect(body.warnings.join(" ")).toContain("Urban land (60 %)");
    // Its hydrologic group D decides the dominant condition: the summary says a miscellaneous area contributes.
    const hsg = body.summaries.find((s: any) => s.property.id === "hydrologic_group");
    expect(hsg.category).toBe(UNITS.find((u) => u.mukey === "465586")!.muaggatt.hydgrpdcd);
    expect(hsg.warnings.join(" ")).toMatch(/Miscellaneous area\(s\) .*Urban land/);
    expect(body.summaries.find((s: any) => s.property.id === "drainage_class").category).toBeNull();
  });

  test("min, max and dominant_component of clay 0–50 cm for L138B (2765528) equal the values computed from the source files", async () => {
    const unit = UNITS.find((u) => u.mukey === "2765528")!;
    const clays = unit.horizonRows
      .filter((h) => h.claytotal_r !== null && Number(h.hzdept_r) < 50 && Number(h.hzdepb_r) > 0)
      .map((h) => Number(h.claytotal_r));
    const dominant = [...unit.componentRows].sort((a, b) => Number(b.comppct_r) - Number(a.comppct_r) || Number(a.cokey) - Number(b.cokey))[0]!;
    for (const [method, expected] of [
      ["min", Math.min(...clays)],
      ["max", Math.max(...clays)],
      ["dominant_component", componentMean(unit, dominant.cokey!, "claytotal_r", 0, 50)],
    ] as const) {
      const { status, body } = await snapshot.json(`/v1/soil/mapunits/2765528?properties=clay&method=${method}&depth_bottom_cm=50`);
      expect(status).toBe(200);
      expect({ method, value: body.summaries[0].value }).toEqual({ method, value: Math.round(expected! * 1e9) / 1e9 });
    }
  });

  test("conditional requests: ETag and 304", async () => {
    const first = await snapshot.get("/v1/soil/mapunits/2765528?properties=clay");
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    expect(first.headers.get("cache-control")).toMatch(/^public, max-age=\d+/);
    const again = await snapshot.get("/v1/soil/mapunits/2765528?properties=clay", { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
  });
});

describe("GET /v1/soil/summary at a point", () => {
  const POINT = "latitude=41.944131&longitude=-94.359608"; // IA073 L138B (data README known answer)

  for (const mode of MODES) {
    test(`IA073 L138B clay 0–30 cm shows Clarion and Storden contributions and the formula (${mode})`, async () => {
      const unit = UNITS.find((u) => u.area === "IA073-aoi" && u.musym === "L138B")!;
      const { status, body } = await loamOf(mode).json(`/v1/soil/summary?${POINT}&properties=clay&depth_bottom_cm=30`);
      expect(status).toBe(200);
      contract.assert("SummaryResponse", body);
      expect(body.query).toMatchObject({ latitude: 41.944131, longitude: -94.359608, map_unit_key: null, providers: ["usda_ssurgo"], properties: ["clay"], method: null });
      expect(body.map_unit.map_unit_key).toBe(unit.mukey);
      const s = body.summaries[0];
      // Expected from the source files: per component the thickness-weighted mean, then weighted by comppct_r.
      const perComponent = unit.componentRows.map((c) => ({ name: c.compname!, pct: Number(c.comppct_r), value: componentMean(unit, c.cokey!, "claytotal_r", 0, 30) }));
      const withValue = perComponent.filter((c) => c.value !== null);
      const expected = withValue.reduce((a, c) => a + c.value! * c.pct, 0) / withValue.reduce((a, c) => a + c.pct, 0);
      expect(s.value).toBeCloseTo(expected, 9);
      expect(s.percent_of_map_unit).toBe(withValue.reduce((a, c) => a + c.pct, 0));
      for (const name of ["Clarion", "Storden"]) {
        const contribution = s.contributions.find((c: any) => c.component_name === name);
        const source = perComponent.find((c) => c.name === name)!;
        expect(contribution.component_percent).toBe(source.pct);
        expect(contribution.value).toBeCloseTo(source.value!, 9);
        expect(contribution.covered_depth).toEqual({ top_cm: 0, bottom_cm: 30 });
        expect(contribution.horizon_keys.length).toBeGreaterThan(0);
      }
      expect(s.transformations.map((t: any) => t.formula).join(" | ")).toContain("sum(value x overlap cm) / sum(overlap cm)");
      expect(s.transformations.map((t: any) => t.formula).join(" | ")).toContain("sum(component value x comppct_r) / sum(comppct_r)");
      expect(s.source).toMatchObject({ provider: "usda_ssurgo", original_property_name: "chorizon.claytotal_r" });
      expect(s.source.citation).toContain("IA073");
    });
  }

  test("the fake SDA was asked the map-unit query's T-SQL", () => {
    expect(fake.lastQueries.some((sql) => /WHERE mu\.mukey = \d+ AND l\.areasymbol <> 'US'/.test(sql))).toBe(true);
  });

  test("no map unit at the point: 200, map_unit null, no summaries, a warning", async () => {
    for (const loam of [snapshot, viaSda]) {
      const { status, body } = await loam.json("/v1/soil/summary?latitude=7.6&longitude=171.4&properties=clay");
      expect(status).toBe(200);
      contract.assert("SummaryResponse", body);
      expect(body.map_unit).toBeNull();
      expect(body.summaries).toEqual([]);
      expect(body.warnings.join(" ")).toContain("falls in no usda_ssurgo map unit");
    }
  });

  test("the point's default properties: ph, organic_matter, sand, silt, clay, each by weighted_average", async () => {
    const { status, body } = await snapshot.json(`/v1/soil/summary?${POINT}`);
    expect(status).toBe(200);
    expect(body.query.properties).toEqual(["ph", "organic_matter", "sand", "silt", "clay"]);
    expect(body.summaries.map((s: any) => [s.property.id, s.method])).toEqual(["ph", "organic_matter", "sand", "silt", "clay"].map((id) => [id, "weighted_average"]));
    expect(body.summaries.map((s: any) => s.depth)).toEqual(Array(5).fill({ top_cm: 0, bottom_cm: 200 }));
  });

  test("properties summaries cannot answer are warned, not refused", async () => {
    const { status, body } = await snapshot.json(`/v1/soil/summary?${POINT}&properties=clay,total_nitrogen`);
    expect(status).toBe(200);
    expect(body.summaries.map((s: any) => s.property.id)).toEqual(["clay"]);
    expect(body.warnings.join(" ")).toContain("do not cover 'total_nitrogen'");
  });
});

describe("bad input", () => {
  const cases: Array<[string, number, RegExp]> = [
    ["/v1/soil/mapunits/1", 404, /No map unit with key 1/],
    ["/v1/soil/mapunits/0123", 422, /map_unit_key/],
    ["/v1/soil/mapunits/12a", 422, /map_unit_key/],
    ["/v1/soil/mapunits/99999999999", 422, /map_unit_key/],
    ["/v1/soil/mapunits/3000000000", 422, /map_unit_key/],
    ["/v1/soil/mapunits/1%20OR%201=1", 422, /map_unit_key/],
    ["/v1/soil/mapunits/2765528?properties=drainage_class&method=weighted_average", 422, /'weighted_average'.*'drainage_class'/],
    ["/v1/soil/mapunits/2765528?properties=clay&method=dominant_condition", 422, /'dominant_condition'.*'clay'/],
    ["/v1/soil/mapunits/2765528?method=median", 422, /'method'/],
    ["/v1/soil/mapunits/2765528?properties=ph,sand,silt,clay,om,bulk_density,cec,ec,ksat", 422, /at most 8/],
    ["/v1/soil/mapunits/2765528?properties=unobtainium", 422, /unknown property/],
    ["/v1/soil/mapunits/2765528?properties=clay,", 422, /empty item/],
    ["/v1/soil/mapunits/2765528?depth_top_cm=50&depth_bottom_cm=30", 422, /depth_bottom_cm/],
    ["/v1/soil/mapunits/2765528?depth_bottom_cm=250", 422, /depth_bottom_cm/],
    ["/v1/soil/mapunits/2765528?providers=usda_kssl", 422, /serves laboratory pedons, not map units.*use GET \/v1\/pedons/],
    ["/v1/soil/mapunits/2765528?provider=nobody", 422, /unknown provider/],
    ["/v1/soil/mapunits/2765528?providers=usda_scan", 422, /serves sensor stations and their time series, not .*use GET \/v1\/stations/],
    ["/v1/soil/mapunits/2765528?properties=clay&properties=ph", 422, /repeated/],
    ["/v1/soil/summary?latitude=41.9", 422, /longitude/],
    ["/v1/soil/summary?latitude=100&longitude=0", 422, /latitude/],
    ["/v1/soil/summary?latitude=41.944131&longitude=-94.359608&properties=clay&method=dominant_condition", 422, /'dominant_condition'.*'clay'/],
  ];
  for (const [path, status, message] of cases) {
    test(`${path} → ${status}`, async () => {
      const calls = fake.calls;
      for (const loam of [snapshot, viaSda]) {
        const response = await loam.json(path);
        expect(response.status).toBe(status);
        contract.assert("ErrorResponse", response.body);
        expect(response.body.error.message).toMatch(message);
      }
      // Bad input is refused before any upstream call (404 needs one: the key is looked up).
      if (status !== 404) expect(fake.calls).toBe(calls);
    });
  }
});
