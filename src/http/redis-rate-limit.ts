/**
 * The per-client rate limit counted in Redis, for several Loam instances behind one load balancer:
 * the same fixed one-minute windows and the same decisions as the SQLite limiter
 * (src/http/rate-limit.ts), but one counter per client and window that every instance increments,
 * so a client gets one budget however its requests are spread.
 *
 * One round trip per counted request: a Lua script INCRements the window's key and gives it a
 * lifetime on first use, atomically (a MULTI on the shared, auto-pipelined connection could
 * interleave with other requests' commands). No blocks of tickets are reserved as in SQLite: an
 * instance holding unused tickets would refuse a client the rest of its budget elsewhere.
 *
 * Fail open: when Redis is down or slower than REDIS_TIMEOUT_MS the request is allowed, and the
 * headers show the full budget (nothing was counted).
 */
import { WINDOW_SECONDS, rateDecision, rateWindow, type RateDecision } from "./rate-limit";
import type { LoamRedis } from "../redis/client";

/** KEYS[1] the window's counter, ARGV[1] its lifetime in ms, ARGV[2] the request's cost in tickets; returns the request's last number in the window. */
const INCREMENT = `local n = redis.call('INCRBY', KEYS[1], ARGV[2])
if n == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

export interface RedisRateLimiterOptions {
  /** Prefix of every key (several deployments may share one Redis). */
  prefix?: string;
}

export function createRedisRateLimiter(redis: LoamRedis, limit: number, options: RedisRateLimiterOptions = {}) {
  const prefix = options.prefix ?? "loam:rate:";
  return {
    async hit(client: string, nowMs: number, cost = 1): Promise<RateDecision> {
      const { windowStart, resetSeconds } = rateWindow(nowMs);
      let count: number;
      try {
        // The key outlives its window by a minute, so instances whose clocks differ slightly still agree.
        count = Number(await redis.eval(INCREMENT, [`${prefix}${windowStart}:${client}`], [String(2 * WINDOW_SECONDS * 1000), String(cost)]));
        if (!Number.isFinite(count)) throw new Error("INCR answered no number");
      } catch {
        return rateDecision(0, limit, resetSeconds);
      }
      return rateDecision(count, limit, resetSeconds);
    },
  };
}
export type RedisRateLimiter = ReturnType<typeof createRedisRateLimiter>;
