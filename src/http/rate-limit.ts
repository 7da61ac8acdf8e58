/**
 * Fixed one-minute windows per client (docs/decisions.md#rate-limit), counted in SQLite so a restart does not hand
 * every client a fresh budget. Old windows are swept now and then.
 *
 * Counting reserves tickets: a client's requests in a window are numbered 1, 2, 3, ... and a request
 * is allowed when its number is within the limit. The numbers are reserved in SQLite in blocks (one
 * UPSERT `count = count + n` per block, n doubling from 1 up to a twentieth of the limit, at most 256),
 * then handed out from memory. The stored count is therefore always at least the number of requests
 * answered (a crash or restart can only over-count, by the unused part of the last block, never
 * under-count), decisions are exact while a process runs, and several processes sharing LOAM_DB draw
 * disjoint numbers from the same counter. A busy client costs one write per block instead of one per
 * request (the per-request UPSERT was a fifth of the CPU time of a cached answer).
 *
 * A client's first ticket of a window is handed out from memory and its reservation written with the
 * others of the same event-loop turn in one transaction (setImmediate): a new client costs a share of one
 * commit instead of a commit of its own (with every request from another address, the commit per new
 * client was most of a cached answer's CPU: docs/decisions.md#rate-limit). The stored count still never
 * falls behind what was answered, but for the first tickets of a window two processes sharing LOAM_DB may
 * each hand out number 1 before either writes it: a client spreading its first requests over n workers
 * within one turn may get n - 1 requests beyond its limit in that window, once.
 *
 * A storage fault (disk full, read-only file, I/O error) never fails a request: the block is then
 * handed out from memory alone (this process still limits; other processes sharing LOAM_DB do not
 * see these requests), and the fault is reported to `onStorageError` (logged, counted in /metrics).
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

export const WINDOW_SECONDS = 60;
const SWEEP_EVERY = 1000;
const MAX_BLOCK = 256;
/** Clients tracked in memory at most; beyond it the reservations are dropped (an over-count, never an under-count). */
const MAX_TRACKED_CLIENTS = 100_000;

interface Tickets {
  windowStart: number;
  /** The next number to hand out, and the last one reserved in SQLite. */
  next: number;
  last: number;
  /** Size of the next reservation. */
  block: number;
}

/** The fixed window `nowMs` falls in: its start and the seconds left (shared with the Redis limiter). */
export function rateWindow(nowMs: number): { windowStart: number; resetSeconds: number } {
  const nowSeconds = Math.floor(nowMs / 1000);
  const windowStart = nowSeconds - (nowSeconds % WINDOW_SECONDS);
  return { windowStart, resetSeconds: Math.max(1, windowStart + WINDOW_SECONDS - nowSeconds) };
}

/** The decision for a request numbered `count` in its window. */
export function rateDecision(count: number, limit: number, resetSeconds: number): RateDecision {
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds };
}

/** The RateLimit-* headers of a decision, as every counted answer carries them (the boundary's and the front door's). */
export function writeRateLimit(decision: RateDecision, set: (name: string, value: string) => void): void {
  set("ratelimit-limit", String(decision.limit));
  set("ratelimit-remaining", String(decision.remaining));
  set("ratelimit-reset", String(decision.resetSeconds));
}

/** The largest block for a limit: small limits stay nearly exact across a restart (120/minute: 6). */
export function maxBlockFor(limit: number): number {
  return Math.max(1, Math.min(MAX_BLOCK, Math.floor(limit / 20)));
}

/** A failed counter write or sweep, for the log and /metrics. */
export type StorageErrorHandler = (operation: "reserve" | "sweep", error: unknown) => void;

