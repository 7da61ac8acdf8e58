/**
 * Precision (docs/decisions.md#precision): every value Loam computes (weighted averages,
 * sums over depth, OM/OC conversions) carries at most four significant digits; values read from a source
 * are never rounded. The scan walks the JSON and CSV answers of every data route for the known cases:
 * the data README's points and pedons, every map unit, deep pedons and a map-unit box.
 */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";
import { parseRfc4180, records } from "../support/csv";
import { knownPoints } from "../location/known-answers";
import { knownPedons } from "../pedons/known-answers";
import { sourceMapUnits } from "./source-files";

const { loam } = useLoam();
const RULE_DIGITS = 4;
const NUMERIC = "ph,organic_matter,organic_carbon,sand,silt,clay,bulk_density,ksat";
const MORE = "cec,ec,available_water_capacity,available_water_storage,slope";

/** Significant digits of a number as JSON or CSV writes it (trailing zeros of an integer are not significant). */
function significantDigits(text: string): number {
  const mantissa = text.replace(/^-/, "").replace(/e.*$/i, "");
  const digits = mantissa.includes(".") ? mantissa.replace(".", "").replace(/^0+/, "") : mantissa.replace(/^0+/, "").replace(/0+$/, "");
  return Math.max(digits.length, 1);
}

const found: Array<{ where: string; value: string }> = [];
let checked = 0;
function check(where: string, value: unknown) {
  if (value === null || value === undefined || value === "") return;
  const text = String(value);
  checked++;
  if (significantDigits(text) > RULE_DIGITS) found.push({ where, value: text });
}

/** The derived numbers of a JSON answer, by where each route puts them. */
function scanJson(url: string, body: any) {
  for (const [i, s] of (body.summaries ?? []).entries()) {
    check(`${url} summaries[${i}].value`, s.value);
    check(`${url} summaries[${i}].percent_of_map_unit`, s.percent_of_map_unit);
    for (const c of s.contributions) check(`${url} summaries[${i}].contributions.value`, c.value);
  }
  for (const o of body.observations ?? []) {
    if (o.transformations.length === 0) continue;
    check(`${url} observation ${o.property.id} value`, o.value);
    check(`${url} observation ${o.property.id} uncertainty.lower`, o.uncertainty.lower);
    check(`${url} observation ${o.property.id} uncertainty.upper`, o.uncertainty.upper);
  }
  for (const layer of body.layers ?? []) {
    for (const o of layer.observations) {
      if (o.transformations.length === 0) continue;
      check(`${url} layer ${layer.lab_sample_key} ${o.property.id} value`, o.value);
      check(`${url} layer ${layer.lab_sample_key} ${o.property.id} reporting_limit`, o.reporting_limit);
    }
  }
  for (const h of body.horizons ?? []) {
    if (h.original_depth?.unit !== "in") continue;
    check(`${url} horizon ${h.name} depth.top_cm`, h.depth.top_cm);
    check(`${url} horizon ${h.name} depth.bottom_cm`, h.depth.bottom_cm);
  }
  for (const f of body.features ?? []) if (f.properties?.summary) check(`${url} feature ${f.id} summary.value`, f.properties.summary.value);
}

/** The derived cells of a CSV answer: a summary row's value and percent; an observation row's value where it carries a transformation. */
function scanCsv(url: string, text: string) {
  for (const row of records(parseRfc4180(text))) {
    if ("percent_of_map_unit" in row) {
      check(`${url} csv value`, row.value);
      check(`${url} csv percent_of_map_unit`, row.percent_of_map_unit);
    } else if ("transformations" in row && row.transformations !== "") {
      check(`${url} csv value`, row.value);
      if ("uncertainty_lower" in row) check(`${url} csv uncertainty_lower`, row.uncertainty_lower);
      if ("uncertainty_upper" in row) check(`${url} csv uncertainty_upper`, row.uncertainty_upper);
    }
  }
}

