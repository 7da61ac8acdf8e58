/**
 * The snapshot's polygon keys (docs/decisions.md#national-mirror): each survey area's polygons are its
 * code x 10^7 + 1, 2, ... in the shapefile's record order (the records read here with pyshp, the tests'
 * own reader), the code computed here from the symbol's letters and digits; a symbol of another shape
 * keys above every SSURGO-shaped one and below 2^53.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { areaKeyBase, MAX_POLYGON_KEY } from "../../../src/providers/usda_ssurgo/polygon-keys";
import { DATA_DIR, testSnapshot } from "../../support/server";
import { SURVEY_SHAPEFILES } from "../../support/survey-shapefiles";

/** Each record's MUKEY and AREASYMBOL of a shapefile with a geometry, in record order. */
async function records(path: string): Promise<{ mukey: string; area: string }[]> {
  const script = `import shapefile,json; r=shapefile.Reader(${JSON.stringify(path)})\nprint(json.dumps([{"mukey":rec['MUKEY'],"area":rec['AREASYMBOL']} for s,rec in zip(r.shapes(), r.records()) if s.points]))`;
  const child = Bun.spawn(["/usr/bin/python3", "-c", script], { stdout: "pipe" });
  return JSON.parse(await new Response(child.stdout).text());
}

const SHAPEFILES = SURVEY_SHAPEFILES;

describe("polygon keys", () => {
  test("are the area's code x 10^7 + the polygon's place in its shapefile", async () => {
    const db = new Database(await testSnapshot(), { readonly: true });
    try {
      for (const [area, shapefile] of SHAPEFILES) {
        const letters = (area.charCodeAt(0) - 65) * 26 + (area.charCodeAt(1) - 65);
        const code = letters * 1000 + Number(area.slice(2));
        const expected = (await records(join(DATA_DIR, "ssurgo", shapefile))).map((r, i) => ({ id: code * 1e7 + i + 1, mukey: r.mukey, areasymbol: r.area }));
        expect(expected.length).toBeGreaterThan(0);
        expect(db.query("SELECT id, mukey, areasymbol FROM mupolygon WHERE areasymbol = ? ORDER BY id").all(area)).toEqual(expected);
      }
    } finally {
      db.close();
    }
  });

  test("a symbol of another shape keys above every SSURGO-shaped one, below 2^53", () => {
    const top = areaKeyBase("ZZ999") + 1e7 - 1;
    for (const symbol of ["US", "ia073", "IA0731", null]) {
      expect(areaKeyBase(symbol)).toBeGreaterThan(top);
      expect(areaKeyBase(symbol) + 1e7 - 1).toBeLessThanOrEqual(MAX_POLYGON_KEY);
    }
    expect(MAX_POLYGON_KEY).toBeLessThan(2 ** 53);
  });
});
