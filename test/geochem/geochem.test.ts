/**
 * GET /v1/geochem/sites, /v1/geochem/sites/{site_id} and /v1/providers/usgs_geochem/raw/sites/{site_id}
 * through HTTP in snapshot mode (issue #24): the data README's known answers, the sites without a
 * sample, the cursor walk over Iowa, the nearest sites of a point, CSV read back by Python's csv
 * module, the vocabulary rows, and bad input. Expected values come from the test's own reading of
 * the file (./reference.ts).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { testSnapshot, useLoam } from "../support/server";
import { pollUntil } from "../support/spawn";
import { pyprojAvailable, pyprojDistancesKm } from "../support/geodesic";
import { parseRfc4180, records } from "../support/csv";
import { ELEMENT_IDS, expectedCell, reference } from "./reference";

// The snapshot build (every source of datasets) can outlast a hook's default time on a busy
// machine: it runs first, in a hook of its own with a longer limit.
beforeAll(() => testSnapshot().then(() => {}), 120_000);
const { loam, contract } = useLoam();

const PYTHON = "/usr/bin/python3";
const IOWA_BOX = "-96.7,40.3,-90.1,43.6";

async function pythonCsv(text: string): Promise<string[][]> {
  const script = "import csv,io,json,sys; print(json.dumps(list(csv.reader(io.TextIOWrapper(sys.stdin.buffer, encoding='utf-8', newline=''), strict=True))))";
  const child = Bun.spawn([PYTHON, "-c", script], { stdin: new TextEncoder().encode(text), stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`python csv failed: ${err}`);
  return JSON.parse(out);
}

const observation = (body: any, id: string) => body.observations.find((o: any) => o.property.id === id);

describe("known answers (data README)", () => {
  test("site 3560: As 4.7, Se 0.3, Pb 17.1, P 460 mg/kg, Ca 0.94 wt. %, Ag censored <1, Cs <5, Te <0.1", async () => {
    const { status, body } = await loam.json("/v1/geochem/sites/3560");
    expect(status).toBe(200);
    contract.assert("GeochemSiteResponse", body);
    expect(body.site).toEqual({
      context: "sample",
      site_id: 3560,
      lab_id: "C-349023",
      state: "IA",
      latitude: 42.0864,
      longitude: -93.7571,
      collection_date: "2010-06-17",
      land_cover_primary: "Planted/Cultivated",
      land_cover_secondary: "Row Crops",
      depth: { top_cm: 0, bottom_cm: 5 },
    });
    expect(body.observations).toHaveLength(44);
    const pick = (id: string) => {
      const o = observation(body, id);
      return [o.value, o.reported_value, o.value_qualifier, o.reporting_limit, o.unit];
    };
    expect(pick("arsenic")).toEqual([4.7, "4.7", null, null, "mg/kg"]);
    expect(pick("selenium")).toEqual([0.3, "0.3", null, null, "mg/kg"]);
    expect(pick("lead")).toEqual([17.1, "17.1", null, null, "mg/kg"]);
    expect(pick("phosphorus_total")).toEqual([460, "460", null, null, "mg/kg"]);
    expect(pick("silver")).toEqual([null, "<1", "less_than", 1, "mg/kg"]);
    expect(pick("cesium")).toEqual([null, "<5", "less_than", 5, "mg/kg"]);
    expect(pick("tellurium")).toEqual([null, "<0.1", "less_than", 0.1, "mg/kg"]);
    // Calcium: the total, in the file's wt. % (served as the vocabulary's %, relabelled, value unchanged).
    const calcium = observation(body, "calcium_total");
    expect([calcium.value, calcium.unit, calcium.source.original_unit, calcium.source.column]).toEqual([0.94, "%", "wt. %", "Top5_Ca"]);
    expect(calcium.transformations).toEqual([{ operation: "relabel_unit", from_unit: "wt. %", to_unit: "%", formula: expect.stringContaining("unchanged") }]);
    expect(observation(body, "calcium")).toBeUndefined();
    // A censored result is never replaced by its limit, and says so.
    expect(observation(body, "silver").warnings.join(" ")).toContain("not the value");
    expect(observation(body, "arsenic")).toMatchObject({ data_kind: "observed", measurement_method: expect.stringContaining("near-total"), source: { provider: "usgs_geochem", column: "Top5_As", original_value: "4.7" } });
  });

  test("site 7256: As 4.6, Se 0.6, Zn 101, P 1400 mg/kg (properties by alias, answered in file order)", async () => {
    const { status, body } = await loam.json("/v1/geochem/sites/7256?properties=zinc_total,pb,se,arsenic,phosphorus_total");
    expect(status).toBe(200);
    expect(body.query).toEqual({ site_id: 7256, properties: ["arsenic", "phosphorus_total", "lead", "selenium", "zinc_total"] });
    expect(body.observations.map((o: any) => [o.property.id, o.value])).toEqual([
      ["arsenic", 4.6],
      ["phosphorus_total", 1400],
      ["lead", Number(reference().sites.get(7256)!.Top5_Pb)],
      ["selenium", 0.6],
      ["zinc_total", 101],
    ]);
    expect(body.site).toMatchObject({ state: "IA", latitude: 42.1953, longitude: -94.2596 });
  });

  test("every site answer carries the DESIGN §9 warnings, and the source names the report", async () => {
    const { body } = await loam.json("/v1/geochem/sites/3560?properties=arsenic");
    const text = body.warnings.join("\n");
    // The sampling years as the file's CollDate (MM/DD/YY) gives them, read by the test's own reader.
    const lastYear = 2000 + Math.max(...[...reference().sites.values()].map((site) => Number(site.CollDate!.split("/")[2])));
    for (const phrase of ["1,600 km2", "not representative", `2007-${lastYear}`, "1992", "4 decimal", "not plant-available", "Appendix 5"]) expect(text).toContain(phrase);
    expect(body.source).toMatchObject({ provider: "usgs_geochem", organization: expect.stringContaining("USGS"), citation: expect.stringContaining("Data Series 801"), source_url: "https://pubs.usgs.gov/ds/801/" });
  });
});

describe("conditional requests", () => {
  test("a site answer and a page carry an ETag; sending it back is a 304 with no body", async () => {
    for (const path of ["/v1/geochem/sites/3560", `/v1/geochem/sites?bbox=${IOWA_BOX}&limit=5`]) {
      const first = await loam.get(path);
      expect(first.status).toBe(200);
      await first.arrayBuffer();
      const etag = first.headers.get("etag")!;
      expect(etag).toBeTruthy();
      const again = await loam.get(path, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
      if (path.includes("bbox")) expect(again.headers.get("link")).toBe(first.headers.get("link"));
    }
  });
});

describe("sites without a sample", () => {
  const noSample = () => [...reference().sites.entries()].filter(([, row]) => row.Top5_LabID === "N.S.").map(([id]) => id);

  test("the file has 16 such sites; each answers with warnings naming every element, and no values", async () => {
    const ids = noSample();
    expect(ids).toHaveLength(16);
    for (const id of ids) {
      const { status, body } = await loam.json(`/v1/geochem/sites/${id}`);
      expect(status).toBe(200);
      expect(body.site.lab_id).toBeNull();
      expect(body.observations).toEqual([]);
      expect(body.warnings.some((w: string) => w.includes(`Site ${id} has no sample`))).toBe(true);
      for (const element of Object.values(ELEMENT_IDS)) expect(body.warnings.some((w: string) => w.includes(`'${element}'`) && w.includes("N.S."))).toBe(true);
    }
  });

  test("in the map list they carry reported_value N.S. and value null", async () => {
    const [id] = noSample();
    const row = reference().sites.get(id!)!;
    const box = [Number(row.Longitude) - 0.01, Number(row.Latitude) - 0.01, Number(row.Longitude) + 0.01, Number(row.Latitude) + 0.01].join(",");
    const { body } = await loam.json(`/v1/geochem/sites?bbox=${box}&property=lead`);
    const feature = body.features.find((f: any) => f.id === id);
    expect(feature.properties).toMatchObject({ lab_id: null, property: "lead", value: null, reported_value: "N.S.", value_qualifier: null, reporting_limit: null, unit: "mg/kg" });
    expect(body.warnings.some((w: string) => w.includes("N.S."))).toBe(true);
  });
});

describe("the site list", () => {
  test("walking the cursor pages of a box around Iowa returns every site in it exactly once (91 with state IA)", async () => {
    const [minLon, minLat, maxLon, maxLat] = IOWA_BOX.split(",").map(Number) as [number, number, number, number];
    const inBox = [...reference().sites.values()].filter((r) => {
      const lon = Number(r.Longitude);
      const lat = Number(r.Latitude);
      return lon >= minLon && lon <= maxLon && lat >= minLat && lat <= maxLat;
    });
    const iowa = [...reference().sites.values()].filter((r) => r.StateID === "IA").map((r) => Number(r.SiteID));
    expect(iowa).toHaveLength(91);

    const seen: number[] = [];
    let path: string | null = `/v1/geochem/sites?bbox=${IOWA_BOX}&limit=17`;
    let pages = 0;
    while (path) {
      const { status, headers, body }: { status: number; headers: Headers; body: any } = await loam.json(path);
      expect(status).toBe(200);
      contract.assert("GeochemSiteCollection", body);
      pages += 1;
      seen.push(...body.features.map((f: any) => f.id));
      if (body.truncated) {
        expect(body.features).toHaveLength(17);
        expect(headers.get("link")).toBe(`<${body.next}>; rel="next"`);
      } else {
        expect(body.next).toBeNull();
        expect(headers.get("link")).toBeNull();
      }
      path = body.next;
    }
    expect(pages).toBe(Math.ceil(inBox.length / 17));
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(seen.sort((a, b) => a - b)).toEqual(inBox.map((r) => Number(r.SiteID)).sort((a, b) => a - b));
    for (const id of iowa) expect(seen).toContain(id);
  });

  test("a next link is the query in its canonical spelling: each parameter once, in the order given, commas literal, the cursor replaced", async () => {
    for (const box of [IOWA_BOX, IOWA_BOX.replaceAll(",", "%2C")]) {
      let path = `/v1/geochem/sites?bbox=${box}&property=arsenic&limit=17`;
      for (let page = 0; page < 3; page++) {
        const { status, headers, body } = await loam.json(path);
        expect({ box, page, status }).toEqual({ box, page, status: 200 });
        const cursor = new URL(body.next, loam.base).searchParams.get("cursor")!;
        expect(body.next).toBe(`/v1/geochem/sites?bbox=${IOWA_BOX}&property=arsenic&limit=17&cursor=${encodeURIComponent(cursor)}`);
        expect(headers.get("link")).toBe(`<${body.next}>; rel="next"`);
        path = body.next;
      }
    }
  });

  test("features carry the site members and are points at the file's coordinates", async () => {
    const { body } = await loam.json(`/v1/geochem/sites?bbox=-93.8,42,-93.7,42.1`);
    const f = body.features.find((x: any) => x.id === 3560);
    expect(f).toEqual({
      type: "Feature",
      id: 3560,
      geometry: { type: "Point", coordinates: [-93.7571, 42.0864] },
      properties: {
        site_id: 3560,
        lab_id: "C-349023",
        state: "IA",
        collection_date: "2010-06-17",
        land_cover_primary: "Planted/Cultivated",
        land_cover_secondary: "Row Crops",
        depth: { top_cm: 0, bottom_cm: 5 },
        representative_of_bbox: false,
      },
    });
    expect(body.query).toEqual({ bbox: [-93.8, 42, -93.7, 42.1], near: null, limit: 100, property: null, cursor: null });
  });

  test("without a box: every site of the file, page by page (a box of any size inside WGS84)", async () => {
    const { body } = await loam.json("/v1/geochem/sites?limit=1000");
    expect(body.features).toHaveLength(1000);
    expect(body.truncated).toBe(true);
    expect(body.query.bbox).toEqual([-180, -90, 180, 90]);
    const all = [...reference().sites.keys()].sort((a, b) => a - b);
    expect(body.features.map((f: any) => f.id)).toEqual(all.slice(0, 1000));
  });

  test.skipIf(!pyprojAvailable())("near=lat,lon: the nearest sites first by geodesic distance on WGS84, with their distances (the map page's point query)", async () => {
    const { status, body } = await loam.json("/v1/geochem/sites?near=42.0864,-93.7571&limit=5&property=arsenic");
    expect(status).toBe(200);
    contract.assert("GeochemSiteCollection", body);
    // pyproj's Geod(ellps="WGS84").inv on the test's side over every site of the file.
    const sites = [...reference().sites.values()].map((r) => ({ id: Number(r.SiteID), at: [Number(r.Latitude), Number(r.Longitude)] as [number, number] }));
    const km = pyprojDistancesKm([42.0864, -93.7571], sites.map((s) => s.at));
    const nearest = sites
      .map((s, i) => ({ id: s.id, km: km[i]! }))
      .sort((a, b) => a.km - b.km || a.id - b.id)
      .slice(0, 5);
    expect(body.features.map((f: any) => f.id)).toEqual(nearest.map((n) => n.id));
    // Served to the metre (three decimals of km).
    body.features.forEach((f: any, i: number) => expect(Math.abs(f.properties.distance_km - nearest[i]!.km)).toBeLessThanOrEqual(0.0005 + 1e-9));
    expect(body.features[0].properties).toMatchObject({ site_id: 3560, distance_km: 0, property: "arsenic", value: 4.7 });
    expect(body.truncated).toBe(false);
    expect(body.next).toBeNull();
    // The access log keeps the point rounded to 0.1 degree, as it keeps every coordinate.
    // (The line is written after the response is sent.)
    const logged = () => loam.accessLog.findLast((entry) => entry.route === "/v1/geochem/sites" && entry.query?.near);
    await pollUntil("the access-log line of the near query", logged, 10_000);
    expect(logged()?.query).toMatchObject({ near: [42.1, -93.8], limit: "5", property: "arsenic" });
  });
});

describe("raw row", () => {
  test("the file's row for the site beside its unit row, every cell as written", async () => {
    const { status, body } = await loam.json("/v1/providers/usgs_geochem/raw/sites/3560");
    expect(status).toBe(200);
    contract.assert("RawGeochemSiteResponse", body);
    const ref = reference();
    expect(body.upstream_response).toEqual({ row: ref.sites.get(3560), units: ref.units });
    expect(body.query).toEqual({ site_id: 3560 });
  });

  test("another role's provider is a 422, an unknown one a 404", async () => {
    const other = await loam.json("/v1/providers/usda_kssl/raw/sites/3560");
    expect(other.status).toBe(422);
    expect(other.body.error.message).toContain("sample sites");
    const unknown = await loam.json("/v1/providers/nope/raw/sites/3560");
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "unknown_provider"]);
  });
});

describe("CSV", () => {
  test.skipIf(!existsSync(PYTHON))("a site as CSV, read back by Python's csv module, equals the JSON", async () => {
    const json = (await loam.json("/v1/geochem/sites/3560")).body;
    const response = await loam.get("/v1/geochem/sites/3560?format=csv");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/csv");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="loam-geochem-site_3560.csv"');
    const text = await response.text();
    const rows = await pythonCsv(text);
    expect(rows).toEqual(parseRfc4180(text));
    const table = records(rows);
    expect(table).toHaveLength(json.observations.length);
    const cell = (v: unknown) => (v === null || v === undefined ? "" : String(v));
    table.forEach((row, i) => {
      const o = json.observations[i];
      expect(row).toMatchObject({
        site_id: "3560",
        lab_id: json.site.lab_id,
        state: "IA",
        latitude: cell(json.site.latitude),
        longitude: cell(json.site.longitude),
        collection_date: json.site.collection_date,
        property_id: o.property.id,
        value: cell(o.value),
        reported_value: o.reported_value,
        value_qualifier: cell(o.value_qualifier),
        reporting_limit: cell(o.reporting_limit),
        unit: o.unit,
        original_column: o.source.column,
        original_value: o.source.original_value,
        original_unit: o.source.original_unit,
        citation: json.source.citation,
      });
      // The answer's warnings once, on the first row (docs/decisions.md#csv-warning-codes); a row's own as codes.
      expect(row.answer_warnings).toBe(i === 0 ? json.warnings.join(" | ") : "");
      for (const w of json.warnings) expect(row.warnings).not.toContain(w);
    });
  });

  test.skipIf(!existsSync(PYTHON))("the site list as CSV: one row per site with the element's flat result", async () => {
    // limit=1000: one JSON page holds the box (a CSV holds every page: test/tables/whole-csv.test.ts).
    const path = `/v1/geochem/sites?bbox=${IOWA_BOX}&property=arsenic&limit=1000`;
    const json = (await loam.json(path)).body;
    const text = await (await loam.get(`${path}&format=csv`)).text();
    const table = records(await pythonCsv(text));
    expect(table.map((r) => [Number(r.site_id), r.state, r.reported_value, r.value, r.unit])).toEqual(
      json.features.map((f: any) => [f.id, f.properties.state, f.properties.reported_value, f.properties.value === null ? "" : String(f.properties.value), f.properties.unit]),
    );
    expect(json.truncated).toBe(false);
    expect(table.every((r) => r.truncated === "false")).toBe(true);
  });
});

describe("vocabulary", () => {
  test("each of the 44 elements has its row: totals never share an id with exchangeable or extractable properties", async () => {
    const { body } = await loam.json("/v1/properties");
    const byId = new Map<string, any>(body.properties.map((p: any) => [p.id, p]));
    for (const id of Object.values(ELEMENT_IDS)) {
      const p = byId.get(id);
      expect(p).toBeDefined();
      expect(p.status).toBe("experimental");
      expect(p.method_dependency_warning).toContain("not plant-available");
      // The standard unit is the file's unit (wt. % as %).
      const symbol = Object.keys(ELEMENT_IDS).find((s) => ELEMENT_IDS[s] === id)!;
      expect(p.standard_unit).toBe(expectedCell("1", reference().units[`Top5_${symbol}`]!).unit);
    }
    expect(byId.get("calcium").name).toContain("exchangeable");
    expect(byId.get("calcium_total").name).toContain("total");
    for (const [alias, id] of [["ca", "calcium"], ["pb", "lead"], ["as", "arsenic"], ["hg", "mercury"], ["total_calcium", "calcium_total"], ["zn", "zinc"]]) {
      expect(byId.get(id!).accepted_aliases.includes(alias) || id === alias).toBe(true);
    }
    const { body: providers } = await loam.json("/v1/providers");
    const geochem = providers.providers.find((p: any) => p.id === "usgs_geochem");
    expect(geochem).toMatchObject({ operational: true, status: "experimental", data_kind: "observed", license: expect.stringContaining("Public domain") });
    expect([...geochem.supported_properties].sort()).toEqual(Object.values(ELEMENT_IDS).sort());
  });
});

describe("bad input", () => {
  const refused = async (path: string, status: number, code: string, phrase?: string) => {
    const { status: got, body } = await loam.json(path);
    expect([path, got, body?.error?.code]).toEqual([path, status, code]);
    contract.assert("ErrorResponse", body);
    if (phrase) expect(body.error.message).toContain(phrase);
  };

  test("a malformed site id is a 422; an unknown site a 404 not_found", async () => {
    for (const id of ["abc", "0", "-5", "1e3", "3560.0", "99999999999"]) await refused(`/v1/geochem/sites/${id}`, 422, "validation_error", "site_id");
    const unknown = [1, 2, 3, 4, 5, 6, 7].find((id) => !reference().sites.has(id))!;
    await refused(`/v1/geochem/sites/${unknown}`, 404, "not_found", String(unknown));
    await refused(`/v1/providers/usgs_geochem/raw/sites/${unknown}`, 404, "not_found");
    await refused(`/v1/providers/usgs_geochem/raw/sites/x1`, 422, "validation_error");
    // The pattern the served document declares for site_id agrees with the route's parser.
    const doc = (await loam.json("/openapi.json")).body;
    const declared = doc.paths["/v1/geochem/sites/{site_id}"].get.parameters.find((p: { name: string }) => p.name === "site_id").schema.pattern;
    const pattern = new RegExp(declared);
    for (const ok of ["8", "3560", "31081"]) expect(pattern.test(ok)).toBe(true);
    for (const bad of ["0", "abc", "-5", "1e3"]) expect(pattern.test(bad)).toBe(false);
  });

  test("an unknown element is a 422 naming it; a property that is not an element too", async () => {
    await refused("/v1/geochem/sites/3560?properties=arsenic,unobtainium", 422, "validation_error", "unobtainium");
    await refused("/v1/geochem/sites/3560?properties=clay", 422, "validation_error", "clay");
    await refused("/v1/geochem/sites/3560?properties=arsenic,,lead", 422, "validation_error", "empty item");
    await refused(`/v1/geochem/sites?bbox=${IOWA_BOX}&property=unobtainium`, 422, "validation_error", "unobtainium");
    // `calcium` is the exchangeable quantity: the survey's total is calcium_total.
    await refused(`/v1/geochem/sites?bbox=${IOWA_BOX}&property=calcium`, 422, "validation_error", "calcium");
  });

  test("a box outside WGS84 or inverted is a 422; so are limits out of range and near with bbox or cursor", async () => {
    await refused("/v1/geochem/sites?bbox=-190,40,-90,43", 422, "validation_error", "longitude");
    await refused("/v1/geochem/sites?bbox=-96,40,-90,95", 422, "validation_error", "latitude");
    await refused("/v1/geochem/sites?bbox=-90,40,-96,43", 422, "validation_error", "min_lon");
    await refused("/v1/geochem/sites?bbox=-96,43,-90,40", 422, "validation_error", "min_lat");
    await refused("/v1/geochem/sites?bbox=-96,40,-90", 422, "validation_error", "bbox");
    await refused("/v1/geochem/sites?limit=0", 422, "validation_error", "limit");
    await refused("/v1/geochem/sites?limit=1001", 422, "validation_error", "limit");
    await refused("/v1/geochem/sites?near=42,-93&limit=101", 422, "validation_error", "limit");
    await refused("/v1/geochem/sites?near=42,-93&bbox=-96,40,-90,43", 422, "validation_error", "near");
    await refused("/v1/geochem/sites?near=95,-93", 422, "validation_error", "latitude");
    await refused("/v1/geochem/sites?near=abc", 422, "validation_error", "near");
    await refused("/v1/geochem/sites?format=xml", 422, "validation_error");
  });

  test("a cursor from another query (box or property), or an altered one, is a 422", async () => {
    const first = (await loam.json(`/v1/geochem/sites?bbox=${IOWA_BOX}&limit=5&property=lead`)).body;
    const cursor = new URL(`http://x${first.next}`).searchParams.get("cursor")!;
    // The same query with another limit continues the walk.
    const ok = await loam.json(`/v1/geochem/sites?bbox=${IOWA_BOX}&limit=7&property=lead&cursor=${cursor}`);
    expect(ok.status).toBe(200);
    expect(ok.body.features[0].id).toBeGreaterThan(first.features[4].id);
    await refused(`/v1/geochem/sites?bbox=-96,40,-90,43&limit=5&property=lead&cursor=${cursor}`, 422, "validation_error", "another query");
    await refused(`/v1/geochem/sites?bbox=${IOWA_BOX}&limit=5&property=arsenic&cursor=${cursor}`, 422, "validation_error", "another query");
    await refused(`/v1/geochem/sites?bbox=${IOWA_BOX}&limit=5&cursor=${cursor}`, 422, "validation_error", "another query");
    const altered = Buffer.from(JSON.stringify([1, "99999", ...JSON.parse(Buffer.from(cursor, "base64url").toString()).slice(2)])).toString("base64url");
    await refused(`/v1/geochem/sites?bbox=${IOWA_BOX}&limit=5&property=lead&cursor=${altered}`, 422, "validation_error", "altered");
    await refused(`/v1/geochem/sites?near=42,-93&cursor=${cursor}`, 422, "validation_error", "cursor");
  });
});

describe("any input", () => {
  test("random parameters and site ids answer 200, 404 or 422, never 500, each with its model", async () => {
    const fc = await import("fast-check");
    const piece = fc.oneof(fc.constantFrom("-96.7", "40.3", "-90.1", "43.6", "42", "-93", "1e2", "0x10", "", " ", "NaN", "-180", "90", "abc"), fc.double({ noNaN: true }).map(String));
    const list = fc.array(piece, { minLength: 0, maxLength: 5 }).map((items) => items.join(","));
    const query = fc.record(
      {
        bbox: list,
        near: list,
        limit: fc.oneof(fc.integer({ min: -5, max: 1200 }).map(String), fc.constantFrom("", "1.5", "x")),
        cursor: fc.oneof(fc.constantFrom("", "abc", "WzEsIjEiLCJ4IiwieSJd"), fc.string({ maxLength: 40 })),
        property: fc.constantFrom("", "arsenic", "pb", "calcium", "clay", "nope", "AS", "lead,arsenic"),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(query, fc.oneof(fc.integer({ min: -10, max: 40000 }).map(String), fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s !== "." && s !== "..")), async (params, siteId) => {
        const search = new URLSearchParams(params as Record<string, string>).toString();
        const list = await loam.json(`/v1/geochem/sites?${search}`);
        expect([200, 422]).toContain(list.status);
        contract.assert(list.status === 200 ? "GeochemSiteCollection" : "ErrorResponse", list.body);
        const site = await loam.json(`/v1/geochem/sites/${encodeURIComponent(siteId)}?properties=${encodeURIComponent(params.property ?? "")}`);
        expect([200, 404, 422]).toContain(site.status);
        contract.assert(site.status === 200 ? "GeochemSiteResponse" : "ErrorResponse", site.body);
      }),
      { numRuns: 150 },
    );
  });
});

describe("an empty box", () => {
  test("a box over the Atlantic holds no site: 200 with no features and a warning naming where the provider sampled", async () => {
    const { status, body } = await loam.json("/v1/geochem/sites?bbox=-40,30,-39,31");
    expect(status).toBe(200);
    contract.assert("GeochemSiteCollection", body);
    expect(body.features).toEqual([]);
    expect(body.warnings).toContain("No USGS DS 801 site lies in the box; it sampled the conterminous United States only.");
  });
});
