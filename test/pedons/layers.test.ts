/**
 * GET /v1/pedons/layers (docs/decisions.md#bulk-tables): the layers of every pedon of a box in one
 * request per page, one row per layer and property. Over the box -96,38.5,-95,39.5 the rows equal,
 * value for value, the per-pedon detail answers of those pedons (censoring and layer_type kept); the
 * pedons are those the KSSL export places in the box (read with Python's csv module); CSV as JSON.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DATA_DIR, useLoam } from "../support/server";
import { parseRfc4180, records } from "../support/csv";

const { loam, contract } = useLoam();
const BOX = "-96,38.5,-95,39.5";
const PROPERTIES = "ph,organic_carbon,clay,cec,ec,phosphorus,total_nitrogen";

async function pedonsInBox(): Promise<string[]> {
  const script =
    `import csv,json; rows=csv.DictReader(open(${JSON.stringify(join(DATA_DIR, "kssl/KS/lab_combine_nasis_ncss.csv"))}, newline=''))\n` +
    "print(json.dumps(sorted(r['pedlabsampnum'] for r in rows if r['latitude_decimal_degrees'] and r['longitude_decimal_degrees'] and -96 <= float(r['longitude_decimal_degrees']) <= -95 and 38.5 <= float(r['latitude_decimal_degrees']) <= 39.5)))";
  const child = Bun.spawn(["/usr/bin/python3", "-c", script], { stdout: "pipe" });
  return JSON.parse(await new Response(child.stdout).text());
}

const linkNext = (headers: Headers) => /<([^>]+)>;\s*rel="next"/.exec(headers.get("link") ?? "")?.[1] ?? null;

describe("GET /v1/pedons/layers", () => {
  test("over the box, page by page: the rows equal the per-pedon detail answers, value for value, pedons in key order", async () => {
    const expectedPedons = await pedonsInBox();
    expect(expectedPedons.length).toBeGreaterThan(20);
    const rows: any[] = [];
    let next: string | null = `/v1/pedons/layers?bbox=${BOX}&properties=${PROPERTIES}&limit=20`;
    let pages = 0;
    while (next !== null) {
      pages++;
      const page: { status: number; body: any; headers: Headers } = await loam.json(next);
      const { status, body, headers } = page;
      expect(status).toBe(200);
      contract.assert("LayerTable", body);
      expect(body.next).toBe(linkNext(headers));
      rows.push(...body.rows);
      next = body.next;
    }
    // One request per page of 20 pedons.
    expect(pages).toBe(Math.ceil(expectedPedons.length / 20));
    const pedonKeys = [...new Set(rows.map((r) => r.pedon_key))];
    expect(pedonKeys).toEqual(expectedPedons.filter((k) => rows.some((r) => r.pedon_key === k)));
    let censored = 0;
    const fromDetails: any[] = [];
    for (const key of expectedPedons) {
      const detail = (await loam.json(`/v1/pedons/${key}?properties=${PROPERTIES}`)).body;
      for (const layer of detail.layers) {
        for (const o of layer.observations) {
          if (o.value_qualifier !== null) censored++;
          fromDetails.push({
            layer_key: layer.layer_key,
            pedon_key: detail.pedon_key,
            depth_top_cm: layer.depth.top_cm,
            depth_bottom_cm: layer.depth.bottom_cm,
            horizon_designation: layer.horizon_designation,
            layer_type: layer.layer_type,
            property: o.property.id,
            value: o.value,
            reported_value: o.reported_value,
            value_qualifier: o.value_qualifier,
            reporting_limit: o.reporting_limit,
            unit: o.unit,
            method_code: o.method_code,
            measurement_method: o.measurement_method,
            original_column: o.original_column,
            data_kind: o.data_kind,
            transformations: o.transformations,
          });
        }
      }
    }
    expect(rows).toEqual(fromDetails);
    expect(rows.some((r) => r.layer_type !== null)).toBe(true);
    // Whatever censored results the box holds are kept as reported, never turned into numbers.
    expect(rows.filter((r) => r.value_qualifier !== null).length).toBe(censored);
    for (const r of rows.filter((r) => r.value_qualifier !== null)) expect(r.value).toBeNull();
  });

  test("CSV: the same rows, the answer's warnings once (first row), provider and retrieval time on each", async () => {
    // One JSON page holds the box's pedons; a CSV holds every page (test/tables/whole-csv.test.ts), so it has no Link header.
    const path = `/v1/pedons/layers?bbox=${BOX}&properties=clay,ph&limit=100`;
    const json = (await loam.json(path)).body;
    const response = await loam.get(`${path}&format=csv`);
    expect(response.headers.get("content-type")).toStartWith("text/csv");
    expect(response.headers.get("content-disposition")).toContain("loam-pedon-layers_");
    expect(json.truncated).toBe(false);
    expect(response.headers.get("link")).toBeNull();
    const rows = records(parseRfc4180(await response.text()));
    expect(rows.length).toBe(json.rows.length);
    rows.forEach((row, i) => {
      const r = json.rows[i];
      expect(row).toMatchObject({ pedon_key: r.pedon_key, layer_key: r.layer_key, property_id: r.property, reported_value: r.reported_value, layer_type: r.layer_type ?? "", value: r.value === null ? "" : String(r.value), provider: "usda_kssl" });
      expect(row.answer_warnings).toBe(i === 0 ? json.warnings.join(" | ") : "");
    });
  });

  test("a derived row says so: organic matter carries data_kind derived and its transformation from the organic carbon it reports (KSSL's file)", async () => {
    const script =
      `import csv,json; rows=csv.DictReader(open(${JSON.stringify(join(DATA_DIR, "kssl/KS/lab_chemical_properties.csv"))}, newline=''))\n` +
      "print(json.dumps({r['labsampnum']: r['estimated_organic_carbon'] for r in rows if r['estimated_organic_carbon']}))";
    const child = Bun.spawn(["/usr/bin/python3", "-c", script], { stdout: "pipe" });
    const carbon: Record<string, string> = JSON.parse(await new Response(child.stdout).text());
    const { body } = await loam.json(`/v1/pedons/layers?bbox=${BOX}&properties=organic_matter,clay&limit=100`);
    expect(body.data_kind).toBe("mixed");
    const om = body.rows.filter((r: any) => r.property === "organic_matter" && r.value !== null);
    expect(om.length).toBeGreaterThan(50);
    for (const r of om) {
      expect(r.data_kind).toBe("derived");
      expect(r.original_column).toBe("lab_chemical_properties.estimated_organic_carbon");
      expect(Number(r.reported_value)).toBe(Number(carbon[r.layer_key]));
      expect(r.value).toBeCloseTo(Number(carbon[r.layer_key]) * 1.724, 2);
      expect(r.transformations.map((t: any) => t.operation)).toContain("derive_organic_matter_from_organic_carbon");
    }
    for (const r of body.rows.filter((r: any) => r.property === "clay")) expect(r.data_kind).toBe("observed");
    const csv = records(parseRfc4180(await (await loam.get(`/v1/pedons/layers?bbox=${BOX}&properties=organic_matter&format=csv`)).text()));
    const first = csv.find((r) => r.value !== "")!;
    expect(first.data_kind).toBe("derived");
    expect(first.transformations).toContain("organic_matter = organic_carbon * 1.724");
  });

  test("bad input is a 422 naming the rule: a box outside WGS84, an unknown property, a limit over 100, a cursor of another box", async () => {
    for (const query of [`bbox=-96,38.5,-95,91`, `bbox=-95,38.5,-96,39.5`, `bbox=${BOX}&properties=nonsense`, `bbox=${BOX}&limit=101`, `bbox=${BOX}&depth_top_cm=50&depth_bottom_cm=10`]) {
      const { status, body } = await loam.json(`/v1/pedons/layers?${query}`);
      expect({ query, status }).toEqual({ query, status: 422 });
      expect(body.error.code).toBe("validation_error");
    }
    const first = await loam.json(`/v1/pedons/layers?bbox=${BOX}&limit=3`);
    const cursor = new URL(first.body.next, "http://x").searchParams.get("cursor")!;
    const replay = await loam.json(`/v1/pedons/layers?bbox=-96,38.5,-95,39.4&limit=3&cursor=${cursor}`);
    expect(replay.status).toBe(422);
    const otherProperties = await loam.json(`/v1/pedons/layers?bbox=${BOX}&limit=3&properties=clay&cursor=${cursor}`);
    expect(otherProperties.status).toBe(422);
  });
});
