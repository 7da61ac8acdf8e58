/**
 * A planned provider (listed in the catalog, serving no data yet) is a 409 provider_not_operational on
 * every data route that takes a provider, before any upstream call. 0.5.0 has none of its own (the seed's
 * last two became operational), so the test registers one with one line, as a deployment would.
 */
import { describe, expect, test } from "bun:test";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import type { PlannedProvider } from "../../src/providers/provider";
import { useLoam } from "../support/server";

const PLANNED: PlannedProvider = {
  id: "fixture_planned",
  aliases: [],
  role: "planned",
  shortName: "Planned fixture",
  record: {
    id: "fixture_planned",
    name: "A planned fixture source",
    organization: "Loam tests",
    coverage: "Nowhere yet.",
    data_kind: "modeled",
    status: "planned",
    access_method: "Planned.",
    documentation_url: "https://example.org/docs",
    source_url: "https://example.org/data",
    license: "CC BY 4.0",
    authentication: "none",
    operational: false,
    supported_properties: [],
    limitations: ["Not live yet."],
  },
};

const { loam, contract } = useLoam({ providers: [...DEFAULT_PROVIDERS, PLANNED] });

describe("a planned provider", () => {
  test("is listed in the catalog as planned and not operational", async () => {
    const { body } = await loam.json("/v1/providers");
    expect(body.providers.find((p: any) => p.id === "fixture_planned")).toMatchObject({ operational: false, status: "planned" });
  });

  for (const path of [
    "/v1/soil/location?latitude=41.944131&longitude=-94.359608&providers=fixture_planned",
    "/v1/soil/modeled?latitude=18.65&longitude=-71.6&provider=fixture_planned",
    "/v1/pedons?bbox=-96,38.5,-95,39.5&provider=fixture_planned",
    "/v1/stations?provider=fixture_planned",
    "/v1/soil/mapunits?bbox=-94.369608,41.934131,-94.349608,41.954131&provider=fixture_planned",
  ]) {
    test(`${path.split("?")[0]} answers 409 provider_not_operational naming it`, async () => {
      const { status, body } = await loam.json(path);
      expect(status).toBe(409);
      contract.assert("ErrorResponse", body);
      expect(body.error).toMatchObject({ code: "provider_not_operational", provider: "fixture_planned" });
    });
  }
});
