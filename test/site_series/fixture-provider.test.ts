/**
 * The site_series shape is generic: a fixture provider of it, registered with one line, is served by
 * the station routes (JSON and CSV), their raw route, the OpenAPI contract and the catalog, beside usda_scan.
 */
import { describe, expect, test } from "bun:test";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { fixtureStations, stationTransport, VALUES } from "../fixtures/fixture_stations";
import { DAILY_VALUES, fixtureDailyStations } from "../fixtures/fixture_daily_stations";
import { parseRfc4180 } from "../support/csv";
import { useLoam } from "../support/server";

const { loam, contract } = useLoam({ providers: [...DEFAULT_PROVIDERS, fixtureStations] });
const P = "provider=fixture_stations";

describe("a fixture site_series provider registered with one line", () => {
  test("is listed in /v1/providers as operational", async () => {
    const { body } = await loam.json("/v1/providers");
    contract.assert("ProvidersResponse", body);
    expect(body.providers.find((p: any) => p.id === "fixture_stations")).toMatchObject({ operational: true, supported_properties: ["soil_moisture"] });
  });

  test("its stations are listed in a box and one station is served, with its own key syntax", async () => {
    const box = await loam.json(`/v1/stations?bbox=-98,37,-96,38&${P}`);
    expect(box.status).toBe(200);
    contract.assert("StationCollection", box.body);
    expect(box.body.features.map((f: any) => f.id)).toEqual(["abrams-1"]);
    const one = await loam.json(`/v1/stations/abrams-1?${P}`);
    contract.assert("StationResponse", one.body);
    expect(one.body.provider).toBe("fixture_stations");
    expect(one.body.links.pedon).toBeNull();
    const bad = await loam.json(`/v1/stations/2092:KS:SCAN?${P}`);
    expect([bad.status, bad.body.error.message]).toEqual([422, expect.stringContaining("a fixture key such as abrams-1")]);
    // The registry's default stays the first site_series provider.
    const scan = await loam.json("/v1/stations/2092:KS:SCAN");
    expect(scan.body.provider).toBe("usda_scan");
  });

  test("its series is served as JSON and CSV through Loam's cache, its depth and element checked", async () => {
    const path = `/v1/stations/abrams-1/series?element=vwc&depth_cm=5&start=2007-01-01&end=2007-01-01&${P}`;
    const { status, body } = await loam.json(path);
    expect(status).toBe(200);
    contract.assert("StationSeriesResponse", body);
    expect(body.values.map((v: any) => [Date.parse(v.time), v.value, v.flags.join(" ")])).toEqual(VALUES);
    expect(body.source.citations).toEqual(["Fixture citation."]);
    const calls = stationTransport.calls;
    const [header, ...rows] = parseRfc4180(await (await loam.get(`${path}&format=csv`)).text());
    expect(rows.map((r) => Number(r[header!.indexOf("value")]))).toEqual(VALUES.map((v) => v[1]));
    expect(stationTransport.calls).toBe(calls);
    const depth = await loam.json(`/v1/stations/abrams-1/series?element=soil_moisture&depth_cm=7&${P}`);
    expect([depth.status, depth.body.error.message]).toEqual([422, expect.stringContaining("5 (2 in)")]);
  });

  test("a station inside a mapped survey links the survey at its point with the map unit's name", async () => {
    const { body } = await loam.json(`/v1/stations/clarion-1?${P}`);
    expect(body.links.survey.href).toBe("/v1/soil/location?latitude=41.944131&longitude=-94.359608");
    const location = await loam.json(body.links.survey.href);
    expect(location.body.map_units.length).toBeGreaterThan(0);
    expect(body.links.survey.map_unit_name).toBe(location.body.map_units[0].map_unit_name);
  });

  test("its raw route serves its own record", async () => {
    const { status, body } = await loam.json("/v1/providers/fixture_stations/raw/stations/abrams-1");
    expect(status).toBe(200);
    contract.assert("RawStationResponse", body);
    expect(body.upstream_response.properties.name).toBe("Abrams fixture");
  });
});

describe("a fixture provider whose source reports daily values (its declared native interval)", () => {
  const daily = useLoam({ providers: [...DEFAULT_PROVIDERS, fixtureStations, fixtureDailyStations] });
  const D = "provider=fixture_daily_stations";

  test("serves its daily values as reported: labelled daily and observed, never a mean of hourly values", async () => {
    for (const interval of ["", "&interval=daily"]) {
      const { status, body } = await daily.loam.json(`/v1/stations/abrams-1/series?element=soil_moisture&depth_cm=5&start=2007-01-01&end=2007-01-03${interval}&${D}`);
      expect(status).toBe(200);
      daily.contract.assert("StationSeriesResponse", body);
      expect([body.interval, body.native_interval, body.data_kind, body.query.interval]).toEqual(["daily", "daily", "observed", "daily"]);
      expect(body.values.map((v: any) => [Date.parse(v.time), v.value, v.flags.join(" "), v.count])).toEqual(DAILY_VALUES.map((v) => [...v, null]));
      expect(body.transformations.map((t: any) => t.operation)).not.toContain("daily_mean_of_hourly_values");
      expect(JSON.stringify(body)).not.toMatch(/hourly value/);
    }
  });

  test("refuses hourly values, which its source does not have", async () => {
    const { status, body } = await daily.loam.json(`/v1/stations/abrams-1/series?element=soil_moisture&depth_cm=5&interval=hourly&${D}`);
    expect([status, body.error.code]).toEqual([422, "validation_error"]);
    expect(body.error.message).toContain("reports daily values");
  });

  test("an hourly provider's daily values are derived means, labelled so", async () => {
    const { body } = await daily.loam.json(`/v1/stations/abrams-1/series?element=soil_moisture&depth_cm=5&interval=daily&start=2007-01-01&end=2007-01-01&${P}`);
    expect([body.interval, body.native_interval, body.data_kind]).toEqual(["daily", "hourly", "derived"]);
    expect(body.transformations.map((t: any) => t.operation)).toContain("daily_mean_of_hourly_values");
  });
});
