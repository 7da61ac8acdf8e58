/**
 * GET /v1/series/{name} through HTTP, in snapshot mode and in live mode against a local fake of
 * raw.githubusercontent.com serving the real SoilKnowledgeBase files: the data README's known answers
 * (CLARION, WEBSTER, MAJURO), colours equal to the standard formulas applied to the renotation rows,
 * provenance, ETag/304, CSV, the 30-day cache of live answers, faults, 422 and 404.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { startLoam, testSnapshot, type RunningLoam } from "../support/server";
import { contractFrom, type ContractChecker } from "../support/openapi";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { startFakeOsd, type FakeOsd } from "../support/fake-osd";
import { C_WHITE, expectedHex, renotationRow } from "../support/munsell-reference";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { SdaTransport } from "../../src/upstream/sda/client";

const DATA = resolve(process.env.LOAM_DATA_DIR ?? "datasets");
const RENOTATION = gunzipSync(readFileSync(join(DATA, "munsell", "munsell-all.dat.gz"))).toString("utf8");
const THIRTY_DAYS = 30 * 24 * 3600;

let snapshot: RunningLoam;
let live: RunningLoam;
let fakeSda: FakeSda;
let fakeOsd: FakeOsd;
let contract: ContractChecker;

beforeAll(async () => {
  snapshot = await startLoam();
  fakeSda = startFakeSda({ answerer: new SnapshotTransport(await testSnapshot()) });
  fakeOsd = startFakeOsd({ dataDir: DATA });
  live = await startLoam({
    source: new SdaTransport({ url: fakeSda.url, timeoutMs: 5000 }),
    env: { LOAM_UPSTREAM: "sda", OSD_URL: fakeOsd.urlPattern, UPSTREAM_TIMEOUT_MS: "1500" },
  });
  contract = await contractFrom(snapshot.base);
});
afterAll(async () => {
  await snapshot?.stop();
  await live?.stop();
  fakeSda?.close();
  fakeOsd?.close();
});
beforeEach(() => fakeOsd.setFault(null));

/** Every string anywhere in a value. */
function* strings(value: unknown): Generator<string> {
  if (typeof value === "string") yield value;
  else if (Array.isArray(value)) for (const v of value) yield* strings(v);
  else if (value && typeof value === "object") for (const v of Object.values(value)) yield* strings(v);
}

const modes = () => [
  ["snapshot", snapshot],
  ["fake live", live],
] as const;

