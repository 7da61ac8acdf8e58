/**
 * Property-based fuzzing of every endpoint's query string and path parameters (fast-check, bounded
 * runs). Whatever arrives: never a 5xx; never a 200 for invalid input; every refusal a schema-valid
 * ErrorResponse (checked with ajv against the served OpenAPI document) whose request_id is the
 * X-Request-Id header; every 200 valid against the route's documented model.
 *
 * Validity is decided here, from the spec, not by calling Loam's own parsers: numbers are generated
 * as numbers (so their value is known) or as text that is certainly not a number; a string that
 * merely looks numeric to JavaScript is "unknown" and may go either way.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { contractFrom, type ContractChecker } from "../support/openapi";
import { startLoam, type RunningLoam } from "../support/server";

const RUNS = 200;

let loam: RunningLoam;
let contract: ContractChecker;
let canonicalIds: string[];
let aliasIds: string[];

beforeAll(async () => {
  loam = await startLoam();
  contract = await contractFrom(loam.base);
  const vocabulary = (await loam.json<{ properties: { id: string; accepted_aliases: string[] }[] }>("/v1/properties")).body;
  canonicalIds = vocabulary.properties.map((p) => p.id);
  // One alias per property, so an alias list never names a property twice.
  aliasIds = vocabulary.properties.flatMap((p) => p.accepted_aliases.slice(0, 1));
});

afterAll(async () => {
  await loam?.stop();
});

/** A parameter value: its text and whether it is valid (null: unknown, either answer is acceptable). */
interface Token {
  text: string;
  valid: boolean | null;
}

/** A query parameter: absent, given once, or repeated (a repeated parameter is never valid). */
type Param = { kind: "absent" } | { kind: "once"; token: Token } | { kind: "repeated"; tokens: Token[] };

const NOT_NUMBERS = ["", "abc", "NaN", "nan", "Infinity", "-Infinity", "1,5", "--1", "12abc", "١٢", "1_000", "1e", ".", "-", "+", "1..2", "true", "null", "[]", "%", "1 2", "½", "0x", "e5"];

/** Text for a number: from a double (String or toFixed), so its value is known; validity by `inRange`. */
function numeric(min: number, max: number, inRange: (value: number) => boolean, integer = false, validOnly = false): fc.Arbitrary<Token> {
  const fromNumber = (value: number, digits: number | null): Token => {
    const text = digits === null ? String(value) : value.toFixed(digits);
    const parsed = Number(text);
    return { text, valid: Number.isFinite(parsed) && inRange(parsed) && (!integer || Number.isInteger(parsed)) };
  };
  const span = Math.max(Math.abs(min), Math.abs(max));
  if (validOnly) {
    return fc
      .tuple(fc.double({ min, max, noNaN: true }), fc.option(fc.integer({ min: 0, max: 7 }), { nil: null }))
      .map(([v, d]) => fromNumber(integer ? Math.round(v) : v, integer ? null : d))
      .filter((t) => t.valid === true);
  }
  return fc.oneof(
    { weight: 5, arbitrary: fc.tuple(fc.double({ min, max, noNaN: true }), fc.option(fc.integer({ min: 0, max: 7 }), { nil: null })).map(([v, d]) => fromNumber(v, integer ? null : d)) },
    { weight: 2, arbitrary: fc.integer({ min: Math.ceil(min) - 5, max: Math.floor(max) + 5 }).map((v) => fromNumber(v, null)) },
    { weight: 2, arbitrary: fc.double({ min: -span * 4, max: span * 4, noNaN: true }).map((v) => fromNumber(v, null)) },
    { weight: 1, arbitrary: fc.double({ noNaN: true }).map((v) => fromNumber(v, null)) },
    { weight: 2, arbitrary: fc.constantFrom(...NOT_NUMBERS).map((text) => ({ text, valid: false })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map((text) => ({ text, valid: Number.isFinite(Number(text)) && text.trim() !== "" ? null : false })) },
  );
}

function param(token: fc.Arbitrary<Token>, presentWeight = 8, validOnly = false): fc.Arbitrary<Param> {
  if (validOnly) return fc.oneof(fc.constant<Param>({ kind: "absent" }), token.map((t): Param => ({ kind: "once", token: t })));
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<Param>({ kind: "absent" }) },
    { weight: presentWeight, arbitrary: token.map((t): Param => ({ kind: "once", token: t })) },
    { weight: 1, arbitrary: fc.array(token, { minLength: 2, maxLength: 3 }).map((tokens): Param => ({ kind: "repeated", tokens })) },
  );
}

