/**
 * Issue 27, finding 1 (docs/decisions.md#decode-once, #polygon-budget): in live mode a ~32 MB map-unit
 * polygon answer (5,001 polygons, under SDA's 32 MiB cap) was decoded on every request, cached or not;
 * a 304 took over a second and /health waited seconds behind it. Now the answer is decoded once (the
 * memory cache keeps the typed polygons), a hit reuses its rendered body, a 304 builds nothing, and an
 * answer over the point or byte budget is a 502 naming the budget. Loam runs as a child process (its
 * CPU read from /proc), the fake SDA on 127.0.0.1 sends the answer.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { POLYGON_ANSWER_MAX_POINTS } from "../../src/providers/usda_ssurgo/polygons";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { bigPolygonAnswer, BIG_PATH } from "../support/big-polygons";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { testSnapshot } from "../support/server";
import { startChild, type ChildLoam } from "./support";

/** CPU time (user + system) a process has used, in milliseconds (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const JSON_TYPE = "application/json; charset=utf-8";

describe("a ~32 MB map-unit polygon answer from SDA", () => {
  let fake: FakeSda;
  let loam: ChildLoam;
  let text: string;
  beforeAll(async () => {
    text = await bigPolygonAnswer();
    fake = startFakeSda({ answerer: new SnapshotTransport(await testSnapshot()) });
    fake.respondWith({ status: 200, contentType: JSON_TYPE, body: text });
    loam = await startChild({ env: { LOAM_UPSTREAM: "sda", SDA_URL: fake.url, RATE_LIMIT_PER_MINUTE: "100000", UPSTREAM_TIMEOUT_MS: "60000" } });
  }, 120_000);
  afterAll(async () => {
    await loam?.stop();
    fake?.close();
  });

  test("is fetched once and decoded once: hits and 304s cost little CPU, /health stays prompt", async () => {
    expect(text.length).toBeGreaterThan(30_000_000);
    expect(text.length).toBeLessThan(32 * 1024 * 1024);
    const first = await fetch(loam.base + BIG_PATH, { headers: { "accept-encoding": "identity" } });
    const body = (await first.json()) as { features: { properties: { map_unit_key: string } }[]; truncated: boolean };
    expect(first.status).toBe(200);
    expect(body.features.length).toBe(5000);
    expect(body.truncated).toBe(true);
    // The fake's rows cycle through the box's real map units, in polygon-key order.
    const rows = (JSON.parse(text) as { Table: string[][] }).Table.slice(2);
    expect(body.features.map((f) => f.properties.map_unit_key)).toEqual(rows.slice(0, 5000).map((row) => row[3]!));
    const etag = first.headers.get("etag")!;
    // The first hit renders the body once; the hits after it reuse it.
    await (await fetch(loam.base + BIG_PATH, { headers: { "accept-encoding": "identity" } })).arrayBuffer();

    const health: number[] = [];
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const started = performance.now();
        await (await fetch(`${loam.base}/health`)).arrayBuffer();
        health.push(performance.now() - started);
        await Bun.sleep(50);
      }
    })();
    const hits = 5;
    let before = cpuMs(loam.pid);
    for (let i = 0; i < hits; i++) {
      const response = await fetch(loam.base + BIG_PATH, { headers: { "accept-encoding": "identity" } });
      expect(response.status).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(30_000_000);
      expect(response.headers.get("server-timing")).toContain('cache;desc="hit"');
    }
    const hitCpu = (cpuMs(loam.pid) - before) / hits;
    before = cpuMs(loam.pid);
    for (let i = 0; i < hits; i++) {
      const response = await fetch(loam.base + BIG_PATH, { headers: { "if-none-match": etag } });
      expect(response.status).toBe(304);
      expect(await response.text()).toBe("");
    }
    const notModifiedCpu = (cpuMs(loam.pid) - before) / hits;
    probing = false;
    await prober;
    // Before: every hit decoded 32 MB again (2-5 s of CPU), a 304 took over a second, /health waited seconds.
    expect(hitCpu).toBeLessThan(50);
    expect(notModifiedCpu).toBeLessThan(50);
    expect(Math.max(...health)).toBeLessThan(1000);
    expect(fake.calls).toBe(1);
  }, 180_000);

  test("an answer over the point budget is a 502 naming the budget, and is not cached", async () => {
    // 5,001 rows of 260-point rings with short coordinates: 1.3 million points in about 7 MB.
    const ring = Array.from({ length: 259 }, (_, i) => `${(i % 9) + 1} ${i % 7}`);
    const wkt = `POLYGON ((${[...ring, ring[0]].join(", ")}))`;
    const rows = (JSON.parse(text) as { Table: string[][] }).Table;
    const small = JSON.stringify({ Table: [rows[0], rows[1], ...rows.slice(2).map((row) => [...row.slice(0, 5), wkt])] });
    fake.respondWith({ status: 200, contentType: JSON_TYPE, body: small });
    const calls = fake.calls;
    const path = BIG_PATH.replace("limit=5000", "limit=4999").replace("-94.48", "-94.47");
    for (let i = 0; i < 2; i++) {
      const { status, body } = await fetch(loam.base + path).then(async (r) => ({ status: r.status, body: (await r.json()) as { error: { code: string; message: string } } }));
      expect(status).toBe(502);
      expect(body.error.code).toBe("upstream_error");
      expect(body.error.message).toContain(`budget of ${POLYGON_ANSWER_MAX_POINTS} points`);
    }
    expect(fake.calls).toBe(calls + 2);
    fake.respondWith({ status: 200, contentType: JSON_TYPE, body: text });
  }, 120_000);
});
