import { describe, expect, test } from "bun:test";
import { startLoam, useSnapshotAndFakeSda } from "../support/server";
import { SdaTransport } from "../../src/upstream/sda/client";
import { knownPoints, type KnownPoint } from "./known-answers";
import { sourceMapUnits } from "../summaries/source-files";

const POINTS = knownPoints();
const SOURCE_UNITS = sourceMapUnits();
const { snapshot, viaSda, fake, contract } = useSnapshotAndFakeSda();

function dominantTop(body: any, point: KnownPoint, property: string) {
  return body.observations.find((o: any) => o.survey_context.horizon_key === point.chkey && o.property.id === property);
}

test("the data README yields its eight known-answer points", () => {
  expect(POINTS).toHaveLength(8);
});

for (const mode of ["snapshot", "fake SDA"] as const) {
  describe(`known answers of data README §1.3 (${mode})`, () => {
    for (const point of POINTS) {
      test(`${point.area} (${point.lat}, ${point.lon}) → ${point.musym} ${point.component}`, async () => {
        const loam = mode === "snapshot" ? snapshot : viaSda;
        const { status, body } = await loam.json(`/v1/soil/location?latitude=${point.lat}&longitude=${point.lon}&properties=ph,om,clay`);
        expect(status).toBe(200);
        contract.assert("LocationResponse", body);
        expect(body.map_units).toHaveLength(1);
        expect(body.map_units[0]).toMatchObject({ area_symbol: point.area.replace("-aoi", ""), map_unit_key: point.mukey, map_unit_symbol: point.musym, map_unit_name: point.muname });
        // The spec's MapUnitSummary: exactly its four fields (docs/decisions.md#location-map-units; components live at /v1/soil/mapunits/{key}).
        expect(Object.keys(body.map_units[0]).sort()).toEqual(["area_symbol", "map_unit_key", "map_unit_name", "map_unit_symbol"]);
        // Components without horizon data in the source files are named in warnings, with percents and the map-unit URL.
        const source = SOURCE_UNITS.find((u) => u.mukey === point.mukey)!;
        const bare = source.components.filter((c) => c.horizons.length === 0);
        const named = body.warnings.filter((w: string) => w.includes("no horizon data"));
        if (bare.length === 0) expect(named).toEqual([]);
        else {
          expect(named).toHaveLength(1);
          for (const c of bare) expect(named[0]).toContain(`${c.name} (${c.percent} %`);
          expect(named[0]).toContain(`/v1/soil/mapunits/${point.mukey}`);
        }
        // Dominant component: highest comppct_r, ties by lowest cokey.
        const components = new Map<string, { name: string; pct: number }>();
        for (const o of body.observations) components.set(o.survey_context.component_key, { name: o.survey_context.component_name, pct: o.survey_context.component_percent });
        const dominant = [...components.entries()].sort((a, b) => b[1].pct - a[1].pct || a[0].localeCompare(b[0]))[0]!;
        expect(dominant[0]).toBe(point.cokey);
        expect(dominant[1]).toEqual({ name: point.component, pct: point.comppct });
        const ph = dominantTop(body, point, "ph");
        const om = dominantTop(body, point, "organic_matter");
        const clay = dominantTop(body, point, "clay");
        expect([ph.value, om.value, clay.value]).toEqual([point.ph, point.om, point.clay]);
        expect(ph.depth).toEqual({ top_cm: point.top, bottom_cm: point.bottom });
        expect(ph.survey_context.horizon_name).toBe(point.hzname);
        expect(ph.source.record_id).toBe(point.chkey);
        expect(om.source.original_property_name).toBe("chorizon.om_r");
        expect(clay.unit).toBe("%");
      });
    }
  });
}

