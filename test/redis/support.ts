/**
 * A real redis-server (Debian's package; CI installs it) on a free loopback port, in a temporary
 * directory, with no persistence: started per test file, killed, frozen and restarted by the tests.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RedisClient, type Subprocess } from "bun";
import { freePort } from "../support/spawn";

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
    proc = Bun.spawn([binary, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no"], { stdout: "ignore", stderr: "inherit" });
    const deadline = Date.now() + 5000;
    while (!(await ping(port))) {
      if (proc.exitCode !== null) throw new Error(`redis-server exited with ${proc.exitCode} on port ${port}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port} within 5 s`);
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
