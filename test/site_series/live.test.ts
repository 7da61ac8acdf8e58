/**
 * Live mode of usda_scan (LOAM_UPSTREAM=sda, SCAN_URL) against a stand-in for AWDB on 127.0.0.1
 * answering as the format notes document (./fake-awdb.ts): the station's standard-time clock, negative
 * inch depths, several sensors at one depth, °F converted, provisional values kept an hour, and upstream
 * failures as 502/504 naming usda_scan with nothing cached.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { SdaTransport } from "../../src/upstream/sda/client";
import { startLoam, testSnapshot, type RunningLoam } from "../support/server";
import { contractFrom, type ContractChecker } from "../support/openapi";
import { startFakeAwdb, type FakeAwdb } from "./fake-awdb";
import { ismn, metadata } from "./reference";

let fake: FakeAwdb;
const started: RunningLoam[] = [];
const HOUR = 3600_000;

beforeAll(async () => {
  fake = startFakeAwdb();
  await testSnapshot();
}, 120_000);
afterEach(async () => {
  fake.setFault(null);
  await Promise.all(started.splice(0).map((loam) => loam.stop()));
});
afterAll(() => fake?.close());

/** A live-mode Loam of its own, on a clock the test moves. */
async function liveLoam(clock = { now: Date.UTC(2011, 0, 1) }, timeoutMs = "5000"): Promise<RunningLoam> {
  const loam = await startLoam({
    // SDA is not reachable (port 9): only the station routes and their links are asked.
    source: new SdaTransport({ url: "http://127.0.0.1:9/Tabular/post.rest", timeoutMs: 500 }),
    env: { LOAM_UPSTREAM: "sda", SCAN_URL: fake.url, UPSTREAM_TIMEOUT_MS: timeoutMs },
    now: () => clock.now,
  });
  started.push(loam);
  return loam;
}

let contract: ContractChecker | undefined;
async function checker(loam: RunningLoam): Promise<ContractChecker> {
  return (contract ??= await contractFrom(loam.base));
}

