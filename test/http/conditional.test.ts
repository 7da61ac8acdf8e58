/**
 * Conditional requests, in one place (src/http/conditional.ts; docs/decisions.md#http-caching): what
 * a client holding a representation gets back, for data answers, JSON documents and pages.
 *
 * - Entity tags name the data, not the moment (finding 12 of the hardening pass: with
 *   CACHE_TTL_SECONDS=0 the ETag changed on every request, and a stale answer shared one ETag with
 *   the fresh one although its warnings differ). Tags are a hash of the data served (source identity +
 *   the stored upstream answer's digest + the answer's key), plus the stale warning's inputs when stale.
 * - If-None-Match with the tag of the representation held (identity, gzip or br; weak or in a list)
 *   is a 304 that names it, keeps the validators and sends no body; any other tag gets the body.
 * - A 304 builds no body.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { DataAnswer } from "../../src/answer";
import { csvTag, matchingTag } from "../../src/http/conditional";
import { createResponsePipeline } from "../../src/http/response";
import { SdaTransport } from "../../src/upstream/sda/client";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { startLoam, testSnapshot, useLoam, type RunningLoam } from "../support/server";

const POINT = "/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph,clay";

describe("entity tags name the data, not the moment", () => {
  const started: RunningLoam[] = [];
  let fake: FakeSda;
  beforeAll(async () => {
    fake = startFakeSda({ answerer: new SnapshotTransport(await testSnapshot()) });
  });
  afterAll(async () => {
    for (const loam of started) await loam.stop();
    fake.close();
  });
  const start = async (...args: Parameters<typeof startLoam>) => {
    const loam = await startLoam(...args);
    started.push(loam);
    return loam;
  };

  test("CACHE_TTL_SECONDS=0: every request is fetched again, the tag stays, and If-None-Match is a 304", async () => {
    const loam = await start({ env: { CACHE_TTL_SECONDS: "0" } });
    const first = await loam.json(POINT);
    await Bun.sleep(1100);
    const second = await loam.json(POINT);
    expect([first.status, second.status, first.body.cache.hit, second.body.cache.hit]).toEqual([200, 200, false, false]);
    expect(second.body.cache.stored_at).not.toBe(first.body.cache.stored_at);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    const revalidated = await loam.get(POINT, { headers: { "If-None-Match": first.headers.get("etag")! } });
    expect(revalidated.status).toBe(304);
  });

  test("two replicas (separate LOAM_DB, clocks an hour apart) give the same tag, on the snapshot and through SDA", async () => {
    const hourLater = () => Date.now() + 3_600_000;
    const [a, b] = [await start(), await start({ now: hourLater })];
    const [ta, tb] = [(await a.json(POINT)).headers.get("etag"), (await b.json(POINT)).headers.get("etag")];
    expect(ta).toMatch(/^"[0-9a-z]+(-br|-gzip)?"$/);
    expect(tb).toBe(ta);

    const sda = () => new SdaTransport({ url: fake.url, timeoutMs: 5000 });
    const [c, d] = [await start({ source: sda(), env: { LOAM_UPSTREAM: "sda" } }), await start({ source: sda(), env: { LOAM_UPSTREAM: "sda" }, now: hourLater })];
    const [tc, td] = [(await c.json(POINT)).headers.get("etag"), (await d.json(POINT)).headers.get("etag")];
    expect(td).toBe(tc);
    // Another source is another tag (finding 3).
    expect(tc).not.toBe(ta);
  });

  test("a stale answer has its own tag: a client holding the fresh one gets the stale body with its warning, not a 304", async () => {
    let clock = Date.now();
    const loam = await start({ source: new SdaTransport({ url: fake.url, timeoutMs: 5000 }), env: { LOAM_UPSTREAM: "sda", CACHE_TTL_SECONDS: "60" }, now: () => clock });
    const fresh = await loam.json(POINT);
    expect(fresh.status).toBe(200);
    const freshTag = fresh.headers.get("etag")!;
    // A hit keeps the tag.
    clock += 5_000;
    const hit = await loam.json(POINT);
    expect([hit.body.cache.hit, hit.headers.get("etag")]).toEqual([true, freshTag]);

    clock += 120_000;
    fake.setFault("http-500");
    try {
      const stale = await loam.json(POINT, { headers: { "If-None-Match": freshTag } });
      expect(stale.status).toBe(200);
      expect(stale.body.warnings.join(" ")).toContain("Stale answer");
      const staleTag = stale.headers.get("etag")!;
      expect(staleTag).not.toBe(freshTag);
      // The stale representation revalidates as itself.
      expect((await loam.get(POINT, { headers: { "If-None-Match": staleTag } })).status).toBe(304);
    } finally {
      fake.setFault(null);
    }
  });
});

/** The IA073 known point of the data README (Clarion loam): a cached data answer over 1 KB. */
const KNOWN = "/v1/soil/location?latitude=41.944131&longitude=-94.359608";

