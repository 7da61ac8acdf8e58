/**
 * SoilGrids' error pages are logged masked (docs/decisions.md#url-secrets; issue 43, Low): a stand-in on
 * 127.0.0.1 that echoes the request into its error page (the URL with the operator's `?token=` and the
 * client's exact coordinates, the Authorization header the URL's user info became, a cookie) must leave
 * none of it in Loam's logs, while the failure itself is still logged (masked) for the operator.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SdaTransport } from "../../src/upstream/sda/client";
import { startLoam, type RunningLoam } from "../support/server";

const TOKEN = "s3cr3t-t0ken-4711";
const PASSWORD = "pa55-w0rd-0815";
const BASIC = btoa(`loam:${PASSWORD}`);
const LATITUDE = "32.443658";
const LONGITUDE = "-83.428626";

/** The page a misconfigured proxy or debug server sends: everything it was sent, echoed. */
function echo(request: Request, status: number): Response {
  const page = [
    `<html><body><h1>Error ${status}</h1>`,
    `<p>Request: GET ${request.url}</p>`,
    `<pre>Authorization: ${request.headers.get("authorization") ?? `Basic ${BASIC}`}`,
    `Cookie: session=${TOKEN}; theme=dark`,
    `form: lon=${LONGITUDE}&lat=${LATITUDE}&api_key=${TOKEN}`,
    `proxy: http://loam:${PASSWORD}@proxy.internal:3128/?access_token=${TOKEN}</pre></body></html>`,
  ].join("\n");
  return new Response(page, { status, headers: { "content-type": "text/html" } });
}

let status = 500;
const standIn = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => echo(request, status) });
let loam: RunningLoam;

beforeAll(async () => {
  loam = await startLoam({
    source: new SdaTransport({ url: "http://127.0.0.1:9/never", timeoutMs: 1000 }),
    env: { LOAM_UPSTREAM: "sda", SOILGRIDS_URL: `http://loam:${PASSWORD}@127.0.0.1:${standIn.port}/soilgrids/v2.0/properties/query?token=${TOKEN}`, SOILGRIDS_REQUESTS_PER_MINUTE: "600" },
  });
}, 120_000);
afterAll(async () => {
  await loam?.stop();
  standIn.stop(true);
});

describe("an echoing SoilGrids error page", () => {
  test("an HTTP 500 page and a 200 that is not JSON are 502s, logged with the page's text masked: no token, password, credential or exact coordinate", async () => {
    for (const [answered, index] of [[500, 0], [200, 1]] as const) {
      status = answered;
      const { status: got, body } = await loam.json(`/v1/soil/modeled?latitude=${LATITUDE}&longitude=${Number(LONGITUDE) - index}&properties=clay`);
      expect([got, body.error.code, body.error.provider]).toEqual([502, "upstream_error", "isric_soilgrids"]);
      expect(JSON.stringify(body)).not.toContain(TOKEN);
    }
    const failures = loam.logs.filter((line) => line.provider === "isric_soilgrids" && typeof line.detail === "string");
    expect(failures.length).toBe(2);
    // The operator still reads what the page said, masked.
    expect(failures.every((line) => String(line.detail).includes("Error") && String(line.detail).includes("[masked]"))).toBe(true);
    const logged = JSON.stringify([loam.logs, loam.accessLog]);
    for (const secret of [TOKEN, PASSWORD, BASIC, LATITUDE, LONGITUDE.slice(1), String(Number(LONGITUDE) - 1)]) expect(logged).not.toContain(secret);
  });
});
