/**
 * A CSV is never silently partial (docs/decisions.md#csv-whole): on every paged CSV route,
 * `format=csv` holds every row the JSON pages hold together (walked through their cursors), counted
 * by Python's csv module as a pandas or read.csv user would read the file; past the row cap
 * (LOAM_CSV_MAX_ROWS, lowered here) it is a 422 that names the cap and how to narrow the query.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DATA_DIR, startLoam, useLoam, type RunningLoam } from "../support/server";
import { parseWithPython, PYTHON } from "../support/csv";

const { loam } = useLoam();

/** Every JSON page of a query, following `Link: <…>; rel="next"`; the pages' bodies. */
async function walk(first: string): Promise<any[]> {
  const bodies: any[] = [];
  let next: string | null = first;
  while (next !== null) {
    const page: { status: number; body: any; headers: Headers } = await loam.json(next);
    const { status, body, headers } = page;
    expect(status).toBe(200);
    bodies.push(body);
    next = /<([^>]+)>;\s*rel="next"/.exec(headers.get("link") ?? "")?.[1] ?? null;
  }
  return bodies;
}

/** The CSV as Python's csv module reads it: header and records as objects. */
async function csvRecords(path: string): Promise<{ response: Response; rows: Record<string, string>[] }> {
  const response = await loam.get(path);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toStartWith("text/csv");
  const [header, ...body] = await parseWithPython(await response.text());
  return { response, rows: body.map((cells) => Object.fromEntries(header!.map((name, k) => [name, cells[k]!]))) };
}

/** KSSL pedons with site coordinates in a box, read from the export with Python's csv module. */
async function ksslPedonsIn(minLon: number, minLat: number, maxLon: number, maxLat: number): Promise<string[]> {
  const script =
    `import csv,json; rows=csv.DictReader(open(${JSON.stringify(join(DATA_DIR, "kssl/KS/lab_combine_nasis_ncss.csv"))}, newline=''))\n` +
    `print(json.dumps(sorted(r['pedlabsampnum'] for r in rows if r['latitude_decimal_degrees'] and r['longitude_decimal_degrees'] and ${minLon} <= float(r['longitude_decimal_degrees']) <= ${maxLon} and ${minLat} <= float(r['latitude_decimal_degrees']) <= ${maxLat})))`;
  const child = Bun.spawn([PYTHON!, "-c", script], { stdout: "pipe" });
  return JSON.parse(await new Response(child.stdout).text());
}

describe.skipIf(PYTHON === null)("format=csv holds every page of the query", () => {
  test("/v1/pedons/layers: the CSV has every row of every JSON page (the 60 pedons of the box, not the first page's)", async () => {
    const query = "bbox=-96,38.5,-95,39.5&properties=clay,ph,organic_carbon";
    const pages = await walk(`/v1/pedons/layers?${query}`);
    expect(pages.length).toBeGreaterThan(1);
    const jsonRows = pages.flatMap((p) => p.rows);
    const pedons = pages.reduce((sum, p) => sum + p.pedon_count, 0);
    expect(pedons).toBe((await ksslPedonsIn(-96, 38.5, -95, 39.5)).length);
    const { response, rows } = await csvRecords(`/v1/pedons/layers?${query}&format=csv`);
    expect(response.headers.get("link")).toBeNull();
    expect(rows.length).toBe(jsonRows.length);
    expect(rows.map((r) => `${r.pedon_key}|${r.layer_key}|${r.property_id}|${r.reported_value}`)).toEqual(jsonRows.map((r) => `${r.pedon_key}|${r.layer_key}|${r.property}|${r.reported_value}`));
    // The answer's warnings once: no truncation warning, since nothing is left out.
    expect(rows[0]!.answer_warnings).not.toContain("More pedons lie in the bbox");
  });

  test("/v1/pedons/layers takes any box inside WGS84, as the OGC pedons collection does; its CSV lists every pedon", async () => {
    const { status, body } = await loam.json("/v1/pedons/layers?bbox=-180,-90,180,90&properties=clay&limit=100");
    expect(status).toBe(200);
    expect(body.pedon_count).toBe(100);
    expect(body.truncated).toBe(true);
    const everyPedon = await ksslPedonsIn(-180, -90, 180, 90);
    const { rows } = await csvRecords("/v1/pedons/layers?bbox=-180,-90,180,90&properties=clay&format=csv");
    const listed = new Set(rows.map((r) => r.pedon_key));
    // Every listed pedon is one of the export's placed pedons, and more than one JSON page's worth are listed.
    for (const key of listed) expect(everyPedon).toContain(key!);
    expect(listed.size).toBeGreaterThan(100);
  });

  test("/v1/pedons: the CSV has every pedon of the box whatever limit says", async () => {
    const pages = await walk("/v1/pedons?bbox=-96,38.5,-95,39.5&limit=7");
    expect(pages.length).toBeGreaterThan(1);
    const keys = pages.flatMap((p) => p.features.map((f: any) => f.properties.pedon_key));
    const { rows } = await csvRecords("/v1/pedons?bbox=-96,38.5,-95,39.5&limit=7&format=csv");
    expect(rows.map((r) => r.pedon_key)).toEqual(keys);
    expect(rows.every((r) => r.truncated === "false")).toBe(true);
  });

  test("/v1/soil/mapunits?bbox=: the CSV has every polygon of the box whatever limit says", async () => {
    const query = "bbox=-94.37,41.934,-94.35,41.954&properties=clay&limit=5";
    const pages = await walk(`/v1/soil/mapunits?${query}`);
    expect(pages.length).toBeGreaterThan(1);
    const ids = pages.flatMap((p) => p.features.map((f: any) => String(f.id)));
    const { rows } = await csvRecords(`/v1/soil/mapunits?${query}&format=csv`);
    expect(rows.map((r) => r.feature_id)).toEqual(ids);
    expect(rows.map((r) => r.clay)).toEqual(pages.flatMap((p) => p.features.map((f: any) => (f.properties.clay === null ? "" : String(f.properties.clay)))));
  });

  test("/v1/geochem/sites: the CSV has every site of the box whatever limit says", async () => {
    const query = "bbox=-96.7,40.3,-90.1,43.6&property=arsenic&limit=40";
    const pages = await walk(`/v1/geochem/sites?${query}`);
    expect(pages.length).toBeGreaterThan(1);
    const ids = pages.flatMap((p) => p.features.map((f: any) => String(f.properties.site_id)));
    const { rows } = await csvRecords(`/v1/geochem/sites?${query}&format=csv`);
    expect(rows.map((r) => r.site_id)).toEqual(ids);
  });
});

