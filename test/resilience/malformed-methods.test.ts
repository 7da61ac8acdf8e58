/**
 * Issue 27, finding 10 (docs/decisions.md#malformed-methods): what malformed request methods get, over
 * a raw socket. Every method Bun's parser knows and Loam does not serve is the documented 405
 * ErrorResponse with `Allow: GET, HEAD`. A method outside Bun's closed list (`FOO`, lower-case `get`,
 * `BREW`) or holding a NUL never reaches Loam: Bun 1.4 closes the connection without an answer, or
 * answers 505 itself (oven-sh/bun#6556; Bun offers no hook for it). Loam cannot answer those; the test
 * pins that nothing else happens: no 2xx, no answer from Loam, the server keeps serving.
 */
import { expect, test } from "bun:test";
import { rawRequest } from "./raw-http";
import { useLoam } from "../support/server";
import { pollUntil } from "../support/spawn";

const { loam } = useLoam();
const port = () => Number(new URL(loam.base).port);

test("every method Bun passes on and Loam does not serve is the documented 405 with Allow", async () => {
  for (const method of ["POST", "PUT", "PATCH", "DELETE", "TRACE", "PROPFIND", "MKCOL", "PURGE", "QUERY", "M-SEARCH"]) {
    const response = await rawRequest(port(), `${method} /v1/providers HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close`);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    const body = JSON.parse(response.body) as { error: { code: string; message: string; request_id: string } };
    expect(body.error.code).toBe("method_not_allowed");
    expect(body.error.request_id).toBe(response.headers.get("x-request-id")!);
  }
});

test("methods Bun refuses before Loam (FOO, get, NUL) get no answer from Loam, and the server keeps serving", async () => {
  const before = loam.accessLog.length;
  for (const method of ["FOO", "get", "BREW", "G\u0000T", "GET\u0000"]) {
    const outcome = await rawRequest(port(), `${method} /v1/providers HTTP/1.1\r\nHost: x\r\nConnection: close`, 5000).then(
      (response) => ({ status: response.status, body: response.body }),
      (error: Error) => ({ status: 0, body: error.message }),
    );
    // Bun closes the connection (status 0 here) or answers 505 itself; never a success, never Loam's body.
    expect([0, 400, 405, 505]).toContain(outcome.status);
    expect(outcome.body).not.toContain('"providers"');
  }
  // Loam never saw them (no access-log line), and answers the next request as usual.
  expect(loam.accessLog.length).toBe(before);
  expect((await loam.json("/health")).status).toBe(200);
});

/** Bun's own refusal of a head over --max-http-header-size (262144 for Loam: package.json, scripts/build.ts). */
const MAX_HEAD_BYTES = 262_144;

test("a request head over the header-size limit gets Bun's own empty 431 and a closed connection before Loam runs; one within it is Loam's answer", async () => {
  const oversized = await rawRequest(port(), `GET /v1/providers HTTP/1.1\r\nHost: x\r\nX-Request-Id: oversized-head-1\r\nX-Filler: ${"a".repeat(MAX_HEAD_BYTES)}\r\nConnection: close`);
  // What Bun 1.4 sends (docs/decisions.md#malformed-methods): status line and Connection: close, nothing else.
  expect(oversized.status).toBe(431);
  expect([...oversized.headers.keys()]).toEqual(["connection"]);
  expect(oversized.body).toBe("");
  // Loam never saw it: no access-log line bears its request id (the next request's line is there once it is written).
  const within = await rawRequest(port(), `GET /v1/providers HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: within-head-1\r\nX-Filler: ${"a".repeat(MAX_HEAD_BYTES / 2)}\r\nConnection: close`);
  await pollUntil("the access-log line of the request within the limit", () => loam.accessLog.some((line) => line.request_id === "within-head-1"), 10_000);
  expect(loam.accessLog.some((line) => line.request_id === "oversized-head-1")).toBe(false);
  // Within the limit (a long header Loam does not read), Loam answers as usual.
  expect(within.status).toBe(200);
  expect(within.headers.get("x-request-id")).toBe("within-head-1");
  expect(JSON.parse(within.body).providers.length).toBeGreaterThan(0);
});
