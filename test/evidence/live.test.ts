/**
 * GET /v1/soil/evidence in live mode (LOAM_UPSTREAM=sda), every source behind a stand-in on 127.0.0.1:
 * the fake SDA answering from the test snapshot (survey and lab pedons), a SoilGrids stand-in replaying
 * the real REST answer, the fake AWDB, the fake USGS file and the fake OSD files. Checked: each source
 * is asked at most once per request (SDA serves two sources: one query each), and what is read out of
 * one answer equals the separate routes' (the survey, the nearest pedon's layers); the model's cells are GET /v1/soil/modeled's own
 * values with their interval; SoilGrids' budget spent, or AWDB failing, leaves that source out with a
 * warning naming it while the rest answers 200, and nothing of the partial answer is kept.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { SdaTransport } from "../../src/upstream/sda/client";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { DATA_DIR, startLoam, testSnapshot, type RunningLoam } from "../support/server";
import { logicalQueryFromSql, startFakeSda, type FakeSda } from "../support/fake-sda";
import { startFakeOsd, type FakeOsd } from "../support/fake-osd";
import { startFakeUsgs, type FakeUsgs } from "../support/fake-usgs";
import { startFakeAwdb, type FakeAwdb } from "../site_series/fake-awdb";
import { contractFrom, type ContractChecker } from "../support/openapi";

/**
 * The real REST answer (soilgrids/rest_api/SoilMates_sampleData.extracted.json) carries no Q0.05 or
 * Q0.95; the stand-in answers it with an interval made of its own numbers, in the format's fields
 * (Q0.05 the lower and Q0.95 the higher of Q0.5 and the mean), so the comparison has an interval to hold
 * other sources against.
 */
const RAW = await Bun.file(join(DATA_DIR, "soilgrids/rest_api/SoilMates_sampleData.extracted.json")).json();
for (const layer of RAW.properties.layers) {
  for (const depth of layer.depths) {
    const { mean, "Q0.5": median } = depth.values;
    if (typeof mean === "number" && typeof median === "number") Object.assign(depth.values, { "Q0.05": Math.min(mean, median), "Q0.95": Math.max(mean, median) });
  }
}
const REAL = JSON.stringify(RAW);
const soilgridsAsked: URL[] = [];
const soilgrids = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request) {
    soilgridsAsked.push(new URL(request.url));
    return new Response(REAL, { headers: { "content-type": "application/json" } });
  },
});

let snapshot: SnapshotTransport;
let sda: FakeSda;
let osd: FakeOsd;
let usgs: FakeUsgs;
let awdb: FakeAwdb;
let loam: RunningLoam;
let tight: RunningLoam;
let contract: ContractChecker;
// A fixed clock in the middle of a minute, so SoilGrids' budget window cannot turn during a test.
const now = () => Date.UTC(2026, 0, 5, 12, 0, 30);

function live(path: string, perMinute: string): Promise<RunningLoam> {
  return startLoam({
    source: new SdaTransport({ url: sda.url, timeoutMs: 5000 }),
    now,
    env: {
      LOAM_UPSTREAM: "sda",
      SOILGRIDS_URL: `http://127.0.0.1:${soilgrids.port}/${path}/query`,
      SOILGRIDS_REQUESTS_PER_MINUTE: perMinute,
      SCAN_URL: awdb.url,
      GEOCHEM_URL: usgs.url,
      OSD_URL: osd.urlPattern,
    },
  });
}

beforeAll(async () => {
  snapshot = new SnapshotTransport(await testSnapshot());
  sda = startFakeSda({ answerer: snapshot });
  osd = startFakeOsd({ dataDir: DATA_DIR });
  usgs = startFakeUsgs({ dataDir: DATA_DIR });
  awdb = startFakeAwdb();
  loam = await live("roomy", "600");
  tight = await live("tight", "1");
  contract = await contractFrom(loam.base);
}, 120_000);
afterAll(async () => {
  await loam?.stop();
  await tight?.stop();
  sda?.close();
  osd?.close();
  usgs?.close();
  awdb?.close();
  snapshot?.close();
  soilgrids.stop(true);
});

