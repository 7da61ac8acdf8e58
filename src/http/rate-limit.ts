/**
 * Fixed one-minute windows per client (DESIGN §3), counted in SQLite so a restart does not hand
 * every client a fresh budget. One UPSERT per counted request; old windows are swept now and then.
 */
import { sql, lt } from "drizzle-orm";
import type { LoamDatabase } from "../../db/client";
import { rateCounters } from "../../db/schema";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (RateLimit-Reset, Retry-After). */
  resetSeconds: number;
}

const WINDOW_SECONDS = 60;
const SWEEP_EVERY = 1000;

export function createRateLimiter(db: LoamDatabase, limit: number) {
  const increment = db
    .insert(rateCounters)
    .values({ client: sql.placeholder("client"), windowStart: sql.placeholder("windowStart"), count: 1 })
    .onConflictDoUpdate({ target: [rateCounters.client, rateCounters.windowStart], set: { count: sql`${rateCounters.count} + 1` } })
    .returning({ count: rateCounters.count })
    .prepare();
  let sinceSweep = 0;

  return {
    hit(client: string, nowMs: number): RateDecision {
      const nowSeconds = Math.floor(nowMs / 1000);
      const windowStart = nowSeconds - (nowSeconds % WINDOW_SECONDS);
      const [row] = increment.all({ client, windowStart });
      const count = row?.count ?? 1;
      if (++sinceSweep >= SWEEP_EVERY) {
        sinceSweep = 0;
        db.delete(rateCounters).where(lt(rateCounters.windowStart, windowStart - WINDOW_SECONDS)).run();
      }
      return {
        allowed: count <= limit,
        limit,
        remaining: Math.max(0, limit - count),
        resetSeconds: Math.max(1, windowStart + WINDOW_SECONDS - nowSeconds),
      };
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