describe("live stations", () => {
  test("the box is every SCAN station of AWDB's /stations answer inside it, in station-id order", async () => {
    const loam = await liveLoam();
    const { status, body } = await loam.json("/v1/stations?bbox=-100,35,-94,40");
    expect(status).toBe(200);
    (await checker(loam)).assert("StationCollection", body);
    const expected = metadata()
      .filter((r) => r.Network === "SCAN" && Number(r.Longitude) >= -100 && Number(r.Longitude) <= -94 && Number(r.Latitude) >= 35 && Number(r.Latitude) <= 40)
      .sort((a, b) => Number(a.Site) - Number(b.Site));
    expect(body.features.map((f: any) => f.id)).toEqual(expected.map((r) => r.stationTriplet));
    expect(fake.requests.at(-1)!.searchParams.get("stationTriplets")).toBe("*:*:SCAN");
    expect(body.warnings.join(" ")).not.toContain("offline snapshot");
  });

  /** How many times AWDB was asked for its whole SCAN station list. */
  const listCalls = () => fake.requests.filter((u) => u.pathname.endsWith("/stations") && u.searchParams.get("stationTriplets") === "*:*:SCAN").length;
  const inBox = ([w, s, e, n]: number[]) =>
    metadata()
      .filter((r) => r.Network === "SCAN" && Number(r.Longitude) >= w! && Number(r.Longitude) <= e! && Number(r.Latitude) >= s! && Number(r.Latitude) <= n!)
      .sort((a, b) => Number(a.Site) - Number(b.Site))
      .map((r) => r.stationTriplet);

  test("two different boxes and a near query download AWDB's station list once; after its day, once more", async () => {
    const clock = { now: Date.UTC(2011, 0, 1) };
    const loam = await liveLoam(clock);
    const before = listCalls();
    const [first, second, near] = await Promise.all([
      loam.json("/v1/stations?bbox=-100,35,-94,40"),
      loam.json("/v1/stations?bbox=-125,30,-100,49"),
      loam.json("/v1/stations?near=37,-97&limit=3"),
    ]);
    expect(first.body.features.map((f: any) => f.id)).toEqual(inBox([-100, 35, -94, 40]));
    expect(second.body.features.map((f: any) => f.id)).toEqual(inBox([-125, 30, -100, 49]));
    expect(near.body.features).toHaveLength(3);
    expect(near.body.features.every((f: any) => inBox([-180, -90, 180, 90]).includes(f.id))).toBe(true);
    expect(listCalls() - before).toBe(1);
    // A day later a new box reads a fresh list.
    clock.now += 24 * HOUR + 1000;
    expect((await loam.json("/v1/stations?bbox=-90,30,-80,40")).body.features.map((f: any) => f.id)).toEqual(inBox([-90, 30, -80, 40]));
    expect(listCalls() - before).toBe(2);
  });

  test("a failed station-list download is not kept: the next box downloads it again and is answered", async () => {
    const loam = await liveLoam();
    const before = listCalls();
    fake.setFault("http-500");
    expect((await loam.json("/v1/stations?bbox=-100,35,-94,40")).body.error).toMatchObject({ code: "upstream_error", provider: "usda_scan" });
    fake.setFault(null);
    const { status, body } = await loam.json("/v1/stations?bbox=-125,30,-100,49");
    expect(status).toBe(200);
    expect(body.features.map((f: any) => f.id)).toEqual(inBox([-125, 30, -100, 49]));
    expect(listCalls() - before).toBe(2);
  });

  test("one station lists its sensors from stationElements: depths in cm from negative inches, several by ordinal", async () => {
    const loam = await liveLoam();
    const { status, body } = await loam.json("/v1/stations/2092:KS:SCAN");
    expect(status).toBe(200);
    (await checker(loam)).assert("StationResponse", body);
    expect(body.sensors.map((s: any) => [s.element, s.source_element, s.depth_cm, s.ordinal, s.source_unit])).toEqual([
      ["soil_moisture", "SMS", 5.08, 1, "pct"],
      ["soil_moisture", "SMS", 5.08, 2, "pct"],
      ["soil_temperature", "STO", 5.08, 1, "degF"],
    ]);
    expect(body.source.citations[0]).toStartWith("Schaefer, G.L., Cosh, M.H., and Jackson, T.J., 2007");
    expect(body.source.source_url).toBe(fake.url);
  });
});

