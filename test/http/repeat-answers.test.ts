/**
 * The front door (src/http/front-door.ts, docs/decisions.md#repeat-answers): a GET answered before
 * from a kept rendering is sent again before routing. What a client relies on is that it cannot tell
 * but by `Server-Timing: …, repeat`: the same bytes and headers as the route's own answer, in the
 * representation it asked for, the same 304s, the same rate limit counted once per request, the same
 * access-log line and metrics, and nothing sent again once the route would send other bytes.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { startLoam, type RunningLoam } from "../support/server";
import { pollUntil } from "../support/spawn";

const MAP_UNIT = "/v1/soil/mapunits/2765528?properties=aws,drainage_class,hydrologic_group&depth_bottom_cm=100";
const PEDON = "/v1/pedons/02N0245";
/** Headers made per request (or per second of the entry's age): every other header is the route's own. */
const PER_REQUEST = new Set(["x-request-id", "ratelimit-remaining", "ratelimit-reset", "server-timing", "cache-control", "date"]);

const started: RunningLoam[] = [];
afterAll(async () => {
  for (const loam of started) await loam.stop();
});

/** A Loam on a clock the test moves. */
async function startAt(env: Record<string, string> = {}) {
  const clock = { ms: Date.now() };
  const loam = await startLoam({ env, now: () => clock.ms });
  started.push(loam);
  return { loam, clock };
}

async function fetched(loam: RunningLoam, path: string, headers: Record<string, string> = {}, method = "GET") {
  const response = await loam.get(path, { headers, method });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: new TextDecoder().decode(bytes) };
}

const isRepeat = (headers: Headers) => (headers.get("server-timing") ?? "").split(", ").includes("repeat");

/** The route's own headers, less those made per request. */
function routeHeaders(headers: Headers): Record<string, string> {
  return Object.fromEntries([...headers].filter(([name]) => !PER_REQUEST.has(name)));
}

async function accessLine(loam: RunningLoam, requestId: string) {
  return pollUntil(`the access-log line of ${requestId}`, () => loam.accessLog.find((line) => line.request_id === requestId), 10_000);
}

