/**
 * An upstream's own call budget (docs/decisions.md#upstream-call-budget): a provider whose upstream asks
 * for fair use (ISRIC's REST API: about 5 calls a minute) spends one unit of a named budget before each
 * call, and Loam never sends more than the budget allows per fixed one-minute window, across every
 * worker of one machine (the counter is a row of LOAM_DB, shared by the workers) and every instance
 * (a Redis counter when REDIS_URL is configured: src/redis/call-budget.ts).
 *
 * Unlike the per-client rate limit this fails closed: an upstream's budget is a promise to someone
 * else, so a refused spend is a 503 the caller may retry after the window, never an extra call.
 */
import type { LoamDatabase } from "../../db/client";

/** The verdict on one more call. */
export interface BudgetVerdict {
  allowed: boolean;
  /** Seconds until the window resets (Retry-After when refused). */
  retryAfterSeconds: number;
}

export interface CallBudget {
  /** Spend one call of budget `name` (at most `perMinute` a minute), or be refused. */
  spend(name: string, perMinute: number): Promise<BudgetVerdict> | BudgetVerdict;
}

const WINDOW_SECONDS = 60;

/** The fixed window `nowMs` falls in: its start (s) and the seconds left. */
export function budgetWindow(nowMs: number): { windowStart: number; resetSeconds: number } {
  const nowSeconds = Math.floor(nowMs / 1000);
  const windowStart = nowSeconds - (nowSeconds % WINDOW_SECONDS);
  return { windowStart, resetSeconds: Math.max(1, windowStart + WINDOW_SECONDS - nowSeconds) };
}

/** The key of a budget's counter: never an address, so it never meets a client's rate counter. */
export const budgetKey = (name: string) => `upstream-budget:${name}`;

/**
 * The budget counted in LOAM_DB's rate_counters table (one row per budget and window). One statement
 * spends a unit only while the count is under the limit, so concurrent workers never overspend and a
 * refusal spends nothing. A LOAM_DB that cannot be written refuses (fail closed).
 */
export function sqliteCallBudget(db: LoamDatabase, now: () => number = Date.now): CallBudget {
  const spend = db.$client.query<{ count: number }, [string, number, number]>(
    "INSERT INTO rate_counters (client, window_start, count) VALUES (?1, ?2, 1) " +
      "ON CONFLICT (client, window_start) DO UPDATE SET count = count + 1 WHERE count < ?3 RETURNING count",
  );
  return {
    spend(name, perMinute) {
      const { windowStart, resetSeconds } = budgetWindow(now());
      try {
        const row = spend.get(budgetKey(name), windowStart, perMinute);
        return { allowed: row !== null && row.count <= perMinute, retryAfterSeconds: resetSeconds };
      } catch {
        return { allowed: false, retryAfterSeconds: resetSeconds };
      }
    },
  };
}
