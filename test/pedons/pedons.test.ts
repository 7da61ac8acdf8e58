import { runQuery } from "../support/queries";
import { describe, expect, test } from "bun:test";
import { startLoam, testSnapshot, useSnapshotAndFakeSda } from "../support/server";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { SdaTransport } from "../../src/upstream/sda/client";
import { answerAsSda, decodeSdaTable } from "../../src/upstream/sda/payload";
import { Payload } from "../../src/upstream/transport";
import type { Transport } from "../../src/upstream/transport";
import { knownPedons, type KnownPedon } from "./known-answers";

const PEDONS = knownPedons();
const ALL = "ph,organic_carbon,organic_matter,sand,silt,clay,cec,total_nitrogen";
const { snapshot, viaSda, fake, contract } = useSnapshotAndFakeSda();

function observation(layer: any, property: string) {
  return layer.observations.find((o: any) => o.property.id === property);
}

test("the data README yields its three known-answer pedons with layer counts", () => {
  expect(PEDONS.map((p) => [p.pedlabsampnum, p.layerCount])).toEqual([["02N0245", 8], ["12N7611", 4], ["21N0261", 6]]);
});

for (const mode of ["snapshot", "fake SDA"] as const) {
  describe(`known answers of data README §2.5 (${mode})`, () => {
    for (const known of PEDONS) {
      test(`pedon ${known.pedlabsampnum} (${known.name}): ${known.layerCount} layers, top layer ${known.labsampnum} ${known.hzn_desgn} ${known.top}–${known.bottom} cm`, async () => {
        const loam = mode === "snapshot" ? snapshot : viaSda;
        const { status, body } = await loam.json(`/v1/pedons/${known.pedlabsampnum}?properties=${ALL}`);
        expect(status).toBe(200);
        contract.assert("PedonResponse", body);
        expect(body).toMatchObject({ status: "experimental", provider: "usda_kssl", pedon_key: known.pedlabsampnum, data_kind: "observed" });
        expect(body.location).toEqual({ latitude: known.latitude, longitude: known.longitude, horizontal_accuracy_m: null });
        expect(body.layers).toHaveLength(known.layerCount);
        const top = body.layers[0];
        expect(top).toMatchObject({ layer_key: known.labsampnum, lab_sample_key: known.labsampnum, depth: { top_cm: known.top, bottom_cm: known.bottom }, horizon_designation: known.hzn_desgn });
        expect(observation(top, "ph")).toMatchObject({ value: known.ph, reported_value: String(known.ph), unit: "pH", original_column: "lab_chemical_properties.ph_h2o", data_kind: "observed", value_qualifier: null, reporting_limit: null });
        expect(observation(top, "clay")).toMatchObject({ value: known.clay, unit: "%", original_column: "lab_physical_properties.clay_total", data_kind: "observed" });
        expect(observation(top, "cec")).toMatchObject({ value: known.cec, unit: "cmol(+)/kg", original_column: "lab_chemical_properties.cec_nh4_ph_7", transformations: [] });
        // No Walkley-Black in the export: organic carbon is KSSL's estimate, derived.
        const oc = observation(top, "organic_carbon");
        expect(oc).toMatchObject({ value: known.estimatedOrganicCarbon, reported_value: String(known.estimatedOrganicCarbon), data_kind: "derived", original_column: "lab_chemical_properties.estimated_organic_carbon", unit: "% (by weight)", transformations: [] });
        expect(oc.measurement_method).toMatch(/total carbon.*minus carbonate carbon/);
        expect(oc.warnings.join(" ")).toMatch(/no Walkley-Black/);
        const om = observation(top, "organic_matter");
        expect(om.data_kind).toBe("derived");
        // Loam's conversion: four significant digits (docs/decisions.md#precision).
        expect(om.value).toBe(Number((known.estimatedOrganicCarbon * 1.724).toPrecision(4)));
        expect(om.reported_value).toBe(String(known.estimatedOrganicCarbon));
        expect(om.transformations).toEqual([{ operation: "derive_organic_matter_from_organic_carbon", from_unit: "% (by weight)", to_unit: "% (by weight)", formula: "organic_matter = organic_carbon * 1.724; result rounded to 4 significant digits" }]);
        expect(om.warnings.join(" ")).toMatch(/Pribyl 2010.*1\.4 to 2\.5/);
        expect(body.citation).toContain(`Pedon ${known.pedlabsampnum} (${known.upedonid})`);
        expect(body.citation).toContain("Kellogg Soil Survey Laboratory");
        expect(body.citation).toContain("https://ncsslabdatamart.sc.egov.usda.gov/");
        expect(body.source_url).toBe("https://ncsslabdatamart.sc.egov.usda.gov/");
        expect(body.warnings.join(" ")).toMatch(/A pedon is a point/);
        expect(body.warnings.join(" ")).toMatch(/coordinates are provider records/);
        expect(body.warnings.join(" ")).toMatch(mode === "snapshot" ? /offline snapshot/ : /estimated organic carbon/);
      });
    }

    test("02N0245 layer 02N01100 is Ap1 0–13 cm with pH 6.8, clay 35.154017, CEC 24.6409764, OC 1.35 (derived), OM 2.3274", async () => {
      const loam = mode === "snapshot" ? snapshot : viaSda;
      const { body } = await loam.json(`/v1/pedons/02N0245?properties=ph,clay,cec,oc,om`);
      const layer = body.layers.find((l: any) => l.lab_sample_key === "02N01100");
      expect(layer.horizon_designation).toBe("Ap1");
      expect(layer.depth).toEqual({ top_cm: 0, bottom_cm: 13 });
      expect(layer.observations.map((o: any) => [o.property.id, o.value, o.data_kind])).toEqual([
        ["ph", 6.8, "observed"],
        ["clay", 35.154017, "observed"],
        ["cec", 24.6409764, "observed"],
        ["organic_carbon", 1.35, "derived"],
        ["organic_matter", 2.327, "derived"],
      ]);
    });

    test("a bbox around the Kansas pedons lists them as points, ordered by pedon key", async () => {
      const loam = mode === "snapshot" ? snapshot : viaSda;
      const { status, body } = await loam.json(`/v1/pedons?bbox=-96,38.5,-95,39.5&limit=500`);
      expect(status).toBe(200);
      contract.assert("PedonCollection", body);
      expect(body.truncated).toBe(false);
      const keys = body.features.map((f: any) => f.id);
      expect(keys).toContain("02N0245");
      expect(keys).toEqual([...keys].sort());
      const kimo = body.features.find((f: any) => f.id === "02N0245");
      expect(kimo).toEqual({
        type: "Feature",
        id: "02N0245",
        geometry: { type: "Point", coordinates: [-95.7708282, 39.0783539] },
        properties: { pedon_key: "02N0245", representative_of_bbox: false, pedlabsampnum: "02N0245", upedonid: "S01KS-177-001", name: "Kimo", site_observation_date: null, series: { name: "Kimo", url: "/v1/series/KIMO" }, layer_count: 8 },
      });
    });
  });
}