describe("an answer sent again", () => {
  test("a cache hit is sent again with the route's bytes and headers, logged and counted as the route's request", async () => {
    const { loam } = await startAt();
    const miss = await fetched(loam, MAP_UNIT, { "x-request-id": "repeat-miss" });
    const hit = await fetched(loam, MAP_UNIT, { "x-request-id": "repeat-hit" });
    const again = await fetched(loam, MAP_UNIT, { "x-request-id": "repeat-again" });
    expect([miss.status, hit.status, again.status]).toEqual([200, 200, 200]);
    expect([JSON.parse(miss.text).cache.hit, JSON.parse(hit.text).cache.hit]).toEqual([false, true]);
    // The route answered the miss and the first hit; the front door the third.
    expect([isRepeat(miss.headers), isRepeat(hit.headers), isRepeat(again.headers)]).toEqual([false, false, true]);
    expect(again.text).toBe(hit.text);
    expect(routeHeaders(again.headers)).toEqual(routeHeaders(hit.headers));
    expect(again.headers.get("x-request-id")).toBe("repeat-again");
    expect(Number(again.headers.get("ratelimit-remaining"))).toBe(Number(hit.headers.get("ratelimit-remaining")) - 1);
    expect(again.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
    const maxAge = (headers: Headers) => Number(/max-age=(\d+)/.exec(headers.get("cache-control")!)![1]);
    expect(Math.abs(maxAge(again.headers) - maxAge(hit.headers))).toBeLessThanOrEqual(1);
    // Server-Timing keeps the entry's cache outcome and upstream wait; nothing was normalized.
    const hitTiming = hit.headers.get("server-timing")!.split(", ");
    expect(again.headers.get("server-timing")!.split(", ")).toEqual([...hitTiming.filter((part) => !part.startsWith("normalize;")), "repeat"]);

    const [hitLine, againLine] = [await accessLine(loam, "repeat-hit"), await accessLine(loam, "repeat-again")];
    expect(againLine).toMatchObject({ method: "GET", route: "/v1/soil/mapunits/:map_unit_key", status: 200, cache: "hit", client: hitLine!.client });
    expect(againLine!.query).toEqual(hitLine!.query);
    expect(againLine!.upstream_ms).toBe(hitLine!.upstream_ms);

    const metrics = await (await loam.get("/metrics")).text();
    expect(metrics).toContain('loam_requests_total{route="/v1/soil/mapunits/:map_unit_key",status="200"} 3');
    expect(metrics).toMatch(/loam_cache_hits_total 2\b/);
  });

  test("each representation is its own: brotli, gzip, identity, CSV and JSON are never crossed", async () => {
    const { loam } = await startAt();
    const kinds: Record<string, Record<string, string>> = {
      br: { "accept-encoding": "br" },
      gzip: { "accept-encoding": "gzip" },
      identity: { "accept-encoding": "identity" },
      csv: { accept: "text/csv", "accept-encoding": "identity" },
    };
    await fetched(loam, PEDON); // the miss
    const first: Record<string, Awaited<ReturnType<typeof fetched>>> = {};
    for (const [kind, headers] of Object.entries(kinds)) first[kind] = await fetched(loam, PEDON, headers);
    for (const [kind, headers] of Object.entries(kinds)) {
      const again = await fetched(loam, PEDON, headers);
      expect(isRepeat(again.headers)).toBe(true);
      expect(again.text).toBe(first[kind]!.text);
      expect(routeHeaders(again.headers)).toEqual(routeHeaders(first[kind]!.headers));
    }
    expect(first.br!.headers.get("content-encoding")).toBe("br");
    expect(first.gzip!.headers.get("content-encoding")).toBe("gzip");
    expect(first.identity!.headers.get("content-encoding")).toBeNull();
    expect(first.csv!.headers.get("content-type")).toStartWith("text/csv");
    expect(first.identity!.headers.get("content-type")).toStartWith("application/json");
    // Decoded, the three JSON encodings are one body; the tags differ by encoding.
    expect(first.br!.text).toBe(first.identity!.text);
    expect(first.gzip!.text).toBe(first.identity!.text);
    expect(new Set(Object.values(first).map((f) => f.headers.get("etag"))).size).toBe(4);
  });

  test("If-None-Match: the 304 keeps the validators and Vary, sends no body, and stands while the tag does", async () => {
    const { loam, clock } = await startAt();
    await fetched(loam, MAP_UNIT, { "accept-encoding": "gzip" });
    const hit = await fetched(loam, MAP_UNIT, { "accept-encoding": "gzip" });
    const tag = hit.headers.get("etag")!;
    expect(tag).toEndWith('-gzip"');
    // Another URL for the same answer, asked conditionally first: the route's own 304, to compare with.
    const routed304 = await fetched(loam, MAP_UNIT + "&format=json", { "accept-encoding": "gzip", "if-none-match": tag });
    const repeated304 = await fetched(loam, MAP_UNIT, { "accept-encoding": "gzip", "if-none-match": `W/${tag}` });
    expect([routed304.status, repeated304.status]).toEqual([304, 304]);
    expect([isRepeat(routed304.headers), isRepeat(repeated304.headers)]).toEqual([false, true]);
    expect(repeated304.bytes.byteLength).toBe(0);
    expect(repeated304.headers.get("etag")).toBe(tag);
    expect(repeated304.headers.get("content-type")).toBeNull();
    // The Vary of the 200 it stands for (RFC 9110 §15.4.5): this route has a table, so Accept too.
    expect(repeated304.headers.get("vary")).toBe("Accept, Accept-Encoding");
    expect(routed304.headers.get("vary")).toBe(hit.headers.get("vary"));
    expect(Object.keys(routeHeaders(repeated304.headers)).sort()).toEqual(Object.keys(routeHeaders(routed304.headers)).sort());
    // A client holding another encoding's variant (or the identity one) is told the variant it holds.
    for (const held of [tag.replace(/-gzip"$/, '-br"'), tag.replace(/-gzip"$/, '"')]) {
      const other = await fetched(loam, MAP_UNIT, { "accept-encoding": "gzip", "if-none-match": held });
      expect([other.status, isRepeat(other.headers), other.headers.get("etag")]).toEqual([304, true, held]);
    }

    // Two seconds on, the body's age_seconds has turned: the route renders it again; the tag still stands.
    clock.ms += 2_000;
    const notModified = await fetched(loam, MAP_UNIT, { "accept-encoding": "gzip", "if-none-match": tag });
    expect([notModified.status, isRepeat(notModified.headers)]).toEqual([304, true]);
    const turned = await fetched(loam, MAP_UNIT, { "accept-encoding": "gzip" });
    expect(isRepeat(turned.headers)).toBe(false);
    expect(JSON.parse(turned.text).cache.age_seconds).toBe(JSON.parse(hit.text).cache.age_seconds + 2);
    const sentAgain = await fetched(loam, MAP_UNIT, { "accept-encoding": "gzip" });
    expect(isRepeat(sentAgain.headers)).toBe(true);
    expect(sentAgain.text).toBe(turned.text);
  });

  test("once the cache entry has ended, the route answers (and fetches again): nothing is sent past its lifetime", async () => {
    const { loam, clock } = await startAt({ CACHE_TTL_SECONDS: "60" });
    await fetched(loam, MAP_UNIT);
    const hit = await fetched(loam, MAP_UNIT);
    expect(isRepeat((await fetched(loam, MAP_UNIT)).headers)).toBe(true);
    clock.ms += 61_000;
    const expired = await fetched(loam, MAP_UNIT, { "if-none-match": hit.headers.get("etag")! });
    // The route answered: the entry is fetched again (a miss), and its tag, naming the same data, still matches.
    expect([expired.status, isRepeat(expired.headers)]).toEqual([304, false]);
    expect(expired.headers.get("server-timing")).toContain('cache;desc="miss"');
  });

  test("the rate limit counts each request once, on either side of the door, and the 429 is the boundary's", async () => {
    const { loam } = await startAt({ RATE_LIMIT_PER_MINUTE: "6" });
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await fetched(loam, MAP_UNIT, { "x-request-id": `limited-${i}` }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    expect(answers.slice(2, 6).every((a) => isRepeat(a.headers))).toBe(true);
    expect(answers.map((a) => Number(a.headers.get("ratelimit-remaining")))).toEqual([5, 4, 3, 2, 1, 0, 0, 0]);
    const refused = JSON.parse(answers[6]!.text);
    expect(refused).toMatchObject({ error: { code: "rate_limited", request_id: "limited-6" } });
    expect(answers[6]!.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(answers[6]!.headers.get("x-request-id")).toBe("limited-6");
    const line = await accessLine(loam, "limited-6");
    expect(line).toMatchObject({ status: 429, route: "/v1/soil/mapunits/:map_unit_key" });
  });

  test("concurrent repeats: exactly the limit is answered, each ticket once, the rest are 429s", async () => {
    const { loam } = await startAt({ RATE_LIMIT_PER_MINUTE: "40" });
    await fetched(loam, PEDON);
    await fetched(loam, PEDON); // remembered: the next ones are the door's
    const answers = await Promise.all(Array.from({ length: 70 }, (_, i) => fetched(loam, PEDON, { "x-request-id": `burst-${i}` })));
    const sent = answers.filter((a) => a.status === 200);
    expect(sent.length).toBe(38);
    expect(answers.filter((a) => a.status === 429).length).toBe(32);
    expect(sent.every((a) => isRepeat(a.headers))).toBe(true);
    // Every remaining count from 37 down to 0 handed out exactly once.
    expect(sent.map((a) => Number(a.headers.get("ratelimit-remaining"))).sort((a, b) => a - b)).toEqual(Array.from({ length: 38 }, (_, i) => i));
    const metrics = await (await loam.get("/metrics")).text();
    expect(metrics).toContain('loam_requests_total{route="/v1/pedons/:pedon_key",status="200"} 40');
    expect(metrics).toContain('loam_requests_total{route="/v1/pedons/:pedon_key",status="429"} 32');
  });

  test("HEAD and other methods are left to the route", async () => {
    const { loam } = await startAt();
    await fetched(loam, MAP_UNIT);
    const hit = await fetched(loam, MAP_UNIT);
    const head = await fetched(loam, MAP_UNIT, {}, "HEAD");
    expect([head.status, isRepeat(head.headers), head.bytes.byteLength]).toEqual([200, false, 0]);
    expect(head.headers.get("etag")).toBe(hit.headers.get("etag"));
    const post = await fetched(loam, MAP_UNIT, {}, "POST");
    expect(post.status).toBe(405);
    expect(JSON.parse(post.text).error.code).toBe("method_not_allowed");
  });

  test("GET /health, the same document on every request, is sent again; an unknown path never is", async () => {
    const { loam } = await startAt();
    const first = await fetched(loam, "/health");
    const again = await fetched(loam, "/health");
    expect([first.status, again.status, isRepeat(first.headers), isRepeat(again.headers)]).toEqual([200, 200, false, true]);
    expect(again.text).toBe(first.text);
    expect(JSON.parse(again.text)).toMatchObject({ status: "healthy" });
    expect(routeHeaders(again.headers)).toEqual(routeHeaders(first.headers));
    expect(again.headers.get("cache-control")).toBe("no-store");
    for (let i = 0; i < 2; i++) {
      const missing = await fetched(loam, "/v1/no-such-route");
      expect([missing.status, isRepeat(missing.headers)]).toEqual([404, false]);
    }
  });
});
