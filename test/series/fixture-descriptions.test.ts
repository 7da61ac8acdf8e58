/**
 * The `descriptions` shape is generic (docs/architecture.md#shapes): a fixture series provider
 * (test/fixtures/fixture_descriptions: six real OSD records in memory, its own key syntax and
 * transport), registered with one line as the registry's first series provider, is served through
 * GET /v1/series/{name} (JSON and CSV), the links map-unit components carry, the OpenAPI document (in
 * its own words) and the catalog. Expected values come from this test's own reading of the OSD files
 * in LOAM_DATA_DIR/osd, not from the fixture.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { descriptionsTransport, fixtureDescriptions, SYNTAX } from "../fixtures/fixture_descriptions";
import { parseRfc4180, records } from "../support/csv";
import { DATA_DIR, useLoam } from "../support/server";

const { loam, contract } = useLoam({ providers: [fixtureDescriptions, ...DEFAULT_PROVIDERS] });

/** An OSD file as SoilKnowledgeBase wrote it: its taxonomic class and its horizons' name, depths, texture and moist colour. */
function osd(file: string) {
  const json = JSON.parse(readFileSync(join(DATA_DIR, "osd", file), "utf8"));
  const horizons = json.HORIZONS[0] as Record<string, any>[];
  return {
    name: json.SERIES as string,
    taxonomicClass: (json["TAXONOMIC CLASS"].content as string).replace(/^TAXONOMIC CLASS:\s*/, ""),
    states: (json.STATES as string).split(","),
    horizons: horizons.map((h) => [h.name, h.top, h.bottom, h.texture_class === "NA" ? null : h.texture_class]),
    moist: horizons.map((h) => (h.moist_hue === "NA" ? null : `${h.moist_hue} ${h.moist_value}/${h.moist_chroma === "NA" ? 0 : h.moist_chroma}`)),
  };
}

const L138B = "2765528";

describe("a fixture descriptions provider registered with one line", () => {
  test("/v1/providers and /v1 list it as operational", async () => {
    const { status, body } = await loam.json("/v1/providers");
    expect(status).toBe(200);
    contract.assert("ProvidersResponse", body);
    expect(body.providers.find((p: { id: string }) => p.id === "fixture_descriptions")).toMatchObject({ operational: true, data_kind: "mapped_survey", supported_properties: [] });
    expect((await loam.json("/v1")).body.supported_providers).toContain("fixture_descriptions");
  });

  test("GET /v1/series/{key} serves the file's class, states and horizons in its key syntax, contract-valid; a repeat is a cache hit", async () => {
    for (const [key, file] of [["clarion", "CLARION.json"], ["new-cambria", "NEW_CAMBRIA.json"], ["webster", "WEBSTER.json"]] as const) {
      const expected = osd(file);
      const { status, body } = await loam.json(`/v1/series/${key}`);
      expect(status, key).toBe(200);
      contract.assert("SeriesResponse", body);
      expect([body.provider, body.source.provider]).toEqual(["fixture_descriptions", "fixture_descriptions"]);
      expect(body.series).toMatchObject({ name: expected.name, taxonomic_class: expected.taxonomicClass, states: expected.states });
      expect(body.horizons.map((h: any) => [h.name, h.depth.top_cm, h.depth.bottom_cm, h.texture_class])).toEqual(expected.horizons);
      expect(body.horizons.map((h: any) => h.moist_color?.notation ?? null)).toEqual(expected.moist);
    }
    const calls = descriptionsTransport.calls;
    const again = await loam.json("/v1/series/clarion");
    expect(again.body.cache.hit).toBe(true);
    expect(descriptionsTransport.calls).toBe(calls);
  });

  test("format=csv: one row per horizon of the file, naming the fixture", async () => {
    const expected = osd("STORDEN.json");
    const response = await loam.get("/v1/series/storden?format=csv");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const rows = records(parseRfc4180(await response.text()));
    expect(rows.map((r) => [r.horizon, r.depth_top_cm, r.moist_color])).toEqual(expected.horizons.map((h, i) => [h[0], String(h[1]), expected.moist[i] ?? ""]));
    expect(new Set(rows.map((r) => [r.series, r.taxonomic_class, r.provider].join("|")))).toEqual(new Set([`${expected.name}|${expected.taxonomicClass}|fixture_descriptions`]));
  });

  test("a name outside its key syntax is a 422 in its words; a key it does not hold is its 404", async () => {
    const calls = descriptionsTransport.calls;
    for (const bad of ["Clarion", "NEW_CAMBRIA", "clarion1"]) {
      const { status, body } = await loam.json(`/v1/series/${bad}`);
      expect([status, body.error.code, body.error.provider], bad).toEqual([422, "validation_error", "fixture_descriptions"]);
      expect(body.error.message).toContain(SYNTAX);
    }
    expect(descriptionsTransport.calls).toBe(calls);
    const missing = await loam.json("/v1/series/harps");
    expect([missing.status, missing.body.error.code, missing.body.error.provider]).toEqual([404, "not_found", "fixture_descriptions"]);
  });

  test("map-unit components link its descriptions through its linker, in its key syntax, and each link answers from it", async () => {
    const { status, body } = await loam.json(`/v1/soil/mapunits/${L138B}`);
    expect(status).toBe(200);
    contract.assert("SummaryResponse", body);
    const links = body.map_unit.components.map((c: any) => [c.component_name, c.series]);
    expect(links).toEqual(["Clarion", "Storden", "Nicollet"].map((name) => [name, { name, url: `/v1/series/${name.toLowerCase()}` }]));
    for (const [name, link] of links) {
      const series = await loam.json(link.url);
      expect([series.status, series.body.provider, series.body.series.name]).toEqual([200, "fixture_descriptions", name.toUpperCase()]);
    }
  });

  test("a component classed in an older great group than its description is named in its words, with its link (MH936 Majuro)", async () => {
    const { status, body } = await loam.json("/v1/soil/mapunits/465580");
    expect(status).toBe(200);
    const current = osd("MAJURO.json").taxonomicClass;
    const majuro = body.map_unit.components.find((c: any) => c.component_name === "Majuro");
    expect(majuro.series).toEqual({ name: "Majuro", url: "/v1/series/majuro" });
    const warning = body.warnings.find((w: string) => w.startsWith("Component(s) Majuro"));
    expect(warning).toContain(`(${majuro.component_key}) are classed as ${majuro.taxonomic_class} in the survey, while the current fixture description of Majuro (/v1/series/majuro) gives ${current}`);
    expect(body.warnings.filter((w: string) => w.includes("Official Series Description"))).toEqual([]);
  });

  test("the OpenAPI document of the route speaks its words: its key syntax, its example, what it calls a description", async () => {
    const doc = (await loam.json("/openapi.json")).body;
    const operation = doc.paths["/v1/series/{name}"].get;
    const name = operation.parameters.find((p: any) => p.name === "name");
    expect([name.description, name.example]).toEqual([`Soil series name: ${SYNTAX}.`, "clarion"]);
    expect(operation.summary).toBe("The fixture description of a soil series");
    expect(JSON.stringify(operation)).not.toMatch(/Official|underscores|40 characters/);
  });
});