describe("live series", () => {
  test("hourly values are on the station's standard time (UTC-6), written with that offset; null values stay gaps", async () => {
    const loam = await liveLoam();
    const { status, body } = await loam.json("/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-07-01&end=2010-07-01");
    expect(status).toBe(200);
    (await checker(loam)).assert("StationSeriesResponse", body);
    // Asked as the month's window on the station's clock (docs/decisions.md#series-windows).
    const asked = fake.requests.at(-1)!.searchParams;
    expect([asked.get("elements"), asked.get("duration"), asked.get("beginDate"), asked.get("endDate")]).toEqual(["SMS:-2", "HOURLY", "2010-07-01 00:00", "2010-07-31 23:59"]);
    // The station's day 2010-07-01 (UTC-6) is 06:00Z to 06:00Z the next day in the ISMN file.
    const expected = ismn("Abrams").lines.filter((l) => l.time >= "2010-07-01T06:00" && l.time < "2010-07-02T06:00");
    expect(body.values.map((v: any) => [Date.parse(v.time), v.value])).toEqual(expected.map((l) => [Date.parse(l.time), Math.round(l.raw * 10000) / 100]));
    expect(body.values[0].time).toBe("2010-07-01T00:00:00-06:00");
    expect(body.clock.utc_offset_hours).toBe(-6);
    expect(body.transformations).toEqual([]);
    expect(body.warnings.join(" ")).toContain("Other sensors measure soil_moisture at 5.08 cm at this station: sensor 2");
  });

  test("sensor=2 reads the second sensor at the depth", async () => {
    const loam = await liveLoam();
    const first = await loam.json("/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-07-01&end=2010-07-01");
    const second = await loam.json("/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-07-01&end=2010-07-01&sensor=2");
    expect(second.body.values.map((v: any) => v.value)).toEqual(first.body.values.map((v: any) => Math.round((v.value + 1) * 100) / 100));
  });

  test("soil temperature in °F is served in °C, the conversion recorded", async () => {
    const loam = await liveLoam({ now: Date.UTC(2020, 5, 1) });
    const { body } = await loam.json("/v1/stations/2092:KS:SCAN/series?element=soil_temperature&depth_cm=5.08&start=2020-01-02&end=2020-01-02");
    const mock = [-1.0, -1.2, -2.0];
    expect(body.values.map((v: any) => v.value)).toEqual(mock.map((f) => Number((((f - 32) * 5) / 9).toPrecision(4))));
    expect(body.values[0].time).toBe("2020-01-02T00:00:00-06:00");
    expect(body.unit).toBe("°C");
    expect(body.transformations[0]).toMatchObject({ operation: "convert_fahrenheit_to_celsius", from_unit: "degF", to_unit: "°C" });
  });

  test("daily means are of the station's standard-time days", async () => {
    const loam = await liveLoam();
    const { body } = await loam.json("/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&interval=daily&start=2010-07-01&end=2010-07-02");
    const day = ismn("Abrams").lines.filter((l) => l.time >= "2010-07-01T06:00" && l.time < "2010-07-02T06:00").map((l) => l.raw * 100);
    expect(body.values[0]).toMatchObject({ date: "2010-07-01", time: "2010-07-01T00:00:00-06:00", count: day.length, min: Math.min(...day), max: Math.max(...day) });
  });

  test("values of the last 30 days are provisional: warned and kept an hour; older values are kept longer", async () => {
    const clock = { now: Date.UTC(2010, 6, 10, 12) };
    const loam = await liveLoam(clock);
    const recent = "/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-07-01&end=2010-07-01";
    const old = "/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-03-01&end=2010-03-01";
    const first = await loam.json(recent);
    expect(first.body.warnings.join(" ")).toContain("provisional");
    expect((await loam.json(old)).body.warnings.join(" ")).not.toContain("provisional");
    const calls = fake.calls;
    clock.now += 2 * HOUR;
    const again = await loam.json(recent);
    expect(again.body.cache.hit).toBe(false);
    expect(fake.calls).toBe(calls + 1);
    const oldAgain = await loam.json(old);
    expect(oldAgain.body.cache.hit).toBe(true);
    expect(fake.calls).toBe(calls + 1);
  });
});

describe("live failures", () => {
  for (const [fault, words] of [
    ["http-500", "answered HTTP 500"],
    ["not-json", "does not parse as JSON"],
    ["not-array", "did not answer a JSON array"],
  ] as const) {
    test(`an AWDB answer that fails (${fault}) is a 502 naming usda_scan, and nothing of it is cached`, async () => {
      const loam = await liveLoam();
      fake.setFault(fault);
      const path = "/v1/stations?bbox=-100,35,-94,40";
      const failed = await loam.json(path);
      expect(failed.status).toBe(502);
      expect(failed.body.error).toMatchObject({ code: "upstream_error", provider: "usda_scan" });
      expect(failed.body.error.message).toContain(words);
      fake.setFault(null);
      const ok = await loam.json(path);
      expect(ok.status).toBe(200);
      expect(ok.body.cache.hit).toBe(false);
    });
  }

  test("an AWDB that does not answer in time is a 504 naming usda_scan", async () => {
    const loam = await liveLoam(undefined, "1000");
    fake.setFault("hang");
    const { status, body } = await loam.json("/v1/stations/2092:KS:SCAN");
    expect(status).toBe(504);
    expect(body.error).toMatchObject({ code: "upstream_timeout", provider: "usda_scan" });
  });

  test("an unreachable AWDB is a 502 naming usda_scan", async () => {
    const loam = await startLoam({
      source: new SdaTransport({ url: "http://127.0.0.1:9/Tabular/post.rest", timeoutMs: 500 }),
      env: { LOAM_UPSTREAM: "sda", SCAN_URL: "http://127.0.0.1:9/awdbRestApi/services/v1", UPSTREAM_TIMEOUT_MS: "2000" },
    });
    started.push(loam);
    const { status, body } = await loam.json("/v1/stations?near=37,-97");
    expect(status).toBe(502);
    expect(body.error).toMatchObject({ code: "upstream_unreachable", provider: "usda_scan" });
  });
});

