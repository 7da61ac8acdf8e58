/**
 * Data answers on the wire: validators (ETag, 304), then the body as finished JSON, rendered once
 * per entity tag for cache hits and compressed as compression.ts does.
 */
import { cacheMetadata } from "../shared/answer";
import { Lru, originOf, type CachedAnswer } from "../upstream/cache";
import { COMPRESS_MIN_BYTES, chooseEncoding, compress, encodedTag, type Encoding } from "./compression";
import { matchingTag, notModified, type Headers } from "./conditional";
import { serverTiming, traceOf } from "./trace";

interface PreparedAnswer<T> {
  etag: string;
  maxAgeSeconds: number;
  cached: CachedAnswer;
  body: () => T;
}

/**
 * Serialized data answers, by entity tag. A tag names everything a data body is made of except its
 * `cache` metadata (hit, stored_at, age_seconds), which grows with the answer's age while the tag
 * stays (see `entityTag` callers). So a cache hit keeps the JSON around `cache` once and splices the
 * current metadata in: no normalization, no serialization, no re-encoding per request; the bytes and
 * their gzip/brotli forms are rebuilt at most once per second of age. Only answers whose body was
 * checked to carry exactly `cacheMetadata(cached, now)` are kept, and never stale ones (their warning
 * names this moment's upstream failure).
 */
interface Rendered {
  /** UTF-8 of the JSON before and after the `cache` value, and their lengths in characters. */
  head: Uint8Array;
  tail: Uint8Array;
  chars: number;
  /** The `cache` JSON of the current rendering, and the rendering as a Blob (sent without a copy). */
  meta: string;
  blob: Blob;
  encoded: Partial<Record<Encoding, Blob>>;
}

const RENDERED_ENTRIES = 128;
const RENDERED_BYTES = 24_000_000;
/** One store per upstream cache (per app): a tag is only unique within the app that made it. */
const renderedBy = new WeakMap<object, Lru<string, Rendered>>();
const utf8 = new TextEncoder();

function weightOf(entry: Rendered): number {
  let weight = entry.head.byteLength + entry.tail.byteLength + entry.blob.size;
  for (const blob of Object.values(entry.encoded)) weight += blob?.size ?? 0;
  return weight;
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** The body bytes with `meta` as its cache metadata. */
function render(entry: Rendered, meta: string): Uint8Array<ArrayBuffer> {
  return concat(entry.head, utf8.encode(meta), entry.tail);
}

/** `JSON.stringify(body)` cut around the value of its top-level `key`, or null when there is none. */
export function splitAround(body: Record<string, unknown>, key: string): [head: string, tail: string] | null {
  let head = "{";
  let tail = "";
  let found = false;
  let first = true;
  for (const [name, value] of Object.entries(body)) {
    const json = JSON.stringify(value) as string | undefined;
    if (json === undefined) continue; // as JSON.stringify leaves out undefined and functions
    const prefix = `${first ? "" : ","}${JSON.stringify(name)}:`;
    first = false;
    if (name === key) {
      head += prefix;
      found = true;
    } else if (found) tail += prefix + json;
    else head += prefix + json;
  }
  return found ? [head, `${tail}}`] : null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

type HeaderBag = Record<string, unknown>;

/** Header values as strings (Elysia copies them into its own Headers once more when it sends the Response). */
function toHeaders(bag: HeaderBag): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in bag) {
    const value = bag[name];
    if (value !== undefined && value !== null) headers[name] = String(value);
  }
  return headers;
}

/** The JSON answer as compression.ts would send it (same headers, same encodings, same tags). */
function jsonResponse(
  payload: string | Blob,
  chars: number,
  etag: string,
  request: Request,
  set: { headers: HeaderBag; status?: unknown },
  encodedFor?: (encoding: Encoding) => Blob,
): Response {
  const headers = set.headers;
  headers["content-type"] = "application/json; charset=utf-8";
  headers["vary"] = "Accept-Encoding";
  const status = typeof set.status === "number" ? set.status : 200;
  const encoding = chars > COMPRESS_MIN_BYTES ? chooseEncoding(request.headers.get("accept-encoding")) : null;
  if (encoding) {
    headers["content-encoding"] = encoding;
    headers["etag"] = encodedTag(etag, encoding);
  }
  const body = encoding ? (encodedFor ? encodedFor(encoding) : (compress(payload as string, encoding) as Uint8Array<ArrayBuffer>)) : payload;
  const response = new Response(body, { status, headers: toHeaders(headers) });
  // Every header is in the Response now. With none left in `set`, Elysia sends the Response as it is
  // instead of copying it into a new one with merged headers (about 5 % of a cached answer's cost).
  for (const name of Object.keys(headers)) delete headers[name];
  return response;
}

