/**
 * Issue 27, finding 1 (docs/decisions.md#polygon-budget): one client asks for a ~32.7 MB map-unit
 * polygon answer (fake SDA on 127.0.0.1) 40 times in 40 s while a prober asks /health every 100 ms;
 * prints the /health latencies (p50, p99, max) and the big request's times (miss, hits, 304).
 * Bounded: 40 requests, about 45 s. Run: `bun run bench/large-polygons.ts` (LOAM_WORKERS=2 to try two).
 */
import { SnapshotTransport } from "../src/upstream/snapshot";
import { bigPolygonAnswer, BIG_PATH } from "../test/support/big-polygons";
import { startFakeSda } from "../test/support/fake-sda";
import { startChild } from "../test/resilience/support";
import { testSnapshot } from "../test/support/server";
import { cpuTicks } from "./lib";

const REQUESTS = Number(process.env.REQUESTS ?? 40);
const SPACING_MS = Number(process.env.SPACING_MS ?? 1000);

const text = await bigPolygonAnswer();
const fake = startFakeSda({ answerer: new SnapshotTransport(await testSnapshot()) });
fake.respondWith({ status: 200, contentType: "application/json; charset=utf-8", body: text });
const loam = await startChild({ env: { LOAM_UPSTREAM: "sda", SDA_URL: fake.url, RATE_LIMIT_PER_MINUTE: "120", TRUST_PROXY: "1", LOAM_WORKERS: process.env.LOAM_WORKERS ?? "1", ...(process.env.LOAM_WORKERS && process.env.LOAM_WORKERS !== "1" ? { PORT: String(40000 + Math.floor(Math.random() * 20000)) } : {}) } });

const health: number[] = [];
let probing = true;
const prober = (async () => {
  while (probing) {
    const started = performance.now();
    const response = await fetch(`${loam.base}/health`, { headers: { "x-forwarded-for": "10.9.9.9" } });
    await response.arrayBuffer();
    health.push(performance.now() - started);
    await Bun.sleep(100);
  }
})();

const times: { status: number; ms: number; bytes: number; conditional: boolean; timing: string | null }[] = [];
let etag: string | null = null as string | null;
let cpuAfterWarmup = 0;
for (let i = 0; i < REQUESTS; i++) {
  const started = performance.now();
  const conditional: boolean = i % 2 === 1 && etag !== null;
  // The client takes the compressed bytes as they come (decompressing 33 MB here would stall this process's prober, not Loam).
  const response: Response = await fetch(loam.base + BIG_PATH, { headers: { "x-forwarded-for": "10.1.1.1", "accept-encoding": "br, gzip", ...(conditional ? { "if-none-match": etag! } : {}) }, decompress: false } as RequestInit);
  const body = await response.arrayBuffer();
  etag = response.headers.get("etag") ?? etag;
  times.push({ status: response.status, ms: performance.now() - started, bytes: body.byteLength, conditional, timing: response.headers.get("server-timing") });
  // CPU of the hits and 304s that follow the miss and the first hit (clock ticks of 10 ms).
  if (i === 2) cpuAfterWarmup = cpuTicks(loam.pid);
  const wait = SPACING_MS - (performance.now() - started);
  if (wait > 0) await Bun.sleep(wait);
}
const cpuPerRequestMs = ((cpuTicks(loam.pid) - cpuAfterWarmup) * 10) / Math.max(1, REQUESTS - 3);
probing = false;
await prober;
await loam.stop();
fake.close();

const sorted = [...health].sort((a, b) => a - b);
const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const round = (n: number) => Math.round(n * 10) / 10;
console.log(JSON.stringify({
  answer_bytes: text.length,
  fake_calls: fake.calls,
  health: { probes: sorted.length, p50_ms: round(at(0.5)), p99_ms: round(at(0.99)), max_ms: round(sorted.at(-1)!) },
  first: times[0],
  statuses: [...new Set(times.map((t) => t.status))],
  cpu_per_cached_request_ms: round(cpuPerRequestMs),
  hit_200_median_ms: round(times.filter((t) => !t.conditional).slice(1).map((t) => t.ms).sort((a, b) => a - b)[Math.floor((REQUESTS / 2 - 1) / 2)] ?? NaN),
  not_modified_median_ms: round(times.filter((t) => t.conditional).map((t) => t.ms).sort((a, b) => a - b)[Math.floor(REQUESTS / 4)] ?? NaN),
}, null, 1));