describe("past the row cap a CSV is a 422 naming the cap and how to narrow", () => {
  let capped: RunningLoam;
  test("with LOAM_CSV_MAX_ROWS=50: the 60 pedons' CSV and their layers' CSV are refused; the JSON pages still answer", async () => {
    capped = await startLoam({ env: { LOAM_CSV_MAX_ROWS: "50" } });
    try {
      for (const path of ["/v1/pedons?bbox=-96,38.5,-95,39.5&format=csv", "/v1/pedons/layers?bbox=-96,38.5,-95,39.5&properties=clay&format=csv", "/v1/geochem/sites?bbox=-96.7,40.3,-90.1,43.6&format=csv"]) {
        const response = await capped.get(path);
        expect(response.status).toBe(422);
        const body = (await response.json()) as any;
        expect(body.error.code).toBe("validation_error");
        expect(body.error.message).toContain("at most 50 rows");
        expect(body.error.message).toContain("Narrow it");
      }
      expect((await capped.get("/v1/pedons?bbox=-96,38.5,-95,39.5")).status).toBe(200);
    } finally {
      await capped.stop();
    }
  });
});

describe("a CSV states the answer's warnings once, not on every row", () => {
  const lists = [
    "/v1/pedons?bbox=-96,38.5,-95,39.5",
    "/v1/soil/mapunits?bbox=-94.37,41.934,-94.35,41.954&properties=clay",
    "/v1/geochem/sites?bbox=-96.7,40.3,-90.1,43.6&property=arsenic&limit=1000",
  ];
  test.each(lists)("%s: the list's warnings on the first row (answer_warnings), the other rows' empty", async (path) => {
    const json = (await loam.json(path)).body;
    const text = await (await loam.get(`${path}&format=csv`)).text();
    const rows = await parseWithPython(text);
    const at = rows[0]!.indexOf("answer_warnings");
    expect(rows.length).toBeGreaterThan(2);
    expect(rows[1]![at]).toBe(json.warnings.join(" | "));
    for (const row of rows.slice(2)) expect(row[at]).toBe("");
    expect(text.split(json.warnings[0]).length - 1).toBe(1);
  });

  test("a geochemistry site's CSV (44 elements) holds each of the answer's warnings once", async () => {
    const json = (await loam.json("/v1/geochem/sites/3560")).body;
    const text = await (await loam.get("/v1/geochem/sites/3560?format=csv")).text();
    expect(json.observations.length).toBe(44);
    for (const warning of json.warnings) expect(text.split(warning).length - 1).toBe(1);
  });
});
