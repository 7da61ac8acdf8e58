/**
 * The response pipeline (docs/architecture.md#responses): the one place that turns what a route
 * returns into validators, headers and bytes, for data answers, JSON documents, pages and assets.
 *
 * - Entity tags and 304: data answers get a tag from the data they serve (docs/decisions.md#http-caching):
 *   their key, the source's identity, the digest of the stored upstream answer (hashed once per cache
 *   entry, never per request) and, when stale, the stale warning's inputs. So replicas and a cache
 *   turned off agree on it, and a stale answer's tag is not a fresh one's. Other JSON gets a tag from
 *   its body; files from their bytes. A matching If-None-Match (any encoding's variant) is a 304.
 * - Cache-Control: data answers `public, max-age=<what is left of the entry's lifetime, at most a
 *   day>` (0 when stale); routes set it for their own documents; pages `no-cache`, assets an hour.
 * - Compression: brotli or gzip over 1 KB when accepted, each encoding its own tag (encoding.ts).
 * - Rendered-body reuse: a cache hit's JSON is kept around its `cache` member and the current
 *   metadata spliced in, so a hit costs no normalization, serialization or compression per request.
 * - Tables: a route that passes a CsvTable to `send` also answers text/csv (format=csv or Accept,
 *   negotiate.ts): the same answer rendered by the route's table, its own tag (`-csv`), the same
 *   Cache-Control, `Vary: Accept`, a Content-Disposition file name; kept per tag like JSON hits.
 *
 * Services never compute any of this: they return a DataAnswer (src/answer).
 */
import { Elysia } from "elysia";
import { cacheMetadata, type DataAnswer } from "../answer";
import { Lru, Memo } from "../lru";
import { VERSION } from "../version";
import { COMPRESS_MIN_BYTES, chooseEncoding, compress, compressStatic, encodedTag, type Encoding } from "./encoding";
import { representationOf } from "./negotiate";
import { serverTiming, traceOf } from "./trace";

/** Longest max-age a data answer is given, whatever is left of its cache entry. */
const MAX_AGE_CAP_SECONDS = 86_400;

export function entityTag(...parts: (string | number)[]): string {
  return `"${Bun.hash(`${VERSION}|${parts.join("|")}`).toString(36)}"`;
}

/** The client's tag that matches `etag` (its own representation's variant), or null. */
export function matchingTag(request: Request, etag: string): string | null {
  const header = request.headers.get("if-none-match");
  if (header === null) return null;
  if (header.trim() === "*") return etag;
  // A client holding the gzip or brotli representation sends that variant's tag.
  for (const candidate of header.split(",")) {
    const tag = candidate.trim().replace(/^W\//, "");
    if (tag.replace(/-(?:br|gzip)"$/, '"') === etag) return tag;
  }
  return null;
}

type HeaderBag = Record<string, unknown>;
interface SetLike {
  headers: HeaderBag;
  status?: unknown;
}

/** A 304 that keeps the headers already set (request id, rate limit, ETag, Cache-Control). */
function notModified(headers: HeaderBag): Response {
  return new Response(null, { status: 304, headers: toHeaders(headers) });
}

/** Header values as strings. */
function toHeaders(bag: HeaderBag): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in bag) {
    const value = bag[name];
    if (value !== undefined && value !== null) headers[name] = String(value);
  }
  return headers;
}

/**
 * A finished Response with every header in it. `set` is then given empty headers, so Elysia sends the
 * Response as it is instead of copying it into one with merged headers (about 5 % of a cached
 * answer's cost); a fresh object is cheaper than deleting a dozen properties from the old one.
 */
function finished(body: BodyInit | null, status: number, set: SetLike): Response {
  const response = new Response(body, { status, headers: toHeaders(set.headers) });
  set.headers = {};
  return response;
}

function statusOf(set: SetLike): number {
  return typeof set.status === "number" ? set.status : 200;
}

/** The JSON answer, encoded when worth it. */
function jsonResponse(payload: string | Blob, chars: number, etag: string | undefined, request: Request, set: SetLike, encodedFor?: (encoding: Encoding) => Blob | Uint8Array<ArrayBuffer>): Response {
  const headers = set.headers;
  // A route may have chosen its JSON media type (OGC items: application/geo+json).
  headers["content-type"] ??= "application/json; charset=utf-8";
  // A route with a table has already said it varies on Accept too.
  headers["vary"] ??= "Accept-Encoding";
  const encoding = chars > COMPRESS_MIN_BYTES ? chooseEncoding(request.headers.get("accept-encoding")) : null;
  if (!encoding) return finished(payload, statusOf(set), set);
  headers["content-encoding"] = encoding;
  if (etag) headers["etag"] = encodedTag(etag, encoding);
  const body = encodedFor ? encodedFor(encoding) : (compress(payload as string, encoding) as Uint8Array<ArrayBuffer>);
  return finished(body, statusOf(set), set);
}

/**
 * Serialized data answers, by entity tag and stored_at. Together they name everything a data body is
 * made of except its `cache` metadata (hit, stored_at, age_seconds), which grows with the answer's age
 * while the tag stays (see `dataTag`). So a cache hit keeps the JSON around `cache` once and splices the
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
  /** The `cache` JSON of the current rendering (for an answer `age` seconds old), and the rendering as a Blob (sent without a copy). */
  meta: string;
  age: number;
  blob: Blob;
  encoded: Partial<Record<Encoding, Blob>>;
}

