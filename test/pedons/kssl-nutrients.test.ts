/**
 * KSSL's exchangeable calcium and potassium (NH4OAc at pH 7) and extractable phosphorus by method
 * (Mehlich-3, Olsen: two quantities, two ids) are served (docs/decisions.md#vocabulary): every value the
 * KSSL export holds for the placed pedons is a row of the bulk table, counted and compared value for
 * value with the export as Python's csv module reads it.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { DATA_DIR, useLoam } from "../support/server";
import { parseWithPython, PYTHON } from "../support/csv";

setDefaultTimeout(60_000);
const { loam } = useLoam();

const COLUMNS = { calcium: "ca_nh4_ph_7", potassium: "k_nh4_ph_7", phosphorus_mehlich3: "phosphorus_mehlich_3", phosphorus_olsen: "phosphorus_olsen" } as const;

/**
 * Per id: the export's non-empty values, keyed by labsampnum; `placed`: only layers with depths of pedons
 * with coordinates (a layer without depths is left out of every depth interval, with a warning naming it).
 */
async function exportValues(placed: boolean): Promise<Record<string, Record<string, string>>> {
  const dir = join(DATA_DIR, "kssl/KS");
  const script = `import csv,json
rd=lambda f: csv.DictReader(open(${JSON.stringify(dir)}+'/'+f, newline=''))
placed={r['pedlabsampnum'] for r in rd('lab_combine_nasis_ncss.csv') if r['latitude_decimal_degrees'] and r['longitude_decimal_degrees']}
pedon={r['labsampnum']: r['pedlabsampnum'] for r in rd('lab_layer.csv') if not ${placed ? "True" : "False"} or (r['hzn_top'].strip() and r['hzn_bot'].strip())}
cols=${JSON.stringify(COLUMNS)}
out={k: {} for k in cols}
for r in rd('lab_chemical_properties.csv'):
  if ${placed ? "True" : "False"} and pedon.get(r['labsampnum']) not in placed: continue
  for k,c in cols.items():
    if r[c].strip(): out[k][r['labsampnum']]=r[c].strip()
print(json.dumps(out))`;
  const child = Bun.spawn([PYTHON!, "-c", script], { stdout: "pipe" });
  return JSON.parse(await new Response(child.stdout).text());
}

describe.skipIf(PYTHON === null)("KSSL calcium, potassium and phosphorus by method", () => {
  test("the export holds thousands of these values: Loam never says KSSL lacks them", async () => {
    const all = await exportValues(false);
    const counts = Object.fromEntries(Object.entries(all).map(([id, values]) => [id, Object.keys(values).length]));
    for (const id of Object.keys(COLUMNS)) expect(counts[id]).toBeGreaterThan(100);
    const { body } = await loam.json("/v1/properties");
    const served = new Map(body.properties.map((p: any) => [p.id, p.status]));
    for (const id of Object.keys(COLUMNS)) expect(served.get(id)).toBe("experimental");
  });

  test("every value of the placed pedons is a row of /v1/pedons/layers (CSV over the whole export), value for value", async () => {
    const expected = await exportValues(true);
    const text = await (await loam.get(`/v1/pedons/layers?bbox=-180,-90,180,90&properties=${Object.keys(COLUMNS).join(",")}&format=csv`)).text();
    const [header, ...rows] = await parseWithPython(text);
    const at = (name: string) => header!.indexOf(name);
    for (const id of Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]) {
      const own = rows.filter((r) => r[at("property_id")] === id);
      expect({ id, rows: own.length }).toEqual({ id, rows: Object.keys(expected[id]!).length });
      for (const r of own) {
        expect(Number(r[at("value")])).toBe(Number(expected[id]![r[at("layer_key")]!]));
        expect(r[at("original_column")]).toBe(`lab_chemical_properties.${COLUMNS[id]}`);
      }
    }
    // Two extractants, two quantities: the units and methods say which.
    const method = (id: string) => rows.find((r) => r[at("property_id")] === id)![at("measurement_method")];
    expect(method("phosphorus_mehlich3")).toContain("Mehlich-3");
    expect(method("phosphorus_olsen")).toContain("Olsen");
  });
});
