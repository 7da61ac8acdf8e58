/**
 * Issue 37 (docs/decisions.md#area-cuts): /health while twenty heavy areas of interest (963 vertices,
 * about 8,900 ha, each its own query) are cut at once. Loam runs as a child process over the test
 * snapshot; ROUNDS rounds of 20 concurrent AOIs, a prober asking /health every 5 ms throughout.
 * Prints the /health latencies (p50, p99, max), the rounds' wall times and the AOI statuses.
 * Bounded: about ROUNDS x 1-2 s. Run: `bun bench/areas-load.ts` (ROUNDS=5 by default).
 */
import { startChild } from "../test/resilience/support";
import { heavyAoiPath } from "../test/support/heavy-aoi";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CONCURRENT = 20;

const loam = await startChild({ env: { RATE_LIMIT_PER_MINUTE: "100000" } });
const health: number[] = [];
let probing = true;
const prober = (async () => {
  while (probing) {
    const started = performance.now();
    await (await fetch(`${loam.base}/health`)).arrayBuffer();
    health.push(performance.now() - started);
    await Bun.sleep(5);
  }
})();

const statuses = new Map<number, number>();
const rounds: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENT }, async (_, k) => {
      const response = await fetch(loam.base + heavyAoiPath(round * CONCURRENT + k + 1));
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }),
  );
  rounds.push(performance.now() - started);
}
probing = false;
await prober;
await loam.stop();

const sorted = [...health].sort((a, b) => a - b);
const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const round1 = (n: number) => Math.round(n * 10) / 10;
console.log(
  JSON.stringify(
    {
      concurrent_aois: CONCURRENT,
      rounds: ROUNDS,
      aoi_statuses: Object.fromEntries(statuses),
      round_ms: rounds.map(round1),
      health: { probes: sorted.length, p50_ms: round1(at(0.5)), p99_ms: round1(at(0.99)), max_ms: round1(sorted.at(-1)!) },
    },
    null,
    1,
  ),
);
process.exit(0);