const RENDERED_ENTRIES = 128;
const RENDERED_BYTES = 24_000_000;
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

interface Body {
  payload: string | Blob;
  /** Length in characters (compared with COMPRESS_MIN_BYTES). */
  chars: number;
  encodedFor?: (encoding: Encoding) => Blob;
}

/** The entity tag of a data answer: the data it serves, not when it was fetched. */
export function dataTag<T>(answer: DataAnswer<T>): string {
  const cache = answer.cache;
  // A stale body carries a warning naming the failure and when the copy was stored.
  const freshness = cache.stale ? `stale|${cache.storedAt}|${cache.staleBecause?.code ?? ""}|${cache.staleBecause?.message ?? ""}` : "fresh";
  return entityTag(answer.key, cache.source, cache.digest, freshness);
}

function ageSeconds(cache: { storedAt: number }, now: number): number {
  return Math.max(0, Math.floor((now - cache.storedAt) / 1000));
}

/** A cache hit's body from its rendered copy (made on first use); null when the answer is not kept. */
function renderedBody<T>(answer: DataAnswer<T>, etag: string, store: Lru<string, Rendered>, now: () => number): Body | null {
  const cache = answer.cache;
  if (!cache.hit || cache.stale) return null;
  // One tag may name bodies fetched at different times (SDA's retrieved_at is the fetch time): keep each apart.
  const key = `${etag}|${cache.storedAt}`;
  let entry = store.get(key);
  if (!entry) {
    const body = answer.body();
    const at = now();
    const meta = JSON.stringify(cacheMetadata(cache, at));
    const parts = isPlainObject(body) && JSON.stringify(body.cache) === meta ? splitAround(body, "cache") : null;
    if (!parts) {
      const text = JSON.stringify(body);
      return { payload: text, chars: text.length };
    }
    const [head, tail] = parts;
    entry = { head: utf8.encode(head), tail: utf8.encode(tail), chars: head.length + tail.length, meta, age: ageSeconds(cache, at), blob: new Blob([]), encoded: {} };
    entry.blob = new Blob([render(entry, meta)]);
    store.set(key, entry, weightOf(entry));
  } else {
    // A kept body's metadata (a hit, stored at the entry's time) changes only with its age in seconds.
    const at = now();
    const age = ageSeconds(cache, at);
    const meta = age === entry.age ? entry.meta : JSON.stringify(cacheMetadata(cache, at));
    entry.age = age;
    if (meta !== entry.meta) {
      entry.meta = meta;
      entry.blob = new Blob([render(entry, meta)]);
      entry.encoded = {};
      store.reweigh(key, weightOf(entry));
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
        store.reweigh(key, weightOf(current));
      }
      return blob;
    },
  };
}

/** A static file as the pipeline serves it: its bytes, type, tag and lifetime, encodings made once. */
export interface StaticFile {
  bytes: Uint8Array<ArrayBuffer>;
  type: string;
  etag: string;
  cacheControl: string;
  /** Extra headers (e.g. a page's Content-Security-Policy). */
  headers?: Record<string, string>;
  encoded: Partial<Record<Encoding, Promise<Uint8Array<ArrayBuffer>>>>;
}

export function staticFile(bytes: Uint8Array<ArrayBuffer>, type: string, tagSeed: string, cacheControl: string, headers?: Record<string, string>): StaticFile {
  return { bytes, type, etag: entityTag(tagSeed, Bun.hash(bytes).toString(36)), cacheControl, headers, encoded: {} };
}

const compressible = (type: string) => /^(text\/|application\/(json|geo\+json))/.test(type);

/** Encoded bodies of tagged JSON documents (catalog, metadata): the same tag is the same bytes, so each is compressed once. */
const ENCODED_BY_TAG_MAX = 64;

/** Fresh data tags remembered per pipeline (a few hundred bytes each). */
const FRESH_TAGS_MAX = 4096;

/**
 * How a route's answer reads as a table (docs/architecture.md#tables). A route that has one passes
 * it to `send`; the pipeline then negotiates JSON or CSV and renders the body it chose. `render`
 * must not read the body's `cache.hit` or `cache.age_seconds` (they change under one entity tag, and
 * a table is kept per tag).
 */