describe("provenance of a mapped-survey observation", () => {
  test("every field is filled truthfully (IA073 Clarion Ap)", async () => {
    const point = POINTS[0]!;
    const { body } = await snapshot.json(`/v1/soil/location?latitude=${point.lat}&longitude=${point.lon}&properties=ph`);
    const ph = dominantTop(body, point, "ph");
    expect(ph.data_kind).toBe("mapped_survey");
    expect(ph.property).toEqual({ id: "ph", name: expect.stringContaining("pH") });
    expect(ph.measurement_method).toMatch(/1:1/);
    expect(ph.source).toMatchObject({
      provider: "usda_ssurgo",
      record_id: point.chkey,
      original_property_name: "chorizon.ph1to1h2o_r",
      original_value: point.ph,
      original_depth: { top_cm: point.top, bottom_cm: point.bottom },
      source_url: expect.stringMatching(/^https:\/\//),
    });
    expect(ph.source.organization).toMatch(/NRCS/);
    // retrieved_at is when Loam's source read the data (the snapshot build), never the survey's version date,
    // which a warning states once for the survey area (docs/decisions.md#retrieved-at).
    expect(ph.source.retrieved_at.slice(0, 10)).not.toBe("2020-06-10");
    expect(body.warnings.join(" ")).toContain("(IA073) is served as of its version 26 of 2020-06-10");
    expect(ph.source.citation).toContain("Greene County, Iowa (IA073)");
    expect(ph.source.citation).toContain("version 26");
    expect(ph.source.citation).toContain("2020-06-10");
    expect(ph.source.spatial_resolution).toMatch(/map-unit/);
    expect(ph.location).toEqual({ latitude: point.lat, longitude: point.lon, horizontal_accuracy_m: null });
    expect(ph.license.name).toMatch(/Public domain/);
    expect(ph.transformations).toEqual([]);
    expect(ph.warnings.join(" ")).toMatch(/not a laboratory observation/);
    expect(ph.survey_context).toMatchObject({ area_symbol: "IA073", map_unit_key: point.mukey, component_key: point.cokey, component_percent: point.comppct, horizon_key: point.chkey });
    expect(body.warnings.join(" ")).toMatch(/offline snapshot/);
    expect(body.warnings.join(" ")).toMatch(/constituents of the map unit/);
  });

  test("every observation carries the mapped-survey warning", async () => {
    const point = POINTS[6]!;
    const { body } = await snapshot.json(`/v1/soil/location?latitude=${point.lat}&longitude=${point.lon}`);
    expect(body.observations.length).toBeGreaterThan(5);
    for (const o of body.observations) expect(o.warnings[0]).toMatch(/Mapped survey data are not a laboratory observation/);
  });

  test("uncertainty comes from the _l/_h values with its meaning stated", async () => {
    const point = POINTS[0]!;
    const raw = await snapshot.json(`/v1/providers/usda_ssurgo/raw/location?latitude=${point.lat}&longitude=${point.lon}`);
    const [names, , ...rows] = raw.body.upstream_response.Table as string[][];
    const row = rows.find((r) => r[names!.indexOf("chkey")] === point.chkey)!;
    const low = Number(row[names!.indexOf("claytotal_l")]);
    const high = Number(row[names!.indexOf("claytotal_h")]);
    const { body } = await snapshot.json(`/v1/soil/location?latitude=${point.lat}&longitude=${point.lon}&properties=clay`);
    const clay = dominantTop(body, point, "clay");
    expect(clay.uncertainty).toEqual({ lower: low, upper: high, method: expect.stringMatching(/not a statistical/) });
    expect(low).toBeLessThan(point.clay);
    expect(high).toBeGreaterThan(point.clay);
  });

  test("organic carbon is derived from organic matter with its transformation and warning", async () => {
    const point = POINTS[1]!; // Nicollet Ap, om_r 6
    const { body } = await snapshot.json(`/v1/soil/location?latitude=${point.lat}&longitude=${point.lon}&properties=soc`);
    expect(body.query.properties).toEqual(["organic_carbon"]);
    const oc = dominantTop(body, point, "organic_carbon");
    expect(oc.data_kind).toBe("derived");
    // A value Loam computes: four significant digits (docs/decisions.md#precision); the original is unrounded.
    expect(oc.value).toBe(Number((point.om / 1.724).toPrecision(4)));
    expect(oc.source.original_value).toBe(point.om);
    expect(oc.source.original_property_name).toBe("chorizon.om_r");
    expect(oc.transformations).toEqual([{ operation: expect.any(String), from_unit: expect.stringMatching(/percent/), to_unit: "% (by weight)", formula: "organic_carbon = organic_matter / 1.724; result rounded to 4 significant digits" }]);
    expect(oc.warnings.join(" ")).toMatch(/1\.724/);
    expect(oc.warnings.join(" ")).toMatch(/not a measurement/);
  });

  test("minor components are flagged", async () => {
    const point = POINTS[0]!;
    const { body } = await snapshot.json(`/v1/soil/location?latitude=${point.lat}&longitude=${point.lon}&properties=ph`);
    const minor = body.observations.filter((o: any) => o.warnings.some((w: string) => /Minor component/.test(w)));
    expect(minor.length).toBeGreaterThan(0);
    expect(minor.every((o: any) => o.survey_context.component_percent < 50)).toBe(true);
    expect(body.warnings.join(" ")).toMatch(/Minor components/);
  });
});

describe("depth interval", () => {
  test("only horizons overlapping the interval, with their own depths", async () => {
    const point = POINTS[0]!;
    const all = (await snapshot.json(`/v1/soil/location?latitude=${point.lat}&longitude=${point.lon}&properties=clay`)).body;
    const slice = (await snapshot.json(`/v1/soil/location?latitude=${point.lat}&longitude=${point.lon}&properties=clay&depth_top_cm=30&depth_bottom_cm=60`)).body;
    expect(slice.query).toMatchObject({ depth_top_cm: 30, depth_bottom_cm: 60 });
    expect(slice.observations.length).toBeGreaterThan(0);
    expect(slice.observations.length).toBeLessThan(all.observations.length);
    for (const o of slice.observations) {
      expect(o.depth.top_cm).toBeLessThan(60);
      expect(o.depth.bottom_cm).toBeGreaterThan(30);
      expect(o.source.original_depth).toEqual(o.depth);
    }
    const expected = all.observations.filter((o: any) => o.depth.top_cm < 60 && o.depth.bottom_cm > 30).length;
    expect(slice.observations.length).toBe(expected);
  });
});

describe("no data", () => {
  test("a point in no map unit is 200 with empty observations and a warning", async () => {
    for (const [lat, lon] of [[41.95, -94.35], [7.6, 171.4], [0, 0]]) {
      const { status, body } = await snapshot.json(`/v1/soil/location?latitude=${lat}&longitude=${lon}`);
      expect(status).toBe(200);
      contract.assert("LocationResponse", body);
      expect(body.observations).toEqual([]);
      expect(body.map_units).toEqual([]);
      expect(body.warnings.join(" ")).toMatch(/falls in no usda_ssurgo map unit/);
      expect(body.warnings.join(" ")).toMatch(/Snapshot coverage: .*IA073/);
    }
  });

  test("the same empty answer through the fake SDA's {}", async () => {
    const { status, body } = await viaSda.json(`/v1/soil/location?latitude=7.6&longitude=171.4`);
    expect(status).toBe(200);
    expect(body.observations).toEqual([]);
    expect(body.warnings.join(" ")).toMatch(/falls in no usda_ssurgo map unit/);
    expect(body.warnings.join(" ")).not.toMatch(/offline snapshot/);
  });
});

describe("cache and HTTP validators", () => {
  test("the second identical call is a cache hit with the same data", async () => {
    const point = POINTS[3]!;
    const path = `/v1/soil/location?latitude=${point.lat}&longitude=${point.lon}&properties=ph`;
    const fresh = await startLoam({ source: new SdaTransport({ url: fake.url, timeoutMs: 5000 }) });
    const callsBefore = fake.calls;
    const first = await fresh.json(path);
    const second = await fresh.json(path);
    await fresh.stop();
    expect(fake.calls - callsBefore).toBe(1);
    expect(first.body.cache.hit).toBe(false);
    expect(second.body.cache.hit).toBe(true);
    expect(second.body.cache.stored_at).toBe(first.body.cache.stored_at);
    expect(second.body.observations).toEqual(first.body.observations);
    // SDA mode: retrieved_at is the moment of the upstream call.
    expect(first.body.observations[0].source.retrieved_at).toBe(first.body.cache.stored_at);
  });

  test("ETag with If-None-Match gives 304; Cache-Control is public", async () => {
    const point = POINTS[4]!;
    const path = `/v1/soil/location?latitude=${point.lat}&longitude=${point.lon}`;
    const first = await snapshot.get(path);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
    const again = await snapshot.get(path, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    const other = await snapshot.get(`${path}&properties=clay`, { headers: { "If-None-Match": etag } });
    expect(other.status).toBe(200);
  });
});

describe("upstream failures", () => {
  test("each SDA fault is a 502 or 504 ErrorResponse naming the provider, and nothing is cached", async () => {
    const cases = [
      ["http-500", 502, "upstream_error"],
      ["maintenance", 502, "upstream_error"],
      ["truncated-json", 502, "upstream_error"],
      ["wrong-content-type", 502, "upstream_error"],
    ] as const;
    for (const [fault, status, code] of cases) {
      fake.setFault(fault);
      const lat = 41.9435 + Math.random() / 10_000;
      const response = await viaSda.json(`/v1/soil/location?latitude=${lat}&longitude=-94.3601`);
      fake.setFault(null);
      expect(response.status).toBe(status);
      contract.assert("ErrorResponse", response.body);
      expect(response.body.error).toMatchObject({ code, provider: "usda_ssurgo", retryable: true });
      if (fault === "maintenance") expect(response.body.error.message).toMatch(/maintenance/i);
      const retried = await viaSda.json(`/v1/soil/location?latitude=${lat}&longitude=-94.3601`);
      expect(retried.status).toBe(200);
      expect(retried.body.cache.hit).toBe(false);
    }
  });

  test("no answer within UPSTREAM_TIMEOUT_MS is a 504", async () => {
    const impatient = await startLoam({ source: new SdaTransport({ url: fake.url, timeoutMs: 300 }) });
    fake.setFault("hang");
    try {
      const started = performance.now();
      const response = await impatient.json(`/v1/soil/location?latitude=41.9441&longitude=-94.3596`);
      expect(response.status).toBe(504);
      expect(response.body.error.code).toBe("upstream_timeout");
      expect(performance.now() - started).toBeLessThan(1300);
    } finally {
      fake.setFault(null);
      await impatient.stop();
    }
  });

  test("connection refused is a 502 upstream_unreachable", async () => {
    const closed = await startLoam({ source: new SdaTransport({ url: "http://127.0.0.1:9/tabular/post.rest", timeoutMs: 2000 }) });
    const response = await closed.json(`/v1/soil/location?latitude=41.9441&longitude=-94.3596`);
    expect(response.status).toBe(502);
    expect(response.body.error.code).toBe("upstream_unreachable");
    await closed.stop();
  });

  test("stale-if-error: an expired entry is served with a warning when SDA fails", async () => {
    let clock = Date.now();
    const short = await startLoam({ source: new SdaTransport({ url: fake.url, timeoutMs: 2000 }), env: { CACHE_TTL_SECONDS: "60" }, now: () => clock });
    const point = POINTS[5]!;
    const path = `/v1/soil/location?latitude=${point.lat}&longitude=${point.lon}&properties=ph`;
    const fresh = await short.json(path);
    clock += 120_000;
    fake.setFault("http-500");
    try {
      const stale = await short.json(path);
      expect(stale.status).toBe(200);
      expect(stale.body.cache.hit).toBe(true);
      expect(stale.body.cache.age_seconds).toBeGreaterThanOrEqual(120);
      expect(stale.body.observations).toEqual(fresh.body.observations);
      expect(stale.body.warnings.join(" ")).toMatch(/Stale answer/);
    } finally {
      fake.setFault(null);
      await short.stop();
    }
  });
});
