/**
 * The seventh-provider exercise as a test (docs/decisions.md#provider-links): a second provider of every
 * shape, registered with one line after the defaults, is first-class. Each is served by its routes (JSON
 * and CSV, asked with `provider=<id>`), is its own OGC collection (sites and polygons: listed, titled in its
 * own words, its items and one item), is on /v1/providers and /v1/layers (its layer reads its own data and
 * states its own collection), is named by the OpenAPI document (the family line and the route texts), and
 * every link its answers carry leads back to it: followed here, each answers for the same provider.
 *
 * The second providers: the fixtures of test/fixtures (stations, map-unit polygons, a grid, series
 * descriptions: in memory, each with its own key syntax and transport) and copies of the registered lab
 * and sample-site providers under new ids (test/fixtures/fixture_copy), whose answers are compared with the
 * original's. Expected values come from the fixtures' own records or the original provider's answers.
 */
import { describe, expect, test } from "bun:test";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import type { OperationalProvider } from "../../src/providers/provider";
import { fixtureStations, STATIONS, VALUES } from "../fixtures/fixture_stations";
import { fixturePolygons, POLYGONS } from "../fixtures/fixture_polygons";
import { fixtureGrid, GRID } from "../fixtures/fixture_grid";
import { fixtureDescriptions } from "../fixtures/fixture_descriptions";
import { fixtureLab, fixtureSites } from "../fixtures/fixture_copy";
import { expectedCollections } from "../support/collections";
import { parseRfc4180 } from "../support/csv";
import { useLoam } from "../support/server";

const SECOND: readonly OperationalProvider[] = [fixtureStations, fixturePolygons, fixtureGrid, fixtureDescriptions, fixtureLab, fixtureSites];
const PROVIDERS = [...DEFAULT_PROVIDERS, ...SECOND];
const { loam, contract } = useLoam({ providers: PROVIDERS });

const original = (role: string) => DEFAULT_PROVIDERS.find((p) => p.role === role)!;
const WORLD = "-180,-90,180,90";
const PEDON_BOX = "-96.5,38.5,-95,39.5";
const SITE_BOX = "-96.7,40.3,-90.1,43.6";
const POLYGON_BOX = "-93.80,42.00,-93.78,42.01";

/**
 * The body's provider ids replaced by a placeholder and its read times masked (each provider's answer is
 * a cache entry of its own, stored at its own instant), to compare a copy's answer with the original's.
 */
const anonymous = (body: unknown, ...ids: string[]) =>
  JSON.parse(ids.reduce((text, id) => text.replaceAll(`"${id}"`, '"<provider>"'), JSON.stringify(body, (key, value) => (key === "retrieved_at" ? "<time>" : value))));
/** The same for a CSV table: cells naming a provider, and the retrieved_at column. */
const anonymousTable = (rows: string[][], ...ids: string[]) => {
  const at = rows[0]!.indexOf("retrieved_at");
  return rows.map((row) => row.map((cell, i) => (i === at ? "<time>" : ids.includes(cell) ? "<provider>" : cell)));
};
/** The path and query of a link (the OGC API's links are absolute). */
const pathOf = (href: string) => {
  const url = new URL(href, "http://x");
  return url.pathname + url.search;
};
/** Every page of a paged /v1 route, following `next` (each page must answer for the same provider). */
async function walk(path: string, provider: string): Promise<any[]> {
  const pages: any[] = [];
  for (let next: string | null = path; next !== null; ) {
    const { status, headers, body }: { status: number; headers: Headers; body: any } = await loam.json(next);
    expect([status, body.provider]).toEqual([200, provider]);
    pages.push(body);
    // The next page (the body's `next`, else the Link header's) keeps the provider the request named (none for the default).
    const following: string | null = body.next ?? /<([^>]+)>;\s*rel="next"/.exec(headers.get("link") ?? "")?.[1] ?? null;
    if (following) expect(new URL(following, "http://x").searchParams.get("provider")).toBe(new URL(next, "http://x").searchParams.get("provider"));
    next = following === null ? null : pathOf(following);
  }
  return pages;
}
const csvOf = async (path: string) => {
  const response = await loam.get(path);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toStartWith("text/csv");
  return parseRfc4180(await response.text());
};