describe("GET /v1/pedons", () => {
  const BOX = "-96,38.5,-95,39.5";

  test("more pedons than limit: truncated, exactly limit features, the first ones by pedon key, with a narrowing warning", async () => {
    const all = (await snapshot.json(`/v1/pedons?bbox=${BOX}&limit=500`)).body;
    expect(all.features.length).toBeGreaterThan(5);
    const { status, body } = await snapshot.json(`/v1/pedons?bbox=${BOX}&limit=5`);
    expect(status).toBe(200);
    contract.assert("PedonCollection", body);
    expect(body.truncated).toBe(true);
    expect(body.features).toHaveLength(5);
    expect(body.features.map((f: any) => f.id)).toEqual(all.features.slice(0, 5).map((f: any) => f.id));
    expect(body.query).toEqual({ bbox: [-96, 38.5, -95, 39.5], provider: "usda_kssl", limit: 5 });
    expect(body.warnings.join(" ")).toMatch(/Truncated: more than 5 pedons.*not complete.*Narrow the bbox/);
  });

  test("exactly limit pedons is not truncated", async () => {
    const all = (await snapshot.json(`/v1/pedons?bbox=${BOX}&limit=500`)).body;
    const n = all.features.length;
    const { body } = await snapshot.json(`/v1/pedons?bbox=${BOX}&limit=${n}`);
    expect(body.truncated).toBe(false);
    expect(body.features).toHaveLength(n);
    const fewer = (await snapshot.json(`/v1/pedons?bbox=${BOX}&limit=${n - 1}`)).body;
    expect(fewer.truncated).toBe(true);
    expect(fewer.features).toHaveLength(n - 1);
  });

  test("fewer pedons than limit: not truncated, every feature inside the box, default limit 100", async () => {
    const { status, body } = await snapshot.json(`/v1/pedons?bbox=-95.78,39.07,-95.76,39.08`);
    expect(status).toBe(200);
    contract.assert("PedonCollection", body);
    expect(body.truncated).toBe(false);
    expect(body.query.limit).toBe(100);
    expect(body.features.length).toBeGreaterThan(0);
    expect(body.features.length).toBeLessThan(100);
    for (const f of body.features) {
      const [lon, lat] = f.geometry.coordinates;
      expect(lon).toBeGreaterThanOrEqual(-95.78);
      expect(lon).toBeLessThanOrEqual(-95.76);
      expect(lat).toBeGreaterThanOrEqual(39.07);
      expect(lat).toBeLessThanOrEqual(39.08);
      expect(f.properties.representative_of_bbox).toBe(false);
      expect(f.properties.pedon_key).toBe(f.id);
    }
    expect(body.warnings.join(" ")).not.toMatch(/Truncated/);
  });

  test("tiling Kansas finds all 429 pedons with coordinates and never 02N0845, which has none", async () => {
    const found = new Set<string>();
    for (let lon = -102.5; lon < -94.5; lon += 2) {
      for (const lat of [36.5, 38.5]) {
        const { status, body } = await snapshot.json(`/v1/pedons?bbox=${lon},${lat},${lon + 2},${lat + 2}&limit=500`);
        expect(status).toBe(200);
        expect(body.truncated).toBe(false);
        for (const f of body.features) {
          expect(f.geometry.coordinates.every((c: unknown) => typeof c === "number")).toBe(true);
          found.add(f.id);
        }
      }
    }
    expect(found.size).toBe(429);
    expect(found.has("02N0845")).toBe(false);
    expect(found.has("02N0245")).toBe(true);
  });

  test("a box with no pedons is 200 with no features and a warning naming the snapshot coverage", async () => {
    const { status, body } = await snapshot.json(`/v1/pedons?bbox=-1,-1,1,1`);
    expect(status).toBe(200);
    contract.assert("PedonCollection", body);
    expect(body.features).toEqual([]);
    expect(body.truncated).toBe(false);
    expect(body.warnings.join(" ")).toMatch(/No laboratory pedon.*KSSL Kansas/);
  });

  test("the statements about points and coordinates are in the warnings", async () => {
    const { body } = await snapshot.json(`/v1/pedons?bbox=${BOX}`);
    const text = body.warnings.join(" ");
    expect(text).toMatch(/A pedon is a point\. It is not representative of its search box/);
    expect(text).toMatch(/coordinates are provider records whose accuracy varies/);
    expect(text).toMatch(/offline snapshot/);
  });

  for (const alias of ["usda_kssl", "kssl", "ncss_lab", "ncss_kssl"]) {
    test(`provider=${alias} is answered as usda_kssl`, async () => {
      const { status, body } = await snapshot.json(`/v1/pedons?bbox=${BOX}&limit=3&provider=${alias}`);
      expect(status).toBe(200);
      contract.assert("PedonCollection", body);
      expect(body.provider).toBe("usda_kssl");
      expect(body.query.provider).toBe("usda_kssl");
      expect(body.features).toHaveLength(3);
    });
  }
});

