/**
 * isric_soilgrids live: a stand-in on 127.0.0.1 replays the real SoilGrids REST answer
 * (soilgrids/rest_api/SoilMates_sampleData.extracted.json) and answers built as the REST format
 * documents (null means at the derived CSV's null point); expected values are read from those JSONs here.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DATA_DIR, startLoam, type RunningLoam } from "../support/server";
import { SdaTransport } from "../../src/upstream/sda/client";

const REAL = await Bun.file(join(DATA_DIR, "soilgrids/rest_api/SoilMates_sampleData.extracted.json")).text();
const real = JSON.parse(REAL);
const mappedOf = (name: string, label: string, stat: string) =>
  real.properties.layers.find((l: any) => l.name === name).depths.find((d: any) => d.label === label).values[stat];

/** The derived CSV's null point, as the REST answer shapes it (B.2, B.4: layers and depths present, values null). */
function nullAnswer(lon: number, lat: number): string {
  const csv = require("node:fs").readFileSync(join(DATA_DIR, "soilgrids/derived/wurli_soilgrids-results.csv"), "utf8").trim().split("\n").slice(1).map((l: string) => l.split(","));
  const rows = csv.filter((c: string[]) => c[1] === "56.146191" && c[2] === "8.931305" && c[12] === "");
  const layers = [...new Set(rows.map((r: string[]) => r[3]))].map((name) => ({
    name,
    unit_measure: { d_factor: Number(rows.find((r: string[]) => r[3] === name)[4]), mapped_units: rows.find((r: string[]) => r[3] === name)[5], target_units: rows.find((r: string[]) => r[3] === name)[6], uncertainty_unit: "" },
    depths: rows.filter((r: string[]) => r[3] === name).map((r: string[]) => ({ range: { top_depth: Number(r[9]), bottom_depth: Number(r[10]), unit_depth: "cm" }, label: r[8], values: { mean: null } })),
  }));
  return JSON.stringify({ type: "Feature", geometry: { type: "Point", coordinates: [lon, lat] }, properties: { layers }, query_time_s: 0.1 });
}

let reply: (url: URL) => Response = () => new Response(REAL, { headers: { "content-type": "application/json" } });
const asked: URL[] = [];
const standIn = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => { const url = new URL(request.url); asked.push(url); return reply(url); } });
let loam: RunningLoam;
let tight: RunningLoam;
// A fixed clock in the middle of a minute, so the call budget's window cannot turn during a test.
const now = () => Date.UTC(2026, 0, 5, 12, 0, 30);

beforeAll(async () => {
  const source = new SdaTransport({ url: "http://127.0.0.1:9/never", timeoutMs: 1000 });
  loam = await startLoam({ source, env: { LOAM_UPSTREAM: "sda", SOILGRIDS_URL: `http://127.0.0.1:${standIn.port}/soilgrids/v2.0/properties/query`, SOILGRIDS_REQUESTS_PER_MINUTE: "600" } });
  tight = await startLoam({ source, now, env: { LOAM_UPSTREAM: "sda", SOILGRIDS_URL: `http://127.0.0.1:${standIn.port}/tight/query`, SOILGRIDS_REQUESTS_PER_MINUTE: "1" } });
}, 120_000);
afterAll(async () => {
  await loam.stop();
  await tight.stop();
  standIn.stop(true);
});

