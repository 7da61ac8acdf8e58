/**
 * `bun bench/deferred-send.ts`: what a response costs Bun when it is resolved on a later event-loop
 * turn (after a real wait, e.g. a Redis round trip) instead of within the request's own turn, by body
 * size. A bare Bun.serve child answers the same Blob either at once or after `setImmediate`; wrk loads
 * it on loopback (bounded in time and requests) and the server's CPU time per request is read from
 * /proc. On Bun 1.4.5 a body over 16 KB sent from a later turn costs several times the CPU
 * (docs/decisions.md#hot-path), which is why a cached answer never waits on anything not in memory.
 * Environment: BENCH_SECONDS (per run, default 2), BENCH_CONNECTIONS (default 32).
 */
import { cpuTicks, freePort, runWrk, waitReady } from "./lib";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SIZES = [2_000, 14_000, 16_000, 22_000, 146_000];

if (process.env.DEFERRED_SEND_SERVER) {
  // The child: one body, answered at once or from a later turn.
  const body = new Blob([new Uint8Array(Number(process.env.SIZE)).fill(65)]);
  const later = process.env.MODE === "later";
  Bun.serve({
    hostname: "127.0.0.1",
    port: Number(process.env.PORT),
    fetch: () => (later ? new Promise<Response>((resolve) => setImmediate(() => resolve(new Response(body)))) : new Response(body)),
  });
} else {
  const lines = ["| body bytes | same turn: CPU µs / request | later turn: CPU µs / request | ratio |", "|---:|---:|---:|---:|"];
  for (const size of SIZES) {
    const cost: Record<string, number> = {};
    for (const mode of ["now", "later"]) {
      const port = freePort();
      const proc = Bun.spawn([process.execPath, import.meta.path], { env: { ...process.env, DEFERRED_SEND_SERVER: "1", SIZE: String(size), MODE: mode, PORT: String(port) }, stdout: "ignore", stderr: "ignore" });
      try {
        const url = `http://127.0.0.1:${port}/`;
        await waitReady(url, proc);
        await runWrk(url, { label: "deferred-warmup", connections: CONNECTIONS, durationSeconds: 1, maxRequests: 1_000_000 });
        const ticks = cpuTicks(proc.pid);
        const result = await runWrk(url, { label: "deferred", connections: CONNECTIONS, durationSeconds: SECONDS, maxRequests: 2_000_000 });
        cost[mode] = ((cpuTicks(proc.pid) - ticks) * 10_000) / result.requests;
      } finally {
        proc.kill();
        await proc.exited;
      }
    }
    lines.push(`| ${size} | ${cost.now!.toFixed(1)} | ${cost.later!.toFixed(1)} | ${(cost.later! / cost.now!).toFixed(1)}x |`);
    process.stderr.write(`${lines.at(-1)}\n`);
  }
  console.log(`Bun ${Bun.version}, wrk -t1 -c${CONNECTIONS}, ${SECONDS} s per run\n\n${lines.join("\n")}`);
}