/** Valid when absent (optional) or given once validly; unknown if the token is unknown. */
function paramValidity(p: Param, required: boolean): boolean | null {
  if (p.kind === "absent") return !required;
  if (p.kind === "repeated") return false;
  return p.token.valid;
}

/** The value the server should use (for cross-parameter rules), or undefined when not a valid single number. */
function valueOf(p: Param, fallback: number): number | undefined {
  if (p.kind === "absent") return fallback;
  if (p.kind === "once" && p.token.valid) return Number(p.token.text);
  return undefined;
}

/** `properties`: distinct canonical ids or aliases (valid when 1 to 8 and at most 200 characters), or broken lists. */
function propertiesToken(validOnly = false): fc.Arbitrary<Token> {
  const list = (ids: string[]): Token => {
    const text = ids.join(",");
    return { text, valid: ids.length >= 1 && ids.length <= 8 && text.length <= 200 };
  };
  if (validOnly) return fc.shuffledSubarray(canonicalIds, { minLength: 1, maxLength: 8 }).map(list);
  return fc.oneof(
    { weight: 4, arbitrary: fc.shuffledSubarray(canonicalIds, { minLength: 1, maxLength: 10 }).map(list) },
    { weight: 2, arbitrary: fc.shuffledSubarray(aliasIds, { minLength: 1, maxLength: 10 }).map(list) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.shuffledSubarray(canonicalIds, { minLength: 0, maxLength: 4 }), fc.constantFrom("unknown_prop", "", "ph;clay", "x".repeat(201), "ph,,clay", "nitrate"))
        .map(([ids, bad]) => ({ text: [...ids, bad].join(","), valid: false })),
    },
    { weight: 1, arbitrary: fc.constant({ text: "", valid: false }) },
  );
}

/** Names that no endpoint reads (ignored, so they never change validity). */
const unknownParams = fc.array(
  fc.tuple(
    fc.stringMatching(/^[a-z_]{1,10}$/).filter((n) => !["latitude", "longitude", "providers", "provider", "properties", "depth_top_cm", "depth_bottom_cm", "bbox", "limit"].includes(n)),
    fc.string({ maxLength: 10 }),
  ),
  { maxLength: 3 },
);

function queryString(params: Record<string, Param>, extra: Array<[string, string]>): string {
  const parts: string[] = [];
  for (const [name, p] of Object.entries(params)) {
    if (p.kind === "once") parts.push(`${name}=${encodeURIComponent(p.token.text)}`);
    if (p.kind === "repeated") for (const t of p.tokens) parts.push(`${name}=${encodeURIComponent(t.text)}`);
  }
  // Unknown names go after the known ones, each once, so they cannot repeat a known parameter.
  const seen = new Set<string>();
  for (const [name, value] of extra) {
    if (seen.has(name)) continue;
    seen.add(name);
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

const and = (...values: (boolean | null)[]): boolean | null => (values.includes(false) ? false : values.includes(null) ? null : true);

/**
 * One request and the invariants every answer keeps. `valid`: true when the input is valid (a 200, or
 * one of `validStatuses` such as 404 for a well-formed key that names nothing), false when invalid.
 */
async function check(path: string, template: string, valid: boolean | null, validStatuses: number[] = [200]): Promise<void> {
  const response = await loam.get(path);
  const text = await response.text();
  const where = `${response.status} for ${path.slice(0, 300)}: ${text.slice(0, 300)}`;
  expect(response.status < 500, where).toBe(true);
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`not JSON: ${where}`);
  }
  if (response.status >= 400) {
    expect(() => contract.assert("ErrorResponse", body), where).not.toThrow();
    expect(body.error.request_id, where).toBe(response.headers.get("x-request-id"));
  }
  if (response.status === 200) {
    const model = contract.responseModel(template, 200);
    expect(() => contract.assert(model!, body), where).not.toThrow();
  }
  if (valid === false) {
    expect(response.status >= 400 && response.status < 500, `invalid input answered ${where}`).toBe(true);
  }
  if (valid === true) expect(validStatuses, `valid input answered ${where}`).toContain(response.status);
}