/** The logical queries (their kinds) the fake SDA was sent since it had answered `before` calls. */
const sdaKindsSince = (before: number) => sda.lastQueries.slice(sda.lastQueries.length - (sda.calls - before)).map((sql) => logicalQueryFromSql(sql)?.kind ?? "unrecognized");

/** Upstream calls so far, per stand-in. */
const calls = () => ({ sda: sda.calls, soilgrids: soilgridsAsked.length, awdb: awdb.calls, usgs: usgs.calls, osd: osd.calls });
const spent = (before: ReturnType<typeof calls>) => {
  const after = calls();
  return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k as keyof typeof before]]));
};

describe("evidence live, every source behind a stand-in", () => {
  test("IA073: every source answers; each source is asked at most once; a repeat asks none", async () => {
    const path = "/v1/soil/evidence?latitude=41.944131&longitude=-94.359608&properties=clay,ph&depth_bottom_cm=60";
    const before = calls();
    const { status, body } = await loam.json(path);
    expect(status).toBe(200);
    contract.assert("EvidenceResponse", body);
    expect(Object.values<any>(body.sources).map((s) => s.role).sort()).toEqual(["lab_pedons", "mapped_location", "point_values", "sample_sites", "series", "site_series"]);
    const asked = spent(before);
    // At most one upstream call per source (docs/decisions.md#evidence): SoilGrids, AWDB, the DS 801 file
    // and the OSD files once at most; SDA serves two sources, each asked once: the survey's map units at
    // the point (the location answer and the map unit read out of one answer) and the lab's nearest pedons
    // with their layers.
    expect(asked.soilgrids).toBe(1);
    expect(asked.awdb).toBeLessThanOrEqual(1);
    expect(asked.usgs).toBeLessThanOrEqual(1);
    expect(asked.osd).toBeLessThanOrEqual(1);
    expect(sdaKindsSince(before.sda).sort()).toEqual(["lab_nearest", "ssurgo_mapunits_at_point"]);
    const series = Object.values<any>(body.sources).find((s) => s.role === "series");
    expect(series.descriptions.filter((d: any) => d.taxonomic_class !== null).length).toBe(1);
    expect(series.warnings.join(" ")).toContain("one upstream call");
    const again = calls();
    const repeat = await loam.json(path);
    expect(repeat.body.cache.hit).toBe(true);
    expect(Object.values(spent(again)).every((n) => n === 0)).toBe(true);
  });

  test("the model's cells are GET /v1/soil/modeled's values and interval; a value outside that interval is said plainly", async () => {
    const at = "latitude=41.944131&longitude=-94.359608";
    const { body } = await loam.json(`/v1/soil/evidence?${at}&properties=clay,ph&depth_bottom_cm=100`);
    const modeled = (await loam.json(`/v1/soil/modeled?${at}&properties=clay,ph&depth_bottom_cm=100`)).body.observations;
    let compared = 0;
    let outside = 0;
    for (const comparison of body.comparison) {
      for (const depth of comparison.depths) {
        const own = modeled.find((o: any) => o.property.id === comparison.property.id && o.depth.top_cm === depth.top_cm && o.depth.bottom_cm === depth.bottom_cm);
        const cell = depth.cells.find((c: any) => c.role === "point_values");
        expect(cell?.value).toBe(own?.value);
        if (!cell) continue;
        expect([cell.lower, cell.upper]).toEqual([own.uncertainty.lower, own.uncertainty.upper]);
        compared += 1;
        if (cell.lower === null || cell.upper === null) continue;
        for (const other of depth.cells.filter((c: any) => c !== cell && c.unit === cell.unit)) {
          const out = other.value < cell.lower || other.value > cell.upper;
          outside += out ? 1 : 0;
          expect([other.provider, depth.statements.some((s: string) => s.startsWith(`${other.provider}'s`))]).toEqual([other.provider, out]);
        }
      }
    }
    expect(compared).toBeGreaterThan(4);
    expect(outside).toBeGreaterThan(0);
  });

  test("IA073 live: the survey read out of its one answer is GET /v1/soil/location's and GET /v1/soil/mapunits/{key}'s own", async () => {
    const at = "latitude=41.944131&longitude=-94.359608";
    const { body } = await loam.json(`/v1/soil/evidence?${at}&properties=clay,ph&depth_bottom_cm=100`);
    const survey = Object.values<any>(body.sources).find((s) => s.role === "mapped_location");
    const location = (await loam.json(`/v1/soil/location?${at}&properties=clay,ph&depth_bottom_cm=100`)).body;
    expect([survey.map_units, survey.observations, survey.warnings]).toEqual([location.map_units, location.observations, location.warnings]);
    const mukey = survey.map_units[0].map_unit_key;
    expect(survey.components).toEqual((await loam.json(`/v1/soil/mapunits/${mukey}`)).body.map_unit.components);
    let compared = 0;
    for (const comparison of body.comparison) {
      for (const depth of comparison.depths) {
        const own = await loam.json(`/v1/soil/mapunits/${mukey}?properties=${comparison.property.id}&depth_top_cm=${depth.top_cm}&depth_bottom_cm=${depth.bottom_cm}`);
        const cell = depth.cells.find((c: any) => c.provider === survey.provider);
        expect(cell?.value ?? null).toBe(own.body.summaries[0]?.value ?? null);
        compared += cell ? 1 : 0;
      }
    }
    expect(compared).toBeGreaterThan(4);
  });

  test("Abrams: the lab pedons are one SDA query, their nearest's layers GET /v1/pedons/{key}'s own; the station and the sites come from their live sources", async () => {
    const before = calls();
    const { status, body } = await loam.json("/v1/soil/evidence?latitude=37.1313&longitude=-97.0859&properties=clay,arsenic");
    expect(status).toBe(200);
    const lab = Object.values<any>(body.sources).find((s) => s.role === "lab_pedons");
    expect(lab.pedons[0].pedon_key).toBe("04N0873");
    const station = Object.values<any>(body.sources).find((s) => s.role === "site_series").stations[0];
    expect(station.station_triplet).toBe("2092:KS:SCAN");
    expect(body.warnings.join(" ")).not.toContain("left out");
    // One query per SDA source: the survey's map units at the point (none here: this survey is not in the
    // snapshot the fake answers from) and the lab's nearest pedons with their layers.
    expect(sdaKindsSince(before.sda).sort()).toEqual(["lab_nearest", "ssurgo_mapunits_at_point"]);
    const own = (await loam.json(`/v1/pedons/${lab.pedons[0].pedon_key}?properties=clay`)).body;
    let compared = 0;
    // Each cell is its layers' depth-weighted mean, computed here from the pedon route's own layers.
    for (const depth of body.comparison.find((c: any) => c.property.id === "clay").depths) {
      const cell = depth.cells.find((c: any) => c.provider === lab.provider);
      if (!cell) continue;
      const parts = own.layers.flatMap((layer: any) => {
        const o = layer.observations.find((x: any) => x.property.id === "clay");
        const cm = Math.min(layer.depth.bottom_cm, depth.bottom_cm) - Math.max(layer.depth.top_cm, depth.top_cm);
        return o && o.value !== null && cm > 0 ? [{ cm, value: o.value }] : [];
      });
      const mean = parts.reduce((sum: number, p: any) => sum + p.cm * p.value, 0) / parts.reduce((sum: number, p: any) => sum + p.cm, 0);
      expect(cell.value).toBeCloseTo(mean, 1);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(3);
  });
});

describe("a source that cannot answer is left out, and the rest answers", () => {
  test("SoilGrids' budget spent: 200 without isric_soilgrids, a warning naming it, and nothing kept", async () => {
    const first = await tight.json("/v1/soil/evidence?latitude=41.944131&longitude=-94.359608&properties=clay");
    expect(first.status).toBe(200);
    const model = Object.values<any>(first.body.sources).find((s) => s.role === "point_values");
    expect(model).toBeDefined();
    // Another cell: the minute's one call is spent.
    const path = "/v1/soil/evidence?latitude=41.96&longitude=-94.36&properties=clay";
    const second = await tight.json(path);
    expect(second.status).toBe(200);
    contract.assert("EvidenceResponse", second.body);
    expect(second.body.sources[model.provider]).toBeUndefined();
    const warning = second.body.warnings.find((w: string) => w.includes("left out"));
    expect(warning).toContain(model.provider);
    expect(second.body.comparison[0].depths.flatMap((d: any) => d.cells).some((c: any) => c.provider === model.provider)).toBe(false);
    expect(Object.values<any>(second.body.sources).map((s) => s.role)).toContain("mapped_location");
    expect(second.headers.get("cache-control")).toContain("max-age=0");
  });

  test("AWDB failing: 200 without the stations, a warning naming the source; once it answers again, the stations are back", async () => {
    const path = "/v1/soil/evidence?latitude=37.1313&longitude=-97.0859&properties=ph";
    const stationsId = Object.entries<any>((await loam.json(path)).body.sources).find(([, s]) => s.role === "site_series")![0];
    // An instance of its own, whose first ask of AWDB fails.
    const fresh = await live("fresh", "600");
    try {
      awdb.setFault("http-500");
      const failing = await fresh.json(path);
      expect(failing.status).toBe(200);
      expect(failing.body.sources[stationsId]).toBeUndefined();
      expect(failing.body.warnings.find((w: string) => w.includes("left out"))).toContain(stationsId);
      expect(Object.values<any>(failing.body.sources).map((s) => s.role)).toContain("lab_pedons");
      expect(failing.headers.get("cache-control")).toContain("max-age=0");
      awdb.setFault(null);
      const back = await fresh.json(path);
      expect(back.status).toBe(200);
      expect(back.body.sources[stationsId].stations[0].station_triplet).toBe("2092:KS:SCAN");
      expect(back.body.warnings.join(" ")).not.toContain("left out");
    } finally {
      awdb.setFault(null);
      await fresh.stop();
    }
  });

  test("SDA failing: the survey and the lab pedons are left out, each named; the series descriptions say why they have no components; the rest answers", async () => {
    const path = "/v1/soil/evidence?latitude=41.95&longitude=-94.35&properties=clay";
    const all = (await loam.json(path)).body.sources;
    const surveyId = Object.entries<any>(all).find(([, s]) => s.role === "mapped_location")![0];
    const labId = Object.entries<any>(all).find(([, s]) => s.role === "lab_pedons")![0];
    const fresh = await live("sda-down", "600");
    try {
      sda.setFault("http-500");
      const { status, body, headers } = await fresh.json(path);
      expect(status).toBe(200);
      contract.assert("EvidenceResponse", body);
      expect([body.sources[surveyId], body.sources[labId]]).toEqual([undefined, undefined]);
      const left = body.warnings.filter((w: string) => w.includes("left out"));
      expect(left.some((w: string) => w.startsWith(surveyId))).toBe(true);
      expect(left.some((w: string) => w.startsWith(labId))).toBe(true);
      expect(Object.values<any>(body.sources).map((s) => s.role).sort()).toEqual(["point_values", "sample_sites", "series", "site_series"]);
      expect(Object.values<any>(body.sources).find((s) => s.role === "series").warnings.join(" ")).toContain("left out");
      expect(body.comparison[0].depths.flatMap((d: any) => d.cells).map((c: any) => c.role)).not.toContain("mapped_location");
      expect(headers.get("cache-control")).toContain("max-age=0");
    } finally {
      sda.setFault(null);
      await fresh.stop();
    }
  });

  test("every source failing: a 502 naming the first, as the point query fails", async () => {
    const down = await startLoam({
      source: new SdaTransport({ url: sda.url, timeoutMs: 5000 }),
      env: { LOAM_UPSTREAM: "sda", SOILGRIDS_URL: "http://127.0.0.1:9/query", SCAN_URL: awdb.url, GEOCHEM_URL: usgs.url, OSD_URL: osd.urlPattern },
    });
    try {
      sda.setFault("http-500");
      awdb.setFault("http-500");
      usgs.setFault("http-500");
      const path = "/v1/soil/evidence?latitude=41.97&longitude=-94.33&properties=clay";
      const { status, body } = await down.json(path);
      expect(status).toBe(502);
      expect(body.error.retryable).toBe(true);
      expect(typeof body.error.provider).toBe("string");
      const point = await down.json("/v1/soil/location?latitude=41.97&longitude=-94.33&properties=clay");
      expect([point.status, point.body.error.code]).toEqual([status, body.error.code]);
    } finally {
      sda.setFault(null);
      awdb.setFault(null);
      usgs.setFault(null);
      await down.stop();
    }
  });
});
