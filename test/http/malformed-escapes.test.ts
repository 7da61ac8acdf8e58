/**
 * A malformed percent-escape in a request's path (docs/decisions.md#malformed-escapes) is refused at
 * the boundary as the request's own fault: 422 `validation_error` (400 `bad_request` under /ogc), an
 * ErrorResponse whose request_id is the X-Request-Id, never a 500, never a stack trace in the body or
 * the log. The paths are generated: every path the served OpenAPI document declares, each of its path
 * parameters (or, without one, an appended segment) replaced by each malformed escape, plus the
 * red team's own requests (issue 43, finding 1).
 */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";

const { loam, contract } = useLoam();

/**
 * Escapes no URI decoder accepts: '%' without two hex digits after it (RFC 3986 2.1), and well-formed
 * escapes whose bytes are not UTF-8 (a lone byte over 0x7f, a cut sequence, an overlong form, a surrogate).
 */
const MALFORMED = ["%", "%f", "%zz", "%G1", "%%", "%ff", "%80", "%E0%A4%A", "%E0%A4", "%C0%AF", "%ED%A0%80", "2092:KS:SCAN%", "ok%2", "a%ffb"];

/** What the red team sent (issue 43): each was a 500 with a stack trace in the log. */
const REPORTED = [
  "/v1/stations/%ff",
  "/%",
  "/v1/pedons/%E0%A4%A",
  "/v1/stations/2092:KS:SCAN%/series",
  "/v1/providers/usda_scan/raw/stations/%ff",
  "/v1/pedons/%ff",
  "/v1/geochem/sites/%ff",
  "/ogc/collections/%ff/items",
  "/ogc/collections/stations/items/%ff",
];

/** Every declared path with each path parameter (or an appended segment) made malformed, each escape once; with the template when it is the operation's own. */
function generatedPaths(paths: string[]): [string, string | null][] {
  const out: [string, string | null][] = [];
  for (const template of paths) {
    const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
    for (const bad of MALFORMED) {
      if (names.length === 0) out.push([`${template.replace(/\/$/, "")}/${bad}`, null]);
      for (const name of names) out.push([template.replace(/\{([^}]+)\}/g, (_, n: string) => (n === name ? bad : "x")), template]);
    }
  }
  return out;
}

async function expectRefused(path: string, operation: string | null = null): Promise<void> {
  const response = await loam.get(`${path}${path.includes("?") ? "&" : "?"}latitude=38&longitude=-98&element=SMS`);
  const text = await response.text();
  const ogc = path === "/ogc" || path.startsWith("/ogc/");
  const expected = ogc ? [400, "bad_request"] : [422, "validation_error"];
  expect([path, response.status]).toEqual([path, expected[0] as number]);
  const body = JSON.parse(text);
  contract.assert("ErrorResponse", body);
  expect(body.error.code).toBe(expected[1]);
  expect(body.error.message).toContain("percent-escape");
  expect(body.error.request_id).toBe(response.headers.get("x-request-id"));
  expect(text).not.toMatch(/\bat \S+ \(|\.ts:\d+|node_modules|TypeError/);
  // A path parameter's operation documents the status (docs/decisions.md#contract-lists).
  if (operation) expect([operation, Object.keys(contract.doc.paths[operation].get.responses)]).toEqual([operation, expect.arrayContaining([String(response.status)])]);
}

describe("a malformed percent-escape in the path", () => {
  test("each request the red team reported is a structured 422 (400 under /ogc), not a 500", async () => {
    for (const path of REPORTED) await expectRefused(path);
  });

  test("every declared route, each path parameter given each malformed escape, is refused the same way, with a status the operation documents, and nothing is logged as a failure", async () => {
    const paths = generatedPaths(Object.keys(contract.doc.paths));
    expect(paths.length).toBeGreaterThan(MALFORMED.length * 20);
    const before = loam.logs.length;
    // A few at a time: the answers are small, the list is long.
    for (let at = 0; at < paths.length; at += 8) await Promise.all(paths.slice(at, at + 8).map(([path, operation]) => expectRefused(path, operation)));
    const failures = loam.logs.slice(before).filter((line) => line.level === "error");
    expect(failures).toEqual([]);
  }, 240_000);

  test("a well-formed escape still reaches its route (an encoded ':' in a station key is the station)", async () => {
    const plain = await loam.json("/v1/stations/2092:KS:SCAN");
    const escaped = await loam.json("/v1/stations/2092%3AKS%3ASCAN");
    expect(plain.status).toBe(200);
    expect(escaped.status).toBe(200);
    const { cache: _a, ...fromEscaped } = escaped.body;
    const { cache: _b, ...fromPlain } = plain.body;
    expect(fromEscaped).toEqual(fromPlain);
  });
});