/** A raw exchange: no automatic decompression, so the representation's own tag and encoding show. */
function exchange(loam: RunningLoam, path: string, headers: Record<string, string>): Promise<Response> {
  return fetch(loam.base + path, { headers, decompress: false } as RequestInit);
}

describe("If-None-Match over HTTP", () => {
  const { loam } = useLoam();

  test("a data answer: its own tag is a 304 with no body that keeps ETag, Cache-Control and Vary", async () => {
    const first = await exchange(loam, KNOWN, { "accept-encoding": "identity" });
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body.map_units[0].map_unit_symbol).toBe("L138B");
    const tag = first.headers.get("etag")!;
    expect(tag).toMatch(/^"[0-9a-z]+"$/);
    const again = await exchange(loam, KNOWN, { "accept-encoding": "identity", "if-none-match": tag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(tag);
    expect(again.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
    expect(again.headers.get("vary")).toBe("Accept, Accept-Encoding");
    expect(again.headers.get("x-request-id")).toBeTruthy();
    expect(again.headers.get("server-timing")).toContain('cache;desc="hit"');
  });

  test("each encoding is its own representation; a client holding any of them gets a 304 naming the one it holds", async () => {
    const identity = (await exchange(loam, KNOWN, { "accept-encoding": "identity" })).headers.get("etag")!;
    const gzip = await exchange(loam, KNOWN, { "accept-encoding": "gzip" });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    const gzipTag = gzip.headers.get("etag")!;
    expect(gzipTag).toBe(`${identity.slice(0, -1)}-gzip"`);
    const br = await exchange(loam, KNOWN, { "accept-encoding": "br" });
    expect(br.headers.get("etag")).toBe(`${identity.slice(0, -1)}-br"`);
    // Holding the gzip bytes, asking again for br: still current, and the 304 names what is held.
    const held = await exchange(loam, KNOWN, { "accept-encoding": "br", "if-none-match": gzipTag });
    expect([held.status, held.headers.get("etag")]).toEqual([304, gzipTag]);
    // Weak, in a list, or *: all match.
    for (const header of [`W/${identity}`, `"other", ${identity}`, "*"]) {
      expect((await exchange(loam, KNOWN, { "accept-encoding": "identity", "if-none-match": header })).status).toBe(304);
    }
  });

  test("a tag that does not match gets the whole body; a CSV tag never answers the JSON, nor the reverse", async () => {
    const json = (await exchange(loam, KNOWN, { "accept-encoding": "identity" })).headers.get("etag")!;
    const other = await exchange(loam, KNOWN, { "accept-encoding": "identity", "if-none-match": '"0000"' });
    expect(other.status).toBe(200);
    expect((await other.json()).map_units[0].map_unit_key).toBe("2765528");
    const csv = await exchange(loam, `${KNOWN}&format=csv`, { "accept-encoding": "identity", "if-none-match": json });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("etag")).toBe(csvTag(json));
    const back = await exchange(loam, KNOWN, { "accept-encoding": "identity", "if-none-match": csvTag(json) });
    expect(back.status).toBe(200);
  });

  test("a JSON document's tag comes from its body: the same body, the same tag, and a 304", async () => {
    const first = await exchange(loam, "/v1/providers", { "accept-encoding": "identity" });
    const second = await exchange(loam, "/v1/providers", { "accept-encoding": "identity" });
    expect((await first.json()).providers.map((p: { id: string }) => p.id)).toContain("usda_ssurgo");
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    const revalidated = await exchange(loam, "/v1/providers", { "accept-encoding": "identity", "if-none-match": first.headers.get("etag")! });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
  });

  test("an error is never tagged and never a 304", async () => {
    const bad = await exchange(loam, "/v1/pedons?bbox=1,2,3", { "accept-encoding": "identity", "if-none-match": "*" });
    expect(bad.status).toBe(422);
    expect(bad.headers.get("etag")).toBeNull();
    expect((await bad.json()).error.code).toBe("validation_error");
  });

  test("a page: its tag from its bytes, a 304 for the holder", async () => {
    const page = await exchange(loam, "/map", { "accept-encoding": "identity" });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const tag = page.headers.get("etag")!;
    const again = await exchange(loam, "/map", { "accept-encoding": "identity", "if-none-match": tag });
    expect([again.status, again.headers.get("etag")]).toEqual([304, tag]);
  });
});

describe("the 304 itself", () => {
  const NOW = Date.parse("2026-11-25T12:00:00Z");
  function answer(): DataAnswer<{ cache: unknown }> & { built: () => number } {
    let built = 0;
    return {
      key: "known",
      cache: { source: "test", digest: "d1", hit: true, storedAt: NOW - 5000, stale: false, ttlSeconds: 3600, upstreamMs: 0 },
      body: () => {
        built++;
        return { cache: { hit: true, stored_at: new Date(NOW - 5000).toISOString(), age_seconds: 5 } };
      },
      built: () => built,
    };
  }

  test("builds no body: the tag is made of the answer's key, source and digest alone", async () => {
    const pipeline = createResponsePipeline({ now: () => NOW });
    const data = answer();
    const first = pipeline.send(data, new Request("http://127.0.0.1/x"), { headers: {} }) as unknown as Response;
    expect(first.status).toBe(200);
    expect(data.built()).toBe(1);
    const tag = first.headers.get("etag")!;
    const fresh = answer();
    const revalidated = pipeline.send(fresh, new Request("http://127.0.0.1/x", { headers: { "if-none-match": tag } }), { headers: {} }) as unknown as Response;
    expect(revalidated.status).toBe(304);
    expect(fresh.built()).toBe(0);
    expect(revalidated.headers.get("cache-control")).toBe("public, max-age=3595");
  });

  test("matchingTag reads If-None-Match as RFC 9110 does: weak or strong, listed, or *; an encoding variant matches its tag", () => {
    const request = (header: string) => new Request("http://127.0.0.1/x", { headers: { "if-none-match": header } });
    expect(matchingTag(request('"abc"'), '"abc"')).toBe('"abc"');
    expect(matchingTag(request('W/"abc"'), '"abc"')).toBe('"abc"');
    expect(matchingTag(request('"x", "abc-gzip"'), '"abc"')).toBe('"abc-gzip"');
    expect(matchingTag(request('"abc-br"'), '"abc"')).toBe('"abc-br"');
    expect(matchingTag(request("*"), '"abc"')).toBe('"abc"');
    expect(matchingTag(request('"abcd"'), '"abc"')).toBeNull();
    expect(matchingTag(request('"abc-csv"'), '"abc"')).toBeNull();
    expect(matchingTag(new Request("http://127.0.0.1/x"), '"abc"')).toBeNull();
  });
});
