/**
 * Links to series descriptions from other answers: map-unit components (location, map-unit body,
 * summary) of kind Series or Taxadjunct, and pedons by the name they were sampled as, each only when
 * a description exists, each resolving to a 200. The features that carry them never name the provider.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { useLoam } from "../support/server";

const { loam, contract } = useLoam();
const SRC = resolve(import.meta.dir, "../../src");
const L138B = { latitude: 41.944131, longitude: -94.359608, mukey: "2765528" };
const L138B_LINKS = [
  ["Clarion", { name: "Clarion", url: "/v1/series/CLARION" }],
  ["Storden", { name: "Storden", url: "/v1/series/STORDEN" }],
  ["Nicollet", { name: "Nicollet", url: "/v1/series/NICOLLET" }],
];

const linksOf = (components: { component_name: string; series: unknown }[]) => components.map((c) => [c.component_name, c.series]);

describe("map-unit components link their series", () => {
  test("map unit: L138B's Clarion, Storden and Nicollet (kind Series) link descriptions that answer 200", async () => {
    // The location's map units are the spec's four fields (docs/decisions.md#location-map-units); the map-unit body lists the components.
    const { status, body } = await loam.json(`/v1/soil/mapunits/${L138B.mukey}`);
    expect(status).toBe(200);
    contract.assert("SummaryResponse", body);
    expect(linksOf(body.map_unit.components)).toEqual(L138B_LINKS);
    for (const [, link] of L138B_LINKS) {
      const series = await loam.json((link as { url: string }).url);
      expect(series.status).toBe(200);
      expect(series.body.series.name).toBe((link as { name: string }).name.toUpperCase());
    }
  });

  test("the map-unit body and the summary at the point carry the same links", async () => {
    const unit = await loam.json(`/v1/soil/mapunits/${L138B.mukey}`);
    expect(unit.status).toBe(200);
    contract.assert("SummaryResponse", unit.body);
    expect(linksOf(unit.body.map_unit.components)).toEqual(L138B_LINKS);
    const summary = await loam.json(`/v1/soil/summary?latitude=${L138B.latitude}&longitude=${L138B.longitude}`);
    expect(linksOf(summary.body.map_unit.components)).toEqual(L138B_LINKS);
  });

  test("a Taxadjunct links its series; a taxon above family and miscellaneous areas do not", async () => {
    const spillville = await loam.json("/v1/soil/mapunits/2550234");
    expect(spillville.body.map_unit.components.find((c: any) => c.component_name === "Spillville").series).toEqual({ name: "Spillville", url: "/v1/series/SPILLVILLE" });
    const mh = await loam.json("/v1/soil/mapunits/465583");
    expect(mh.status).toBe(200);
    const kinds = mh.body.map_unit.components.map((c: any) => [c.component_kind, c.series]);
    expect(kinds).toContainEqual(["Taxon above family", null]);
    expect(kinds).toContainEqual(["Miscellaneous area", null]);
    expect(kinds.every(([kind, series]: [string, unknown]) => (kind === "Series" || kind === "Taxadjunct") || series === null)).toBe(true);
  });
});

describe("pedons link the series they were sampled as", () => {
  test("Kimo links KIMO; Meade (no description) and 'Grinter (p)' (not a series name) link nothing", async () => {
    const near = await loam.json("/v1/pedons?bbox=-96,38.5,-95,39.5&limit=500");
    contract.assert("PedonCollection", near.body);
    const kimo = near.body.features.find((f: any) => f.id === "02N0245");
    expect(kimo.properties.series).toEqual({ name: "Kimo", url: "/v1/series/KIMO" });
    expect((await loam.json("/v1/series/KIMO")).status).toBe(200);
    const grinter = near.body.features.find((f: any) => f.properties.name === "Grinter (p)");
    expect(grinter.properties.series).toBeNull();
    const far = await loam.json("/v1/pedons?bbox=-101,36.5,-100,37.5&limit=500");
    const meade = far.body.features.find((f: any) => f.properties.name === "Meade");
    expect(meade.properties.series).toBeNull();
    // The pedon's own answer carries the same link.
    const detail = await loam.json("/v1/pedons/02N0245");
    contract.assert("PedonResponse", detail.body);
    expect(detail.body).toMatchObject({ name: "Kimo", series: { name: "Kimo", url: "/v1/series/KIMO" } });
    // Every link of the box resolves.
    const urls = new Set(near.body.features.map((f: any) => f.properties.series?.url).filter(Boolean));
    for (const url of urls) expect((await loam.get(url as string)).status).toBe(200);
  });
});

describe("the seam", () => {
  function files(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
  }
  test("nothing in src/location/, src/pedons/ or src/summaries/ names usda_osd or its folder", () => {
    for (const folder of ["location", "pedons", "summaries"]) {
      for (const file of files(join(SRC, folder))) expect(readFileSync(file, "utf8"), file).not.toMatch(/usda_osd/i);
    }
  });
  test("usda_osd is one folder plus one registration line", () => {
    const registry = readFileSync(join(SRC, "providers/registry.ts"), "utf8");
    expect(registry.match(/usdaOsd/g)).toHaveLength(2); // its import and its entry
    const outside = files(SRC).filter((f) => !f.includes("/providers/usda_osd/") && !f.endsWith("providers/registry.ts"));
    const naming = outside.filter((f) => /providers\/usda_osd/.test(readFileSync(f, "utf8")));
    // Its snapshot step (./import.ts) is in its folder too, run by the build through the registry.
    expect(naming.map((f) => f.slice(SRC.length + 1)).sort()).toEqual([]);
  });
});