export function createRateLimiter(db: LoamDatabase, limit: number, onStorageError: StorageErrorHandler = () => {}) {
  // bun:sqlite's own statement, not drizzle's: drizzle fills its placeholders and maps its row on every
  // call, a tenth to a fifth of a decision's cost (docs/decisions.md#rate-limit). The SQL is drizzle's.
  const reserveRow = db.$client.prepare<{ count: number }, [string, number, number]>(
    "INSERT INTO rate_counters (client, window_start, count) VALUES (?1, ?2, ?3) ON CONFLICT (client, window_start) DO UPDATE SET count = rate_counters.count + excluded.count RETURNING count",
  );
  const insertFirst = db.$client.prepare<unknown, [string, number]>("INSERT OR IGNORE INTO rate_counters (client, window_start, count) VALUES (?1, ?2, 1)");
  /** Add `n` to a client's stored count of a window; the count after. */
  const reserve = (client: string, windowStart: number, n: number): number | undefined => reserveRow.get(client, windowStart, n)?.count;
  const sweep = db
    .delete(rateCounters)
    .where(lt(rateCounters.windowStart, sql.placeholder("before")))
    .prepare();
  const maxBlock = maxBlockFor(limit);
  const tickets = new Map<string, Tickets>();
  let currentWindow = 0;
  let sinceSweep = 0;
  const counted = db.$client.prepare<{ count: number }, [string, number]>("SELECT count FROM rate_counters WHERE client = ?1 AND window_start = ?2");
  /** What LOAM_DB holds for a client's window (a read: no commit); 0 when it cannot be read. */
  const storedCount = (client: string, windowStart: number): number => {
    try {
      return counted.get(client, windowStart)?.count ?? 0;
    } catch {
      return 0;
    }
  };
  /** First tickets handed out from memory, their reservations not yet written. */
  let pending: { client: string; windowStart: number; held: Tickets }[] = [];

  const writePending = db.$client.transaction((batch: typeof pending) => {
    for (const { client, windowStart, held } of batch) {
      // Usually nobody has counted the client since its read: a plain insert (its count is 1) costs less
      // than the UPSERT returning the count, which is left for a row another process wrote meanwhile.
      const count = insertFirst.run(client, windowStart).changes === 1 ? 1 : reserve(client, windowStart, 1);
      // Other processes drew numbers too: the next ones handed out here come after theirs.
      if (count !== undefined && count > held.last) {
        held.next += count - held.last;
        held.last = count;
      }
    }
  });

  function flush(): void {
    const batch = pending;
    pending = [];
    try {
      writePending(batch);
    } catch (error) {
      onStorageError("reserve", error);
    }
  }

  function ticketFor(client: string, windowStart: number): number {
    if (windowStart !== currentWindow) {
      currentWindow = windowStart;
      for (const [key, held] of tickets) if (held.windowStart !== windowStart) tickets.delete(key);
    }
    let held = tickets.get(client);
    if (!held || held.windowStart !== windowStart) {
      if (tickets.size >= MAX_TRACKED_CLIENTS) tickets.clear();
      if (storedCount(client, windowStart) === 0) {
        // A client new to this window (also in LOAM_DB: a restart keeps counting): its first ticket from
        // memory, its reservation written with this turn's others.
        held = { windowStart, next: 1, last: 1, block: 2 };
        if (pending.length === 0) setImmediate(flush);
        pending.push({ client, windowStart, held });
      } else held = { windowStart, next: 1, last: 0, block: 1 };
      tickets.set(client, held);
    }
    if (held.next > held.last) {
      const n = held.block;
      let last: number;
      try {
        // Never hand out a number twice, also after numbers were drawn from memory alone.
        last = Math.max(reserve(client, windowStart, n) ?? n, held.next + n - 1);
      } catch (error) {
        onStorageError("reserve", error);
        last = held.next + n - 1;
      }
      held.last = last;
      held.next = last - n + 1;
      held.block = Math.min(maxBlock, held.block * 2);
    }
    return held.next++;
  }

  return {
    /** One request's decision; `cost` tickets at once (a large follow-up page: src/http/budgets.ts), its last number decides. */
    hit(client: string, nowMs: number, cost = 1): RateDecision {
      const { windowStart, resetSeconds } = rateWindow(nowMs);
      let count = ticketFor(client, windowStart);
      for (let more = 1; more < cost; more++) count = ticketFor(client, windowStart);
      if (++sinceSweep >= SWEEP_EVERY) {
        sinceSweep = 0;
        if (pending.length > 0) flush();
        try {
          sweep.run({ before: windowStart - WINDOW_SECONDS });
        } catch (error) {
          onStorageError("sweep", error);
        }
      }
      return rateDecision(count, limit, resetSeconds);
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