describe("GET /v1/series/{name}: known answers in both modes", () => {
  test("CLARION: taxonomic class, states, 7 horizons, Ap 0-18 cm moist 10YR 2/1 (hex by the standard formulas), dry 10YR 3/1, loam", async () => {
    // 10YR 2/1 lies halfway between chroma 0 (illuminant C) and the table row 10YR 2/2.
    const r = renotationRow(RENOTATION, "10YR", "2", "2");
    const moistHex = expectedHex((C_WHITE.x + r.x) / 2, (C_WHITE.y + r.y) / 2, r.Y);
    for (const [mode, loam] of modes()) {
      const { status, body } = await loam.json("/v1/series/Clarion");
      expect(status, mode).toBe(200);
      contract.assert("SeriesResponse", body);
      expect(body.provider).toBe("usda_osd");
      expect(body.status).toBe("experimental");
      expect(body.data_kind).toBe("mapped_survey");
      expect(body.series).toMatchObject({ name: "CLARION", taxonomic_class: "Fine-loamy, mixed, superactive, mesic Typic Hapludolls", states: ["IA", "MN"] });
      expect(body.horizons).toHaveLength(7);
      const ap = body.horizons[0];
      expect(ap).toMatchObject({ name: "Ap", depth: { top_cm: 0, bottom_cm: 18 }, texture_class: "loam", ph_class: "slightly acid" });
      expect(ap.moist_color).toEqual({ hue: "10YR", value: 2, chroma: 1, notation: "10YR 2/1", srgb_hex: moistHex });
      expect(ap.dry_color.notation).toBe("10YR 3/1");
      expect(body.horizons.at(-1)).toMatchObject({ name: "C2", depth: { top_cm: 132, bottom_cm: 152 } });
      // Every text section, in OSD order, without its heading.
      expect(body.sections[0]).toEqual({ name: "TAXONOMIC CLASS", text: "Fine-loamy, mixed, superactive, mesic Typic Hapludolls" });
      expect(body.sections.map((s: { name: string }) => s.name)).toContain("RANGE IN CHARACTERISTICS");
      // Provenance: the citation names the revision date; the source is the SoilKnowledgeBase file.
      expect(body.source.citation).toContain("revised 10/2005");
      expect(body.source.source_url).toEndWith("/OSD/C/CLARION.json");
      expect([...strings(body)]).not.toContain("NA");
    }
  });

  test("WEBSTER: the neutral moist colour N 2/0 of its Ap, from Y alone (chromaticity of illuminant C)", async () => {
    const Y = renotationRow(RENOTATION, "10YR", "2", "2").Y;
    for (const [mode, loam] of modes()) {
      const { status, body } = await loam.json("/v1/series/webster");
      expect(status, mode).toBe(200);
      expect(body.series.taxonomic_class).toBe("Fine-loamy, mixed, superactive, mesic Typic Endoaquolls");
      expect(body.horizons[0]).toMatchObject({ name: "Ap", depth: { top_cm: 0, bottom_cm: 20 }, texture_class: "silty clay loam" });
      expect(body.horizons[0].moist_color).toMatchObject({ hue: "N", value: 2, chroma: 0, srgb_hex: expectedHex(C_WHITE.x, C_WHITE.y, Y) });
      expect(body.horizons[0].dry_color.notation).toBe("10YR 3/1");
    }
  });

  test("MAJURO: the missing dry colour is null, never the string NA", async () => {
    for (const [mode, loam] of modes()) {
      const { status, body } = await loam.json("/v1/series/MAJURO");
      expect(status, mode).toBe(200);
      contract.assert("SeriesResponse", body);
      expect(body.series.taxonomic_class).toBe("Sandy-skeletal, carbonatic, isohyperthermic Typic Udorthents");
      expect(body.horizons[0]).toMatchObject({ name: "A", depth: { top_cm: 0, bottom_cm: 15 }, dry_color: null, texture_class: "loamy sand" });
      expect(body.horizons[0].moist_color.notation).toBe("10YR 5/2");
      expect([...strings(body)]).not.toContain("NA");
    }
  });

  test("names are case-insensitive, with spaces or underscores", async () => {
    const a = await snapshot.json("/v1/series/new%20cambria");
    const b = await snapshot.json("/v1/series/NEW_CAMBRIA");
    expect(a.status).toBe(200);
    expect(a.body.series.name).toBe("NEW CAMBRIA");
    expect(b.body.series).toEqual(a.body.series);
  });

  test("every one of the 145 snapshot series answers 200 and matches the contract", async () => {
    const names = readdirSync(join(DATA, "osd")).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5));
    expect(names).toHaveLength(145);
    for (const name of names) {
      const { status, body } = await snapshot.json(`/v1/series/${name}`);
      expect(status, name).toBe(200);
      contract.assert("SeriesResponse", body);
    }
  });
});