interface Body {
  payload: string | Blob;
  /** Length in characters (what compression.ts compares with its threshold). */
  chars: number;
  encodedFor?: (encoding: Encoding) => Blob;
}

/** A cache hit's body from its rendered copy (made on first use); null when the answer is not kept. */
function renderedBody<T>(prepared: PreparedAnswer<T>): Body | null {
  const cached = prepared.cached;
  const origin = originOf(cached);
  if (!origin || !cached.hit || cached.stale) return null;
  const clock = origin.now;
  let rendered = renderedBy.get(origin.scope);
  if (!rendered) renderedBy.set(origin.scope, (rendered = new Lru<string, Rendered>(RENDERED_ENTRIES, RENDERED_BYTES)));
  const store = rendered;
  let entry = store.get(prepared.etag);
  if (!entry) {
    const at = clock();
    const body = prepared.body();
    const meta = JSON.stringify(cacheMetadata(cached, at));
    const parts = isPlainObject(body) && JSON.stringify(body.cache) === meta ? splitAround(body, "cache") : null;
    if (!parts) {
      const text = JSON.stringify(body);
      return { payload: text, chars: text.length };
    }
    const [head, tail] = parts;
    entry = { head: utf8.encode(head), tail: utf8.encode(tail), chars: head.length + tail.length, meta, blob: new Blob([]), encoded: {} };
    entry.blob = new Blob([render(entry, meta)]);
    store.set(prepared.etag, entry, weightOf(entry));
  } else {
    const meta = JSON.stringify(cacheMetadata(cached, clock()));
    if (meta !== entry.meta) {
      entry.meta = meta;
      entry.blob = new Blob([render(entry, meta)]);
      entry.encoded = {};
      store.reweigh(prepared.etag, weightOf(entry));
    }
  }
  const current = entry;
  return {
    payload: current.blob,
    chars: current.chars + current.meta.length,
    encodedFor: (encoding) => {
      let blob = current.encoded[encoding];
      if (!blob) {
        blob = new Blob([compress(render(current, current.meta), encoding) as Uint8Array<ArrayBuffer>]);
        current.encoded[encoding] = blob;
        store.reweigh(prepared.etag, weightOf(current));
      }
      return blob;
    },
  };
}

/**
 * Send a prepared data answer: validators first, the body only when the client lacks it. The body
 * goes out as a finished JSON Response (serialized here, compressed as compression.ts does), so
 * Elysia does not walk it again against the route's response model: the models still document the
 * route, and the contract tests check bodies against the served OpenAPI document.
 */
export function sendPrepared<T>(prepared: PreparedAnswer<T>, request: Request, set: { headers: Record<string, unknown>; status?: unknown }): T {
  set.headers["etag"] = prepared.etag;
  set.headers["cache-control"] = `public, max-age=${prepared.maxAgeSeconds}`;
  const trace = traceOf(request);
  if (trace) {
    trace.cache = prepared.cached.stale ? "stale" : prepared.cached.hit ? "hit" : "miss";
    trace.upstreamMs = prepared.cached.upstreamMs;
  }
  // Elysia passes a Response through untouched; typed as T so the route keeps its response model.
  const matched = matchingTag(request, prepared.etag);
  if (matched) {
    if (trace) set.headers["server-timing"] = serverTiming(trace);
    // The 304 names the representation the client holds (identity, gzip or br).
    return notModified({ ...(set.headers as Headers), etag: matched }) as unknown as T;
  }
  const started = performance.now();
  let body = renderedBody(prepared);
  if (!body) {
    const text = JSON.stringify(prepared.body());
    body = { payload: text, chars: text.length };
  }
  if (trace) {
    trace.normalizeMs = performance.now() - started;
    set.headers["server-timing"] = serverTiming(trace);
  }
  return jsonResponse(body.payload, body.chars, prepared.etag, request, set, body.encodedFor) as unknown as T;
}
