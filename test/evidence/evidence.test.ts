/**
 * GET /v1/soil/evidence on the snapshot (docs/decisions.md#evidence), checked against each source's own
 * route: the survey's cells equal GET /v1/soil/mapunits/{key} for the same depth, the pedon's cells are
 * computed here from GET /v1/pedons/{key}'s layers, the distances are pyproj's, the sites and stations
 * are those the sources' own routes list, and the links answer. Bad input is refused as the point query
 * refuses it.
 */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";
import { pyprojAvailable, pyprojDistancesKm } from "../support/geodesic";
import { parseRfc4180, records } from "../support/csv";

const { loam, contract } = useLoam();

/** The two worked examples of docs/api.md. */
const IOWA = { latitude: 41.944131, longitude: -94.359608 };
const ABRAMS = { latitude: 37.1313, longitude: -97.0859 };
const evidenceOf = (at: { latitude: number; longitude: number }, rest = "") => `/v1/soil/evidence?latitude=${at.latitude}&longitude=${at.longitude}${rest}`;

const GSM = [[0, 5], [5, 15], [15, 30], [30, 60], [60, 100], [100, 200]];

/** The test's own depth-weighted mean of lab layers over [top, bottom): each layer weighs the centimetres it overlaps. */
function layerMean(layers: any[], property: string, top: number, bottom: number): number | null {
  let sum = 0;
  let weight = 0;
  for (const layer of layers) {
    const o = layer.observations.find((x: any) => x.property.id === property);
    const cm = Math.min(bottom, layer.depth.bottom_cm) - Math.max(top, layer.depth.top_cm);
    if (!o || o.value === null || cm <= 0) continue;
    sum += o.value * cm;
    weight += cm;
  }
  return weight === 0 ? null : sum / weight;
}

const cellOf = (body: any, property: string, top: number, role: string) =>
  body.comparison.find((c: any) => c.property.id === property).depths.find((d: any) => d.top_cm === top)?.cells.find((c: any) => c.role === role);

