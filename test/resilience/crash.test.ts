/**
 * kill -9 of a serving Loam in the middle of heavy cache writes, then a restart on the same LOAM_DB:
 * the database is intact, every answer the cache reported as stored is still there, and the rate
 * counters never count fewer requests than were answered.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { tempDbPath } from "../support/server";
import { distinctPoints, startChild } from "./support";

const WORKERS = 16;
const LOAD_MS = 1500;

interface Answered {
  sentAt: number;
  receivedAt: number;
}

const windowOf = (ms: number) => {
  const seconds = Math.floor(ms / 1000);
  return seconds - (seconds % 60);
};

function integrity(dbPath: string): string {
  const db = new Database(dbPath);
  try {
    return db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all().map((r) => r.integrity_check).join("; ");
  } finally {
    db.close();
  }
}

test("kill -9 during heavy cache writes, then restart: integrity ok, stored entries readable, rate counters consistent", async () => {
  const dbPath = tempDbPath();
  const loam = await startChild({ dbPath });
  const points = distinctPoints(6000);
  const stored = new Map<string, string>();
  const answered: Answered[] = [];
  let next = 0;
  let killed = false;

  const worker = async () => {
    while (!killed && next < points.length) {
      const point = points[next++]!;
      const path = `/v1/soil/location?latitude=${point.latitude}&longitude=${point.longitude}&properties=ph,clay`;
      const sentAt = Date.now();
      try {
        const response = await fetch(loam.base + path, { signal: AbortSignal.timeout(5000) });
        const body = await response.json();
        if (response.status !== 200) continue;
        answered.push({ sentAt, receivedAt: Date.now() });
        if (body.cache.hit === false) stored.set(path, body.cache.stored_at);
      } catch {
        // the kill cut this request: it was never answered
      }
    }
  };
  const workers = Array.from({ length: WORKERS }, worker);
  await Bun.sleep(LOAD_MS);
  // A busy machine stores fewer answers in LOAD_MS: the kill waits for enough of them (bounded).
  for (const until = Date.now() + 60_000; stored.size <= 200 && next < points.length && Date.now() < until; ) await Bun.sleep(50);
  await loam.kill9();
  killed = true;
  await Promise.all(workers);

  // Heavy enough to mean something, and cut while requests were still coming.
  expect(stored.size).toBeGreaterThan(200);
  expect(next).toBeLessThan(points.length);

  // Straight after the crash, before anything else opens it.
  expect(integrity(dbPath)).toBe("ok");
  const db = new Database(dbPath, { readonly: true });
  const rows = db.query<{ client: string; window_start: number; count: number }, []>("SELECT client, window_start, count FROM rate_counters").all();
  const entries = db.query<{ n: number }, []>("SELECT count(*) AS n FROM cache_entries").get()!.n;
  db.close();

  expect(entries).toBeGreaterThanOrEqual(stored.size);
  // One row per client and window (the primary key), and every answered request counted.
  const keys = rows.map((r) => `${r.client}|${r.window_start}`);
  expect(new Set(keys).size).toBe(rows.length);
  const ours = rows.filter((r) => r.client === "127.0.0.1");
  const perWindow = new Map<number, number>();
  for (const a of answered) {
    const window = windowOf(a.sentAt);
    if (window === windowOf(a.receivedAt)) perWindow.set(window, (perWindow.get(window) ?? 0) + 1);
  }
  for (const [window, count] of perWindow) {
    const row = ours.find((r) => r.window_start === window);
    expect(row).toBeDefined();
    expect(row!.count).toBeGreaterThanOrEqual(count);
  }
  const windows = new Set(answered.flatMap((a) => [windowOf(a.sentAt), windowOf(a.receivedAt)]));
  const counted = ours.filter((r) => windows.has(r.window_start)).reduce((sum, r) => sum + r.count, 0);
  expect(counted).toBeGreaterThanOrEqual(answered.length);

  // Restart on the same database: every stored answer is served from the cache, unchanged.
  const again = await startChild({ dbPath });
  try {
    const paths = [...stored.keys()];
    const mismatches: string[] = [];
    let cursor = 0;
    await Promise.all(
      Array.from({ length: WORKERS }, async () => {
        while (cursor < paths.length) {
          const path = paths[cursor++]!;
          const response = await fetch(again.base + path);
          const body = await response.json();
          if (response.status !== 200 || body.cache.hit !== true || body.cache.stored_at !== stored.get(path)) {
            mismatches.push(`${path}: ${response.status} hit=${body.cache?.hit} stored_at=${body.cache?.stored_at} (was ${stored.get(path)})`);
          }
        }
      }),
    );
    expect(mismatches.slice(0, 5)).toEqual([]);
  } finally {
    await again.stop();
  }
  expect(integrity(dbPath)).toBe("ok");
}, 30_000);