describe("a second provider of every shape, registered with one line", () => {
  test("the catalog lists each as operational (/v1/providers, /v1)", async () => {
    const { status, body } = await loam.json("/v1/providers");
    expect(status).toBe(200);
    contract.assert("ProvidersResponse", body);
    for (const provider of SECOND) expect(body.providers.find((p: { id: string }) => p.id === provider.id)).toMatchObject({ id: provider.id, name: provider.record.name, operational: true });
    expect((await loam.json("/v1")).body.supported_providers).toEqual(expect.arrayContaining(SECOND.map((p) => p.id)));
  });

  test("OGC: each sites or polygons provider is its own collection, under its id, titled in its own words; the defaults keep theirs", async () => {
    const { status, body } = await loam.json("/ogc/collections");
    expect(status).toBe(200);
    contract.assert("OgcCollections", body);
    const ids = body.collections.map((c: any) => c.id);
    expect(ids).toEqual(expectedCollections(PROVIDERS));
    expect(ids).toEqual(expect.arrayContaining(["mapunits", "pedons", "geochem_sites", "stations", "fixture_stations", "fixture_polygons", "fixture_lab", "fixture_sites"]));
    // No two collections share a title; each second provider's collection is titled by its short name.
    const titles = body.collections.map((c: any) => c.title);
    expect(new Set(titles).size).toBe(titles.length);
    for (const provider of [fixtureStations, fixturePolygons, fixtureLab, fixtureSites]) {
      const listed = body.collections.find((c: any) => c.id === provider.id);
      expect(listed.title).toStartWith(provider.shortName);
      // Every link of the collection's document answers.
      for (const link of listed.links) expect([link.href, (await loam.get(pathOf(link.href))).status]).toEqual([link.href, 200]);
    }
  });

  test("OGC: the second station network's items are its stations, its one item is its own, and its description points at its own series", async () => {
    const items = await loam.json(`/ogc/collections/fixture_stations/items?bbox=${WORLD}`);
    expect(items.status).toBe(200);
    expect(items.body.features.map((f: any) => f.id)).toEqual(STATIONS.map((s) => s.properties.station_triplet).sort());
    const one = await loam.json("/ogc/collections/fixture_stations/items/cimarron-1");
    expect([one.status, one.body.properties.name]).toEqual([200, "Cimarron fixture"]);
    // The default's collection does not hold it.
    expect((await loam.get("/ogc/collections/stations/items/cimarron-1")).status).toBe(404);
    const collection = (await loam.json("/ogc/collections/fixture_stations")).body;
    expect(collection.description).toContain(`Sensor stations of the ${fixtureStations.record.name}`);
    expect(collection.description).toContain("GET /v1/stations/{station_triplet}/series?provider=fixture_stations");
  });

  test("OGC: the second polygons provider's collection pages its polygons; the default's holds none of them", async () => {
    const items = await loam.json(`/ogc/collections/fixture_polygons/items?bbox=${POLYGON_BOX}`);
    expect(items.status).toBe(200);
    const v1 = await loam.json(`/v1/soil/mapunits?bbox=${POLYGON_BOX}&provider=fixture_polygons`);
    expect(v1.status).toBe(200);
    expect(items.body.features.map((f: any) => f.id)).toEqual(v1.body.features.map((f: any) => f.id));
    expect(items.body.features.length).toBeGreaterThan(0);
    const [first] = items.body.features;
    const one = await loam.json(`/ogc/collections/fixture_polygons/items/${encodeURIComponent(first.id)}`);
    expect([one.status, one.body.id]).toEqual([200, first.id]);
    expect(POLYGONS.length).toBeGreaterThan(0);
  });

  test("OGC: a copied lab provider's collection holds the original's pedons, and each item's detail link leads to the copy", async () => {
    const copy = await loam.json(`/ogc/collections/fixture_lab/items?bbox=${PEDON_BOX}&limit=5`);
    const usual = await loam.json(`/ogc/collections/pedons/items?bbox=${PEDON_BOX}&limit=5`);
    expect([copy.status, usual.status]).toEqual([200, 200]);
    expect(copy.body.features.length).toBeGreaterThan(0);
    expect(copy.body.features.map((f: any) => f.id)).toEqual(usual.body.features.map((f: any) => f.id));
    for (const [i, feature] of copy.body.features.entries()) {
      const detail = new URL(feature.properties.detail);
      expect(detail.searchParams.get("provider")).toBe("fixture_lab");
      expect(new URL(usual.body.features[i].properties.detail).search).toBe("");
      const followed = await loam.json(pathOf(feature.properties.detail));
      expect([followed.status, followed.body.provider]).toEqual([200, "fixture_lab"]);
    }
    // The next link stays in the copy's collection.
    const next = copy.body.links.find((l: any) => l.rel === "next");
    if (next) expect(new URL(next.href).pathname).toBe("/ogc/collections/fixture_lab/items");
  });

  test("OGC: a copied sample-site provider's collection holds the original's sites, with their elements", async () => {
    const path = (id: string) => `/ogc/collections/${id}/items?bbox=${SITE_BOX}&limit=20&properties=arsenic`;
    const [copy, usual] = await Promise.all([loam.json(path("fixture_sites")), loam.json(path("geochem_sites"))]);
    expect([copy.status, usual.status]).toEqual([200, 200]);
    expect(copy.body.features.length).toBeGreaterThan(0);
    expect(copy.body.features.map((f: any) => [f.id, f.properties.arsenic])).toEqual(usual.body.features.map((f: any) => [f.id, f.properties.arsenic]));
    const id = copy.body.features[0].id;
    const one = await loam.json(`/ogc/collections/fixture_sites/items/${id}?properties=arsenic`);
    expect([one.status, one.body.properties.arsenic]).toEqual([200, copy.body.features[0].properties.arsenic]);
  });

  test("site_series: its stations, its CSV, and the station's links (series, survey) followed answer for it", async () => {
    const pages = await walk(`/v1/stations?bbox=${WORLD}&provider=fixture_stations&limit=1`, "fixture_stations");
    expect(pages.flatMap((p) => p.features.map((f: any) => f.id))).toEqual(STATIONS.map((s) => s.properties.station_triplet).sort());
    const [header, ...rows] = await csvOf(`/v1/stations?bbox=${WORLD}&provider=fixture_stations&format=csv`);
    expect(rows.map((r) => r[header!.indexOf("station_triplet")])).toEqual(STATIONS.map((s) => s.properties.station_triplet).sort());

    const { status, body } = await loam.json("/v1/stations/abrams-1?provider=fixture_stations");
    expect(status).toBe(200);
    contract.assert("StationResponse", body);
    // The link names the station's sensor (element and depth, issue 45) and the provider that answered.
    expect(body.links.series).toBe("/v1/stations/abrams-1/series?element=soil_moisture&depth_cm=5&provider=fixture_stations");
    const series = await loam.json(`${body.links.series}&start=2007-01-01&end=2007-01-01`);
    expect(series.status).toBe(200);
    expect([series.body.provider, series.body.values.map((v: any) => v.value)]).toEqual(["fixture_stations", VALUES.map(([, value]) => value)]);
    const seriesCsv = await csvOf(`${body.links.series}&start=2007-01-01&end=2007-01-01&format=csv`);
    expect(seriesCsv.slice(1).map((r) => Number(r[seriesCsv[0]!.indexOf("value")]))).toEqual(VALUES.map(([, value]) => value));
    expect((await loam.get(body.links.survey.href)).status).toBe(200);
    // The default network's links stay as they were: no provider named.
    const scan = original("site_series") as typeof fixtureStations;
    const usual = await loam.json(`/v1/stations/${encodeURIComponent(scan.stations.key.example)}`);
    expect(usual.body.links.series).toStartWith(`/v1/stations/${scan.stations.key.example}/series?element=`);
    expect(usual.body.links.series).not.toContain("provider=");
    const raw = await loam.json("/v1/providers/fixture_stations/raw/stations/abrams-1");
    expect([raw.status, raw.body.provider]).toEqual([200, "fixture_stations"]);
  });

  test("map_unit_polygons: its polygons (JSON, CSV) and a map unit by its own key", async () => {
    const pages = await walk(`/v1/soil/mapunits?bbox=${POLYGON_BOX}&provider=fixture_polygons&limit=1`, "fixture_polygons");
    const ids = pages.flatMap((p) => p.features.map((f: any) => f.id));
    expect(ids.length).toBeGreaterThan(1);
    const [header, ...rows] = await csvOf(`/v1/soil/mapunits?bbox=${POLYGON_BOX}&provider=fixture_polygons&format=csv`);
    expect(rows.map((r) => r[header!.indexOf("polygon_key")] ?? r[0])).toHaveLength(ids.length);
    const key = pages[0].features[0].properties.map_unit_key;
    const unit = await loam.json(`/v1/soil/mapunits/${encodeURIComponent(key)}?provider=fixture_polygons`);
    expect([unit.status, unit.body.map_unit.provider, unit.body.map_unit.map_unit_key]).toEqual([200, "fixture_polygons", key]);
  });

  test("point_values: its values at a point (JSON, CSV) and its grid", async () => {
    const lat = GRID.originLat - 0.6 * GRID.cell;
    const lon = GRID.originLon + 0.3 * GRID.cell;
    const path = `/v1/soil/modeled?latitude=${lat}&longitude=${lon}&provider=fixture_grid&depth_bottom_cm=15`;
    const { status, body } = await loam.json(path);
    expect(status).toBe(200);
    expect(body.observations.length).toBeGreaterThan(0);
    expect(body.observations.every((o: any) => o.source.provider === "fixture_grid")).toBe(true);
    const [, ...rows] = await csvOf(`${path}&format=csv`);
    expect(rows).toHaveLength(body.observations.length);
    const grid = await loam.json("/v1/soil/modeled/grid?provider=fixture_grid&property=silt&depth=5-15cm");
    expect([grid.status, grid.body.provider]).toEqual([200, "fixture_grid"]);
    const raw = await loam.json(`/v1/providers/fixture_grid/raw/location?latitude=${lat}&longitude=${lon}&properties=silt`);
    expect([raw.status, raw.body.provider]).toEqual([200, "fixture_grid"]);
  });

  test("descriptions: a series description by its own key (JSON, CSV); the default's route answers as before", async () => {
    const { status, body } = await loam.json("/v1/series/clarion?provider=fixture_descriptions");
    expect(status).toBe(200);
    contract.assert("SeriesResponse", body);
    expect(body.provider).toBe("fixture_descriptions");
    const [, ...rows] = await csvOf("/v1/series/clarion?provider=fixture_descriptions&format=csv");
    expect(rows).toHaveLength(body.horizons.length);
    // The fixture's own key syntax is its 422; the default's route still reads the default's names.
    expect((await loam.json("/v1/series/Clarion%20Loam?provider=fixture_descriptions")).status).toBe(422);
    const usual = await loam.json("/v1/series/clarion");
    expect([usual.status, usual.body.provider]).toEqual([200, original("series").id]);
    expect((await loam.json("/v1/series/clarion?provider=fixture_lab")).status).toBe(422);
  });

  test("lab_pedons: the copy answers the original's pedons under its own name (box pages, CSV, one pedon, raw)", async () => {
    const lab = original("lab_pedons");
    const pages = await walk(`/v1/pedons?bbox=${PEDON_BOX}&provider=fixture_lab&limit=3`, "fixture_lab");
    const usual = await loam.json(`/v1/pedons?bbox=${PEDON_BOX}&limit=500`);
    expect(usual.body.truncated).toBe(false);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.flatMap((p) => p.features.map((f: any) => f.id))).toEqual(usual.body.features.map((f: any) => f.id));
    const [, ...rows] = await csvOf(`/v1/pedons?bbox=${PEDON_BOX}&provider=fixture_lab&format=csv`);
    expect(rows).toHaveLength(usual.body.features.length);
    const key = usual.body.features[0].id;
    const [copy, theirs] = await Promise.all([loam.json(`/v1/pedons/${key}?provider=fixture_lab`), loam.json(`/v1/pedons/${key}`)]);
    expect([copy.status, copy.body.provider]).toEqual([200, "fixture_lab"]);
    expect(anonymous({ ...copy.body, cache: null }, "fixture_lab")).toEqual(anonymous({ ...theirs.body, cache: null }, lab.id));
    const raw = await loam.json(`/v1/providers/fixture_lab/raw/pedons/${key}`);
    expect([raw.status, raw.body.provider]).toEqual([200, "fixture_lab"]);
    const [pedonCsv, layers] = await Promise.all([csvOf(`/v1/pedons/${key}?provider=fixture_lab&format=csv`), csvOf(`/v1/pedons/layers?bbox=${PEDON_BOX}&provider=fixture_lab&format=csv`)]);
    expect(pedonCsv.length).toBeGreaterThan(1);
    expect(layers.length).toBeGreaterThan(1);
    expect(anonymousTable(layers, "fixture_lab")).toEqual(anonymousTable(await csvOf(`/v1/pedons/layers?bbox=${PEDON_BOX}&format=csv`), lab.id));
  });

  test("sample_sites: the copy answers the original's sites under its own name (box pages, CSV, one site)", async () => {
    const pages = await walk(`/v1/geochem/sites?bbox=${SITE_BOX}&provider=fixture_sites&limit=50`, "fixture_sites");
    const usual = await walk(`/v1/geochem/sites?bbox=${SITE_BOX}&limit=50`, original("sample_sites").id);
    expect(pages.flatMap((p) => p.features.map((f: any) => f.id))).toEqual(usual.flatMap((p) => p.features.map((f: any) => f.id)));
    const [, ...rows] = await csvOf(`/v1/geochem/sites?bbox=${SITE_BOX}&provider=fixture_sites&format=csv`);
    expect(rows).toHaveLength(usual.flatMap((p) => p.features).length);
    const id = usual[0].features[0].id;
    const [one, theirs] = await Promise.all([loam.json(`/v1/geochem/sites/${id}?provider=fixture_sites&properties=arsenic,lead`), loam.json(`/v1/geochem/sites/${id}?properties=arsenic,lead`)]);
    expect([one.status, one.body.provider]).toEqual([200, "fixture_sites"]);
    // A copy made by spreading the object keeps its folder's own id where the folder writes it (an
    // observation's source.provider): a folder copied by hand changes that constant with its id.
    expect(anonymous({ ...one.body, cache: null }, "fixture_sites", original("sample_sites").id)).toEqual(anonymous({ ...theirs.body, cache: null }, original("sample_sites").id));
    const [, ...elementRows] = await csvOf(`/v1/geochem/sites/${id}?provider=fixture_sites&properties=arsenic,lead&format=csv`);
    expect(elementRows).toHaveLength(one.body.observations.length);
    const raw = await loam.json(`/v1/providers/fixture_sites/raw/sites/${id}`);
    expect([raw.status, raw.body.provider]).toEqual([200, "fixture_sites"]);
  });

  test("evidence: every provider of each role is a source of its own, in the registry's order, and the copies' cells stand beside the originals'", async () => {
    // Station 2092 Abrams, Kansas: lab pedons and sample sites within the route's radius.
    const { status, body } = await loam.json("/v1/soil/evidence?latitude=37.1313&longitude=-97.0859&properties=clay,arsenic");
    expect(status).toBe(200);
    contract.assert("EvidenceResponse", body);
    expect(Object.keys(body.sources)).toEqual(PROVIDERS.filter((p) => p.role !== "planned").map((p) => p.id));
    for (const provider of SECOND) expect([provider.id, body.sources[provider.id].role]).toEqual([provider.id, provider.role]);
    // A copy reads the original's data: its entry is the original's under its own names, and each cell the
    // original has in the comparison, the copy has too, with the same value.
    for (const copy of [fixtureLab, fixtureSites]) {
      const theirs = original(copy.role);
      // (A spread copy keeps its folder's id where the folder writes it, an observation's source.provider: as above.)
      const entry = (id: string) => anonymous({ ...body.sources[id], short_name: null }, id, theirs.id);
      expect([body.sources[copy.id].short_name, entry(copy.id)]).toEqual([copy.shortName, entry(theirs.id)]);
      const cells = (id: string) => body.comparison.flatMap((c: any) => c.depths.flatMap((d: any) => d.cells.filter((x: any) => x.provider === id).map((x: any) => [c.property.id, d.top_cm, x.value])));
      expect(cells(theirs.id).length).toBeGreaterThan(0);
      expect(cells(copy.id)).toEqual(cells(theirs.id));
    }
    // In IA073, the second series provider describes the survey's components with its own links: followed, each answers for it.
    const iowa = (await loam.json("/v1/soil/evidence?latitude=41.944131&longitude=-94.359608&properties=clay")).body;
    const described = iowa.sources[fixtureDescriptions.id].descriptions;
    expect(described.length).toBeGreaterThan(0);
    for (const d of described) {
      const followed = await loam.json(d.series.url);
      expect([followed.status, followed.body.provider]).toEqual([200, fixtureDescriptions.id]);
    }
  });

  test("/v1/layers: each has its own layer, whose endpoint asks it by name and whose extent is its own collection (followed)", async () => {
    const { status, body } = await loam.json("/v1/layers");
    expect(status).toBe(200);
    for (const provider of SECOND.filter((p) => p.role !== "series")) {
      const layer = body.layers.find((l: any) => l.id === provider.id);
      expect(layer).toBeDefined();
      expect(new URL(layer.endpoint, "http://x").searchParams.get("provider")).toBe(provider.id);
      const collection = expectedCollections([...DEFAULT_PROVIDERS, provider]).includes(provider.id) ? `/ogc/collections/${provider.id}` : null;
      expect(layer.coverage.extent_url).toBe(collection);
      if (collection) expect((await loam.get(layer.coverage.extent_url)).status).toBe(200);
    }
    // The defaults' layers are as they were.
    const stations = body.layers.find((l: any) => l.id === original("site_series").id);
    expect([stations.endpoint, stations.coverage.extent_url]).toEqual(["/v1/stations", "/ogc/collections/stations"]);
  });

  test("OpenAPI: the document names each; its family line and its route's text name it and how to ask it", async () => {
    const doc = (await loam.json("/openapi.json")).body;
    for (const provider of SECOND) expect(doc.info.description).toContain(provider.shortName);
    const line = (name: string) => doc.info.description.split("\n").find((l: string) => l.startsWith(`- **${name}`)) ?? "";
    expect(line("Sensor stations")).toContain(`${original("site_series").shortName}, ${fixtureStations.shortName}`);
    expect(line("Laboratory pedons")).toContain(`${original("lab_pedons").shortName}, ${fixtureLab.shortName}`);
    expect(line("Geochemistry")).toContain(`${original("sample_sites").shortName}, ${fixtureSites.shortName}`);
    expect(line("Soil series")).toContain(`${original("series").shortName}, ${fixtureDescriptions.shortName}`);
    expect(line("Mapped soil survey")).toContain(fixturePolygons.shortName);
    const routes: [string, OperationalProvider][] = [
      ["/v1/stations", fixtureStations],
      ["/v1/soil/mapunits", fixturePolygons],
      ["/v1/series/{name}", fixtureDescriptions],
      ["/v1/pedons", fixtureLab],
      ["/v1/geochem/sites", fixtureSites],
      ["/v1/soil/modeled", fixtureGrid],
    ];
    for (const [path, provider] of routes) expect([path, doc.paths[path].get.description]).toEqual([path, expect.stringContaining(`${provider.shortName} (provider=${provider.id})`)]);
    expect(doc.paths["/ogc/collections"].get.description).toContain(expectedCollections(PROVIDERS).join(", "));
    // Every route a second provider answers takes `provider` (documented), its raw routes the provider id.
    const asked = ["/v1/stations", "/v1/stations/{station_triplet}", "/v1/stations/{station_triplet}/series", "/v1/soil/mapunits", "/v1/soil/modeled", "/v1/soil/modeled/grid", "/v1/series/{name}", "/v1/pedons", "/v1/pedons/{pedon_key}", "/v1/pedons/layers", "/v1/geochem/sites", "/v1/geochem/sites/{site_id}"];
    for (const path of asked) expect([path, doc.paths[path].get.parameters.some((p: { name: string; in: string }) => p.name === "provider" && p.in === "query")]).toEqual([path, true]);
  });
});
