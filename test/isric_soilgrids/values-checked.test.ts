/**
 * SoilGrids' values are checked before they are served (docs/decisions.md#isric-soilgrids-values; issue
 * 43, Low): a stand-in on 127.0.0.1 answers the real REST answer
 * (soilgrids/rest_api/SoilMates_sampleData.extracted.json) with single values made impossible, written
 * into the JSON text as SoilGrids would send them (`1e309` parses to Infinity, `1e308` is finite). Each
 * is dropped with a warning naming it; everything else of the answer is still served as it is.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { SdaTransport } from "../../src/upstream/sda/client";
import { contractFrom, type ContractChecker } from "../support/openapi";
import { DATA_DIR, startLoam, type RunningLoam } from "../support/server";

const REAL = await Bun.file(join(DATA_DIR, "soilgrids/rest_api/SoilMates_sampleData.extracted.json")).text();
const real = JSON.parse(REAL);
const depthOf = (answer: any, name: string, label: string) => answer.properties.layers.find((l: any) => l.name === name).depths.find((d: any) => d.label === label);

/** The real answer with `edit` applied; a value given as a string is written into the JSON text as it is (a number JSON.stringify cannot write). */
function answerWith(edit: (answer: any) => void): string {
  const answer = structuredClone(real);
  edit(answer);
  return JSON.stringify(answer).replace(/"literal:([^"]+)"/g, "$1");
}

let body = REAL;
const standIn = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(body, { headers: { "content-type": "application/json" } }) });
let loam: RunningLoam;
let contract: ContractChecker;

beforeAll(async () => {
  loam = await startLoam({
    source: new SdaTransport({ url: "http://127.0.0.1:9/never", timeoutMs: 1000 }),
    env: { LOAM_UPSTREAM: "sda", SOILGRIDS_URL: `http://127.0.0.1:${standIn.port}/soilgrids/v2.0/properties/query`, SOILGRIDS_REQUESTS_PER_MINUTE: "600" },
  });
  contract = await contractFrom(loam.base);
}, 120_000);
afterAll(async () => {
  await loam?.stop();
  standIn.stop(true);
});

let point = 0;
async function modeled(properties: string, bottom = 15) {
  point += 1;
  const answer = await loam.json(`/v1/soil/modeled?latitude=${(30 + point / 100).toFixed(2)}&longitude=-83.4&properties=${properties}&depth_bottom_cm=${bottom}`);
  expect(answer.status).toBe(200);
  contract.assert("ModeledResponse", answer.body);
  return answer.body;
}

const served = (answer: any, property: string) => answer.observations.filter((o: any) => o.property.id === property).map((o: any) => o.grid_context.depth_label);
const dropped = (answer: any) => answer.warnings.find((w: string) => w.includes("cannot be right were dropped")) ?? "";

describe("SoilGrids values that cannot be right are dropped with a warning, never served", () => {
  test("1e309 (Infinity), 1e308, -1e309 and negative means: no observation for that depth, the other depth served", async () => {
    for (const [literal, shown] of [["1e309", "Infinity"], ["1e308", "1e+308"], ["-1e309", "-Infinity"], ["-30", "-30"]]) {
      body = answerWith((a) => (depthOf(a, "clay", "0-5cm").values.mean = `literal:${literal}`));
      const answer = await modeled("clay");
      expect(served(answer, "clay")).toEqual(["5-15cm"]);
      expect(answer.observations[0].value).toBe(depthOf(real, "clay", "5-15cm").values.mean / 10);
      expect(dropped(answer)).toContain(`clay 0-5cm mean (${shown}:`);
    }
  });

  test("a value beyond its quantity's own bound (clay over 1000 g/kg, pH over 14) is dropped; the rest of its depth stands", async () => {
    body = answerWith((a) => {
      depthOf(a, "clay", "5-15cm").values.mean = 1001;
      depthOf(a, "phh2o", "0-5cm").values["Q0.5"] = 900;
    });
    const answer = await modeled("clay,ph");
    expect(served(answer, "clay")).toEqual(["0-5cm"]);
    const ph = answer.observations.find((o: any) => o.property.id === "ph" && o.grid_context.depth_label === "0-5cm");
    // The mean stands; the impossible median is left out of the statistics.
    expect(ph.value).toBe(depthOf(real, "phh2o", "0-5cm").values.mean / 10);
    expect(ph.grid_context.statistics).not.toHaveProperty("Q0.5");
    expect(dropped(answer)).toContain("clay 5-15cm mean (1001: above 1000");
    expect(dropped(answer)).toContain("phh2o 0-5cm Q0.5 (900: above 140");
  });

  test("an interval whose upper bound lies below its lower is no interval: uncertainty bounds null, quantiles left out, said", async () => {
    body = answerWith((a) => Object.assign(depthOf(a, "sand", "0-5cm").values, { "Q0.05": 700, "Q0.95": 300 }));
    const answer = await modeled("sand", 5);
    const sand = answer.observations[0];
    expect(sand.value).toBe(depthOf(real, "sand", "0-5cm").values.mean / 10);
    expect([sand.uncertainty.lower, sand.uncertainty.upper]).toEqual([null, null]);
    expect(Object.keys(sand.grid_context.statistics).sort()).toEqual(["mean", "uncertainty"]);
    expect(dropped(answer)).toContain("sand 0-5cm Q0.05, Q0.5 and Q0.95");
    // The same statistics in order are served as the interval.
    body = answerWith((a) => Object.assign(depthOf(a, "sand", "0-5cm").values, { "Q0.05": 300, "Q0.95": 700 }));
    const ordered = (await modeled("sand", 5)).observations[0];
    expect([ordered.uncertainty.lower, ordered.uncertainty.upper]).toEqual([30, 70]);
  });

  test("a depth whose range is not its label's (-15 to -5 cm inside a 0-15 cm answer) is not served; every served depth lies in the asked interval", async () => {
    body = answerWith((a) => (depthOf(a, "silt", "0-5cm").range = { top_depth: -15, bottom_depth: -5, unit_depth: "cm" }));
    const answer = await modeled("silt,clay");
    expect(served(answer, "silt")).toEqual(["5-15cm"]);
    expect(served(answer, "clay")).toEqual(["0-5cm", "5-15cm"]);
    for (const o of answer.observations) expect(o.depth.top_cm >= 0 && o.depth.bottom_cm <= 15 && o.depth.top_cm < o.depth.bottom_cm).toBe(true);
    expect(dropped(answer)).toContain("silt 0-5cm (its range is -15 to -5 cm");
    // Not reported as absent from the answer: it was there, and wrong.
    expect(answer.warnings.some((w: string) => w.includes("has no value for silt 0-5cm"))).toBe(false);
  });

  test("the weighted average is made only of values that passed: with an Infinity at 0-5 cm it is the 5-15 cm value, over 5-15 cm", async () => {
    body = answerWith((a) => (depthOf(a, "clay", "0-5cm").values.mean = "literal:1e309"));
    point += 1;
    const { status, body: answer } = await loam.json(`/v1/soil/modeled?latitude=${(30 + point / 100).toFixed(2)}&longitude=-83.4&properties=clay&depth_bottom_cm=15&method=weighted_average`);
    expect(status).toBe(200);
    expect(answer.observations.map((o: any) => [o.data_kind, o.depth, o.value])).toEqual([["derived", { top_cm: 5, bottom_cm: 15 }, depthOf(real, "clay", "5-15cm").values.mean / 10]]);
    expect(dropped(answer)).toContain("clay 0-5cm mean (Infinity:");
  });
});