describe("GET /v1/pedons/{pedon_key}", () => {
  test("02N0845 has no coordinates: detail answers with a null location and says so", async () => {
    const { status, body } = await snapshot.json(`/v1/pedons/02N0845`);
    expect(status).toBe(200);
    contract.assert("PedonResponse", body);
    expect(body.location).toEqual({ latitude: null, longitude: null, horizontal_accuracy_m: null });
    expect(body.citation).toContain("Holdrege");
    expect(body.layers.length).toBeGreaterThan(0);
    expect(body.warnings.join(" ")).toMatch(/no site coordinates/);
  });

  test("a lower-case pedlabsampnum is accepted and upper-cased", async () => {
    const { status, body } = await snapshot.json(`/v1/pedons/02n0245`);
    expect(status).toBe(200);
    expect(body.pedon_key).toBe("02N0245");
    // Without depth_bottom_cm the interval is the whole pedon: 1000 cm (02N0245 is shallower).
    expect(body.query).toEqual({ pedon_key: "02N0245", properties: ["ph", "organic_carbon", "sand", "silt", "clay"], depth_top_cm: 0, depth_bottom_cm: 1000 });
  });

  test("an SDA integer pedon_key is a valid key; the snapshot has none, so it is 404 with the reason", async () => {
    const { status, body } = await snapshot.json(`/v1/pedons/245`);
    expect(status).toBe(404);
    contract.assert("ErrorResponse", body);
    expect(body.error.code).toBe("not_found");
    expect(body.error.message).toMatch(/keyed by their pedlabsampnum/);
  });

  test("only layers overlapping the depth interval, with their own depths", async () => {
    const all = (await snapshot.json(`/v1/pedons/02N0245?properties=clay`)).body;
    const { body } = await snapshot.json(`/v1/pedons/02N0245?properties=clay&depth_top_cm=20&depth_bottom_cm=60`);
    contract.assert("PedonResponse", body);
    expect(body.query).toMatchObject({ depth_top_cm: 20, depth_bottom_cm: 60 });
    const expected = all.layers.filter((l: any) => l.depth.top_cm < 60 && l.depth.bottom_cm > 20);
    expect(body.layers).toEqual(expected);
    expect(body.layers.length).toBeGreaterThan(0);
    expect(body.layers.length).toBeLessThan(all.layers.length);
  });

  test("a depth interval below every layer is 200 with no layers and a warning", async () => {
    const { status, body } = await snapshot.json(`/v1/pedons/12N7611?depth_top_cm=199&depth_bottom_cm=200`);
    expect(status).toBe(200);
    expect(body.layers).toEqual([]);
    expect(body.warnings.join(" ")).toMatch(/No layer of pedon 12N7611 overlaps 199–200 cm/);
  });

  test("layers without depths (14N0950) are left out and named in a warning", async () => {
    const { status, body } = await snapshot.json(`/v1/pedons/14N0950`);
    expect(status).toBe(200);
    contract.assert("PedonResponse", body);
    const keys = body.layers.map((l: any) => l.lab_sample_key);
    for (const missing of ["14N04710", "14N04711", "14N04712", "14N04713"]) expect(keys).not.toContain(missing);
    expect(body.warnings.join(" ")).toMatch(/14N04710, 14N04711, 14N04712, 14N04713 have no reported depth/);
    const raw = (await snapshot.json(`/v1/providers/usda_kssl/raw/pedons/14N0950`)).body;
    const [names, , ...rows] = raw.upstream_response.Table;
    expect(rows.map((r: string[]) => r[names.indexOf("labsampnum")])).toContain("14N04710");
  });

  test("a zero-thickness layer (14N04357, 0–0 cm) is kept as recorded, with a warning", async () => {
    const { body } = await snapshot.json(`/v1/pedons/14N0855`);
    contract.assert("PedonResponse", body);
    expect(body.layers.find((l: any) => l.lab_sample_key === "14N04357")?.depth).toEqual({ top_cm: 0, bottom_cm: 0 });
    expect(body.warnings.join(" ")).toMatch(/14N04357 are recorded with zero thickness/);
  });

  test("every vocabulary id Loam does not serve from KSSL is answered with a warning in Loam's name, not invented", async () => {
    const { status, body } = await snapshot.json(`/v1/pedons/02N0245?properties=ph,phosphorus,magnesium`);
    expect(status).toBe(200);
    expect(body.layers.every((l: any) => l.observations.every((o: any) => o.property.id === "ph"))).toBe(true);
    const text = body.warnings.join(" ");
    expect(text).toContain("Loam serves 'phosphorus' from usda_kssl only by method, as different quantities: ask for phosphorus_mehlich3 or phosphorus_olsen.");
    expect(text).toContain("Loam does not serve 'magnesium' from usda_kssl");
    expect(text).not.toContain("does not report");
  });

  test("an absent result is not an observation (02N0245 has no saturated-paste EC)", async () => {
    const { body } = await snapshot.json(`/v1/pedons/02N0245?properties=ec`);
    expect(body.layers).toHaveLength(8);
    expect(body.layers.every((l: any) => l.observations.length === 0)).toBe(true);
  });
});

