/**
 * The site_series shape is generic: a fixture provider of it, registered with one line, is served by
 * the station routes (JSON and CSV), their raw route, the OpenAPI contract and the catalog, beside usda_scan.
 */
import { describe, expect, test } from "bun:test";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { fixtureStations, stationTransport, VALUES } from "../fixtures/fixture_stations";
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