const lat = (validOnly = false) => numeric(-90, 90, (v) => v >= -90 && v <= 90, false, validOnly);
const lon = (validOnly = false) => numeric(-180, 180, (v) => v >= -180 && v <= 180, false, validOnly);
const top = (validOnly = false) => numeric(0, 199, (v) => v >= 0 && v <= 199, false, validOnly);
const bottom = (validOnly = false) => numeric(0, 200, (v) => v > 0 && v <= 200, false, validOnly);

/** Point-query parameters (docs/decisions.md#depth) and their validity, depth order included. */
/** Half the time every parameter is valid on its own (so valid queries are common), else anything goes. */
const pointQuery = () =>
  fc.oneof(
    ...[true, false].map((validOnly) =>
      fc.record({
        latitude: validOnly ? lat(true).map((token): Param => ({ kind: "once", token })) : param(lat(), 12),
        longitude: validOnly ? lon(true).map((token): Param => ({ kind: "once", token })) : param(lon(), 12),
        properties: param(propertiesToken(validOnly), 3, validOnly),
        depth_top_cm: param(top(validOnly), 3, validOnly),
        depth_bottom_cm: param(bottom(validOnly), 3, validOnly),
      }),
    ),
  );

function pointValidity(q: { latitude: Param; longitude: Param; properties: Param; depth_top_cm: Param; depth_bottom_cm: Param }): boolean | null {
  const own = and(
    paramValidity(q.latitude, true),
    paramValidity(q.longitude, true),
    paramValidity(q.properties, false),
    paramValidity(q.depth_top_cm, false),
    paramValidity(q.depth_bottom_cm, false),
  );
  if (own !== true) return own;
  return valueOf(q.depth_bottom_cm, 200)! > valueOf(q.depth_top_cm, 0)!;
}

/**
 * Depth and properties of the pedon detail: a pedon's own depth bounds, 0 to 999 cm at the top and at most
 * 1,000 at the bottom, the whole pedon when absent (docs/decisions.md#pedon-depth; the point query's 200 cm
 * bound made a top of 200 look invalid here, which the route rightly answers).
 */
const pedonTop = (validOnly = false) => numeric(0, 999, (v) => v >= 0 && v <= 999, false, validOnly);
const pedonBottom = (validOnly = false) => numeric(0, 1000, (v) => v > 0 && v <= 1000, false, validOnly);
const detailQuery = () =>
  fc.oneof(
    ...[true, false].map((validOnly) =>
      fc.record({ properties: param(propertiesToken(validOnly), 3, validOnly), depth_top_cm: param(pedonTop(validOnly), 3, validOnly), depth_bottom_cm: param(pedonBottom(validOnly), 3, validOnly) }),
    ),
  );

function detailValidity(q: { properties: Param; depth_top_cm: Param; depth_bottom_cm: Param }): boolean | null {
  const own = and(paramValidity(q.properties, false), paramValidity(q.depth_top_cm, false), paramValidity(q.depth_bottom_cm, false));
  if (own !== true) return own;
  return valueOf(q.depth_bottom_cm, 1000)! > valueOf(q.depth_top_cm, 0)!;
}

/** "." and ".." are dot-segments: the client's URL parser removes them before anything is sent. */
const sendable = (token: Token) => token.text !== "." && token.text !== "..";

/** A path segment: well-formed pedon keys (KSSL pedlabsampnum, SDA integer key) or anything at all. */
const pedonKey: fc.Arbitrary<Token> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.stringMatching(/^[0-9]{2}$/), fc.stringMatching(/^[A-Za-z]$/), fc.stringMatching(/^[0-9A-Z]{4}$/))
      .map(([a, b, c]) => ({ text: a + b + c, valid: true })),
  },
  { weight: 1, arbitrary: fc.constantFrom("02N0245", "02n0245", "01N0167").map((text) => ({ text, valid: true })) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 2_147_483_647 }).map((v) => ({ text: String(v), valid: true })) },
  {
    weight: 3,
    arbitrary: fc.string({ minLength: 1, maxLength: 20 }).map((text) => {
      const wellFormed = /^[0-9]{2}[A-Za-z][0-9A-Za-z]{4}$/.test(text) || (/^[1-9][0-9]{0,9}$/.test(text) && Number(text) <= 2_147_483_647);
      // Digits with a leading zero, or over 2^31-1, are not keys the spec defines: unknown.
      return { text, valid: wellFormed ? true : /^[0-9]+$/.test(text) ? null : false };
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom("0", "-1", "2147483648", "02N024", "02N02455", "AAN0245", "...", "%00", "02N0245 ").map((text) => ({ text, valid: text === "2147483648" ? null : false })) },
).filter(sendable);

const providerSegment = (valid: string[], others: string[]): fc.Arbitrary<Token> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...valid).map((text) => ({ text, valid: true })) },
    { weight: 2, arbitrary: fc.constantFrom(...others).map((text) => ({ text, valid: false })) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !valid.includes(s)).map((text) => ({ text, valid: false })) },
  ).filter(sendable);

