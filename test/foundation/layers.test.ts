/**
 * GET /v1/layers: the map's layers, derived from the registry (one per operational provider whose role
 * has a layer) with the snapshot's places. Expected places come from datasets itself (the survey
 * area folders, the KSSL pedon table read here) and from the data routes' own answers for each box.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR, useLoam } from "../support/server";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";

/** The dataset folders of a source (its README beside them is not one). */
const folders = (source: string) => readdirSync(join(DATA_DIR, source), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

const { loam, contract } = useLoam();

const KIND_OF_ROLE: Record<string, string> = { mapped_location: "survey_polygons", lab_pedons: "pedons", sample_sites: "sites", point_values: "grid", site_series: "stations" };

describe("GET /v1/layers", () => {
  test("lists one layer per operational provider with a map role, in registry order, each naming its kind, endpoint and catalog title", async () => {
    const { status, body } = await loam.json("/v1/layers");
    expect(status).toBe(200);
    contract.assert("LayersResponse", body);
    const expected = DEFAULT_PROVIDERS.filter((p) => p.role in KIND_OF_ROLE);
    expect(body.layers.map((l: any) => [l.id, l.kind])).toEqual(expected.map((p) => [p.id, KIND_OF_ROLE[p.role]]));
    const providers = (await loam.json("/v1/providers")).body.providers as any[];
    for (const layer of body.layers) {
      const record = providers.find((p) => p.id === layer.id);
      expect(layer.title).toBe(record.name);
      expect(layer.coverage.description).toBe(record.coverage);
      expect(layer.properties).toEqual(record.supported_properties);
      // The endpoint it names answers for this provider.
      const PROBES: Record<string, string> = {
        pedons: "?bbox=-96,38.9,-95.9,39&limit=1",
        sites: "?limit=1",
        survey_polygons: "?bbox=-94.362,41.943,-94.358,41.946&limit=1",
        grid: "?property=clay&depth=0-5cm",
        stations: "?limit=1",
      };
      const probe = layer.endpoint + PROBES[layer.kind];
      expect((await loam.json(probe)).status).toBe(200);
    }
  });

  test("every layer's endpoint and detail are paths of the OpenAPI document, parameters named as it names them", async () => {
    const layers = (await loam.json("/v1/layers")).body.layers as { endpoint: string; detail_endpoint: string | null }[];
    const paths = Object.keys((await loam.json("/openapi.json")).body.paths);
    const missing = layers.flatMap((l) => [l.endpoint, l.detail_endpoint]).filter((p) => p !== null && !paths.includes(p));
    expect(missing).toEqual([]);
  });

  test("names every survey area of the snapshot with a box holding its polygons, and the KSSL pedons with their count", async () => {
    const { body } = await loam.json("/v1/layers");
    const survey = body.layers.find((l: any) => l.kind === "survey_polygons");
    const symbols = folders("ssurgo").map((d) => d.slice(0, 5).toUpperCase()).sort();
    expect(survey.coverage.source).toBe("snapshot");
    expect(survey.coverage.places.map((p: any) => p.id).sort()).toEqual(symbols);
    for (const place of survey.coverage.places.filter((p: any) => p.id.startsWith("IA"))) {
      const [w, s, e, n] = place.bbox;
      expect(place.label).toContain(place.id);
      const polygons = (await loam.json(`/v1/soil/mapunits?bbox=${w},${s},${e},${n}`)).body.features as any[];
      expect(polygons.length).toBeGreaterThan(0);
      for (const f of polygons) {
        for (const ring of f.geometry.type === "Polygon" ? f.geometry.coordinates : f.geometry.coordinates.flat()) {
          for (const [x, y] of ring) expect(x >= w - 1e-9 && x <= e + 1e-9 && y >= s - 1e-9 && y <= n + 1e-9).toBe(true);
        }
      }
    }
    expect(survey.coverage.places.find((p: any) => p.id === "MH936").label).toContain("Majuro");
    expect(survey.coverage.extent).toEqual([
      Math.min(...survey.coverage.places.map((p: any) => p.bbox[0])),
      Math.min(...survey.coverage.places.map((p: any) => p.bbox[1])),
      Math.max(...survey.coverage.places.map((p: any) => p.bbox[2])),
      Math.max(...survey.coverage.places.map((p: any) => p.bbox[3])),
    ]);
    const pedons = body.layers.find((l: any) => l.kind === "pedons");
    const rows = readFileSync(join(DATA_DIR, "kssl/KS/lab_combine_nasis_ncss.csv"), "utf8").split(/\r?\n/).filter((line) => line.trim()).length - 1;
    expect(pedons.coverage.places.map((p: any) => p.label)).toEqual([expect.stringContaining(`(${rows})`)]);
    expect(pedons.coverage.places[0].label).toContain("Kansas");
    // No box is stated for the pedons here: the collection named computes it from the data.
    expect(pedons.coverage.extent).toBeNull();
    const collection = (await loam.json(pedons.coverage.extent_url)).body;
    const [w, s, e, n] = collection.extent.spatial.bbox[0];
    expect(w).toBeGreaterThan(-102.1);
    expect(e).toBeLessThan(-94.5);
    expect(s).toBeGreaterThan(36.9);
    expect(n).toBeLessThan(40.1);
  });

  test("every layer's places are the places its provider declares, named by the data, with the box the data states (none for a layer whose extent its collection computes)", async () => {
    const { body } = await loam.json("/v1/layers");
    const byKind = (kind: string) => body.layers.find((l: any) => l.kind === kind);
    // The SoilGrids clips: the place and extent the data folder's README states for them.
    const readme = readFileSync(join(DATA_DIR, "soilgrids/README.md"), "utf8");
    const [, area, country] = /`raster\/` — SoilGrids [\d.]+ clips, ([^(\n]+?) \(([^)]+)\)/.exec(readme)!;
    const number = (text: string) => Number(text.replace("−", "-"));
    const extent = /extent lon (\S+) … (\S+),\s*lat (\S+) … (\S+)\./.exec(readme)!;
    const [w, e, s, n] = extent.slice(1, 5).map(number);
    const grid = byKind("grid");
    expect(grid.coverage.places).toHaveLength(1);
    const clips = grid.coverage.places[0];
    expect(clips.id).toBe(area!.toLowerCase().replaceAll(" ", "_"));
    expect(clips.label).toContain(`${area}, ${country}`);
    [w, s, e, n].forEach((value, i) => expect(clips.bbox[i]).toBeCloseTo(value!, 6));
    expect(grid.coverage.extent).toEqual(clips.bbox);
    // The lab pedons: one place per collection folder, named by its state; the box is the collection's.
    const pedons = byKind("pedons");
    expect(pedons.coverage.places.map((p: any) => [p.id, p.bbox])).toEqual(folders("kssl").sort().map((folder) => [folder, null]));
    // Every survey area is a place with its box; the sites and stations name no place (a survey and a network over a country).
    expect(byKind("survey_polygons").coverage.places.every((p: any) => Array.isArray(p.bbox) && p.bbox.length === 4)).toBe(true);
    for (const kind of ["sites", "stations"]) {
      expect(byKind(kind).coverage.places).toEqual([]);
      expect(byKind(kind).coverage.extent_url).toMatch(/^\/ogc\/collections\//);
    }
  });
});
