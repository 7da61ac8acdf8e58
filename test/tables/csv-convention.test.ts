/**
 * One CSV convention on every CSV route (issue 45, DESIGN §19, docs/decisions.md#csv-columns): the
 * routes are the OpenAPI operations whose `format` takes `csv` (so a new CSV route is walked without
 * editing this file), each asked with its documented examples. Every header names the same thing the
 * same way (property_id, retrieved_at, depth_top_cm, provider; no `property`, `stored_at`, `top_cm`,
 * `source_provider`, `location_latitude`); the answer's warnings and citations sit on the first row
 * only (`answer_warnings`, `citations`); no CSV is partial (no Link header, `truncated` false). And a
 * station series as CSV is at most twice its JSON in bytes.
 */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";
import { parseRfc4180 } from "../support/csv";
import { exampleRequest, type OperationParameter as Parameter } from "../support/openapi";

const { loam } = useLoam();

/** Whether a `format` parameter's schema names csv (an enum, or a union of constants). */
function takesCsv(p: Parameter): boolean {
  const values = [...(p.schema?.enum ?? []), ...(p.schema?.anyOf ?? []).flatMap((s) => [s.const, ...(s.enum ?? [])])];
  return values.includes("csv");
}

/** Every CSV route of the served document, as a request built from its first examples, format=csv. */
async function csvRequests(): Promise<{ template: string; path: string }[]> {
  const document = (await loam.json("/openapi.json")).body;
  const out: { template: string; path: string }[] = [];
  for (const [template, item] of Object.entries<any>(document.paths)) {
    const parameters: Parameter[] = item.get?.parameters ?? [];
    const format = parameters.find((p) => p.name === "format" && p.in === "query");
    if (!format || !takesCsv(format)) continue;
    const request = exampleRequest(template, parameters, ["format"]);
    if (!request) throw new Error(`${template}: a path parameter has no example, so its CSV cannot be asked`);
    const { path, query } = request;
    query.set("format", "csv");
    out.push({ template, path: `${path}?${query}` });
  }
  return out;
}

/** A name another route gives the same thing, and the name the convention uses. */
const SYNONYMS: Record<string, string> = {
  property: "property_id",
  element: "property_id",
  stored_at: "retrieved_at",
  top_cm: "depth_top_cm",
  bottom_cm: "depth_bottom_cm",
  source_provider: "provider",
  source_retrieved_at: "retrieved_at",
  source_citation: "citation",
  location_latitude: "latitude",
  location_longitude: "longitude",
};
/** Columns of the answer as a whole: on the first row, empty on every other. */
const ANSWER_COLUMNS = ["answer_warnings", "citations"];

describe("every CSV route keeps one convention", () => {
  test("each header names the same things the same way; the answer's warnings and citations on the first row only; never partial", async () => {
    const requests = await csvRequests();
    // The document's CSV routes: the point, modeled, pedons (list, layers, one), series, summaries, polygons, sites, areas, stations.
    expect(requests.length).toBeGreaterThanOrEqual(15);
    const headers: Record<string, string[]> = {};
    let rowsSeen = 0;
    for (const { template, path } of requests) {
      const response = await loam.get(path);
      expect({ template, status: response.status }).toEqual({ template, status: 200 });
      expect(response.headers.get("content-type")).toStartWith("text/csv");
      expect({ template, link: response.headers.get("link") }).toEqual({ template, link: null });
      const [header, ...rows] = parseRfc4180(await response.text());
      headers[template] = header!;
      // Station series name the element measured (a sensor's element, not a property of the soil vocabulary).
      const renamed = header!.filter((name) => name in SYNONYMS && !(name === "element" && template.includes("/series")));
      expect({ template, renamed: renamed.map((name) => `${name} -> ${SYNONYMS[name]}`) }).toEqual({ template, renamed: [] });
      expect({ template, odd: header!.filter((name) => /^(source|location)_/.test(name) && name !== "source_url") }).toEqual({ template, odd: [] });
      for (const name of ["provider", "retrieved_at", "answer_warnings"]) expect({ template, has: name, found: header!.includes(name) }).toEqual({ template, has: name, found: true });
      for (const name of ANSWER_COLUMNS) {
        const at = header!.indexOf(name);
        if (at === -1) continue;
        expect({ template, name, later: rows.slice(1).filter((row) => row[at] !== "").length }).toEqual({ template, name, later: 0 });
      }
      const truncated = header!.indexOf("truncated");
      if (truncated !== -1) expect({ template, cut: rows.filter((row) => row[truncated] !== "false").length }).toEqual({ template, cut: 0 });
      rowsSeen += rows.length;
    }
    expect(rowsSeen).toBeGreaterThan(100);
    // The same thing, the same name, across routes: a property is property_id wherever a row is one property's value.
    for (const [template, header] of Object.entries(headers)) {
      if (header.includes("value") && !template.includes("/stations") && !template.endsWith("/v1/series/{name}")) expect({ template, has: header.includes("property_id") }).toEqual({ template, has: true });
    }
  });

  test("/v1/stations as CSV holds every station of the box in one file, not the first page", async () => {
    const json = (await loam.json("/v1/stations?bbox=-180,-90,180,90&limit=1000")).body;
    expect(json.truncated).toBe(false);
    const response = await loam.get("/v1/stations?bbox=-180,-90,180,90&format=csv");
    expect(response.headers.get("link")).toBeNull();
    const [header, ...rows] = parseRfc4180(await response.text());
    expect(rows.length).toBe(json.features.length);
    expect(rows.length).toBeGreaterThan(100);
    const key = header!.indexOf("station_triplet");
    expect(rows.map((r) => r[key])).toEqual(json.features.map((f: any) => f.properties.station_triplet));
    // The default JSON page holds 100: the CSV is whole all the same.
    expect((await loam.json("/v1/stations?bbox=-180,-90,180,90")).body.features.length).toBeLessThan(rows.length);
  });
});

describe("a station series as CSV is at most twice its JSON", () => {
  test("a year of hourly values and the longest daily series of a station's first offline series", async () => {
    const stations = (await loam.json("/v1/stations?bbox=-180,-90,180,90&limit=1000")).body.features;
    const held = stations.map((f: any) => f.properties).find((p: any) => p.series_offline.some((s: any) => Date.parse(s.end) - Date.parse(s.start) > 366 * 86_400_000));
    const series = held.series_offline.find((s: any) => Date.parse(s.end) - Date.parse(s.start) > 366 * 86_400_000);
    const yearStart = new Date(Date.parse(series.end) - 365 * 86_400_000 + 3_600_000).toISOString().replace(".000Z", "Z");
    const base = `/v1/stations/${encodeURIComponent(held.station_triplet)}/series?element=${series.element}&depth_cm=${series.depth_cm}`;
    for (const query of [`&interval=hourly&start=${yearStart}&end=${series.end}`, `&interval=daily&start=${series.start}&end=${series.end}`]) {
      const json = await loam.get(base + query);
      expect(json.status).toBe(200);
      const jsonBytes = (await json.arrayBuffer()).byteLength;
      const values = (await loam.json(base + query)).body.values.length;
      const csv = await loam.get(`${base}${query}&format=csv`);
      const text = await csv.text();
      const csvBytes = new TextEncoder().encode(text).byteLength;
      expect(parseRfc4180(text).length - 1).toBe(values);
      expect(values).toBeGreaterThan(300);
      expect({ query, ratio: csvBytes / jsonBytes <= 2 }).toEqual({ query, ratio: true });
    }
  });
});