describe("censored results through HTTP", () => {
  /** The snapshot's answer for 02N0245 with censored strings in some cells, as SDA would send them. */
  function censoringSource(inner: Transport): Transport {
    return {
      kind: "sda",
      describe: () => ({ kind: "sda", location: "test" }),
      async fetch(query, params) {
        const payload = await inner.fetch(query, params);
        if (query.kind !== "lab_pedon") return payload;
        const answer = decodeSdaTable(payload, query.columns);
        const { columns, types } = answer.table;
        const set = (row: (string | null)[], column: string, value: string) => (row[columns.indexOf(column)] = value);
        const rows = answer.table.rows.map((row) => [...row]);
        set(rows[0]!, "estimated_organic_carbon", "<0.05");
        set(rows[0]!, "clay_total", "< 0.05");
        set(rows[1]!, "ph_h2o", ">200");
        set(rows[1]!, "cec_nh4_ph_7", "ND");
        set(rows[2]!, "ph_h2o", "tr");
        return Payload.ofJson(answerAsSda(columns, types.map((name) => name as never), rows).payload);
      },
    };
  }

  test("value null, reported_value kept, reporting_limit set and never in value", async () => {
    const loam = await startLoam({ source: censoringSource(new SnapshotTransport(await testSnapshot())) });
    try {
      const { status, body } = await loam.json(`/v1/pedons/02N0245?properties=ph,oc,om,clay,cec`);
      expect(status).toBe(200);
      contract.assert("PedonResponse", body);
      const [first, second, third] = body.layers;
      expect(observation(first, "organic_carbon")).toMatchObject({ value: null, reported_value: "<0.05", value_qualifier: "less_than", reporting_limit: 0.05 });
      expect(observation(first, "organic_matter")).toMatchObject({ value: null, reported_value: "<0.05", value_qualifier: "less_than" });
      expect(observation(first, "clay")).toMatchObject({ value: null, reported_value: "< 0.05", value_qualifier: "less_than", reporting_limit: 0.05 });
      expect(observation(second, "ph")).toMatchObject({ value: null, reported_value: ">200", value_qualifier: "greater_than", reporting_limit: 200 });
      expect(observation(second, "cec")).toMatchObject({ value: null, reported_value: "ND", value_qualifier: "less_than", reporting_limit: null });
      expect(observation(third, "ph")).toMatchObject({ value: null, reported_value: "tr", value_qualifier: "less_than", reporting_limit: null });
      for (const layer of body.layers) for (const o of layer.observations) if (o.value_qualifier !== null) expect(o.value).toBeNull();
      expect(body.warnings.join(" ")).toMatch(/6 result\(s\) are censored/);
      // The raw endpoint keeps the strings exactly as sent.
      const raw = (await loam.json(`/v1/providers/usda_kssl/raw/pedons/02N0245`)).body;
      contract.assert("RawPedonResponse", raw);
      const [names, , row0] = raw.upstream_response.Table;
      expect(row0[names.indexOf("estimated_organic_carbon")]).toBe("<0.05");
    } finally {
      await loam.stop();
    }
  });
});

