/**
 * An upstream's call budget counted in Redis (docs/decisions.md#upstream-call-budget), for several
 * instances: one counter per budget and one-minute window, spent by a Lua script only while under the
 * limit (a refusal spends nothing). While Redis is unavailable the budget falls back to `local` (LOAM_DB,
 * this machine's workers): still bounded, never unbounded, and never an error of its own.
 */
import { budgetKey, budgetWindow, type CallBudget } from "../upstream/call-budget";
import type { LoamRedis } from "./client";

/** KEYS[1] the window's counter, ARGV[1] the limit, ARGV[2] its lifetime in ms; 0 when refused. */
const SPEND = `local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n >= tonumber(ARGV[1]) then return 0 end
n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return n`;

export function redisCallBudget(redis: LoamRedis, local: CallBudget, now: () => number = Date.now, prefix = "loam:"): CallBudget {
  return {
    async spend(name, perMinute) {
      const { windowStart, resetSeconds } = budgetWindow(now());
      let count: number;
      try {
        count = Number(await redis.eval(SPEND, [`${prefix}${budgetKey(name)}:${windowStart}`], [String(perMinute), String(2 * 60 * 1000)]));
        if (!Number.isFinite(count)) throw new Error("the budget script answered no number");
      } catch {
        return local.spend(name, perMinute);
      }
      return { allowed: count > 0, retryAfterSeconds: resetSeconds };
    },
  };
}
