/**
 * SSURGO's representative-value column names are aliases of the canonical ids (
 * docs/decisions.md#ssurgo-column-aliases): a user typing `claytotal_r` gets the values of that very
 * column. Column names come from mstabcol.txt and values from chorizon.txt / comp.txt, read by the
 * tests' own reader.
 */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";
import { readTable, sourceMapUnits } from "../summaries/source-files";
import { knownPoints } from "../location/known-answers";

const { loam, contract } = useLoam();
const HORIZON_ALIASES = ["ph1to1h2o_r", "om_r", "sandtotal_r", "silttotal_r", "claytotal_r", "dbthirdbar_r", "cec7_r", "ec_r", "awc_r", "ksat_r"];

describe("SSURGO column names as aliases", () => {
  test("each chorizon _r name answers the point query with that column's values (MH936 Majuro point)", async () => {
    const point = knownPoints().find((p) => p.area === "MH936" && p.component === "Majuro")!;
    const horizons = readTable("MH936", "chorizon");
    for (const column of HORIZON_ALIASES) {
      expect(Object.keys(horizons[0]!)).toContain(column);
      const { status, body } = await loam.json(`/v1/soil/location?latitude=${point.lat}&longitude=${point.lon}&properties=${column}`);
      expect({ column, status }).toEqual({ column, status: 200 });
      contract.assert("LocationResponse", body);
      expect(body.observations.length).toBeGreaterThan(0);
      for (const o of body.observations) {
        expect(o.source.original_property_name).toBe(`chorizon.${column}`);
        const row = horizons.find((h) => h.chkey === o.source.record_id)!;
        expect(o.source.original_value).toBe(Number(row[column]));
      }
    }
  });

  test("slope_r (component) and awc_r summarize as slope and available_water_capacity", async () => {
    const unit = sourceMapUnits().find((u) => u.mukey === "2765528")!;
    expect(Object.keys(readTable("IA073-aoi", "component")[0]!)).toContain("slope_r");
    const { status, body } = await loam.json(`/v1/soil/mapunits/${unit.mukey}?properties=slope_r,awc_r&method=dominant_component&depth_bottom_cm=30`);
    expect(status).toBe(200);
    expect(body.query.properties).toEqual(["slope", "available_water_capacity"]);
    const dominant = [...unit.componentRows].sort((a, b) => Number(b.comppct_r) - Number(a.comppct_r))[0]!;
    expect(body.summaries[0].value).toBe(Number(dominant.slope_r));
  });

  test("om_r is organic matter, never organic carbon; an _l or _h name is not an alias", async () => {
    const { body } = await loam.json("/v1/properties");
    const om = body.properties.find((p: any) => p.id === "organic_matter");
    expect(om.accepted_aliases).toContain("om_r");
    expect(body.properties.find((p: any) => p.id === "organic_carbon").accepted_aliases).not.toContain("om_r");
    const low = await loam.json("/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=claytotal_l");
    expect(low.status).toBe(422);
    expect(low.body.error.message).toContain("claytotal_l");
  });
});