describe("provenance, caching and representations", () => {
  test("snapshot mode says so; live mode cites the fetched URL and caches the answer 30 days", async () => {
    const snap = await snapshot.json("/v1/series/Storden");
    expect(snap.body.warnings.join(" ")).toContain("offline snapshot");
    expect(snap.body.source.citation).toContain("(offline snapshot)");

    const calls = fakeOsd.calls;
    const first = await live.get("/v1/series/Storden");
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body.source.source_url).toBe(fakeOsd.urlPattern.replace("{letter}", "S").replace("{name}", "STORDEN"));
    expect(body.warnings.join(" ")).not.toContain("offline snapshot");
    const maxAge = Number(/max-age=(\d+)/.exec(first.headers.get("cache-control") ?? "")?.[1]);
    // At most a day is promised to HTTP caches; the entry itself lives 30 days (checked below).
    expect(maxAge).toBeGreaterThan(0);
    const again = await live.json("/v1/series/Storden");
    expect(again.body.cache.hit).toBe(true);
    expect(fakeOsd.calls).toBe(calls + 1);
    const row = live.db.$client.query("SELECT stored_at, expires_at FROM cache_entries WHERE key LIKE 'usda_osd|%|series:STORDEN'").get() as { stored_at: number; expires_at: number };
    expect((row.expires_at - row.stored_at) / 1000).toBe(THIRTY_DAYS);
  });

  test("ETag and 304", async () => {
    const first = await snapshot.get("/v1/series/Clarion");
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const second = await snapshot.get("/v1/series/Clarion", { headers: { "if-none-match": etag! } });
    expect(second.status).toBe(304);
  });

  test("format=csv: one row per horizon with colours, hex and the citation", async () => {
    const response = await snapshot.get("/v1/series/Clarion?format=csv");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/csv");
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines[0]!.startsWith("series,taxonomic_class,horizon,depth_top_cm,depth_bottom_cm,moist_color,moist_srgb_hex")).toBe(true);
    expect(lines).toHaveLength(8);
    expect(lines[1]).toContain("CLARION,\"Fine-loamy, mixed, superactive, mesic Typic Hapludolls\",Ap,0,18,10YR 2/1,#");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="loam-series_CLARION.csv"');
    const bad = await snapshot.json("/v1/series/Clarion?format=xml");
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("validation_error");
  });
});

describe("bad input and faults", () => {
  test("a malformed name is a 422 in both modes, without an upstream call", async () => {
    const calls = fakeOsd.calls;
    for (const [, loam] of modes()) {
      for (const bad of ["clarion%25", "clarion1", "a%20%20b", "x".repeat(41), "..%2Fetc", "a_b_c_d_e"]) {
        const { status, body } = await loam.json(`/v1/series/${bad}`);
        expect(status, bad).toBe(422);
        expect(body.error.code).toBe("validation_error");
      }
    }
    expect(fakeOsd.calls).toBe(calls);
  });

  test("an unknown series is a 404 not_found in both modes (Meade has no OSD)", async () => {
    for (const [mode, loam] of modes()) {
      const { status, body } = await loam.json("/v1/series/Meade");
      expect(status, mode).toBe(404);
      expect(body.error).toMatchObject({ code: "not_found", provider: "usda_osd", retryable: false });
    }
  });

  test("live faults: 500 → 502 upstream_error, garbage → 502, a hang → 504 upstream_timeout", async () => {
    for (const [fault, status, code] of [
      ["http-500", 502, "upstream_error"],
      ["garbage", 502, "upstream_error"],
      ["hang", 504, "upstream_timeout"],
    ] as const) {
      fakeOsd.setFault(fault);
      const { status: got, body } = await live.json("/v1/series/Harps");
      expect(got, fault).toBe(status);
      expect(body.error).toMatchObject({ code, provider: "usda_osd", retryable: true });
    }
  });
});

describe("links in live mode", () => {
  test("pedons and components link series-like names (the repository cannot be listed); a linked description answers through OSD_URL", async () => {
    const { body } = await live.json("/v1/pedons?bbox=-96,38.5,-95,39.5&limit=500");
    const kimo = body.features.find((f: any) => f.id === "02N0245");
    expect(kimo.properties.series).toEqual({ name: "Kimo", url: "/v1/series/KIMO" });
    expect(body.features.find((f: any) => f.properties.name === "Grinter (p)").properties.series).toBeNull();
    const kimoSeries = await live.json(kimo.properties.series.url);
    expect(kimoSeries.status).toBe(200);
    expect(kimoSeries.body.source.source_url).toBe(fakeOsd.urlPattern.replace("{letter}", "K").replace("{name}", "KIMO"));
  });
});
