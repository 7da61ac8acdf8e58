/**
 * CSV tables: RFC 4180 on the wire, and the same rows and values as the JSON answer for the known
 * point and pedons of the data README, read back as a Python or R user would.
 */
import { describe, expect, test } from "bun:test";
import { csvField, csvLine, toCsv } from "../../src/tables/csv";
import { LAB_OBSERVATION_COLUMNS, LOCATION_COLUMNS, PEDON_FEATURE_COLUMNS, pedonCsv, WARNING_SEPARATOR } from "../../src/tables/flatten";
import { joinContributions, SUMMARY_COLUMNS } from "../../src/tables/summary";
import { MAP_UNIT_FEATURE_COLUMNS } from "../../src/tables/mapunits";
import { normalizePedon } from "../../src/providers/usda_kssl/normalize";
import { LAB_PEDON_COLUMNS } from "../../src/providers/usda_kssl/columns";
import { answerAsSda, type Cell as UpstreamCell } from "../../src/upstream/sda/payload";
import { pedonQuery } from "../../src/providers/usda_kssl/queries";
import type { RowAnswer } from "../../src/upstream/sda/rows";
import { Payload } from "../../src/upstream/transport";
import { useLoam } from "../support/server";
import { parseRfc4180, parseWithPython, PYTHON, records } from "../support/csv";
import { knownPoints } from "../location/known-answers";
import { knownPedons } from "../pedons/known-answers";
import { expectRowCodes } from "../support/warning-codes";

const { loam } = useLoam();

/** A JSON number or null as the CSV cell it must read back as. */
const cell = (value: unknown) => (value === null || value === undefined ? "" : String(value));

async function both(path: string): Promise<{ json: any; csv: string; response: Response }> {
  const json = await (await loam.get(path)).json();
  const response = await loam.get(`${path}${path.includes("?") ? "&" : "?"}format=csv`);
  return { json, csv: await response.text(), response };
}

describe("the RFC 4180 writer", () => {
  test("quotes a field with a comma, a quote, CR or LF, doubles inner quotes, leaves others bare", () => {
    expect(csvField("Clarion loam, Bemis moraine")).toBe('"Clarion loam, Bemis moraine"');
    expect(csvField('12" deep')).toBe('"12"" deep"');
    expect(csvField("a\r\nb")).toBe('"a\r\nb"');
    expect(csvField("a\nb")).toBe('"a\nb"');
    expect(csvField("Ap1")).toBe("Ap1");
    expect(csvField(-94.359608)).toBe("-94.359608");
    expect(csvField(null)).toBe("");
    expect(csvField(false)).toBe("false");
    expect(csvLine(["x", null, "y,z"])).toBe('x,,"y,z"\r\n');
  });

  test("a table is a header row then one CRLF record per row; no rows is the header alone", () => {
    const columns = [["name", (r: { n: string }) => r.n]] as const;
    expect(toCsv(columns, [])).toBe("name\r\n");
    const tricky = ['say "hi"', "a,b", "line\nbreak", "ümlaut µm/s", ""];
    const text = toCsv(columns, tricky.map((n) => ({ n })));
    expect(parseRfc4180(text)).toEqual([["name"], ...tricky.map((n) => [n])]);
  });

  test.skipIf(!PYTHON)("Python's csv reads the tricky fields back unchanged", async () => {
    const tricky = ['say "hi"', "a,b", "line\r\nbreak", "ümlaut µm/s", ""];
    const text = toCsv([["name", (n: string) => n], ["n", (n: string) => n.length]], tricky);
    expect(await parseWithPython(text)).toEqual([["name", "n"], ...tricky.map((n) => [n, String(n.length)])]);
  });
});

