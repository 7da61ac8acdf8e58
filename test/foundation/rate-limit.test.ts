import { describe, expect, test } from "bun:test";
import { startLoam, tempDbPath } from "../support/server";
import { contractFrom } from "../support/openapi";
import { openDatabase } from "../../db/client";
import { rateCounters } from "../../db/schema";
import { createRateLimiter } from "../../src/http/rate-limit";

describe("rate limit (120 per minute per client by default)", () => {
  // A fixed clock in the middle of a minute keeps all requests in one window.
  const minute = Math.floor(Date.now() / 60_000) * 60_000 + 20_000;

  test("the 121st request in a minute is 429 with Retry-After, also after a restart", async () => {
    const dbPath = tempDbPath();
    const first = await startLoam({ dbPath, env: { RATE_LIMIT_PER_MINUTE: "120" }, now: () => minute });
    const contract = await contractFrom(first.base).catch(() => null);
    // contractFrom read /openapi.json from the documents budget (docs/decisions.md#rate-budgets), not this one.
    let last: Response | undefined;
    for (let i = 1; i <= 120; i++) {
      last = await first.get("/health");
      expect(last.status).toBe(200);
    }
    expect(last!.headers.get("ratelimit-limit")).toBe("120");
    expect(last!.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(last!.headers.get("ratelimit-reset"))).toBe(40);
    const limited = await first.json("/v1/providers");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("40");
    expect(limited.body.error.code).toBe("rate_limited");
    expect(limited.body.error.retryable).toBe(true);
    contract?.assert("ErrorResponse", limited.body);
    await first.stop();

    const restarted = await startLoam({ dbPath, env: { RATE_LIMIT_PER_MINUTE: "120" }, now: () => minute + 1000 });
    const still = await restarted.json("/health");
    expect(still.status).toBe(429);
    expect(still.headers.get("retry-after")).toBe("39");
    await restarted.stop();

    const nextMinute = await startLoam({ dbPath, env: { RATE_LIMIT_PER_MINUTE: "120" }, now: () => minute + 60_000 });
    const fresh = await nextMinute.get("/health");
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("ratelimit-remaining")).toBe("119");
    await nextMinute.stop();
  });

  test("pages and their assets are not counted", async () => {
    const loam = await startLoam({ env: { RATE_LIMIT_PER_MINUTE: "3" }, now: () => minute });
    for (let i = 0; i < 5; i++) expect((await loam.get("/docs")).status).toBe(200);
    expect((await loam.get("/docs")).headers.get("ratelimit-limit")).toBeNull();
    expect((await loam.get("/health")).headers.get("ratelimit-remaining")).toBe("2");
    await loam.stop();
  });

  test("clients are counted apart; X-Forwarded-For only when TRUST_PROXY=1", async () => {
    const untrusted = await startLoam({ env: { RATE_LIMIT_PER_MINUTE: "2" }, now: () => minute });
    await untrusted.get("/health", { headers: { "X-Forwarded-For": "203.0.113.1" } });
    await untrusted.get("/health", { headers: { "X-Forwarded-For": "203.0.113.2" } });
    expect((await untrusted.get("/health", { headers: { "X-Forwarded-For": "203.0.113.3" } })).status).toBe(429);
    await untrusted.stop();

    const proxied = await startLoam({ env: { RATE_LIMIT_PER_MINUTE: "2", TRUST_PROXY: "1" }, now: () => minute });
    for (const client of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) {
      expect((await proxied.get("/health", { headers: { "X-Forwarded-For": client } })).status).toBe(200);
    }
    await proxied.get("/health", { headers: { "X-Forwarded-For": "203.0.113.1" } });
    expect((await proxied.get("/health", { headers: { "X-Forwarded-For": "203.0.113.1, 10.0.0.1" } })).status).toBe(429);
    await proxied.stop();
  });
});

describe("a new client's first ticket", () => {
  test("is written at the end of its turn, in one transaction with the turn's other new clients; the stored count never falls behind", async () => {
    const db = openDatabase(tempDbPath());
    const limiter = createRateLimiter(db, 3);
    const minute = Math.floor(Date.now() / 60_000) * 60_000 + 20_000;
    const count = (client: string) => db.select().from(rateCounters).all().find((row) => row.client === client)?.count ?? 0;
    for (let i = 0; i < 50; i++) expect(limiter.hit(`198.51.100.${i}`, minute).allowed).toBe(true);
    expect(count("198.51.100.7")).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(count("198.51.100.7")).toBe(1);
    // Another process sharing LOAM_DB had counted this client already: this one reads it and goes on from there.
    const other = createRateLimiter(db, 3);
    expect([other.hit("198.51.100.7", minute), other.hit("198.51.100.7", minute), other.hit("198.51.100.7", minute)].map((d) => d.allowed)).toEqual([true, true, false]);
    expect(count("198.51.100.7")).toBeGreaterThanOrEqual(3);
  });
});

describe("two processes meeting a new client in the same turn", () => {
  test("each hands out its number 1; the second's write finds the first's row and goes on after it", async () => {
    const db = openDatabase(tempDbPath());
    // Two limiters on one LOAM_DB stand for two processes sharing it.
    const first = createRateLimiter(db, 3);
    const second = createRateLimiter(db, 3);
    const minute = Math.floor(Date.now() / 60_000) * 60_000 + 20_000;
    const count = () => db.select().from(rateCounters).all().find((row) => row.client === "198.51.100.9")?.count ?? 0;
    expect(first.hit("198.51.100.9", minute).remaining).toBe(2);
    expect(second.hit("198.51.100.9", minute).remaining).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(count()).toBe(2);
    // The second process's next number comes after both first tickets: 3 of 3, then refused.
    expect([second.hit("198.51.100.9", minute), second.hit("198.51.100.9", minute)].map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 0],
      [false, 0],
    ]);
    expect(count()).toBeGreaterThanOrEqual(3);
  });
});

describe("rate counters are swept", () => {
  test("every thousandth decision deletes the windows older than the last one, and keeps the last one and this one", async () => {
    const db = openDatabase(tempDbPath());
    const limiter = createRateLimiter(db, 1_000_000);
    const minute = Math.floor(Date.now() / 60_000) * 60_000 + 20_000;
    const windowOf = (ms: number) => Math.floor(ms / 60_000) * 60;
    const rows = () => db.select().from(rateCounters).all().map((row) => `${row.client}@${row.windowStart}`).sort();
    // Two minutes and one minute ago: a client counted then.
    limiter.hit("203.0.113.1", minute - 120_000);
    limiter.hit("203.0.113.1", minute - 60_000);
    for (let i = 0; i < 997; i++) limiter.hit("203.0.113.2", minute);
    // A client's first ticket of a window is written with the others of its event-loop turn.
    await new Promise((resolve) => setImmediate(resolve));
    expect(rows()).toEqual([`203.0.113.1@${windowOf(minute - 120_000)}`, `203.0.113.1@${windowOf(minute - 60_000)}`, `203.0.113.2@${windowOf(minute)}`]);
    limiter.hit("203.0.113.2", minute); // the thousandth
    expect(rows()).toEqual([`203.0.113.1@${windowOf(minute - 60_000)}`, `203.0.113.2@${windowOf(minute)}`]);
  });
});
