/**
 * GET /v1/soil/location is the point_values shape's route for mapped surveys (docs/architecture.md#shapes):
 * a fixture mapped-survey provider registered from one folder (test/fixtures/fixture_survey: the known
 * points' map units, components and horizons, read from the Web Soil Survey text files by the tests' own
 * reader) plus one registration line is answered by the same service as the default provider: the spec's
 * body with its map units, the route's words about components, its CSV and the raw route. Where both
 * serve the same map unit, the shape's words and the observations' values agree.
 */
import { describe, expect, test } from "bun:test";
import { DEFAULT_PROVIDERS, defaultProviderId } from "../../src/providers/registry";
import { fixtureSurvey, POINTS, surveyTransport } from "../fixtures/fixture_survey";
import { useLoam } from "../support/server";
import { parseRfc4180, records } from "../support/csv";

const { loam, contract } = useLoam({ providers: [...DEFAULT_PROVIDERS, fixtureSurvey] });
const SSURGO = defaultProviderId("mapped_location");
const at = (p: { lat: number; lon: number }) => `latitude=${p.lat}&longitude=${p.lon}`;

/** What a value is and where it lies, whichever provider served it. */
const values = (body: any) =>
  body.observations
    .map((o: any) => [o.survey_context.horizon_key, o.property.id, o.value, o.depth.top_cm, o.depth.bottom_cm, o.uncertainty.lower, o.uncertainty.upper].join(" "))
    .sort();

/** The route's own words (the shape's, not a provider's): components, bare components, no horizon in the interval. */
const routeWords = (body: any) => body.warnings.filter((w: string) => /^Components are constituents|no horizon data|^No horizon of the map unit/.test(w));

describe("a mapped-survey fixture provider answers GET /v1/soil/location through the point_values service", () => {
  test("the data README's known points: the map unit it names, survey_context observations, the same values as the default provider's", async () => {
    expect(POINTS.length).toBeGreaterThan(0);
    for (const point of POINTS) {
      const path = `/v1/soil/location?${at(point)}&properties=ph,clay`;
      const { status, body } = await loam.json(`${path}&providers=fixture_survey`);
      expect(status).toBe(200);
      contract.assert("LocationResponse", body);
      expect(body.query.providers).toEqual(["fixture_survey"]);
      expect(body.data_kind).toBe("mapped_survey");
      expect(body.map_units).toEqual([{ area_symbol: point.area.replace("-aoi", ""), map_unit_key: point.mukey, map_unit_symbol: point.musym, map_unit_name: point.muname }]);
      const top = body.observations.find((o: any) => o.survey_context.horizon_key === point.chkey && o.property.id === "ph");
      expect([top.value, top.depth, top.survey_context.component_name]).toEqual([point.ph, { top_cm: point.top, bottom_cm: point.bottom }, point.component]);
      for (const o of body.observations) contract.assert("SoilObservation", o);
      const ssurgo = await loam.json(`${path}&providers=${SSURGO}`);
      expect(values(body)).toEqual(values(ssurgo.body));
      expect(routeWords(body)).toEqual(routeWords(ssurgo.body));
      expect(routeWords(body)[0]).toStartWith("Components are constituents of the map unit");
    }
  });

  test("an interval below some map units' horizons: no observation there, and the route's no-horizon word, as for the default provider", async () => {
    const empty: string[] = [];
    for (const point of POINTS) {
      const path = `/v1/soil/location?${at(point)}&properties=ph&depth_top_cm=199&depth_bottom_cm=200`;
      const { status, body } = await loam.json(`${path}&providers=fixture_survey`);
      const ssurgo = await loam.json(`${path}&providers=${SSURGO}`);
      expect(status).toBe(200);
      expect(values(body)).toEqual(values(ssurgo.body));
      expect(routeWords(body)).toEqual(routeWords(ssurgo.body));
      if (body.observations.length === 0) {
        expect(body.warnings).toContain("No horizon of the map unit's components reports the requested properties within 199–200 cm.");
        empty.push(point.mukey);
      }
    }
    // The data README's Kalona map unit (IA183) has no horizon below 152 cm.
    expect(empty.length).toBeGreaterThan(0);
  });

  test("a point with no map unit: 200, no map unit, no observation, the provider's own word and none of the components' words", async () => {
    const { status, body } = await loam.json("/v1/soil/location?latitude=41.95&longitude=-94.35&properties=ph&providers=fixture_survey");
    expect(status).toBe(200);
    contract.assert("LocationResponse", body);
    expect([body.map_units, body.observations]).toEqual([[], []]);
    expect(body.warnings).toEqual(["No fixture map unit at the point."]);
  });

  test("its CSV: the location table, one row per observation, the default provider's columns", async () => {
    const point = POINTS[0]!;
    const path = `/v1/soil/location?${at(point)}&properties=ph,clay&format=csv`;
    const response = await loam.get(`${path}&providers=fixture_survey`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const rows = parseRfc4180(await response.text());
    const json = await loam.json(`/v1/soil/location?${at(point)}&properties=ph,clay&providers=fixture_survey`);
    expect(records(rows).length).toBe(json.body.observations.length);
    const ssurgo = parseRfc4180(await (await loam.get(`${path}&providers=${SSURGO}`)).text());
    expect(rows[0]).toEqual(ssurgo[0]!);
  });

  test("the raw route wraps its own answer with the route's first word and its note, through its own transport and the cache", async () => {
    const point = POINTS[0]!;
    const path = `/v1/providers/fixture_survey/raw/location?${at(point)}&depth_bottom_cm=7`;
    const { status, body } = await loam.json(path);
    const calls = surveyTransport.calls;
    expect(calls).toBeGreaterThan(0);
    expect(status).toBe(200);
    contract.assert("RawProviderResponse", body);
    expect(body.upstream_response.mapUnit.map_unit_key).toBe(point.mukey);
    expect(body.warnings).toEqual([
      "Raw upstream payload: not normalized, no units or provenance attached, and its layout is not promised to stay stable. Use /v1/soil/location for normalized values.",
      fixtureSurvey.point.note,
    ]);
    const again = await loam.json(path);
    expect([again.body.cache.hit, surveyTransport.calls]).toEqual([true, calls]);
  });
});
