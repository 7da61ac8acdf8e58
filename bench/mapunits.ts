/**
 * Map-unit polygons, uncached, from the snapshot: GET /v1/soil/mapunits for 0.02° boxes (the size of
 * the map page's soil-map view) over the IA073 excerpt, each box different so every request misses the
 * upstream cache and reads the R*Tree and the stored rings. In-process (`app.handle`, no socket), a
 * fixed, small number of requests: a figure, not a load test.
 *
 * Usage: bun bench/mapunits.ts [snapshot.sqlite]   (default: LOAM_SNAPSHOT or data/snapshot.sqlite;
 * build it with `bun run snapshot:build`). Prints p50 / p95 / max in ms and the mean feature count.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../db/client";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { SnapshotTransport } from "../src/upstream/snapshot";

const SNAPSHOT = process.argv[2] ?? process.env.LOAM_SNAPSHOT ?? join(import.meta.dir, "..", "data", "snapshot.sqlite");
const WARMUP = 20;
const REQUESTS = 200;
// The data README's known point in IA073 (map unit L138B); boxes of 0.02° a side are moved around it.
const CENTER = { lat: 41.944131, lon: -94.359608 };
const HALF = 0.01;

const dbPath = join(mkdtempSync(join(tmpdir(), "loam-bench-mapunits-")), "loam.sqlite");
const config = loadConfig({ LOAM_DB: dbPath, RATE_LIMIT_PER_MINUTE: "1000000", LOG_LEVEL: "error" });
const db = openDatabase(config.dbPath);
const app = createApp({ config, db, upstreams: { snapshot: new SnapshotTransport(SNAPSHOT) }, writeLine: () => {} });

/** The i-th box: a distinct offset (at most ±0.004°) so no two requests share a cache entry. */
function box(i: number): string {
  const dx = ((i * 37) % 81) * 0.0001 - 0.004;
  const dy = ((i * 53) % 79) * 0.0001 - 0.0039;
  const w = CENTER.lon + dx - HALF, s = CENTER.lat + dy - HALF;
  return [w, s, w + 2 * HALF, s + 2 * HALF].map((v) => v.toFixed(6)).join(",");
}

async function once(i: number, summary: boolean): Promise<{ ms: number; features: number }> {
  const url = `http://127.0.0.1/v1/soil/mapunits?bbox=${box(i)}${summary ? "&property=clay&method=weighted_average&depth_top_cm=0&depth_bottom_cm=30" : ""}`;
  const start = performance.now();
  const response = await app.handle(new Request(url));
  const body = (await response.json()) as { features: unknown[]; cache: { hit: boolean } };
  const ms = performance.now() - start;
  if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status}`);
  if (body.cache.hit) throw new Error(`${url} was a cache hit; the benchmark needs misses`);
  return { ms, features: body.features.length };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

async function series(label: string, offset: number, summary: boolean): Promise<void> {
  for (let i = 0; i < WARMUP; i++) await once(offset + i, summary);
  const runs: { ms: number; features: number }[] = [];
  for (let i = WARMUP; i < WARMUP + REQUESTS; i++) runs.push(await once(offset + i, summary));
  const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
  const features = runs.reduce((t, r) => t + r.features, 0) / runs.length;
  console.log(`${label}: ${REQUESTS} uncached requests, p50 ${pct(ms, 50).toFixed(2)} ms, p95 ${pct(ms, 95).toFixed(2)} ms, max ${ms.at(-1)!.toFixed(2)} ms, ${features.toFixed(1)} features on average`);
}

await series("polygons, 0.02° box", 0, false);
await series("polygons + clay 0–30 cm summaries, 0.02° box", 10_000, true);
db.$client.close();
