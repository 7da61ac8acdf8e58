/**
 * Routes refuse a provider of another role from one role -> endpoint table, with one message: the
 * parameter, what the named provider serves and where to ask for it (docs/architecture.md#providers).
 */
import { describe, expect, test } from "bun:test";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { fixtureProvider } from "../fixtures/fixture_points";
import { useLoam } from "../support/server";

const { loam, contract } = useLoam({ providers: [...DEFAULT_PROVIDERS, fixtureProvider] });
const POINT = "latitude=41.944131&longitude=-94.359608";
const BOX = "-94.369608,41.934131,-94.349608,41.954131";

describe("a provider of another role is refused with the endpoint that serves it", () => {
  const cases: [string, RegExp][] = [
    [`/v1/soil/location?${POINT}&providers=usda_kssl`, /^Query parameter 'providers' names 'usda_kssl', which serves laboratory pedons, not mapped values for a point \(usda_ssurgo and fixture_points serve it\); use GET \/v1\/pedons\?bbox=\.\.\. for it\.$/],
    [`/v1/soil/location?${POINT}&providers=usda_osd`, /^Query parameter 'providers' names 'usda_osd', which serves series descriptions, not mapped values for a point \(usda_ssurgo and fixture_points serve it\); use GET \/v1\/series\/\{name\} for it\.$/],
    [`/v1/pedons?bbox=-96,38.5,-95,39.5&provider=usda_ssurgo`, /^Query parameter 'provider' names 'usda_ssurgo', which serves mapped survey values for a point, not laboratory pedons \(usda_kssl serves it\); use GET \/v1\/soil\/location for it\.$/],
    [`/v1/providers/usda_osd/raw/pedons/02N0245`, /^Path parameter 'provider_id' names 'usda_osd', which serves series descriptions, not laboratory pedons \(usda_kssl serves it\); use GET \/v1\/series\/\{name\} for it\.$/],
    [`/v1/soil/summary?${POINT}&providers=usda_osd`, /^Query parameter 'providers' names 'usda_osd', which serves series descriptions, not map units/],
    [`/v1/soil/mapunits?bbox=${BOX}&provider=usda_kssl`, /^Query parameter 'provider' names 'usda_kssl', which serves laboratory pedons, not map-unit polygons/],
    // Same role, but without what the route needs: said so, without sending the caller elsewhere.
    [`/v1/soil/summary?${POINT}&providers=fixture_points`, /^Query parameter 'providers' names 'fixture_points', which serves mapped survey values for a point but not map units/],
    [`/v1/soil/mapunits?bbox=${BOX}&provider=fixture_points`, /^Query parameter 'provider' names 'fixture_points', which serves mapped survey values for a point but not map-unit polygons/],
    [`/v1/soil/aoi?bbox=${BOX}&provider=usda_kssl`, /^Query parameter 'provider' names 'usda_kssl', which serves laboratory pedons, not map units and polygons to report an area from/],
    [`/v1/soil/aoi?bbox=${BOX}&provider=fixture_points`, /^Query parameter 'provider' names 'fixture_points', which serves mapped survey values for a point but not map units and polygons/],
    [`/v1/soil/points?points=41.94,-94.36&provider=usda_osd`, /^Query parameter 'provider' names 'usda_osd', which serves series descriptions, not map-unit summaries/],
    [`/v1/providers/usda_kssl/raw/location?${POINT}`, /^Path parameter 'provider_id' names 'usda_kssl', which has no raw location endpoint.*raw\/pedons/],
  ];
  for (const [path, message] of cases) {
    test(`${path} -> 422 naming the provider's own endpoint`, async () => {
      const { status, body } = await loam.json(path);
      expect(status).toBe(422);
      contract.assert("ErrorResponse", body);
      expect(body.error.code).toBe("validation_error");
      expect(body.error.message).toMatch(message);
    });
  }
});