async function scan(url: string) {
  const json = await loam.json(url);
  expect({ url, status: json.status }).toEqual({ url, status: 200 });
  scanJson(url, json.body);
  const csv = await loam.get(`${url}${url.includes("?") ? "&" : "?"}format=csv`);
  if (csv.headers.get("content-type")?.includes("text/csv")) scanCsv(url, await csv.text());
  return json.body;
}

describe("no derived value carries more than four significant digits", () => {
  test("every data route's JSON and CSV answers for the known cases", async () => {
    for (const p of knownPoints()) {
      const at = `latitude=${p.lat}&longitude=${p.lon}`;
      await scan(`/v1/soil/location?${at}&properties=${NUMERIC}`);
      await scan(`/v1/soil/location?${at}&properties=cec,ec,available_water_capacity`);
      await scan(`/v1/soil/summary?${at}&properties=${NUMERIC}`);
    }
    for (const unit of sourceMapUnits()) {
      for (const [top, bottom] of [[0, 30], [0, 100], [30, 200]]) {
        for (const extra of ["", "&include_minors=false&miscellaneous_areas=exclude", "&method=min", "&method=dominant_component"]) {
          await scan(`/v1/soil/mapunits/${unit.mukey}?properties=${NUMERIC}&depth_top_cm=${top}&depth_bottom_cm=${bottom}${extra}`);
          await scan(`/v1/soil/mapunits/${unit.mukey}?properties=${MORE}&depth_top_cm=${top}&depth_bottom_cm=${bottom}${extra}`);
        }
      }
    }
    for (const pedon of [...knownPedons().map((p) => p.pedlabsampnum), "07N0129", "05N0595", "01N0169"]) {
      await scan(`/v1/pedons/${pedon}?properties=ph,organic_carbon,organic_matter,clay,sand,silt,cec,bulk_density`);
    }
    for (const series of ["HOLDREGE", "ARMO", "POLO", "BROWNELL", "CLARION", "ROXBURY"]) await scan(`/v1/series/${series}`);
    await scan("/v1/soil/mapunits?bbox=171.0,7.0,171.2,7.2&property=clay&depth_bottom_cm=30");
    await scan("/v1/soil/mapunits?bbox=-94.37,41.934,-94.35,41.954&property=available_water_storage&depth_bottom_cm=100");
    expect(checked).toBeGreaterThan(1000);
    expect(found).toEqual([]);
  }, 120_000);

  test("originals are never rounded: KSSL's reported clay keeps all its digits, SSURGO's original OM stays beside the derived carbon", async () => {
    const pedon = knownPedons()[0]!;
    const { body } = await loam.json(`/v1/pedons/${pedon.pedlabsampnum}?properties=clay,organic_matter`);
    const layer = body.layers.find((l: any) => l.lab_sample_key === pedon.labsampnum);
    const clay = layer.observations.find((o: any) => o.property.id === "clay");
    expect(clay.value).toBe(pedon.clay);
    expect(significantDigits(String(clay.value))).toBeGreaterThan(RULE_DIGITS);
    // Organic matter derived from KSSL carbon: rounded; the reported carbon it came from is kept as reported.
    const om = layer.observations.find((o: any) => o.property.id === "organic_matter");
    expect(om.transformations[0].formula).toContain("rounded to 4 significant digits");
    expect(significantDigits(String(om.value))).toBeLessThanOrEqual(RULE_DIGITS);
    const point = knownPoints()[0]!;
    const location = await loam.json(`/v1/soil/location?latitude=${point.lat}&longitude=${point.lon}&properties=organic_carbon`);
    const oc = location.body.observations.find((o: any) => o.source.record_id === point.chkey);
    expect(oc.source.original_value).toBe(point.om);
    expect(oc.value).toBe(Number((point.om / 1.724).toPrecision(RULE_DIGITS)));
  });
});
