/**
 * Polygon summaries say what they rest on (docs/decisions.md#polygon-summaries): each map-unit polygon with a
 * summary carries percent_of_map_unit beside the value, and the collection warns, by map unit, where a
 * value rests on less than half of the map unit (MH936 465580 sand 60-100 cm, 465586 clay) or includes
 * miscellaneous-area placeholder fractions (465581 clay 0-30 cm: Rubble land's zeros). Expected values
 * come from the tests' own reader of the WSS text files (test/summaries/source-files.ts) and the
 * shapefile read with pyshp; several properties come back as flat members, in GeoJSON and CSV.
 */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";
import { sourceMapUnits, type SourceMapUnit } from "../summaries/source-files";
import { parseRfc4180, records } from "../support/csv";
import { boxOf } from "../support/mh936-box";

const { loam, contract } = useLoam();
const MH936 = sourceMapUnits().filter((u) => u.area === "MH936");
const unit = (mukey: string) => MH936.find((u) => u.mukey === mukey)!;


const COLUMN: Record<string, string> = { sand: "sandtotal_r", clay: "claytotal_r" };

/**
 * The test's own weighted average: per component the thickness-weighted mean of the horizons that
 * overlap [top, bottom) and have a value; then the component means weighted by comppct_r over the
 * components that have one. Returns the value and the percent it rests on.
 */
function weightedAverage(mu: SourceMapUnit, property: string, top: number, bottom: number) {
  let sum = 0;
  let percent = 0;
  for (const c of mu.components) {
    let weighted = 0;
    let thickness = 0;
    for (const h of c.horizons) {
      const v = h.values[COLUMN[property]!];
      if (v === null || v === undefined || h.top === null || h.bottom === null) continue;
      const overlap = Math.min(bottom, h.bottom) - Math.max(top, h.top);
      if (overlap <= 0) continue;
      weighted += v * overlap;
      thickness += overlap;
    }
    if (thickness === 0 || c.percent === null) continue;
    sum += (weighted / thickness) * c.percent;
    percent += c.percent;
  }
  return { value: percent === 0 ? null : sum / percent, percent };
}

/** Miscellaneous-area components whose horizons in the interval hold a 0 for the property (SSURGO's placeholder). */
function placeholderComponents(mu: SourceMapUnit, property: string, top: number, bottom: number): string[] {
  return mu.components
    .filter((c) => (c.kind ?? "").toLowerCase() === "miscellaneous area")
    .filter((c) => c.horizons.some((h) => h.values[COLUMN[property]!] === 0 && h.top !== null && h.bottom !== null && Math.min(bottom, h.bottom) > Math.max(top, h.top)))
    .map((c) => c.name);
}