describe("GET /v1/providers/{provider_id}/raw/pedons/{pedon_key}", () => {
  for (const alias of ["usda_kssl", "kssl", "ncss_lab", "ncss_kssl"]) {
    test(`${alias}: the exact table in SDA's shape inside the raw wrapper, named usda_kssl`, async () => {
      const { status, body } = await snapshot.json(`/v1/providers/${alias}/raw/pedons/02n0245`);
      expect(status).toBe(200);
      contract.assert("RawPedonResponse", body);
      expect(body.provider).toBe("usda_kssl");
      expect(body.query).toEqual({ pedon_key: "02N0245" });
      const [names, metadata, ...rows] = body.upstream_response.Table;
      expect(names).toContain("labsampnum");
      expect(metadata[0]).toMatch(/DataTypeName=/);
      expect(rows).toHaveLength(8);
      expect(rows.every((r: unknown[]) => r.every((v) => v === null || typeof v === "string"))).toBe(true);
      const top = rows.find((r: string[]) => r[names.indexOf("labsampnum")] === "02N01100");
      expect([top[names.indexOf("ph_h2o")], top[names.indexOf("clay_total")], top[names.indexOf("estimated_organic_carbon")]]).toEqual(["6.8", "35.154017", "1.35"]);
      expect(body.warnings.join(" ")).toMatch(/not normalized/);
      expect(body.warnings.join(" ")).toMatch(/morphological pedon data are not/);
    });
  }

  test("through the fake SDA the wrapper holds SDA's own payload", async () => {
    const { status, body } = await viaSda.json(`/v1/providers/usda_kssl/raw/pedons/21N0261`);
    expect(status).toBe(200);
    contract.assert("RawPedonResponse", body);
    const [names, , ...rows] = body.upstream_response.Table;
    expect(rows).toHaveLength(6);
    expect(rows.some((r: string[]) => r[names.indexOf("labsampnum")] === "21N01140" && r[names.indexOf("ph_h2o")] === "7.77")).toBe(true);
    expect(fake.lastQueries.some((sql) => sql.includes("WHERE p.pedlabsampnum = '21N0261'"))).toBe(true);
  });
});