export interface CsvTable<T> {
  /** RFC 4180 text of the body (src/tables). */
  render: (body: T) => string;
  /** The download's file name; characters outside [0-9A-Za-z._-] become `_`. */
  fileName: (body: T) => string;
}

export const CSV_MEDIA_TYPE = "text/csv; charset=utf-8; header=present";

/** The CSV representation's own tag: a JSON tag in If-None-Match never matches it, nor the reverse. */
export function csvTag(etag: string): string {
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-csv"` : etag;
}

const safeFileName = (name: string) => name.replace(/[^0-9A-Za-z._-]+/g, "_").slice(0, 120);

/** A table rendered once per tag (the CSV of an answer carries no age), with its encodings made once. */
interface RenderedCsv {
  text: string;
  fileName: string;
  encoded: Partial<Record<Encoding, Uint8Array<ArrayBuffer>>>;
}

const RENDERED_CSV_ENTRIES = 64;
const RENDERED_CSV_CHARS = 16_000_000;

function weightOfCsv(entry: RenderedCsv): number {
  let weight = entry.text.length;
  for (const bytes of Object.values(entry.encoded)) weight += bytes?.byteLength ?? 0;
  return weight;
}

export type Send = <T>(answer: DataAnswer<T>, request: Request, set: SetLike, table?: CsvTable<T>) => T;

export interface PipelineOptions {
  now: () => number;
}

