import { describe, expect, test } from "bun:test";
import { startLoam, useLoam } from "../support/server";
import type { Transport } from "../../src/upstream/transport";

const { loam, contract } = useLoam();

function expectError(body: any, status: number, code: string, headers: Headers) {
  contract.assert("ErrorResponse", body);
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toBe(headers.get("x-request-id")!);
  expect(body.error.retryable).toBe(status === 429 || status === 502 || status === 504);
}

describe("error matrix", () => {
  test("an unknown route is a 404 ErrorResponse", async () => {
    const { status, body, headers } = await loam.json("/v1/nothing-here");
    expect(status).toBe(404);
    expectError(body, 404, "not_found", headers);
  });

  for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
    test(`${method} is 405 with Allow: GET, HEAD`, async () => {
      for (const path of ["/v1/providers", "/health", "/v1/nothing"]) {
        const { status, body, headers } = await loam.json(path, { method });
        expect(status).toBe(405);
        expect(headers.get("allow")).toBe("GET, HEAD");
        expectError(body, 405, "method_not_allowed", headers);
      }
    });
  }

  test("HEAD answers like GET without a body", async () => {
    const response = await loam.get("/v1/providers", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
  });

  test("a repeated parameter is 422 naming it", async () => {
    const { status, body, headers } = await loam.json("/v1/soil/location?latitude=41&latitude=42&longitude=-94");
    expect(status).toBe(422);
    expectError(body, 422, "validation_error", headers);
    expect(body.error.message).toContain("latitude");
    expect(body.error.message).toContain("repeated");
  });

  test("a repeated parameter is 422 on routes that read no parameters too; pages are not API routes", async () => {
    for (const path of ["/health?x=1&x=2", "/v1/providers?a=&a=", "/v1?v=1&v=1"]) {
      const { status, body, headers } = await loam.json(path);
      expect(status).toBe(422);
      expectError(body, 422, "validation_error", headers);
      expect(body.error.message).toContain("repeated");
    }
    expect((await loam.get("/health?x=1&y=2")).status).toBe(200);
    expect((await loam.get("/docs?x=1&x=2")).status).toBe(200);
  });

  test("a URI over 8 KB is 414 quickly", async () => {
    const started = performance.now();
    const { status, body, headers } = await loam.json(`/v1/soil/location?latitude=41&longitude=-94&pad=${"x".repeat(100_000)}`);
    expect(status).toBe(414);
    expectError(body, 414, "uri_too_long", headers);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test("an unexpected exception is a 500 without stack or internal path", async () => {
    const broken: Transport = {
      kind: "sda",
      describe: () => ({ kind: "sda", location: "test" }),
      fetch: async () => {
        throw new TypeError("Cannot read properties of undefined (reading 'x') at /work/main/src/secret.ts:1:1");
      },
    };
    const other = await startLoam({ source: broken });
    try {
      const { status, body, headers } = await other.json("/v1/soil/location?latitude=41.944131&longitude=-94.359608");
      expect(status).toBe(500);
      expectError(body, 500, "internal_error", headers);
      const text = JSON.stringify(body);
      expect(text).not.toContain("/work/");
      expect(text).not.toContain("secret.ts");
      expect(text).not.toContain("TypeError");
      expect(other.logs.some((line) => line.request_id === headers.get("x-request-id"))).toBe(true);
    } finally {
      await other.stop();
    }
  });
});

describe("X-Request-Id", () => {
  test("is generated on every response, success or error", async () => {
    for (const path of ["/health", "/v1", "/nope", "/v1/soil/location?latitude=abc&longitude=1"]) {
      const response = await loam.get(path);
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  test("echoes a sane caller id and replaces an unsafe one", async () => {
    const echoed = await loam.json("/nope", { headers: { "X-Request-Id": "trace-42.abc" } });
    expect(echoed.headers.get("x-request-id")).toBe("trace-42.abc");
    expect(echoed.body.error.request_id).toBe("trace-42.abc");
    const replaced = await loam.get("/health", { headers: { "X-Request-Id": "<script>alert(1)</script>" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
