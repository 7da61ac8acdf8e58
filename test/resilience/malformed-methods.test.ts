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