describe("polygon summaries carry percent_of_map_unit and the collection warns by map unit", () => {
  for (const [mukey, property, top, bottom] of [
    ["465580", "sand", 60, 100],
    ["465586", "clay", 0, 200],
    ["465581", "clay", 0, 30],
  ] as const) {
    test(`${mukey} ${property} ${top}-${bottom} cm: value and percent as the source files give them; warned iff under half or on placeholders`, async () => {
      const mu = unit(mukey);
      const expected = weightedAverage(mu, property, top, bottom);
      const placeholders = placeholderComponents(mu, property, top, bottom);
      const { status, body } = await loam.json(`/v1/soil/mapunits?bbox=${await boxOf(mukey)}&property=${property}&depth_top_cm=${top}&depth_bottom_cm=${bottom}`);
      expect(status).toBe(200);
      contract.assert("MapUnitCollection", body);
      const features = body.features.filter((f: any) => f.properties.map_unit_key === mukey);
      expect(features.length).toBeGreaterThan(0);
      for (const f of features) {
        expect(f.properties.summary.percent_of_map_unit).toBe(expected.percent);
        expect(f.properties[`${property}_percent_of_map_unit`]).toBe(expected.percent);
        // Loam rounds what it computes to four significant digits (docs/decisions.md#precision).
        const halfUnit = 0.5 * 10 ** (Math.floor(Math.log10(Math.abs(expected.value!))) - 3);
        expect(Math.abs(f.properties.summary.value - expected.value!)).toBeLessThanOrEqual(halfUnit * (1 + 1e-9));
        expect(f.properties[property]).toBe(f.properties.summary.value);
      }
      const about = body.warnings.filter((w: string) => w.startsWith(`Map unit ${mukey} `));
      const thin = about.find((w: string) => w.includes(`${property} ${top}-${bottom} cm on ${expected.percent} %`));
      expect(thin !== undefined).toBe(expected.percent < 50);
      const placeheld = about.find((w: string) => w.includes("placeholders"));
      expect(placeheld !== undefined).toBe(placeholders.length > 0);
      for (const name of placeholders) expect(placeheld).toContain(name);
    });
  }

  test("the issue's cases hold in the files: 465580 sand 60-100 rests on 25 %, 465586 clay on 35 %, 465581 clay 0-30 includes Rubble land", () => {
    expect(weightedAverage(unit("465580"), "sand", 60, 100).percent).toBe(25);
    expect(weightedAverage(unit("465586"), "clay", 0, 200).percent).toBe(35);
    expect(placeholderComponents(unit("465581"), "clay", 0, 30)).toContain("Rubble land");
  });
});

describe("several summary properties as flat members", () => {
  test("properties=clay,drainage_class: <id> and <id>_percent_of_map_unit per polygon, in GeoJSON and CSV; a class is a string", async () => {
    const box = await boxOf("465580");
    const { status, body } = await loam.json(`/v1/soil/mapunits?bbox=${box}&properties=clay,drainage_class&depth_bottom_cm=30`);
    expect(status).toBe(200);
    contract.assert("MapUnitCollection", body);
    expect(body.query.properties).toEqual(["clay", "drainage_class"]);
    expect(body.query.property).toBeNull();
    for (const f of body.features) {
      expect(f.properties.summary).toBeUndefined();
      const own = (await loam.json(`/v1/soil/mapunits/${f.properties.map_unit_key}?properties=clay,drainage_class&depth_bottom_cm=30`)).body.summaries;
      expect(f.properties.clay).toBe(own[0].value);
      expect(f.properties.clay_percent_of_map_unit).toBe(own[0].percent_of_map_unit);
      expect(f.properties.drainage_class).toBe(own[1].category);
      expect(f.properties.drainage_class_percent_of_map_unit).toBe(own[1].percent_of_map_unit);
    }
    const csv = await (await loam.get(`/v1/soil/mapunits?bbox=${box}&properties=clay,drainage_class&depth_bottom_cm=30&format=csv`)).text();
    const rows = records(parseRfc4180(csv));
    expect(rows.length).toBe(body.features.length);
    rows.forEach((row, i) => {
      const p = body.features[i].properties;
      expect(row.feature_id).toBe(body.features[i].id);
      expect(row.clay).toBe(p.clay === null ? "" : String(p.clay));
      expect(row.clay_percent_of_map_unit).toBe(String(p.clay_percent_of_map_unit));
      expect(row.drainage_class).toBe(p.drainage_class ?? "");
    });
  });

  test("bad combinations are 422s naming the rule: property and properties together, an unknown id, a method that does not fit", async () => {
    const box = await boxOf("465580");
    for (const [query, words] of [
      ["property=clay&properties=ph", /not both/],
      ["properties=clay,nonsense", /unknown property 'nonsense'/],
      ["properties=clay,drainage_class&method=weighted_average", /drainage_class/],
      ["method=min", /needs a 'property'/],
    ] as const) {
      const { status, body } = await loam.json(`/v1/soil/mapunits?bbox=${box}&${query}`);
      expect({ query, status }).toEqual({ query, status: 422 });
      expect(body.error.message).toMatch(words);
    }
  });
});