const LAB = ["usda_kssl", "kssl", "ncss_lab", "ncss_kssl"];
const NOT_LAB = ["usda_ssurgo", "usda_osd", "usda_scan", "usgs_geochem", "isric_soilgrids", "USDA_KSSL", "nope", "x".repeat(80)];
const NOT_SURVEY = ["usda_kssl", "kssl", "usda_osd", "USDA_SSURGO", "nope", "x".repeat(80), "usda_ssurgo,usda_ssurgo"];

describe(`fuzzing (${RUNS} runs per endpoint)`, () => {
  for (const [path, template] of [
    ["/health", "/health"],
    ["/v1", "/v1"],
    ["/v1/providers", "/v1/providers"],
    ["/v1/properties", "/v1/properties"],
  ] as const) {
    test(`${path}: any query string`, async () => {
      const raw = fc.stringMatching(/^[a-z0-9=&%._~+-]{0,60}$/);
      await fc.assert(
        fc.asyncProperty(fc.oneof(unknownParams.map((extra) => queryString({}, extra)), raw.map((q) => (q ? `?${q}` : ""))), async (query) => {
          // No parameters are defined here: unknown ones are ignored; a repeated one may be refused.
          await check(path + query, template, null);
        }),
        { numRuns: RUNS },
      );
    });
  }

  test("/v1/soil/location: query string", async () => {
    const providers = param(
      fc.oneof(
        { weight: 2, arbitrary: fc.constant({ text: "usda_ssurgo", valid: true }) },
        { weight: 1, arbitrary: fc.constantFrom(...NOT_SURVEY, "").map((text) => ({ text, valid: false })) },
      ),
      3,
    );
    await fc.assert(
      fc.asyncProperty(pointQuery(), providers, unknownParams, async (q, provider, extra) => {
        const valid = and(pointValidity(q), paramValidity(provider, false));
        await check(`/v1/soil/location${queryString({ ...q, providers: provider }, extra)}`, "/v1/soil/location", valid);
      }),
      { numRuns: RUNS },
    );
  }, 30_000);

  test("/v1/providers/{provider_id}/raw/location: path and query string", async () => {
    await fc.assert(
      fc.asyncProperty(providerSegment(["usda_ssurgo"], NOT_SURVEY), pointQuery(), unknownParams, async (provider, q, extra) => {
        const valid = and(provider.valid, pointValidity(q));
        await check(`/v1/providers/${encodeURIComponent(provider.text)}/raw/location${queryString(q, extra)}`, "/v1/providers/{provider_id}/raw/location", valid);
      }),
      { numRuns: RUNS },
    );
  }, 30_000);

  test("/v1/pedons: query string", async () => {
    // Boxes: mostly legal ones over Kansas, otherwise any four (or not four) items.
    const legal = fc
      .tuple(
        fc.double({ min: -102, max: -94, noNaN: true }),
        fc.double({ min: 36, max: 40, noNaN: true }),
        fc.double({ min: 0.001, max: 5, noNaN: true }),
        fc.double({ min: 0.001, max: 5, noNaN: true }),
      )
      .map(([x, y, w, h]) => [x, y, x + w, y + h].map((v) => Number(v.toFixed(4))));
    const anyFour = fc.tuple(fc.double({ min: -200, max: 200, noNaN: true }), fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: -200, max: 200, noNaN: true }), fc.double({ min: -100, max: 100, noNaN: true })).map((v) => v.map((n) => Number(n.toFixed(3))));
    const boxValidity = ([minLon, minLat, maxLon, maxLat]: number[]): boolean | null => {
      if ([minLon, minLat, maxLon, maxLat].some((v) => !Number.isFinite(v))) return false;
      if ([minLon!, maxLon!].some((v) => v < -180 || v > 180) || [minLat!, maxLat!].some((v) => v < -90 || v > 90)) return false;
      const w = maxLon! - minLon!;
      const h = maxLat! - minLat!;
      if (w <= 0 || h <= 0) return false;
      const near = (a: number, b: number) => Math.abs(a - b) < 1e-6;
      if (near(w, 5) || near(h, 5) || near(w * h, 4)) return null;
      return w <= 5 && h <= 5 && w * h <= 4;
    };
    const bbox: fc.Arbitrary<Token> = fc.oneof(
      { weight: 4, arbitrary: legal.map((v) => ({ text: v.join(","), valid: boxValidity(v) })) },
      { weight: 3, arbitrary: anyFour.map((v) => ({ text: v.join(","), valid: boxValidity(v) })) },
      { weight: 2, arbitrary: fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: 0, maxLength: 6 }).filter((a) => a.length !== 4).map((a) => ({ text: a.join(","), valid: false })) },
      { weight: 2, arbitrary: fc.tuple(legal, fc.integer({ min: 0, max: 3 }), fc.constantFrom(...NOT_NUMBERS)).map(([v, i, bad]) => ({ text: v.map((n, j) => (j === i ? bad : String(n))).join(","), valid: false })) },
    );
    const limit = numeric(1, 500, (v) => v >= 1 && v <= 500, true);
    const provider = param(
      fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom(...LAB).map((text) => ({ text, valid: true })) },
        { weight: 1, arbitrary: fc.constantFrom(...NOT_LAB, "").map((text) => ({ text, valid: false })) },
      ),
      3,
    );
    // Half the time every parameter is valid on its own (legal box, limit, provider), else anything goes.
    const once = (token: fc.Arbitrary<Token>) => token.map((t): Param => ({ kind: "once", token: t }));
    const validLimit = fc.integer({ min: 1, max: 500 }).map((v) => ({ text: String(v), valid: true }));
    const validProvider = fc.constantFrom(...LAB).map((text) => ({ text, valid: true }));
    const query = fc.oneof(
      fc.tuple(once(legal.map((v) => ({ text: v.join(","), valid: boxValidity(v) }))), param(validLimit, 3, true), param(validProvider, 1, true)),
      fc.tuple(param(bbox, 12), param(limit, 4), provider),
    );
    await fc.assert(
      fc.asyncProperty(query, unknownParams, async ([b, l, p], extra) => {
        const valid = and(paramValidity(b, true), paramValidity(l, false), paramValidity(p, false));
        await check(`/v1/pedons${queryString({ bbox: b, limit: l, provider: p }, extra)}`, "/v1/pedons", valid);
      }),
      { numRuns: RUNS },
    );
  }, 30_000);

  test("/v1/pedons/{pedon_key}: path and query string", async () => {
    await fc.assert(
      fc.asyncProperty(pedonKey, detailQuery(), unknownParams, async (key, q, extra) => {
        const valid = and(key.valid, detailValidity(q));
        // A well-formed key that names no pedon is a 404, not an error of the input.
        await check(`/v1/pedons/${encodeURIComponent(key.text)}${queryString(q, extra)}`, "/v1/pedons/{pedon_key}", valid, [200, 404]);
      }),
      { numRuns: RUNS },
    );
  }, 30_000);

  test("/v1/providers/{provider_id}/raw/pedons/{pedon_key}: path", async () => {
    await fc.assert(
      fc.asyncProperty(providerSegment(LAB, NOT_LAB), pedonKey, unknownParams, async (provider, key, extra) => {
        const valid = and(provider.valid, key.valid);
        await check(
          `/v1/providers/${encodeURIComponent(provider.text)}/raw/pedons/${encodeURIComponent(key.text)}${queryString({}, extra)}`,
          "/v1/providers/{provider_id}/raw/pedons/{pedon_key}",
          valid,
          [200, 404],
        );
      }),
      { numRuns: RUNS },
    );
  }, 30_000);
});