export function createResponsePipeline(options: PipelineOptions) {
  const now = options.now;
  // Per app: a data tag is unique only within the app (its cache) that made it.
  const rendered = new Lru<string, Rendered>(RENDERED_ENTRIES, RENDERED_BYTES);
  const renderedCsv = new Lru<string, RenderedCsv>(RENDERED_CSV_ENTRIES, RENDERED_CSV_CHARS);
  const encodedByTag = new Map<string, Uint8Array<ArrayBuffer>>();
  // A fresh answer's tag is a hash of its key, source and digest: the same inputs come back on every
  // hit, so each is hashed once (bounded: emptied when full; docs/decisions.md#hot-path).
  const freshTags = new Memo<string, string>(FRESH_TAGS_MAX);
  function tagOf<T>(answer: DataAnswer<T>): string {
    if (answer.cache.stale) return dataTag(answer);
    return freshTags.of(`${answer.key}\u0000${answer.cache.source}\u0000${answer.cache.digest}`, () => dataTag(answer));
  }

  function encodeOnce(body: string, encoding: Encoding, etag: string | undefined): Uint8Array<ArrayBuffer> {
    if (etag === undefined) return compress(body, encoding) as Uint8Array<ArrayBuffer>;
    const key = `${etag}|${encoding}`;
    let encoded = encodedByTag.get(key);
    if (!encoded) {
      encoded = compress(body, encoding) as Uint8Array<ArrayBuffer>;
      if (encodedByTag.size >= ENCODED_BY_TAG_MAX) encodedByTag.delete(encodedByTag.keys().next().value as string);
      encodedByTag.set(key, encoded);
    }
    return encoded;
  }

  /**
   * Send a data answer: validators first, the body only when the client lacks it, as finished JSON,
   * or as the route's table when it passed one and the request asks for CSV (Elysia does not walk it again against the route's response model: the models document the
   * route, and the contract tests check bodies against the served OpenAPI document). Typed as the
   * route's body so the route keeps its response model.
   */
  const send: Send = <T>(answer: DataAnswer<T>, request: Request, set: SetLike, table?: CsvTable<T>): T => {
    const cache = answer.cache;
    const csv = table !== undefined && representationOf(request) === "csv" ? table : undefined;
    const jsonTag = tagOf(answer);
    const etag = csv ? csvTag(jsonTag) : jsonTag;
    // The body of a route with a table depends on Accept: a shared cache must not answer one with the other.
    if (table) set.headers["vary"] = "Accept, Accept-Encoding";
    const at = now();
    const maxAge = cache.stale ? 0 : Math.max(0, Math.min(Math.floor((cache.storedAt + cache.ttlSeconds * 1000 - at) / 1000), MAX_AGE_CAP_SECONDS));
    set.headers["etag"] = etag;
    set.headers["cache-control"] = `public, max-age=${maxAge}`;
    const trace = traceOf(request);
    if (trace) {
      trace.cache = cache.stale ? "stale" : cache.hit ? "hit" : "miss";
      trace.upstreamMs = cache.upstreamMs;
    }
    const matched = matchingTag(request, etag);
    if (matched) {
      if (trace) set.headers["server-timing"] = serverTiming(trace);
      // The 304 names the representation the client holds (identity, gzip or br).
      set.headers["etag"] = matched;
      return asRouteBody<T>(finished(null, 304, set));
    }
    const started = performance.now();
    if (csv) {
      const entry = csvBody(answer, etag, csv);
      if (trace) {
        trace.normalizeMs = performance.now() - started;
        set.headers["server-timing"] = serverTiming(trace);
      }
      return asRouteBody<T>(csvResponse(entry, etag, request, set));
    }
    let body = renderedBody(answer, etag, rendered, now);
    if (!body) {
      const text = JSON.stringify(answer.body());
      body = { payload: text, chars: text.length };
    }
    if (trace) {
      trace.normalizeMs = performance.now() - started;
      set.headers["server-timing"] = serverTiming(trace);
    }
    return asRouteBody<T>(jsonResponse(body.payload, body.chars, etag, request, set, body.encodedFor));
  };

  /** The table of an answer: kept per tag unless stale (a stale answer's warning names this moment's failure). */
  function csvBody<T>(answer: DataAnswer<T>, tag: string, table: CsvTable<T>): RenderedCsv {
    const kept = answer.cache.stale ? undefined : renderedCsv.get(tag);
    if (kept) return kept;
    const body = answer.body();
    const entry: RenderedCsv = { text: table.render(body), fileName: safeFileName(table.fileName(body)), encoded: {} };
    if (!answer.cache.stale) renderedCsv.set(tag, entry, weightOfCsv(entry));
    return entry;
  }

  function csvResponse(entry: RenderedCsv, tag: string, request: Request, set: SetLike): Response {
    const headers = set.headers;
    headers["content-type"] = CSV_MEDIA_TYPE;
    headers["content-disposition"] = `attachment; filename="${entry.fileName}"`;
    const encoding = entry.text.length > COMPRESS_MIN_BYTES ? chooseEncoding(request.headers.get("accept-encoding")) : null;
    if (!encoding) return finished(entry.text, statusOf(set), set);
    headers["content-encoding"] = encoding;
    headers["etag"] = encodedTag(tag, encoding);
    let bytes = entry.encoded[encoding];
    if (!bytes) {
      bytes = compress(entry.text, encoding) as Uint8Array<ArrayBuffer>;
      entry.encoded[encoding] = bytes;
      renderedCsv.reweigh(tag, weightOfCsv(entry));
    }
    return finished(bytes, statusOf(set), set);
  }

  /** Send a page or asset: tag, 304, lifetime, and an encoding compressed once per file. */
  async function sendFile(file: StaticFile, request: Request, set: SetLike): Promise<Response> {
    const headers = set.headers;
    headers["content-type"] = file.type;
    headers["cache-control"] = file.cacheControl;
    if (file.headers) Object.assign(headers, file.headers);
    const canEncode = compressible(file.type);
    const encoding = canEncode && file.bytes.length > COMPRESS_MIN_BYTES ? chooseEncoding(request.headers.get("accept-encoding")) : null;
    if (canEncode) headers["vary"] = "Accept-Encoding";
    headers["etag"] = encoding ? encodedTag(file.etag, encoding) : file.etag;
    const matched = matchingTag(request, file.etag);
    if (matched) return notModified({ ...headers, etag: matched });
    if (!encoding) return new Response(file.bytes, { headers: toHeaders(headers) });
    headers["content-encoding"] = encoding;
    const body = await (file.encoded[encoding] ??= compressStatic(file.bytes, encoding));
    return new Response(body, { headers: toHeaders(headers) });
  }

  /**
   * Every other JSON body (catalog, metadata, ErrorResponses): a tag from the body for successful
   * GET/HEAD answers that set none, 304 when it matches, then compression.
   */
  const plugin = new Elysia({ name: "loam.responses" }).mapResponse({ as: "global" }, ({ request, response, set }) => {
    if (response instanceof Response || response instanceof Blob || response === null || response === undefined) return;
    if (typeof response !== "object") return;
    const text = JSON.stringify(response);
    const headers = set.headers as HeaderBag;
    let etag = typeof headers["etag"] === "string" ? headers["etag"] : undefined;
    if (etag === undefined && statusOf(set) === 200 && (request.method === "GET" || request.method === "HEAD")) {
      etag = entityTag(text);
      headers["etag"] = etag;
      const matched = matchingTag(request, etag);
      if (matched) return notModified({ ...headers, etag: matched });
    }
    return jsonResponse(text, text.length, etag, request, set as SetLike, (encoding) => encodeOnce(text, encoding, etag));
  });

  return { plugin, send, sendFile };
}
export type ResponsePipeline = ReturnType<typeof createResponsePipeline>;

/** A finished Response stands in for the route's body type: Elysia passes a Response through untouched. */
function asRouteBody<T>(response: Response): T {
  return response as unknown as T;
}