describe("cache and HTTP validators", () => {
  for (const path of ["/v1/pedons/21N0261?properties=ph,clay", "/v1/pedons?bbox=-99,39,-98,40&limit=10", "/v1/providers/usda_kssl/raw/pedons/12N7611"]) {
    test(`${path}: ETag with If-None-Match gives 304; Cache-Control is public`, async () => {
      const first = await snapshot.get(path);
      expect(first.status).toBe(200);
      await first.arrayBuffer();
      const etag = first.headers.get("etag")!;
      expect(etag).toMatch(/^"/);
      expect(first.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
      const second = await snapshot.get(path, { headers: { "if-none-match": etag } });
      expect(second.status).toBe(304);
      expect(await second.text()).toBe("");
      expect(second.headers.get("etag")).toBe(etag);
      const other = await snapshot.get(path, { headers: { "if-none-match": '"something-else"' } });
      expect(other.status).toBe(200);
      await other.arrayBuffer();
    });
  }

  test("the second identical call is a cache hit; the pedon's two key spellings share one answer", async () => {
    const fresh = await startLoam({ source: new SdaTransport({ url: fake.url, timeoutMs: 5000 }) });
    try {
      const before = fake.calls;
      const first = await fresh.json(`/v1/pedons/12N7611`);
      const second = await fresh.json(`/v1/pedons/12n7611?properties=clay`);
      expect(fake.calls - before).toBe(1);
      expect(first.body.cache.hit).toBe(false);
      expect(second.body.cache.hit).toBe(true);
      expect(second.body.cache.stored_at).toBe(first.body.cache.stored_at);
      // SDA mode: retrieved_at is the moment of the upstream call.
      expect(first.body.retrieved_at).toBe(first.body.cache.stored_at);
    } finally {
      await fresh.stop();
    }
  });

  test("an upstream failure is a 502 ErrorResponse naming the provider, never a 200", async () => {
    const fresh = await startLoam({ source: new SdaTransport({ url: fake.url, timeoutMs: 5000 }) });
    fake.setFault("http-500");
    try {
      for (const path of ["/v1/pedons/21N0261", "/v1/pedons?bbox=-99,39,-98,40", "/v1/providers/usda_kssl/raw/pedons/21N0261"]) {
        const { status, body } = await fresh.json(path);
        expect(status).toBe(502);
        contract.assert("ErrorResponse", body);
        expect(body.error).toMatchObject({ code: "upstream_error", provider: "usda_kssl", retryable: true });
      }
    } finally {
      fake.setFault(null);
      await fresh.stop();
    }
  });
});

describe("OpenAPI", () => {
  test("the three routes document every status with a model, and an example URL", () => {
    const paths = contract.doc.paths;
    for (const [path, statuses] of [
      ["/v1/pedons", [200, 404, 409, 422, 502, 504]],
      ["/v1/pedons/{pedon_key}", [200, 404, 409, 422, 502, 504]],
      ["/v1/providers/{provider_id}/raw/pedons/{pedon_key}", [200, 404, 409, 422, 502, 504]],
    ] as const) {
      const get = paths[path]?.get;
      expect(get).toBeDefined();
      expect(get.summary.length).toBeGreaterThan(10);
      expect(get.description).toMatch(/Example: \/v1\//);
      expect(get.responses["304"]).toBeDefined();
      for (const status of statuses.slice(1)) expect(contract.responseModel(path, status)).toBe("ErrorResponse");
    }
    expect(contract.responseModel("/v1/pedons", 200)).toBe("PedonCollection");
    expect(contract.responseModel("/v1/pedons/{pedon_key}", 200)).toBe("PedonResponse");
    expect(contract.responseModel("/v1/providers/{provider_id}/raw/pedons/{pedon_key}", 200)).toBe("RawPedonResponse");
  });

  test("every pedon model is closed except upstream_response", () => {
    const schemas = contract.doc.components.schemas;
    const open: string[] = [];
    const walk = (schema: any, where: string) => {
      if (!schema || typeof schema !== "object") return;
      if (schema.type === "object" && schema.additionalProperties !== false && !where.endsWith("upstream_response")) open.push(where);
      for (const [key, value] of Object.entries(schema.properties ?? {})) walk(value, `${where}.${key}`);
      for (const item of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) walk(item, where);
      if (schema.items) walk(schema.items, `${where}[]`);
    };
    for (const name of ["PedonCollection", "PedonFeature", "PedonResponse", "LabLayer", "LabObservation", "RawPedonResponse", "PedonLocation"]) walk(schemas[name], name);
    expect(open).toEqual([]);
  });
});
