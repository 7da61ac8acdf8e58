/**
 * A real redis-server (Debian's package; CI installs it) on a free loopback port, in a temporary
 * directory, with no persistence: started per test file, killed, frozen and restarted by the tests.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RedisClient, type Subprocess } from "bun";
import { freePort } from "../support/spawn";
import type { RunningLoam } from "../support/server";

export const REDIS_SERVER = Bun.which("redis-server");

/** Said once, loudly, when the binary is missing: these tests then fail rather than pass unrun. */
export function requireRedisServer(): string {
  if (!REDIS_SERVER) throw new Error("redis-server is not installed: these tests need a real Redis (Debian: apt-get install -y redis-server; CI installs it)");
  return REDIS_SERVER;
}

export interface RunningRedis {
  url: string;
  port: number;
  /** kill -9: the connection drops at once. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: Redis keeps the connection but stops answering (a slow Redis). */
  freeze(): void;
  thaw(): void;
  /** Start again on the same port (empty: nothing was persisted). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function ping(port: number): Promise<boolean> {
  const client = new RedisClient(`redis://127.0.0.1:${port}`, { autoReconnect: false, enableOfflineQueue: false, connectionTimeout: 500 });
  try {
    await client.connect();
    return (await client.send("PING", [])) === "PONG";
  } catch {
    return false;
  } finally {
    client.close();
  }
}

export async function startRedis(): Promise<RunningRedis> {
  const binary = requireRedisServer();
  const port = freePort();
  const dir = mkdtempSync(join(tmpdir(), "loam-test-redis-"));
  let proc: Subprocess | undefined;

  const launch = async () => {
    // On the real clock when the suite runs under faketime: libfaketime recurses inside redis-server's start-up (docs/decisions.md#test-readiness).
    const { LD_PRELOAD: _preload, FAKETIME: _faketime, ...env } = process.env;
    proc = Bun.spawn([binary, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no"], { stdout: "ignore", stderr: "inherit", env });
    // A busy 2-core machine may take seconds to start it: bounded by time, within the hooks' 60 s (docs/decisions.md#test-readiness).
    const deadline = Date.now() + 45_000;
    while (!(await ping(port))) {
      if (proc.exitCode !== null) throw new Error(`redis-server exited with ${proc.exitCode} on port ${port}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port} within 45 s`);
      await Bun.sleep(20);
    }
  };
  await launch();

  const kill = async () => {
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill("SIGCONT");
    proc.kill("SIGKILL");
    await proc.exited;
  };
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    kill,
    freeze: () => proc?.kill("SIGSTOP"),
    thaw: () => proc?.kill("SIGCONT"),
    restart: async () => {
      await kill();
      await launch();
    },
    stop: kill,
  };
}

/** A gauge or counter of an instance's /metrics; NaN when it is not there. */
export async function metric(loam: RunningLoam, name: string): Promise<number> {
  const text = await (await loam.get("/metrics")).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? Number.NaN : Number(line.split(" ")[1]);
}

/** Polls `check` every 20 ms; throws naming `what` after `ms`. */
export async function until(what: string, check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await Bun.sleep(20);
  }
}

export const redisUp = (loam: RunningLoam) => until("redis up", async () => (await metric(loam, "loam_redis_up")) === 1);

/**
 * `workers` loops requesting `pathOf(i)` from the instances in turn; Redis is killed after
 * `beforeKillMs` and the loops stop `afterKillMs` later. The statuses, and how many came before the kill.
 */
export async function loadWhileKilling(
  redis: RunningRedis,
  instances: readonly RunningLoam[],
  options: { workers: number; pathOf: (i: number) => string; beforeKillMs?: number; afterKillMs: number },
): Promise<{ statuses: number[]; before: number }> {
  const statuses: number[] = [];
  let stop = false;
  const loop = async (worker: number) => {
    for (let i = 0; !stop; i++) {
      const response = await instances[(worker + i) % instances.length]!.get(options.pathOf(i));
      await response.arrayBuffer();
      statuses.push(response.status);
    }
  };
  const loops = Array.from({ length: options.workers }, (_, w) => loop(w));
  await Bun.sleep(options.beforeKillMs ?? 300);
  // A busy machine may not have answered anything yet: the kill comes after the first answers (bounded).
  await until("an answer before the kill", async () => statuses.length > 0, 20_000);
  const before = statuses.length;
  await redis.kill();
  await Bun.sleep(options.afterKillMs);
  // And enough answers after it to show the API goes on (bounded; a busy machine answers slowly).
  await until("answers after the kill", async () => statuses.length > before + 20, 20_000);
  stop = true;
  await Promise.all(loops);
  return { statuses, before };
}
