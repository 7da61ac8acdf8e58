/**
 * Done-when of the provider seam: a provider registered from one folder (test/fixtures/fixture_points)
 * plus one registration line is served by /v1/providers, /v1/soil/location and its raw endpoint, with
 * provenance, through its own transport and Loam's cache.
 */
import { describe, expect, test } from "bun:test";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { fixtureProvider, memoryTransport, SITES } from "../fixtures/fixture_points";
import { useLoam } from "../support/server";

const { loam, contract } = useLoam({ providers: [...DEFAULT_PROVIDERS, fixtureProvider] });
const site = SITES[0]!;
const at = `latitude=${site.latitude}&longitude=${site.longitude}`;

describe("a fixture provider registered with one line", () => {
  test("is listed in /v1/providers and /v1 as operational", async () => {
    const { status, body } = await loam.json("/v1/providers");
    expect(status).toBe(200);
    contract.assert("ProvidersResponse", body);
    expect(body.providers.map((p: { id: string }) => p.id)).toContain("fixture_points");
    const meta = await loam.json("/v1");
    expect(meta.body.supported_providers).toContain("fixture_points");
  });

  test("/v1/soil/location serves its observations with provenance, by id or alias", async () => {
    for (const name of ["fixture_points", "fixture"]) {
      const { status, body } = await loam.json(`/v1/soil/location?${at}&providers=${name}&properties=ph,clay&depth_bottom_cm=30`);
      expect(status).toBe(200);
      contract.assert("LocationResponse", body);
      expect(body.query.providers).toEqual(["fixture_points"]);
      const ph = body.observations.filter((o: any) => o.property.id === "ph");
      expect(ph.map((o: any) => [o.value, o.depth])).toEqual([
        [6.2, { top_cm: 0, bottom_cm: 20 }],
        [6.2, { top_cm: 20, bottom_cm: 38 }],
      ]);
      expect(ph[0].source).toMatchObject({ provider: "fixture_points", original_property_name: "layers.ph", citation: "Fixture site clarion-1." });
    }
  });

  test("it declares its own data kind and context: samples at a site, no invented map unit or survey fields", async () => {
    const { body } = await loam.json(`/v1/soil/location?${at}&providers=fixture_points&properties=ph,clay&depth_bottom_cm=30`);
    expect(body.data_kind).toBe("observed");
    expect(body.map_units).toEqual([]);
    for (const o of body.observations) {
      expect(o.data_kind).toBe("observed");
      expect(o).not.toHaveProperty("survey_context");
      expect(o.sample_context).toEqual({ site_id: "clarion-1", sample_id: expect.stringMatching(/^clarion-1\//), sampled_on: null });
    }
    const raw = await loam.json(`/v1/providers/fixture_points/raw/location?${at}`);
    expect(raw.body.warnings).toContain("Fixture values are samples at the fixture's sites, not at the queried point.");
    // SSURGO keeps the spec's shape and its own note.
    const ssurgo = await loam.json(`/v1/soil/location?${at}&properties=ph`);
    expect(ssurgo.body.data_kind).toBe("mapped_survey");
    contract.assert("SoilObservation", ssurgo.body.observations[0]);
    expect(Object.keys(ssurgo.body.observations[0].survey_context).sort()).toEqual(
      ["area_symbol", "component_key", "component_name", "component_percent", "horizon_key", "horizon_name", "map_unit_key", "map_unit_name", "map_unit_symbol"],
    );
  });

  test("properties it does not serve are named in a warning", async () => {
    const { body } = await loam.json(`/v1/soil/location?${at}&providers=fixture_points&properties=ph,cec`);
    expect(body.warnings).toContain("Loam does not serve 'cec' from fixture_points; it serves ph, clay.");
  });

  test("the raw endpoint serves its own JSON, cached: a second request makes no transport call", async () => {
    const path = `/v1/providers/fixture_points/raw/location?latitude=${site.latitude}&longitude=${site.longitude + 0.0001}`;
    const first = await loam.json(path);
    expect(first.status).toBe(200);
    contract.assert("RawProviderResponse", first.body);
    expect(first.body.provider).toBe("fixture_points");
    expect(first.body.upstream_response.sites[0].id).toBe("clarion-1");
    expect(first.body.cache.hit).toBe(false);
    const calls = memoryTransport.calls;
    const second = await loam.json(path);
    expect(second.body.cache.hit).toBe(true);
    expect(memoryTransport.calls).toBe(calls);
  });

  test("SSURGO still answers beside it", async () => {
    const { status, body } = await loam.json(`/v1/soil/location?${at}&properties=ph`);
    expect(status).toBe(200);
    expect(body.observations[0].source.provider).toBe("usda_ssurgo");
  });
});
