/**
 * An area's total carries the caveats of the map-unit summaries it averages (docs/decisions.md#areas):
 * each map unit's own summary warnings (as GET /v1/soil/mapunits/{key} gives them) and, where its value
 * rests on less than half of the map unit, that share; each said once, naming the map units.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { useLoam } from "../support/server";
import { parseRfc4180, records } from "../support/csv";

setDefaultTimeout(60_000);
const { loam } = useLoam();

/** The caveats the test expects from the map-unit endpoint's own summaries of the area's map units. */
async function expectedCaveats(report: any, query: string): Promise<Map<string, string[]>> {
  const expected = new Map<string, string[]>();
  for (const unit of report.map_units) {
    const { body } = await loam.json(`/v1/soil/mapunits/${unit.map_unit_key}?${query}`);
    const summary = body.summaries[0];
    if (summary.value === null && summary.category === null) continue;
    const own = [...summary.warnings];
    if (summary.percent_of_map_unit < 50) own.push(`rests on ${summary.percent_of_map_unit} % of the map unit`);
    expected.set(unit.map_unit_key, own);
  }
  return expected;
}

describe("GET /v1/soil/aoi: a total keeps its map units' caveats", () => {
  const cases = [
    ["Majuro sand 60-100 cm (MH936)", "bbox=171.20,7.05,171.29,7.12", "properties=sand&depth_top_cm=60&depth_bottom_cm=100"],
    ["water storage to 200 cm, deeper than the data (IA183)", "bbox=-91.8162,41.3022,-91.8128,41.3067", "properties=available_water_storage&depth_bottom_cm=200"],
  ] as const;
  test.each(cases)("%s: every map unit's caveat is on the total, naming the map unit, each once", async (_name, area, query) => {
    const { status, body } = await loam.json(`/v1/soil/aoi?${area}&${query}`);
    expect(status).toBe(200);
    const total = body.summaries[0];
    const expected = await expectedCaveats(body, query);
    const caveats = [...expected.values()].flat();
    expect(caveats.length).toBeGreaterThan(0);
    for (const [key, own] of expected) {
      for (const caveat of own) {
        const naming = total.warnings.filter((w: string) => w.includes(caveat) && w.includes(key));
        if (naming.length !== 1) throw new Error(`map unit ${key}: '${caveat}' is said ${naming.length} times on the total: ${JSON.stringify(total.warnings)}`);
      }
    }
    expect(new Set(total.warnings).size).toBe(total.warnings.length);
  });

  test("Majuro: the total says its value rests on a quarter of map unit 465580 and on Rubble land's placeholder zeros", async () => {
    const { body } = await loam.json("/v1/soil/aoi?bbox=171.20,7.05,171.29,7.12&properties=sand&depth_top_cm=60&depth_bottom_cm=100");
    const text = body.summaries[0].warnings.join(" ");
    const majuro = (await loam.json("/v1/soil/mapunits/465580?properties=sand&depth_top_cm=60&depth_bottom_cm=100")).body.summaries[0];
    expect(majuro.percent_of_map_unit).toBeLessThan(50);
    expect(text).toContain(`465580 (1, Majuro very cobbly loamy sand): its value rests on ${majuro.percent_of_map_unit} % of the map unit`);
    expect(text).toContain("Rubble land");
  });

  test("CSV: the area's row carries the total's caveats; the answer's warnings are said once, on the first row", async () => {
    const path = "/v1/soil/aoi?bbox=171.20,7.05,171.29,7.12&properties=sand&depth_top_cm=60&depth_bottom_cm=100";
    const json = (await loam.json(path)).body;
    const text = await (await loam.get(`${path}&format=csv`)).text();
    const rows = records(parseRfc4180(text));
    const total = rows.find((r) => r.scope === "aoi")!;
    for (const caveat of json.summaries[0].warnings) expect(total.warnings).toContain(caveat);
    expect(rows[0]!.answer_warnings).toBe(json.warnings.join(" | "));
    for (const row of rows.slice(1)) expect(row.answer_warnings).toBe("");
    for (const warning of json.warnings) expect(text.split(warning).length - 1).toBe(1);
  });
});