describe("live long series", () => {
  test("a 20-year daily range asks AWDB one calendar year at a time; a shifted range asks nothing new", async () => {
    const loam = await liveLoam({ now: Date.UTC(2020, 5, 1) });
    const dataCalls = () => fake.requests.filter((u) => u.pathname.endsWith("/data"));
    const before = dataCalls().length;
    const first = await loam.json("/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&interval=daily&start=1994-01-01&end=2013-12-31");
    expect(first.status).toBe(200);
    (await checker(loam)).assert("StationSeriesResponse", first.body);
    const asked = dataCalls().slice(before).map((u) => [u.searchParams.get("beginDate"), u.searchParams.get("endDate")]);
    expect(asked.sort()).toEqual(Array.from({ length: 20 }, (_, i) => [`${1994 + i}-01-01 00:00`, `${1994 + i}-12-31 23:59`]));
    // Every day the stand-in has (2092's ISMN hours on the UTC-6 clock) is a daily value.
    const days = new Set(ismn("Abrams").lines.map((l) => new Date(Date.parse(l.time) - 6 * HOUR).toISOString().slice(0, 10)));
    expect(first.body.values.map((v: any) => v.date)).toEqual([...days].filter((d) => d >= "1994-01-01" && d <= "2013-12-31"));
    const shifted = await loam.json("/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&interval=daily&start=1994-03-01&end=2013-11-30");
    expect(shifted.body.cache.hit).toBe(true);
    expect(dataCalls().length - before).toBe(20);
  });
});

describe("live values checked", () => {
  test("duplicate, unordered, non-finite and absurd AWDB values are dropped with warnings, never served", async () => {
    const loam = await liveLoam();
    fake.setFault("bad-values");
    const hourly = await loam.json("/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-07-01&end=2010-07-01");
    expect(hourly.status).toBe(200);
    (await checker(loam)).assert("StationSeriesResponse", hourly.body);
    // Hours 0 and 1 (sent twice, same value) once each, in order; hour 2 (two values) none; 1e309 and 1e308 none.
    expect(hourly.body.values.map((v: any) => v.time)).toEqual(["2010-07-01T00:00:00-06:00", "2010-07-01T01:00:00-06:00"]);
    expect(hourly.body.values.every((v: any) => typeof v.value === "number" && v.value >= 0 && v.value <= 100)).toBe(true);
    const words = hourly.body.warnings.join(" ");
    for (const said of ["1 value(s) that are not finite numbers", "1 value(s) outside 0 to 100 % vol", "out of time order", "2 time(s) again with the same value", "2 values for times it reported more than once with different values"]) {
      expect(words).toContain(said);
    }
    // Daily values are read in the year's window: the stand-in sends the bad hours on its first day.
    const daily = await loam.json("/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&interval=daily&start=2010-01-01&end=2010-01-01");
    (await checker(loam)).assert("StationSeriesResponse", daily.body);
    expect(daily.body.values.map((v: any) => [v.date, v.count])).toEqual([["2010-01-01", 2]]);
  });
});

describe("a station list far larger than SCAN's", () => {
  test("is refused as a 502 naming the limit, not read into memory; the next good list is answered", async () => {
    const loam = await liveLoam();
    fake.setFault("huge-list");
    const { status, body } = await loam.json("/v1/stations?bbox=-100,35,-94,40");
    expect(status).toBe(502);
    expect(body.error).toMatchObject({ code: "upstream_error", provider: "usda_scan" });
    expect(body.error.message).toMatch(/more than (5000 stations|\d+ bytes)/);
    fake.setFault(null);
    const ok = await loam.json("/v1/stations?bbox=-100,35,-94,40");
    expect(ok.status).toBe(200);
    expect(ok.body.features.length).toBeGreaterThan(0);
  });
});