describe("GET /v1/soil/location as CSV", () => {
  test("the known points: one record per observation, with the JSON's values, provenance and warnings", async () => {
    for (const point of knownPoints()) {
      const { json, csv, response } = await both(`/v1/soil/location?latitude=${point.lat}&longitude=${point.lon}&properties=ph,organic_matter,clay`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
      const rows = records(parseRfc4180(csv));
      expect(rows.length).toBe(json.observations.length);
      expect(rows.length).toBeGreaterThan(0);
      expect(Object.keys(rows[0]!)).toEqual(LOCATION_COLUMNS.map(([name]) => name));
      expect(Object.keys(rows[0]!).slice(-2)).toEqual(["warnings", "answer_warnings"]);
      json.observations.forEach((o: any, i: number) => {
        const row = rows[i]!;
        expect(row).toMatchObject({
          property_id: o.property.id,
          value: cell(o.value),
          unit: o.unit,
          depth_top_cm: cell(o.depth.top_cm),
          depth_bottom_cm: cell(o.depth.bottom_cm),
          data_kind: o.data_kind,
          map_unit_key: o.survey_context.map_unit_key,
          component_key: o.survey_context.component_key,
          horizon_key: o.survey_context.horizon_key,
          provider: o.source.provider,
          record_id: cell(o.source.record_id),
          retrieved_at: o.source.retrieved_at,
          original_property_name: o.source.original_property_name,
          original_value: cell(o.source.original_value),
          citation: o.source.citation,
          answer_warnings: i === 0 ? json.warnings.join(WARNING_SEPARATOR) : "",
        });
        // Every SSURGO observation is a mapped-survey estimate: its own warning, as a documented code.
        expect(expectRowCodes(row.warnings!, o.warnings, json.warnings)).toContain("mapped_survey");
      });
      // The README's answer: the dominant component's top horizon.
      const top = (id: string) => rows.find((r) => r.property_id === id && r.component_key === point.cokey && r.horizon_key === point.chkey)!;
      expect(top("clay")).toMatchObject({ component_name: point.component, horizon_name: point.hzname, map_unit_key: point.mukey, map_unit_name: point.muname });
      expect(Number(top("clay").value)).toBe(point.clay);
      expect(Number(top("ph").value)).toBe(point.ph);
      expect(Number(top("organic_matter").value)).toBe(point.om);
    }
  });

  test.skipIf(!PYTHON)("Python's csv.DictReader gets the Clarion Ap clay of 21 at the IA073 point", async () => {
    const point = knownPoints().find((p) => p.area === "IA073-aoi" && p.component === "Clarion")!;
    const { csv } = await both(`/v1/soil/location?latitude=${point.lat}&longitude=${point.lon}`);
    const [header, ...body] = await parseWithPython(csv);
    const rows = body.map((cells) => Object.fromEntries(header!.map((h, k) => [h, cells[k]])));
    const clay = rows.find((r) => r.property_id === "clay" && r.component_name === "Clarion" && r.horizon_name === "Ap")!;
    expect(Number(clay.value)).toBe(21);
    expect(clay.map_unit_name).toBe("Clarion loam, Bemis moraine, 2 to 6 percent slopes");
  });

  test("no data at a valid point: the header alone, still 200 CSV", async () => {
    const { json, csv } = await both("/v1/soil/location?latitude=41.95&longitude=-94.35");
    expect(json.observations).toEqual([]);
    expect(parseRfc4180(csv)).toEqual([LOCATION_COLUMNS.map(([name]) => name)]);
  });
});

describe("GET /v1/pedons as CSV", () => {
  test("one record per feature, same keys, coordinates and layer counts as the GeoJSON", async () => {
    const { json, csv, response } = await both("/v1/pedons?bbox=-96.5,38.5,-95,39.5&limit=500");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="loam-pedons_-96.5_38.5_-95_39.5.csv"');
    const rows = records(parseRfc4180(csv));
    expect(Object.keys(rows[0]!)).toEqual(PEDON_FEATURE_COLUMNS.map(([name]) => name));
    expect(rows.length).toBe(json.features.length);
    expect(rows.length).toBeGreaterThan(1);
    json.features.forEach((f: any, i: number) => {
      expect(rows[i]).toMatchObject({
        pedon_key: f.properties.pedon_key,
        pedlabsampnum: cell(f.properties.pedlabsampnum),
        layer_count: cell(f.properties.layer_count),
        longitude: cell(f.geometry.coordinates[0]),
        latitude: cell(f.geometry.coordinates[1]),
        representative_of_bbox: "false",
        truncated: String(json.truncated),
      });
    });
    const kimo = rows.find((r) => r.pedlabsampnum === "02N0245")!;
    const known = knownPedons().find((p) => p.pedlabsampnum === "02N0245")!;
    expect(Number(kimo.layer_count)).toBe(known.layerCount);
    expect(Number(kimo.latitude)).toBe(known.latitude);
  });
});

describe("GET /v1/pedons/{pedon_key} as CSV", () => {
  test("the known pedons: one record per lab observation, values as the JSON (02N0245: 8 layers)", async () => {
    for (const known of knownPedons()) {
      const { json, csv, response } = await both(`/v1/pedons/${known.pedlabsampnum}?properties=ph,clay,cec`);
      expect(response.headers.get("content-disposition")).toBe(`attachment; filename="loam-pedon_${known.pedlabsampnum}.csv"`);
      const rows = records(parseRfc4180(csv));
      const observations = json.layers.flatMap((l: any) => l.observations.map((o: any) => ({ l, o })));
      expect(rows.length).toBe(observations.length);
      // A layer with none of the asked properties has no observation, so no record (JSON: observations []).
      expect(json.layers.length).toBe(known.layerCount);
      expect([...new Set(rows.map((r) => r.layer_key))]).toEqual(json.layers.filter((l: any) => l.observations.length > 0).map((l: any) => l.layer_key));
      observations.forEach(({ l, o }: any, i: number) => {
        expect(rows[i]).toMatchObject({
          layer_key: l.layer_key,
          depth_top_cm: cell(l.depth.top_cm),
          property_id: o.property.id,
          value: cell(o.value),
          reported_value: o.reported_value,
          value_qualifier: cell(o.value_qualifier),
          reporting_limit: cell(o.reporting_limit),
          method_code: cell(o.method_code),
          original_column: o.original_column,
          layer_type: cell(l.layer_type),
          citation: i === 0 ? json.citation : "",
          answer_warnings: i === 0 ? json.warnings.join(WARNING_SEPARATOR) : "",
        });
        expectRowCodes(rows[i]!.warnings!, o.warnings, json.warnings);
      });
      const first = (id: string) => rows.find((r) => r.lab_sample_key === known.labsampnum && r.property_id === id)!;
      expect(first("ph")).toMatchObject({ horizon_designation: known.hzn_desgn, depth_top_cm: String(known.top), depth_bottom_cm: String(known.bottom) });
      expect(Number(first("ph").value)).toBe(known.ph);
      expect(Number(first("clay").value)).toBe(known.clay);
      expect(Number(first("cec").value)).toBe(known.cec);
    }
  });

  test("censored results keep reported_value, value_qualifier and reporting_limit; value stays empty", async () => {
    const real = await (await loam.get("/v1/pedons/02N0245")).json();
    // The normalizer's own output for censored cells in SDA's shape (every value a string), read by the pedon query's decoder.
    const columns = [...LAB_PEDON_COLUMNS];
    const row: Record<string, string> = {
      pedon_key: "02N0245", pedlabsampnum: "02N0245", layer_key: "02N01100", labsampnum: "02N01100", hzn_top: "0", hzn_bot: "13", hzn_desgn: "Ap1",
      estimated_organic_carbon: "<0.05", clay_total: ">80", electrical_conductivity_satx: "ND",
    };
    const sda = answerAsSda(columns, columns.map(() => "varchar"), [columns.map((c): UpstreamCell => row[c] ?? null)]).payload;
    const answer = (await pedonQuery.decode(Payload.ofJson(sda))) as RowAnswer;
    const normalized = normalizePedon(answer.typed, { properties: ["organic_carbon", "clay", "ec"], depthTop: 0, depthBottom: 200 })!;
    const rows = records(parseRfc4180(pedonCsv({ ...real, layers: normalized.layers })));
    expect(Object.keys(rows[0]!)).toEqual(LAB_OBSERVATION_COLUMNS.map(([name]) => name));
    const byId = Object.fromEntries(rows.map((r) => [r.property_id, r]));
    expect(byId.organic_carbon).toMatchObject({ value: "", reported_value: "<0.05", value_qualifier: "less_than", reporting_limit: "0.05" });
    expect(byId.clay).toMatchObject({ value: "", reported_value: ">80", value_qualifier: "greater_than", reporting_limit: "80" });
    expect(byId.ec).toMatchObject({ value: "", reported_value: "ND", value_qualifier: "less_than", reporting_limit: "" });
    expect(byId.organic_carbon!.warnings!.split(" | ")).toContain("censored");
    expect(byId.ec!.warnings!.split(" | ")).toContain("not_detected");
  });

  test("02N0245 (all properties): the same rows as the JSON, under a third of the 0.3.0 layout's size, with layer_type", async () => {
    const { json, csv } = await both("/v1/pedons/02N0245");
    const rows = records(parseRfc4180(csv));
    const observations = json.layers.flatMap((l: any) => l.observations.map((o: any) => ({ l, o })));
    expect(rows.length).toBe(observations.length);
    // The 0.3.0 layout repeated the citation and every warning (the row's and the answer's, full text) on each row.
    const repeated = observations.reduce(
      (sum: number, { o }: any) => sum + json.citation.length + [...new Set([...o.warnings, ...json.warnings])].join(WARNING_SEPARATOR).length,
      0,
    );
    const before = csv.length - rows.reduce((sum, r) => sum + r.citation!.length + r.warnings!.length + r.answer_warnings!.length, 0) + repeated;
    expect(csv.length).toBeLessThan(before / 3);
    observations.forEach(({ l }: any, i: number) => expect(rows[i]!.layer_type).toBe(cell(l.layer_type)));
    expect(rows.some((r) => r.layer_type === "horizon")).toBe(true);
  });
});

describe("GET /v1/soil/summary and GET /v1/soil/mapunits/{map_unit_key} as CSV", () => {
  const PROPERTIES = "properties=clay,available_water_storage,drainage_class,hydrologic_group&depth_bottom_cm=100";

  /** The JSON summaries and the CSV records agree, record by record. */
  function expectSameSummaries(json: any, csv: string) {
    const rows = records(parseRfc4180(csv));
    expect(Object.keys(rows[0]!)).toEqual(SUMMARY_COLUMNS.map(([name]) => name));
    expect(rows.length).toBe(json.summaries.length);
    json.summaries.forEach((s: any, i: number) => {
      expect(rows[i]).toMatchObject({
        map_unit_key: json.map_unit.map_unit_key,
        map_unit_name: json.map_unit.map_unit_name,
        component_count: String(json.map_unit.components.length),
        property_id: s.property.id,
        method: s.method,
        value: cell(s.value),
        category: cell(s.category),
        unit: cell(s.unit),
        depth_top_cm: cell(s.depth.top_cm),
        depth_bottom_cm: cell(s.depth.bottom_cm),
        percent_of_map_unit: cell(s.percent_of_map_unit),
        contributions: joinContributions(s.contributions),
        data_kind: json.data_kind,
        provider: s.source.provider,
        retrieved_at: s.source.retrieved_at,
        citation: s.source.citation,
        include_minors: String(s.options.include_minors),
        miscellaneous_areas: s.options.miscellaneous_areas,
        // The answer's warnings once, on the first row; each row its own as documented codes.
        answer_warnings: i === 0 ? json.warnings.join(WARNING_SEPARATOR) : "",
      });
      expectRowCodes(rows[i]!.warnings!, s.warnings, json.warnings);
    });
    return rows;
  }

  test("the known points: one record per summary, the JSON's values; the map unit's own route gives the same records", async () => {
    for (const point of knownPoints()) {
      const atPoint = await both(`/v1/soil/summary?latitude=${point.lat}&longitude=${point.lon}&${PROPERTIES}`);
      expect(atPoint.response.status).toBe(200);
      expect(atPoint.response.headers.get("content-disposition")).toBe(`attachment; filename="loam-soil-summary_${point.lat}_${point.lon}.csv"`);
      expect(atPoint.json.map_unit.map_unit_key).toBe(point.mukey);
      const rows = expectSameSummaries(atPoint.json, atPoint.csv);
      expect(rows.length).toBe(4);
      expect(rows.find((r) => r.property_id === "drainage_class")!.value).toBe("");

      const unit = await both(`/v1/soil/mapunits/${point.mukey}?${PROPERTIES}`);
      expect(unit.response.headers.get("content-disposition")).toBe(`attachment; filename="loam-mapunit_${point.mukey}.csv"`);
      expectSameSummaries(unit.json, unit.csv);
      const values = (text: string) => records(parseRfc4180(text)).map((r) => [r.property_id, r.value, r.category, r.contributions]);
      expect(values(unit.csv)).toEqual(values(atPoint.csv));
    }
  });

  test("no map unit at a valid point: the header alone, still 200 CSV", async () => {
    const { json, csv, response } = await both("/v1/soil/summary?latitude=41.95&longitude=-94.35");
    expect(response.status).toBe(200);
    expect(json.map_unit).toBeNull();
    expect(parseRfc4180(csv)).toEqual([SUMMARY_COLUMNS.map(([name]) => name)]);
  });

  test("errors stay JSON: unknown map unit 404, misfit method 422, bad format 422", async () => {
    for (const [path, status] of [
      ["/v1/soil/mapunits/999999999?format=csv", 404],
      ["/v1/soil/mapunits/2765528?properties=drainage_class&method=weighted_average&format=csv", 422],
      ["/v1/soil/summary?latitude=41.944131&longitude=-94.359608&format=tsv", 422],
    ] as const) {
      const response = await loam.get(path, { headers: { Accept: "text/csv" } });
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toStartWith("application/json");
    }
  });
});

describe("GET /v1/soil/mapunits?bbox= as CSV", () => {
  test("one record per polygon feature, same keys, names and summaries as the GeoJSON; the known point's map unit is there", async () => {
    const point = knownPoints().find((p) => p.area === "IA073-aoi" && p.component === "Clarion")!;
    const bbox = [point.lon - 0.01, point.lat - 0.01, point.lon + 0.01, point.lat + 0.01].map((v) => v.toFixed(6)).join(",");
    const { json, csv, response } = await both(`/v1/soil/mapunits?bbox=${bbox}&property=clay&depth_bottom_cm=30`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="loam-mapunits_${json.query.bbox.join("_")}.csv"`);
    const rows = records(parseRfc4180(csv));
    // The fixed columns, with the summarized property's flat columns before the provenance.
    const names = MAP_UNIT_FEATURE_COLUMNS.map(([name]) => name);
    const at = names.indexOf("provider");
    expect(Object.keys(rows[0]!)).toEqual([...names.slice(0, at), "clay", "clay_percent_of_map_unit", ...names.slice(at)]);
    expect(rows.length).toBe(json.features.length);
    expect(rows.length).toBeGreaterThan(1);
    json.features.forEach((f: any, i: number) => {
      expect(rows[i]).toMatchObject({
        feature_id: f.id,
        map_unit_key: f.properties.map_unit_key,
        map_unit_symbol: cell(f.properties.map_unit_symbol),
        map_unit_name: cell(f.properties.map_unit_name),
        area_symbol: cell(f.properties.area_symbol),
        summary_property: "clay",
        summary_method: json.query.method,
        summary_depth_bottom_cm: "30",
        summary_value: cell(f.properties.summary?.value),
        summary_unit: cell(f.properties.summary?.unit),
        provider: json.provider,
        truncated: String(json.truncated),
      });
    });
    expect(rows.some((r) => r.map_unit_key === point.mukey && r.map_unit_name === point.muname)).toBe(true);
  });
});

describe("every CSV route, read by Python's csv module", () => {
  const point = () => knownPoints().find((p) => p.area === "IA073-aoi" && p.component === "Clarion")!;
  test.skipIf(!PYTHON)("Python reads the same records as the strict reader, and as many as the JSON has items", async () => {
    const p = point();
    const cases: [path: string, count: (json: any) => number][] = [
      [`/v1/soil/location?latitude=${p.lat}&longitude=${p.lon}`, (j) => j.observations.length],
      [`/v1/soil/summary?latitude=${p.lat}&longitude=${p.lon}&properties=clay,drainage_class`, (j) => j.summaries.length],
      [`/v1/soil/mapunits/${p.mukey}?properties=clay,available_water_storage`, (j) => j.summaries.length],
      ["/v1/soil/mapunits?bbox=-94.37,41.934,-94.35,41.954&property=clay", (j) => j.features.length],
      ["/v1/pedons?bbox=-96.5,38.5,-95,39.5&limit=500", (j) => j.features.length],
      ["/v1/pedons/02N0245", (j) => j.layers.reduce((n: number, l: any) => n + l.observations.length, 0)],
      ["/v1/series/clarion", (j) => j.horizons.length],
      ["/v1/pedons/layers?bbox=-96,38.5,-95,39.5&properties=clay,ph&limit=100", (j) => j.rows.length],
      ["/v1/soil/aoi?bbox=-94.361846,41.943158,-94.358198,41.945788&properties=clay,drainage_class", (j) => j.map_units.length * 2 + j.summaries.length],
      [`/v1/soil/points?points=${p.lat},${p.lon};41.95,-94.35&properties=clay,ph`, (j) => j.points.length * 2],
    ];
    for (const [path, count] of cases) {
      const { json, csv, response } = await both(path);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      const python = await parseWithPython(csv);
      expect(python).toEqual(parseRfc4180(csv));
      expect({ path, rows: python.length - 1 }).toEqual({ path, rows: count(json) });
      expect(count(json)).toBeGreaterThan(0);
    }
    // One Python process per route: on a busy 2-core machine that takes longer than the default 5 s.
  }, 60_000);
});

describe("negotiation, validators and errors", () => {
  test("Accept: text/csv selects CSV; a browser's Accept and format=json stay JSON", async () => {
    const path = "/v1/pedons/02N0245";
    expect((await loam.get(path, { headers: { Accept: "text/csv" } })).headers.get("content-type")).toStartWith("text/csv");
    expect((await loam.get(path, { headers: { Accept: "text/csv;q=0.9, application/json;q=0.5" } })).headers.get("content-type")).toStartWith("text/csv");
    expect((await loam.get(path, { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } })).headers.get("content-type")).toStartWith("application/json");
    expect((await loam.get(`${path}?format=json`, { headers: { Accept: "text/csv" } })).headers.get("content-type")).toStartWith("application/json");
  });

  test("the CSV has its own ETag, answers If-None-Match with 304, and varies on Accept", async () => {
    const json = await loam.get("/v1/pedons/02N0245", { headers: { "Accept-Encoding": "identity" } });
    const csv = await loam.get("/v1/pedons/02N0245?format=csv", { headers: { "Accept-Encoding": "identity" } });
    const tag = csv.headers.get("etag")!;
    expect(tag).toMatch(/-csv"$/);
    expect(tag).not.toBe(json.headers.get("etag"));
    expect(csv.headers.get("vary")).toContain("Accept");
    expect(csv.headers.get("cache-control")).toBe(json.headers.get("cache-control"));
    const again = await loam.get("/v1/pedons/02N0245?format=csv", { headers: { "If-None-Match": tag, "Accept-Encoding": "identity" } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  test("a JSON tag never answers a CSV request with 304; the JSON of a CSV route also varies on Accept", async () => {
    const path = "/v1/soil/location?latitude=41.944131&longitude=-94.359608";
    const json = await loam.get(path);
    expect(json.headers.get("vary")).toBe("Accept, Accept-Encoding");
    const tag = json.headers.get("etag")!;
    const csv = await loam.get(`${path}&format=csv`, { headers: { "If-None-Match": tag } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toStartWith("text/csv");
    const csvByAccept = await loam.get(path, { headers: { Accept: "text/csv", "If-None-Match": tag } });
    expect(csvByAccept.status).toBe(200);
    expect(await csvByAccept.text()).toBe(await csv.text());
    // and the CSV's tag does not 304 the JSON
    expect((await loam.get(path, { headers: { "If-None-Match": csv.headers.get("etag")! } })).status).toBe(200);
  });

  test("HEAD of a CSV request: the CSV's headers, no body", async () => {
    const get = await loam.get("/v1/pedons/02N0245?format=csv", { headers: { "Accept-Encoding": "identity" } });
    const head = await loam.get("/v1/pedons/02N0245?format=csv", { method: "HEAD", headers: { "Accept-Encoding": "identity" } });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
    expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
    expect(head.headers.get("content-disposition")).toBe(get.headers.get("content-disposition"));
    expect(await head.text()).toBe("");
  });

  test("a compressed CSV decodes to the same table; its tag revalidates", async () => {
    const path = "/v1/pedons/02N0245?format=csv";
    const plain = await (await loam.get(path, { headers: { "Accept-Encoding": "identity" } })).text();
    expect(plain.length).toBeGreaterThan(1024);
    const response = await fetch(`${loam.base}${path}`, { headers: { "Accept-Encoding": "gzip" }, decompress: false } as RequestInit);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    const tag = response.headers.get("etag")!;
    expect(tag).toMatch(/-csv-gzip"$/);
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await response.arrayBuffer())))).toBe(plain);
    expect((await loam.get(path, { headers: { "If-None-Match": tag } })).status).toBe(304);
  });

  test("format other than json or csv is a 422 naming it, before the pedon is looked up", async () => {
    const response = await loam.get("/v1/pedons/99Z9999?format=xlsx");
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.error.code).toBe("validation_error");
    expect(body.error.message).toContain("'format' must be one of json, csv");
  });

  test("errors stay JSON ErrorResponse; an unknown format is a 422", async () => {
    for (const [path, status, code] of [
      ["/v1/pedons/99Z9999?format=csv", 404, "not_found"],
      ["/v1/soil/location?latitude=95&longitude=0&format=csv", 422, "validation_error"],
      ["/v1/pedons/02N0245?format=xml", 422, "validation_error"],
    ] as const) {
      const response = await loam.get(path, { headers: { Accept: "text/csv" } });
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toStartWith("application/json");
      expect((await response.json()).error.code).toBe(code);
    }
  });
});

describe("the CSV routes in the OpenAPI document", () => {
  test("each CSV route documents format (json, csv), its table on the 200 (text/csv in its description) and Content-Disposition, JSON its one media type; JSON-only routes do not", async () => {
    const doc = await (await loam.get("/openapi.json")).json();
    const csvPaths = ["/v1/soil/location", "/v1/soil/summary", "/v1/soil/mapunits", "/v1/soil/mapunits/{map_unit_key}", "/v1/pedons", "/v1/pedons/layers", "/v1/pedons/{pedon_key}", "/v1/series/{name}", "/v1/geochem/sites", "/v1/geochem/sites/{site_id}", "/v1/soil/points", "/v1/soil/modeled", "/v1/stations", "/v1/stations/{station_triplet}/series", "/v1/soil/evidence"];
    for (const path of csvPaths) {
      const get = doc.paths[path].get;
      const format = get.parameters.find((p: any) => p.name === "format");
      expect(format.schema).toMatchObject({ type: "string", enum: ["json", "csv"], default: "json" });
      expect(Object.keys(get.responses["200"].content)).toEqual(["application/json"]);
      expect(get.responses["200"].description).toContain("text/csv; charset=utf-8; header=present");
      expect(get.responses["200"].headers["Content-Disposition"]).toBeDefined();
    }
    // The area report also answers as GeoJSON (its cut polygons).
    const aoi = doc.paths["/v1/soil/aoi"].get;
    expect(aoi.parameters.find((p: any) => p.name === "format").schema).toMatchObject({ type: "string", enum: ["json", "csv", "geojson"], default: "json" });
    expect(Object.keys(aoi.responses["200"].content)).toEqual(["application/json", "application/geo+json"]);
    expect(aoi.responses["200"].description).toContain("text/csv; charset=utf-8; header=present");
    expect(aoi.responses["200"].headers["Content-Disposition"]).toBeDefined();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      if (csvPaths.includes(path) || path === "/v1/soil/aoi") continue;
      const get = item.get;
      if (!get) continue;
      expect(get.parameters?.some((p: any) => p.name === "format") ?? false).toBe(false);
      expect(get.responses["200"]?.description ?? "").not.toContain("text/csv");
      expect(get.responses["200"]?.headers?.["Content-Disposition"]).toBeUndefined();
    }
  });
});
