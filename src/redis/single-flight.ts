/**
 * One upstream call per question across instances: a lock in Redis (SET NX PX with a random token)
 * held by the instance that asks the upstream, while the others wait for the lock to go and then read
 * the answer it stored. Within one process identical requests already share one promise (the cache's
 * in-flight map); this is the same rule between processes and machines.
 *
 * - The lock expires by itself after `lockMs` (an instance that dies holding it blocks nobody for
 *   longer), and is released only by its holder (compare-and-delete in Lua).
 * - A waiter that finds no answer once the lock is gone (the holder failed: failures are not stored)
 *   tries to take the lock itself, so a failing upstream is still asked once at a time.
 * - Redis down or slow, or waiting longer than `waitMs`: the instance asks the upstream itself
 *   (answers continue; only the sharing is lost).
 */
import type { ExclusiveSteps } from "../upstream/cache";
import type { LoamRedis } from "./client";

export interface SingleFlightOptions {
  /** Lifetime of a lock: longer than the slowest upstream call (UPSTREAM_TIMEOUT_MS and a margin). */
  lockMs: number;
  /** How long a waiter waits in all before asking the upstream itself. */
  waitMs: number;
  /** Between two looks at the lock (default 10 ms, doubling to 100 ms). */
  pollMs?: number;
  prefix?: string;
}

export type FlightRole = "leader" | "follower" | "alone";

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

export function createRedisSingleFlight(redis: LoamRedis, options: SingleFlightOptions) {
  const prefix = options.prefix ?? "loam:lock:";
  const firstPoll = options.pollMs ?? 10;
  const keyOf = (key: string) => prefix + new Bun.CryptoHasher("sha256").update(key).digest("hex");

  /** "taken" by us, "held" by another, or "unavailable" (Redis down). */
  async function acquire(lock: string, token: string): Promise<"taken" | "held" | "unavailable"> {
    try {
      return (await redis.send("SET", [lock, token, "NX", "PX", String(options.lockMs)])) === "OK" ? "taken" : "held";
    } catch {
      return "unavailable";
    }
  }

  /** Wait while the lock exists, until `deadline`; false when Redis stopped answering. */
  async function waitForRelease(lock: string, deadline: number): Promise<boolean> {
    let poll = firstPoll;
    while (Date.now() < deadline) {
      await Bun.sleep(Math.min(poll, Math.max(1, deadline - Date.now())));
      poll = Math.min(100, poll * 2);
      try {
        // EXISTS answers 0/1 (or false/true: Bun turns it into a boolean).
        if (!(await redis.send("EXISTS", [lock]))) return true;
      } catch {
        return false;
      }
    }
    return true;
  }

  return {
    /**
     * The answer to `key`: produced here when this instance holds the lock (or Redis is unavailable,
     * or the wait ran out), else read once the instance that held it has stored it.
     */
    async run<T>(key: string, steps: ExclusiveSteps<T>): Promise<{ value: T; role: FlightRole }> {
      const lock = keyOf(key);
      const token = crypto.randomUUID();
      const deadline = Date.now() + options.waitMs;
      for (;;) {
        const state = await acquire(lock, token);
        if (state === "unavailable") return { value: await steps.produce(), role: "alone" };
        if (state === "taken") {
          try {
            // The answer may have been stored between the caller's miss and this lock.
            const stored = await steps.lookup();
            if (stored !== undefined) return { value: stored, role: "follower" };
            return { value: await steps.produce(), role: "leader" };
          } finally {
            await redis.eval(RELEASE, [lock], [token]).catch(() => undefined);
          }
        }
        const answered = await waitForRelease(lock, deadline);
        const stored = await steps.lookup();
        if (stored !== undefined) return { value: stored, role: "follower" };
        if (!answered || Date.now() >= deadline) return { value: await steps.produce(), role: "alone" };
      }
    },
  };
}
export type RedisSingleFlight = ReturnType<typeof createRedisSingleFlight>;
