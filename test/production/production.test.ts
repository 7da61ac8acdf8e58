import { describe, expect, test } from "bun:test";
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { startLoam, useLoam } from "../support/server";

const { loam, contract } = useLoam();

const POINT = "latitude=41.944131&longitude=-94.359608";
const raw = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  fetch(loam.base + path, { method, headers, decompress: false } as RequestInit);

describe("CORS for a public read-only API", () => {
  test("GET, HEAD and error answers allow any origin and expose Loam's headers", async () => {
    for (const [path, method] of [["/v1/providers", "GET"], ["/health", "HEAD"], ["/v1/nothing", "GET"], [`/v1/soil/location?latitude=99&longitude=0`, "GET"]] as const) {
      const response = await raw(path, { Origin: "https://example.org" }, method);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("access-control-allow-credentials")).toBeNull();
      const exposed = response.headers.get("access-control-expose-headers")!.toLowerCase();
      for (const name of ["etag", "x-request-id", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after"]) expect(exposed).toContain(name);
    }
  });

  test("a preflight for GET is 204 with the allowed headers", async () => {
    const response = await raw(`/v1/soil/location?${POINT}`, { Origin: "https://example.org", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "if-none-match, x-request-id" }, "OPTIONS");
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toBe("GET, HEAD");
    const allowed = response.headers.get("access-control-allow-headers")!.toLowerCase();
    expect(allowed).toContain("if-none-match");
    expect(allowed).toContain("x-request-id");
    expect(await response.text()).toBe("");
  });

  test("a preflight for another method, and every other method, stays 405", async () => {
    const preflight = await raw("/v1/providers", { Origin: "https://example.org", "Access-Control-Request-Method": "DELETE" }, "OPTIONS");
    expect(preflight.status).toBe(405);
    const post = await raw("/v1/providers", { Origin: "https://example.org" }, "POST");
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    contract.assert("ErrorResponse", await post.json());
  });
});

describe("security headers", () => {
  test("nosniff and no-referrer on every answer", async () => {
    for (const path of ["/health", "/v1/nothing", "/docs", "/openapi.json"]) {
      const response = await raw(path);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    }
  });

  test("HTML pages carry a same-origin CSP that forbids framing", async () => {
    const response = await raw("/docs");
    const csp = response.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    for (const directive of ["script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"]) expect(csp).toContain(directive);
    expect(csp).toMatch(/img-src 'self'/);
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    // The page has no inline script the CSP would block.
    const html = await response.text();
    expect(html).not.toMatch(/<script>(?!\s*<\/script>)/);
    expect(html).not.toMatch(/ style="/);
  });
});

describe("access log", () => {
  test("one JSON line per request with the fields operators need", async () => {
    const response = await raw(`/v1/soil/location?${POINT}&properties=ph`, { "X-Request-Id": "log-check-1" });
    await response.arrayBuffer();
    await Bun.sleep(20);
    const lines = loam.accessLog.filter((line) => line.request_id === "log-check-1");
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line).toMatchObject({ request_id: "log-check-1", method: "GET", route: "/v1/soil/location", status: 200, client: "127.0.0.1" });
    expect(typeof line.time).toBe("string");
    expect(line.duration_ms).toBeGreaterThan(0);
    expect(["hit", "miss"]).toContain(line.cache);
    expect(typeof line.upstream_ms).toBe("number");
  });

  test("an exact coordinate never reaches the log: it keeps 0.1 degree", async () => {
    await Bun.sleep(20); // earlier requests' lines are written after their responses
    const before = loam.accessLog.length;
    await (await raw(`/v1/soil/location?latitude=41.944131&longitude=-94.359608`)).arrayBuffer();
    await (await raw(`/v1/soil/location?latitude=41.944131&longitude=-94.359608&depth_bottom_cm=0`)).arrayBuffer();
    await (await raw(`/v1/nothing?latitude=41.944131&longitude=-94.359608&lat=41.944131`)).arrayBuffer();
    await (await raw(`/v1/pedons?bbox=-95.771234,39.078354,-95.5,39.2`)).arrayBuffer();
    await Bun.sleep(20);
    const text = JSON.stringify(loam.accessLog.slice(before));
    expect(loam.accessLog.length - before).toBe(4);
    for (const exact of ["41.944131", "94.359608", "41.94", "94.36", "95.771234", "39.078354"]) expect(text).not.toContain(exact);
    const first = loam.accessLog[before]!;
    expect(first.query).toMatchObject({ latitude: 41.9, longitude: -94.4 });
    expect(loam.accessLog[before + 3]!.query.bbox).toEqual([-95.8, 39.1, -95.5, 39.2]);
  });

  test("LOG_LEVEL=error keeps only server failures; silent keeps nothing", async () => {
    const quiet = await startLoam({ env: { LOG_LEVEL: "error" } });
    await (await quiet.get("/health")).text();
    await (await quiet.get("/v1/nothing")).text();
    await Bun.sleep(20);
    expect(quiet.accessLog).toEqual([]);
    await quiet.stop();
    const silent = await startLoam({ env: { LOG_LEVEL: "silent" } });
    await (await silent.get("/health")).text();
    await Bun.sleep(20);
    expect(silent.accessLog).toEqual([]);
    await silent.stop();
  });
});

describe("GET /metrics", () => {
  test("Prometheus text with requests, latency, cache, upstream outcomes, rate limiting and snapshot info", async () => {
    const fresh = await startLoam({ env: { RATE_LIMIT_PER_MINUTE: "3" } });
    await (await fresh.get(`/v1/soil/location?${POINT}`)).text();
    await (await fresh.get(`/v1/soil/location?${POINT}`)).text();
    await (await fresh.get("/health")).text();
    await (await fresh.get("/health")).text();
    await Bun.sleep(10);
    const response = await fresh.get("/metrics");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    expect(text).toContain('loam_requests_total{route="/v1/soil/location",status="200"} 2');
    expect(text).toContain('loam_requests_total{route="/health",status="429"} 1');
    expect(text).toMatch(/loam_request_duration_seconds_bucket\{route="\/v1\/soil\/location",le="\+Inf"\} 2/);
    expect(text).toContain("loam_cache_hits_total 1");
    expect(text).toContain("loam_cache_misses_total 1");
    // One upstream call: the point (location map units carry no components since 0.4.0, so no series links are looked up).
    expect(text).toContain('loam_upstream_calls_total{outcome="ok"} 1');
    expect(text).toContain('loam_upstream_calls_total{outcome="timeout"} 0');
    expect(text).toContain("loam_rate_limited_total 1");
    expect(text).toMatch(/loam_snapshot_info\{built_at="\d{4}-\d\d-\d\dT/);
    await fresh.stop();
  });
});

describe("compression", () => {
  test("JSON over 1 KB is brotli or gzip as accepted, with Vary and a tag per representation", async () => {
    const path = `/v1/soil/location?${POINT}`;
    const identity = await raw(path);
    const identityBody = await identity.text();
    expect(identity.headers.get("content-encoding")).toBeNull();
    expect(identity.headers.get("vary")).toContain("Accept-Encoding");
    const gz = await raw(path, { "Accept-Encoding": "gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    const gzBytes = new Uint8Array(await gz.arrayBuffer());
    expect(gzBytes.byteLength).toBeLessThan(identityBody.length / 3);
    const br = await raw(path, { "Accept-Encoding": "gzip, br" });
    expect(br.headers.get("content-encoding")).toBe("br");
    const brBytes = new Uint8Array(await br.arrayBuffer());
    const plain = JSON.parse(identityBody);
    const fromGz = JSON.parse(gunzipSync(gzBytes).toString());
    const fromBr = JSON.parse(brotliDecompressSync(brBytes).toString());
    for (const body of [fromGz, fromBr]) expect(body.observations).toEqual(plain.observations);
    const tags = new Set([identity.headers.get("etag"), gz.headers.get("etag"), br.headers.get("etag")]);
    expect(tags.size).toBe(3);
    const revalidated = await raw(path, { "Accept-Encoding": "gzip", "If-None-Match": gz.headers.get("etag")! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("etag")).toBe(gz.headers.get("etag"));
  });

  test("small bodies and clients that refuse encodings get identity", async () => {
    const small = await raw("/health", { "Accept-Encoding": "gzip, br" });
    expect(small.headers.get("content-encoding")).toBeNull();
    const refused = await raw("/v1/providers", { "Accept-Encoding": "br;q=0, gzip;q=0" });
    expect(refused.headers.get("content-encoding")).toBeNull();
    contract.assert("ProvidersResponse", await refused.json());
  });

  test("the docs page assets are compressed too", async () => {
    const bundle = await raw("/docs/assets/swagger-ui-bundle.js", { "Accept-Encoding": "br" });
    expect(bundle.headers.get("content-encoding")).toBe("br");
    expect((await bundle.arrayBuffer()).byteLength).toBeLessThan(600_000);
  });
});

describe("Server-Timing", () => {
  test("data answers say cache, upstream and normalize times", async () => {
    const path = `/v1/soil/location?latitude=7.087128&longitude=171.140451`;
    const first = await raw(path);
    await first.arrayBuffer();
    expect(first.headers.get("server-timing")).toMatch(/^cache;desc="(hit|miss)", upstream;dur=[\d.]+, normalize;dur=[\d.]+$/);
    const second = await raw(path);
    await second.arrayBuffer();
    expect(second.headers.get("server-timing")).toContain('cache;desc="hit"');
  });
});
