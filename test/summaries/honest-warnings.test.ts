/**
 * Caveats that travel with every value (docs/decisions.md#storage-depth): a storage sum over an interval deeper than the data
 * warns; miscellaneous-area warnings are exact ("placeholder" only for zero sand, silt or clay; any other
 * value of a miscellaneous area "may not be soil"; never a fraction-column warning on pH, OM, EC or bulk
 * density). Expected facts come from the source files through the tests' own reader.
 */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";
import { sourceMapUnits } from "./source-files";

const UNITS = sourceMapUnits();
const { loam, contract } = useLoam();
const FRACTIONS: Record<string, string> = { sand: "sandtotal_r", silt: "silttotal_r", clay: "claytotal_r" };
const OTHERS: Record<string, string> = { ph: "ph1to1h2o_r", organic_matter: "om_r", ec: "ec_r", bulk_density: "dbthirdbar_r", available_water_capacity: "awc_r", ksat: "ksat_r", cec: "cec7_r" };

describe("available_water_storage deeper than the data", () => {
  test("412099 AWS 0–200 cm warns that Kalona's data stop at the source's deepest horizon bottom (152 cm)", async () => {
    const unit = UNITS.find((u) => u.mukey === "412099")!;
    const kalona = unit.componentRows.find((c) => c.compname === "Kalona")!;
    const bottom = Math.max(...unit.horizonRows.filter((h) => h.cokey === kalona.cokey && h.awc_r !== null).map((h) => Number(h.hzdepb_r)));
    expect(bottom).toBe(152);
    const { status, body } = await loam.json("/v1/soil/mapunits/412099?properties=aws&depth_bottom_cm=200");
    expect(status).toBe(200);
    contract.assert("SummaryResponse", body);
    const warning = body.summaries[0].warnings.find((w: string) => w.includes("cover only part of 0–200 cm"));
    expect(warning).toContain(`Kalona 0–${bottom} cm`);
    expect(warning).toContain("unknown, not zero");
    // An interval the data cover has no such warning.
    const covered = await loam.json(`/v1/soil/mapunits/412099?properties=aws&depth_bottom_cm=${bottom}`);
    expect(covered.body.summaries[0].warnings.join(" ")).not.toContain("cover only part");
  });
});

describe("miscellaneous-area warnings are exact", () => {
  const withMisc = UNITS.filter((u) => u.components.some((c) => c.kind === "Miscellaneous area" && c.horizons.length > 0));

  test("summaries: 'placeholder' only for a fraction whose source value is zero; Beaches never; never on pH, OM, EC, bulk density", async () => {
    expect(withMisc.length).toBeGreaterThan(0);
    let placeholders = 0;
    let estimates = 0;
    for (const unit of withMisc) {
      const ids = [...Object.keys(FRACTIONS), ...Object.keys(OTHERS)];
      for (const chunk of [ids.slice(0, 5), ids.slice(5)]) {
        const { status, body } = await loam.json(`/v1/soil/mapunits/${unit.mukey}?properties=${chunk.join(",")}&depth_bottom_cm=200`);
        expect(status).toBe(200);
        for (const s of body.summaries) {
          const column = FRACTIONS[s.property.id] ?? OTHERS[s.property.id]!;
          const text = s.warnings.join(" ");
          for (const c of unit.componentRows.filter((r) => r.compkind === "Miscellaneous area")) {
            const values = unit.horizonRows.filter((h) => h.cokey === c.cokey && h[column] !== null).map((h) => Number(h[column]));
            if (values.length === 0) continue;
            const label = `${c.compname} (${c.comppct_r} %)`;
            const placeholderWarning = s.warnings.find((w: string) => w.includes("placeholder") && w.includes(label));
            if (FRACTIONS[s.property.id] && values.includes(0)) {
              expect(placeholderWarning).toBeDefined();
              placeholders++;
            } else {
              expect({ unit: unit.mukey, property: s.property.id, component: c.compname, placeholderWarning }).toEqual({ unit: unit.mukey, property: s.property.id, component: c.compname, placeholderWarning: undefined });
              expect(s.warnings.find((w: string) => w.includes("may not be soil") && w.includes(label))).toBeDefined();
              estimates++;
            }
          }
          if (!FRACTIONS[s.property.id]) expect(text).not.toMatch(/placeholder|fraction/i);
        }
      }
    }
    expect(placeholders).toBeGreaterThan(0);
    expect(estimates).toBeGreaterThan(0);
  });

  test("location (465580, Rubble land and Beaches): an observation is a placeholder only where its original fraction is zero", async () => {
    const { status, body } = await loam.json("/v1/soil/location?latitude=7.087128&longitude=171.140451&properties=clay,sand,ph,organic_matter,bulk_density");
    expect(status).toBe(200);
    const unit = UNITS.find((u) => u.mukey === body.map_units[0].map_unit_key)!;
    const misc = new Set(unit.componentRows.filter((c) => c.compkind === "Miscellaneous area").map((c) => c.cokey));
    let placeholders = 0;
    let beaches = 0;
    for (const o of body.observations.filter((x: any) => misc.has(x.survey_context.component_key))) {
      const row = unit.horizonRows.find((h) => h.chkey === o.source.record_id)!;
      const column = o.source.original_property_name.replace("chorizon.", "");
      const placeholder = Object.values(FRACTIONS).includes(column) && Number(row[column]) === 0;
      const text = o.warnings.join(" ");
      expect({ chkey: row.chkey, column, placeholder: text.includes("placeholder") }).toEqual({ chkey: row.chkey, column, placeholder });
      if (!placeholder) expect(text).toContain("may not be soil");
      if (placeholder) placeholders++;
      if (o.survey_context.component_name === "Beaches") beaches++;
    }
    expect(placeholders).toBeGreaterThan(0);
    expect(beaches).toBeGreaterThan(0);
  });
});