describe("SoilGrids live, against a stand-in replaying real answers", () => {
  test("one request asks every needed layer, depth and statistic; values are mean / d_factor in the vocabulary's units; a repeat costs no call", async () => {
    asked.length = 0;
    const path = "/v1/soil/modeled?latitude=32.443658&longitude=-83.428626&properties=clay,bulk_density,organic_carbon,ph,total_nitrogen&depth_bottom_cm=60";
    const { status, body } = await loam.json(path);
    expect(status).toBe(200);
    expect(asked.length).toBe(1);
    const q = asked[0]!.searchParams;
    expect(q.getAll("property").sort()).toEqual(["bdod", "clay", "nitrogen", "phh2o", "soc"]);
    expect(q.getAll("depth").sort()).toEqual(["0-5cm", "15-30cm", "30-60cm", "5-15cm"]);
    expect(q.getAll("value")).toEqual(["mean", "Q0.05", "Q0.5", "Q0.95", "uncertainty"]);
    const find = (id: string, label: string) => body.observations.find((o: any) => o.property.id === id && o.grid_context.depth_label === label);
    expect(find("clay", "0-5cm").value).toBe(mappedOf("clay", "0-5cm", "mean") / 10);
    expect(find("ph", "30-60cm").value).toBe(mappedOf("phh2o", "30-60cm", "mean") / 10);
    // soc dg/kg / 10 = g/kg, / 10 again = %; nitrogen cg/kg / 100 = g/kg, / 10 = %.
    expect(find("organic_carbon", "0-5cm").value).toBe(mappedOf("soc", "0-5cm", "mean") / 100);
    expect(find("organic_carbon", "0-5cm").transformations.map((t: any) => t.to_unit)).toEqual(["g/kg", "% (by weight)"]);
    expect(find("total_nitrogen", "0-5cm").value).toBe(mappedOf("nitrogen", "0-5cm", "mean") / 1000);
    // Documented: uncertainty is stored x10 for every layer, bdod (d_factor 100) included.
    expect(find("bulk_density", "0-5cm").grid_context.statistics.uncertainty).toBe(mappedOf("bdod", "0-5cm", "uncertainty") / 10);
    expect(find("bulk_density", "0-5cm").grid_context.statistics["Q0.5"]).toBe(mappedOf("bdod", "0-5cm", "Q0.5") / 100);
    expect(find("clay", "0-5cm").source.original_value).toBe(mappedOf("clay", "0-5cm", "mean"));
    expect(find("clay", "0-5cm").grid_context.cell_center).toBeNull();
    // The sample lacks Q0.05 and Q0.95: absent, with a warning; the interval is null.
    expect(find("clay", "0-5cm").grid_context.statistics).not.toHaveProperty("Q0.05");
    expect(find("clay", "0-5cm").uncertainty.lower).toBeNull();
    expect(body.warnings.some((w: string) => w.startsWith("Statistics absent from SoilGrids' answer") && w.includes("Q0.95"))).toBe(true);
    const again = await loam.json(path);
    expect(again.body.cache.hit).toBe(true);
    expect(asked.length).toBe(1);
    const raw = await loam.json("/v1/providers/isric_soilgrids/raw/location?latitude=32.443658&longitude=-83.428626&properties=clay");
    expect(raw.body.upstream_response).toEqual(real);
  });

  test("null predictions (the derived CSV's stream point) are no observation and a warning", async () => {
    reply = (url) => new Response(nullAnswer(Number(url.searchParams.get("lon")), Number(url.searchParams.get("lat"))), { headers: { "content-type": "application/json" } });
    const { status, body } = await loam.json("/v1/soil/modeled?latitude=56.146191&longitude=8.931305&properties=clay,sand,silt&depth_bottom_cm=30");
    expect([status, body.error?.message]).toEqual([200, undefined]);
    expect(body.observations).toEqual([]);
    expect(body.warnings.some((w: string) => w.includes("no prediction here (null)") && w.includes("clay 0-5cm"))).toBe(true);
  });

  test("ISRIC's outage pages and malformed answers are 502/504 naming the provider, and nothing is cached", async () => {
    const cases: [() => Response, number][] = [
      [() => new Response("<html>504 Gateway Time-out</html>", { status: 504 }), 504],
      [() => new Response("<html>oops</html>", { status: 500 }), 502],
      [() => new Response("<html>not json</html>", { status: 200 }), 502],
      [() => new Response(JSON.stringify({ ...real, properties: { layers: real.properties.layers.filter((l: any) => l.name !== "clay") } })), 502],
    ];
    for (const [index, [answer, statusCode]] of cases.entries()) {
      reply = answer;
      asked.length = 0;
      const path = `/v1/soil/modeled?latitude=10.5&longitude=${20 + index}&properties=clay`;
      const first = await loam.json(path);
      expect([first.status, first.body.error.provider, first.body.error.retryable]).toEqual([statusCode, "isric_soilgrids", true]);
      await loam.json(path);
      expect(asked.length).toBe(2);
      // A good answer in between closes the circuit breaker those two failures fed.
      reply = () => new Response(REAL);
      expect((await loam.json(`/v1/soil/modeled?latitude=12.5&longitude=${20 + index}&properties=clay`)).status).toBe(200);
    }
    reply = () => new Response(JSON.stringify({ ...real, properties: { layers: [] } }));
    const missing = await loam.json("/v1/soil/modeled?latitude=11&longitude=21&properties=clay");
    expect(missing.body.error.message).toContain("clay");
  });

  test("method=weighted_average over the REST answer: the four depths of 0-60 cm weighted 5, 10, 15 and 30 cm; a masked depth between leaves a gap and no average", async () => {
    reply = () => new Response(REAL);
    const { status, body } = await loam.json("/v1/soil/modeled?latitude=32.44&longitude=-83.42&properties=clay,ph&depth_bottom_cm=60&method=weighted_average");
    expect(status).toBe(200);
    const depths: [string, number][] = [["0-5cm", 5], ["5-15cm", 10], ["15-30cm", 15], ["30-60cm", 30]];
    const average = (name: string) => depths.reduce((n, [label, cm]) => n + cm * mappedOf(name, label, "mean"), 0) / 60 / 10;
    expect(body.observations.map((o: any) => [o.property.id, o.data_kind, o.depth])).toEqual([
      ["clay", "derived", { top_cm: 0, bottom_cm: 60 }],
      ["ph", "derived", { top_cm: 0, bottom_cm: 60 }],
    ]);
    expect(body.observations[0].value).toBeCloseTo(average("clay"), 2);
    expect(body.observations[1].value).toBeCloseTo(average("phh2o"), 2);
    expect(body.observations[0].uncertainty).toMatchObject({ lower: null, upper: null });
    // The same point's depths (method=none) come from the same stored answer: no second call, no budget.
    const calls = asked.length;
    const plain = await loam.json("/v1/soil/modeled?latitude=32.44&longitude=-83.42&properties=clay,ph&depth_bottom_cm=60");
    expect([plain.body.observations.length, plain.body.cache.hit, asked.length]).toEqual([8, true, calls]);
    // SoilGrids masks clay at 5-15 cm (null): 0-5 and 15-30 cm do not meet, so no average is invented.
    const masked = structuredClone(real);
    masked.properties.layers.find((l: any) => l.name === "clay").depths.find((d: any) => d.label === "5-15cm").values.mean = null;
    reply = () => new Response(JSON.stringify(masked));
    const gap = await loam.json("/v1/soil/modeled?latitude=32.45&longitude=-83.42&properties=clay&depth_bottom_cm=30&method=weighted_average");
    expect([gap.status, gap.body.observations]).toEqual([200, []]);
    expect(gap.body.warnings.some((w: string) => w.startsWith("clay: the provider's depths with a value (0-5cm, 15-30cm) leave a gap"))).toBe(true);
  });

  test("over SOILGRIDS_REQUESTS_PER_MINUTE a new point is a 503 upstream_budget_exhausted with Retry-After, and no call is sent", async () => {
    reply = () => new Response(REAL);
    asked.length = 0;
    const first = await tight.json("/v1/soil/modeled?latitude=1&longitude=1&properties=clay");
    expect(first.status).toBe(200);
    const second = await tight.json("/v1/soil/modeled?latitude=2&longitude=2&properties=clay");
    expect(second.status).toBe(503);
    expect(second.body.error).toMatchObject({ code: "upstream_budget_exhausted", retryable: true, provider: "isric_soilgrids" });
    expect(second.headers.get("retry-after")).toBe("30");
    expect(asked.length).toBe(1);
    const cached = await tight.json("/v1/soil/modeled?latitude=1&longitude=1&properties=clay");
    expect(cached.status).toBe(200);
    const invalid = await tight.json("/v1/soil/modeled?latitude=99&longitude=2&properties=clay");
    expect(invalid.status).toBe(422);
    expect(asked.length).toBe(1);
  });
});
