/**
 * One JSON line per request on stdout. A coordinate can locate a farm or a home, so the log never
 * holds the raw URL: only the route pattern and the query parameters some route declares (its query
 * schema, read by strictQuery: a new route's parameters are logged without a line here;
 * docs/decisions.md#contract-lists), with
 * latitude, longitude, bbox, near, points and polygon coordinates rounded to 0.1 degree.
 */
import type { Config } from "../config";
import { isDeclaredParameter, queryOfRequest, type ParsedQuery } from "./query";

const COORDINATE_PARAMS = new Set(["latitude", "longitude"]);

function roundTenth(raw: string): number | string {
  const value = Number(raw);
  return Number.isFinite(value) && raw.trim() !== "" ? Math.round(value * 10) / 10 : "[not a number]";
}

/** The loggable form of each parsed query (kept as long as its parse is). */
const loggable = new WeakMap<ParsedQuery, Record<string, unknown>>();

/** The query as the log may keep it: known parameters only, coordinates rounded to 0.1 degree. */
export function loggableQuery(request: Request): Record<string, unknown> | undefined {
  const parsed = queryOfRequest(request);
  if (parsed.pairs.length === 0) return undefined;
  let out = loggable.get(parsed);
  if (out === undefined) loggable.set(parsed, (out = loggableOf(parsed.pairs)));
  return out;
}

function loggableOf(pairs: readonly (readonly [string, string])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [name, value] of pairs) {
    if (!isDeclaredParameter(name)) {
      if (ignored.length < 10) ignored.push(name.slice(0, 40).replace(/[0-9]/g, "#"));
      continue;
    }
    if (COORDINATE_PARAMS.has(name)) out[name] = roundTenth(value);
    // A box and a `near` point (GET /v1/geochem/sites) are coordinates too.
    else if (name === "bbox" || name === "near") out[name] = value.split(",").slice(0, 8).map(roundTenth);
    // Lists of places (points, a polygon's WKT): every number kept to 0.1 degree.
    else if (name === "points" || name === "polygon") out[name] = value.slice(0, 200).replace(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (n) => String(roundTenth(n)));
    else out[name] = value.slice(0, 200);
  }
  if (ignored.length) out._other_parameters = ignored;
  return out;
}

export interface AccessEntry {
  request_id: string;
  method: string;
  route: string;
  status: number;
  duration_ms: number;
  cache: "hit" | "miss" | "stale" | null;
  upstream_ms: number | null;
  client: string;
  query?: Record<string, unknown>;
}

export type LineWriter = (line: string) => void;

/**
 * Lines are buffered and written in batches so logging never blocks the event loop per request.
 * `drain` writes what is buffered and resolves once stdout has taken it: a process must await it
 * before `process.exit`, which drops both the buffer and writes still queued for a pipe.
 */
export function bufferedStdout(): LineWriter & { flush(): void; drain(): Promise<void> } {
  let buffer: string[] = [];
  let scheduled = false;
  let written: Promise<void> = Promise.resolve();
  const flush = () => {
    scheduled = false;
    if (buffer.length === 0) return;
    const chunk = buffer.join("");
    buffer = [];
    written = new Promise<void>((resolve) => process.stdout.write(chunk, () => resolve()));
  };
  const drain = () => {
    flush();
    return written;
  };
  const write = (line: string) => {
    buffer.push(line);
    if (buffer.length >= 256) flush();
    else if (!scheduled) {
      scheduled = true;
      setTimeout(flush, 50);
    }
  };
  process.once("exit", flush);
  return Object.assign(write, { flush, drain });
}

/** Each loggable query's JSON, written once: the same parse (and a repeated answer's query) is logged again and again. */
const queryJson = new WeakMap<Record<string, unknown>, string>();

function jsonOfQuery(query: Record<string, unknown>): string {
  let json = queryJson.get(query);
  if (json === undefined) queryJson.set(query, (json = JSON.stringify(query)));
  return json;
}

/** A number as JSON writes it (null when not finite). */
const numberJson = (n: number | null) => (n !== null && Number.isFinite(n) ? String(n) : "null");

/** Text JSON writes inside quotes as it is: request ids (request-id.ts) and client keys are made of these. */
const PLAIN = /^[A-Za-z0-9._:/-]*$/;

/** A string's JSON without its quotes. */
const innerJson = (text: string) => (PLAIN.test(text) ? text : JSON.stringify(text).slice(1, -1));

/**
 * The parts of a line that are the same for every request of one kind (level, method, route, status,
 * cache outcome, upstream wait, logged query): what goes between the per-request values (time,
 * request id, duration, client). A repeated answer keeps its shapes (front-door.ts), so its line is
 * nine pieces, not two dozen: a line per request was a measurable part of a small answer's cost
 * (docs/decisions.md#repeat-answers).
 */
export interface LineShape {
  afterTime: string;
  afterRequestId: string;
  afterDuration: string;
  afterClient: string;
}

/** Where a caller keeps the shape of its requests of one kind: made from the first one's entry. */
export interface KeptShape {
  line?: LineShape;
}

export type ShapeFields = Pick<AccessEntry, "method" | "route" | "status" | "cache" | "upstream_ms" | "query">;

export function lineShape(fields: ShapeFields): LineShape {
  const level = fields.status >= 500 ? "error" : "info";
  const cache = fields.cache === null ? "null" : `"${fields.cache}"`;
  const query = fields.query === undefined ? "" : `,"query":${jsonOfQuery(fields.query)}`;
  return {
    afterTime: `","level":"${level}","msg":"request","request_id":"`,
    afterRequestId: `","method":${JSON.stringify(fields.method)},"route":${JSON.stringify(fields.route)},"status":${fields.status},"duration_ms":`,
    afterDuration: `,"cache":${cache},"upstream_ms":${numberJson(fields.upstream_ms)},"client":"`,
    afterClient: `"${query}}\n`,
  };
}

/**
 * The line of an entry: exactly `JSON.stringify` of { time, level, msg, request_id, method, route,
 * status, duration_ms, cache, upstream_ms, client, query }, written from its shape and its own values.
 */
function lineOf(time: string, shape: LineShape, entry: AccessEntry): string {
  return `{"time":"${time}${shape.afterTime}${innerJson(entry.request_id)}${shape.afterRequestId}${numberJson(entry.duration_ms)}${shape.afterDuration}${innerJson(entry.client)}${shape.afterClient}`;
}

export function createAccessLog(level: Config["logLevel"], write: LineWriter) {
  // Many requests end within one millisecond under load: their time is formatted once.
  let formattedAt = Number.NaN;
  let formatted = "";
  const timeOf = (ms: number) => (ms === formattedAt ? formatted : ((formattedAt = ms), (formatted = new Date(ms).toISOString())));
  return {
    /** One line for an answered request; `shape` when the caller keeps the entry's (it must be `lineShape` of the entry). */
    record(entry: AccessEntry, shape?: LineShape): void {
      if (level === "silent") return;
      if (level === "error" && entry.status < 500) return;
      write(lineOf(timeOf(Date.now()), shape ?? lineShape(entry), entry));
    },
  };
}
export type AccessLog = ReturnType<typeof createAccessLog>;