describe("GET /v1/soil/evidence in IA073", () => {
  test("sources keyed by every operational provider in the registry's order, each with its own provider, data_kind, provenance and warnings", async () => {
    const { status, body } = await loam.json(evidenceOf(IOWA, "&properties=clay,ph"));
    expect(status).toBe(200);
    contract.assert("EvidenceResponse", body);
    expect(Object.keys(body)).toEqual(["api_version", "status", "query", "sources", "comparison", "cache", "warnings"]);
    const providers = (await loam.json("/v1/providers")).body.providers.filter((p: any) => p.operational);
    expect(Object.keys(body.sources)).toEqual(providers.map((p: any) => p.id));
    for (const [id, source] of Object.entries<any>(body.sources)) {
      const record = providers.find((p: any) => p.id === id);
      expect([source.provider, source.data_kind, source.provenance.organization]).toEqual([id, record.data_kind, record.organization]);
      expect(Array.isArray(source.warnings)).toBe(true);
    }
  });

  test("the survey is GET /v1/soil/location's map unit and observations, with GET /v1/soil/mapunits/{key}'s components", async () => {
    const { body } = await loam.json(evidenceOf(IOWA, "&properties=clay,ph&depth_bottom_cm=30"));
    const survey = Object.values<any>(body.sources).find((s) => s.role === "mapped_location");
    const location = (await loam.json(`/v1/soil/location?latitude=${IOWA.latitude}&longitude=${IOWA.longitude}&properties=clay,ph&depth_bottom_cm=30`)).body;
    expect(survey.map_units).toEqual(location.map_units);
    expect(survey.observations).toEqual(location.observations);
    expect(survey.warnings).toEqual(location.warnings);
    const mapUnit = (await loam.json(`/v1/soil/mapunits/${location.map_units[0].map_unit_key}?properties=clay`)).body.map_unit;
    expect(survey.components).toEqual(mapUnit.components);
  });

  test("the survey's cell on each standard depth equals GET /v1/soil/mapunits/{key} for that depth", async () => {
    const { body } = await loam.json(evidenceOf(IOWA, "&properties=clay,ph,organic_matter"));
    const key = Object.values<any>(body.sources).find((s) => s.role === "mapped_location").map_units[0].map_unit_key;
    let compared = 0;
    for (const property of ["clay", "ph", "organic_matter"]) {
      for (const [top, bottom] of GSM) {
        const summary = (await loam.json(`/v1/soil/mapunits/${key}?properties=${property}&depth_top_cm=${top}&depth_bottom_cm=${bottom}`)).body.summaries[0];
        const cell = cellOf(body, property, top!, "mapped_location");
        if (summary.value === null) {
          expect(cell).toBeUndefined();
          continue;
        }
        expect(cell).toMatchObject({ value: summary.value, unit: summary.unit, distance_km: 0, data_kind: "derived" });
        expect(cell.transformations).toEqual(summary.transformations);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(10);
  });

  test("the depths are the GlobalSoilMap depths clipped to the asked interval", async () => {
    const { body } = await loam.json(evidenceOf(IOWA, "&properties=clay&depth_top_cm=10&depth_bottom_cm=45"));
    expect(body.comparison[0].depths.map((d: any) => [d.top_cm, d.bottom_cm])).toEqual([[10, 15], [15, 30], [30, 45]]);
    const key = Object.values<any>(body.sources).find((s) => s.role === "mapped_location").map_units[0].map_unit_key;
    const summary = (await loam.json(`/v1/soil/mapunits/${key}?properties=clay&depth_top_cm=30&depth_bottom_cm=45`)).body.summaries[0];
    expect(cellOf(body, "clay", 30, "mapped_location").value).toBe(summary.value);
  });

  test("the series descriptions are the components' links, with the class the description itself gives", async () => {
    const { body } = await loam.json(evidenceOf(IOWA, "&properties=clay"));
    const survey = Object.values<any>(body.sources).find((s) => s.role === "mapped_location");
    const series = Object.values<any>(body.sources).find((s) => s.role === "series");
    const linked = survey.components.filter((c: any) => c.series);
    expect(series.descriptions.map((d: any) => d.component_key).sort()).toEqual(linked.map((c: any) => c.component_key).sort());
    for (const description of series.descriptions) {
      const own = await loam.json(description.series.url);
      expect(own.status).toBe(200);
      expect(description.taxonomic_class).toBe(own.body.series.taxonomic_class);
      expect(description.survey_taxonomic_class).toBe(linked.find((c: any) => c.component_key === description.component_key).taxonomic_class);
    }
  });
});

describe("GET /v1/soil/evidence at station 2092 Abrams, Kansas", () => {
  test("the nearest lab pedons are the box's nearest by pyproj's distance, 04N0873 first; its cells are its layers' depth-weighted means", async () => {
    const { status, body } = await loam.json(evidenceOf(ABRAMS, "&properties=clay,ph"));
    expect(status).toBe(200);
    contract.assert("EvidenceResponse", body);
    const lab = Object.values<any>(body.sources).find((s) => s.role === "lab_pedons");
    expect(lab.pedons[0].pedon_key).toBe("04N0873");
    // The source's own list of the box around the radius, measured by pyproj.
    const { radius_km, nearest } = body.query;
    const box = (await loam.json(`/v1/pedons?bbox=${ABRAMS.longitude - 0.6},${ABRAMS.latitude - 0.5},${ABRAMS.longitude + 0.6},${ABRAMS.latitude + 0.5}&limit=500`)).body.features;
    if (pyprojAvailable()) {
      const km = pyprojDistancesKm([ABRAMS.latitude, ABRAMS.longitude], box.map((f: any) => [f.geometry.coordinates[1], f.geometry.coordinates[0]]));
      const expected = box.map((f: any, i: number) => ({ key: f.id, km: km[i]! })).filter((p: any) => p.km <= radius_km).sort((a: any, b: any) => a.km - b.km).slice(0, nearest);
      expect(lab.pedons.map((p: any) => p.pedon_key)).toEqual(expected.map((p: any) => p.key));
      lab.pedons.forEach((p: any, i: number) => expect(Math.abs(p.distance_km - expected[i].km)).toBeLessThan(0.0006));
    }
    const pedon = (await loam.json("/v1/pedons/04N0873?properties=clay,ph")).body;
    let compared = 0;
    for (const property of ["clay", "ph"]) {
      for (const [top, bottom] of GSM) {
        const expected = layerMean(pedon.layers, property, top!, bottom!);
        const cell = cellOf(body, property, top!, "lab_pedons");
        if (expected === null) {
          expect(cell).toBeUndefined();
          continue;
        }
        expect(cell.value).toBeCloseTo(expected, 2);
        expect(Math.abs(cell.value - expected) / Math.abs(expected)).toBeLessThan(5e-4); // four significant digits
        expect(cell.describes).toContain("04N0873");
        expect(cell.distance_km).toBe(lab.pedons[0].distance_km);
        expect(cell.transformations[0].operation).toBe("depth_weighted_average");
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(6);
  });

  test("the nearest sample sites and stations are their routes' near answers within the radius, with pyproj's distances; the held series link answers", async () => {
    const { body } = await loam.json(evidenceOf(ABRAMS, "&properties=arsenic,lead,clay"));
    const sites = Object.values<any>(body.sources).find((s) => s.role === "sample_sites");
    const stations = Object.values<any>(body.sources).find((s) => s.role === "site_series");
    const near = `near=${ABRAMS.latitude},${ABRAMS.longitude}&limit=${body.query.nearest}`;
    const geochem = (await loam.json(`/v1/geochem/sites?${near}`)).body.features.filter((f: any) => f.properties.distance_km <= body.query.radius_km);
    expect(sites.sites.map((s: any) => s.site_id)).toEqual(geochem.map((f: any) => f.id));
    expect(sites.sites.length).toBeGreaterThan(0);
    for (const site of sites.sites) {
      const own = (await loam.json(`${site.href}?properties=arsenic,lead`)).body;
      expect(site.elements).toEqual(own.observations);
    }
    // The comparison's geochemistry cell is the nearest site's own result, on the depth its sample spans only.
    const nearestArsenic = (await loam.json(`${sites.sites[0].href}?properties=arsenic`)).body.observations[0];
    expect(cellOf(body, "arsenic", 0, "sample_sites")).toMatchObject({ value: nearestArsenic.value, unit: nearestArsenic.unit, distance_km: sites.sites[0].distance_km, data_kind: "observed" });
    expect(cellOf(body, "arsenic", 5, "sample_sites")).toBeUndefined();
    const scan = (await loam.json(`/v1/stations?${near}`)).body.features.filter((f: any) => f.properties.distance_km <= body.query.radius_km);
    expect(stations.stations.map((s: any) => s.station_triplet)).toEqual(scan.map((f: any) => f.id));
    expect(stations.stations[0]).toMatchObject({ station_triplet: "2092:KS:SCAN", name: "Abrams", period: { begin_date: "2004-06-21" } });
    const held = stations.stations[0].held[0];
    const series = await loam.json(held.href);
    expect(series.status).toBe(200);
    expect(series.body.values.length).toBeGreaterThan(300);
    if (pyprojAvailable()) {
      const points = [...sites.sites, ...stations.stations].map((s: any) => [s.location.latitude, s.location.longitude] as const);
      const km = pyprojDistancesKm([ABRAMS.latitude, ABRAMS.longitude], points);
      [...sites.sites, ...stations.stations].forEach((s: any, i: number) => expect(Math.abs(s.distance_km - km[i]!)).toBeLessThan(0.0006));
    }
  });

  test("no value is averaged across sources: each cell is one source's, on one depth", async () => {
    const { body } = await loam.json(evidenceOf(ABRAMS, "&properties=clay"));
    for (const depth of body.comparison[0].depths) {
      const providers = depth.cells.map((c: any) => c.provider);
      expect(new Set(providers).size).toBe(providers.length);
      for (const cell of depth.cells) expect(Object.keys(body.sources)).toContain(cell.provider);
    }
  });
});

describe("representations, caching and refusals", () => {
  test("CSV: one row per source, property and depth; property_id first; citations and the answer's warnings once, on the first row", async () => {
    const path = evidenceOf(IOWA, "&properties=clay,ph&depth_bottom_cm=60");
    const json = (await loam.json(path)).body;
    const response = await loam.get(`${path}&format=csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const rows = records(parseRfc4180(await response.text()));
    const cells = json.comparison.flatMap((c: any) => c.depths.flatMap((d: any) => d.cells.map((cell: any) => [c.property.id, d.top_cm, d.bottom_cm, cell.provider, cell.value])));
    expect(rows.map((r) => [r.property_id, Number(r.depth_top_cm), Number(r.depth_bottom_cm), r.provider, Number(r.value)])).toEqual(cells);
    expect(Object.keys(rows[0]!)[0]).toBe("property_id");
    expect(rows[0]!.answer_warnings).toContain("never averaged across sources");
    expect(rows[0]!.citations).toContain("IA073");
    expect(rows.slice(1).every((r) => r.answer_warnings === "" && r.citations === "")).toBe(true);
    expect(rows.every((r) => r.retrieved_at !== "")).toBe(true);
  });

  test("cached like the other routes: a repeat is a hit with the same entity tag, and If-None-Match is a 304", async () => {
    const path = evidenceOf(IOWA, "&properties=sand");
    const first = await loam.get(path);
    const tag = first.headers.get("etag");
    expect(tag).toBeTruthy();
    expect(first.headers.get("cache-control")).toMatch(/max-age=[1-9]/);
    const again = await loam.json(path);
    expect(again.headers.get("etag")).toBe(tag);
    expect(again.body.cache.hit).toBe(true);
    const conditional = await loam.get(path, { headers: { "if-none-match": tag! } });
    expect(conditional.status).toBe(304);
  });

  test("bad input is refused with the point query's own 422", async () => {
    const bad = [
      "latitude=91&longitude=-94",
      "latitude=41.9&longitude=-181",
      "latitude=abc&longitude=-94",
      "longitude=-94",
      "latitude=41.9&longitude=-94&depth_top_cm=50&depth_bottom_cm=20",
      "latitude=41.9&longitude=-94&depth_bottom_cm=201",
      "latitude=41.9&longitude=-94&properties=unobtainium",
      "latitude=41.9&longitude=-94&properties=a,b,c,d,e,f,g,h,i",
      "latitude=41.9&longitude=-94&format=xml",
    ];
    for (const query of bad) {
      const mine = await loam.json(`/v1/soil/evidence?${query}`);
      const point = await loam.json(`/v1/soil/location?${query}`);
      expect([query, mine.status]).toEqual([query, 422]);
      expect([query, mine.body.error.code, mine.body.error.message]).toEqual([query, point.body.error.code, point.body.error.message]);
    }
  });
});

describe("docs/api.md's worked examples", () => {
  test("every decimal figure the two example paragraphs quote is in the answer of the example request they describe", async () => {
    const guide = await Bun.file(new URL("../../docs/api.md", import.meta.url)).text();
    const section = guide.slice(guide.indexOf("### Everything known at a point"), guide.indexOf("### Sensor stations"));
    const paragraphs = { abrams: section.slice(section.indexOf("At SCAN station 2092"), section.indexOf("In IA073")), iowa: section.slice(section.indexOf("In IA073"), section.indexOf("```sh")) };
    const requests = [...section.matchAll(/curl '(http:\/\/localhost:3000[^']+)'/g)].map((m) => new URL(m[1]!));
    const answerOf = async (latitude: string) => {
      const request = requests.find((u) => u.searchParams.get("latitude") === latitude && !u.searchParams.has("format"))!;
      return JSON.stringify((await loam.json(request.pathname + request.search)).body);
    };
    for (const [paragraph, latitude] of [[paragraphs.abrams, "37.1313"], [paragraphs.iowa, "41.944131"]] as const) {
      const answer = await answerOf(latitude);
      const figures = [...paragraph.matchAll(/\b\d+\.\d+\b/g)].map((m) => m[0]);
      expect(figures.length).toBeGreaterThan(2);
      for (const figure of figures) expect([figure, answer.includes(figure)]).toEqual([figure, true]);
    }
  });
});
