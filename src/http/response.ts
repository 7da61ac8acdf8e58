/**
 * The response pipeline (docs/architecture.md#responses): the one place that turns what a route
 * returns into validators, headers and bytes, for data answers, JSON documents, pages and assets.
 * Each concern is its own file, as Hono's middleware are:
 *
 * - conditional.ts: entity tags and the 304 (docs/decisions.md#http-caching);
 * - compression.ts: brotli or gzip over 1 KB when accepted, one bounded cache of encoded bytes;
 * - rendered-bodies.ts: a cache hit's JSON and a table's CSV rendered once and sent again;
 * - static-files.ts: pages and assets;
 * - negotiate.ts: JSON or the route's table (format=csv or Accept).
 *
 * Here: the senders. Cache-Control of data answers is `public, max-age=<what is left of the entry's
 * lifetime, at most a day>` (0 when stale); routes set it for their own documents. Services never
 * compute any of this: they return a DataAnswer (src/answer).
 */
import { Elysia } from "elysia";
import type { DataAnswer } from "../answer";
import { Memo } from "../lru";
import { COMPRESS_MIN_BYTES, EncodedBodies, LARGE_BODY_CHARS, chooseEncoding, compress, compressLarge, encodedTag } from "./compression";
import { csvTag, dataTags, entityTag, matchingTag } from "./conditional";
import { dataCacheControl, finished, statusOf, toHeaders, type HeaderBag, type SetLike } from "./headers";
import type { RepeatAnswers, RepeatTerms } from "./repeat-answers";
import { representationOf } from "./negotiate";
import { unknownParametersOf } from "./query";
import { routePath } from "./request-path";
import { JsonBodies, TableBodies, type CsvTable, type RenderedBody, type RenderedTable } from "./rendered-bodies";
import { sendFile } from "./static-files";
import { repeatTiming, serverTiming, traceOf } from "./trace";

// The names routes, tables and pages import from the pipeline.
export { csvTag, dataTag, entityTag, matchingTag } from "./conditional";
export { splitAround, type CsvTable } from "./rendered-bodies";
export { staticFile, type StaticFile } from "./static-files";

export const CSV_MEDIA_TYPE = "text/csv; charset=utf-8; header=present";

/** A 304 that keeps the headers already set (request id, rate limit, ETag, Cache-Control). */
function notModified(headers: HeaderBag): Response {
  return new Response(null, { status: 304, headers: toHeaders(headers) });
}

/**
 * Tags of JSON documents by their text: the same few documents (health, metadata, catalog) are sent
 * again and again, so each is hashed once (bounded: emptied when full; docs/decisions.md#hot-path).
 */
const DOCUMENT_TAGS_MAX = 64;

export type Send = <T>(answer: DataAnswer<T>, request: Request, set: SetLike, table?: CsvTable<T>) => T;

export interface PipelineOptions {
  now: () => number;
  /** Where answers sent from a kept rendering are remembered, for the front door to send again (repeat-answers.ts). */
  repeats?: RepeatAnswers;
}

/** How a 200 may be sent again: the terms its sender knows (its tag is the body's); `until` is the latest its bytes may stand. */
type RepeatOffer = Omit<RepeatTerms, "tag">;

export function createResponsePipeline(options: PipelineOptions) {
  const now = options.now;
  // Per app: a data tag is unique only within the app (its cache) that made it.
  const tagOf = dataTags();
  const encoded = new EncodedBodies();
  const jsonBodies = new JsonBodies(now, encoded);
  const tables = new TableBodies();
  const documentTags = new Memo<string, string>(DOCUMENT_TAGS_MAX);
  const repeats = options.repeats;

  /** The `keep` of a finished 200 whose bytes are named and stand until a known time: remembered to be sent again. */
  function keeper(request: Request, body: Blob | Uint8Array | string, tag: string, until: number | undefined, offer: RepeatOffer | undefined) {
    if (!repeats || !offer || until === undefined) return undefined;
    return (headers: Record<string, string>) => repeats.remember(request, body, headers, { ...offer, tag, until: Math.min(until, offer.until) });
  }

  /**
   * A JSON body, encoded when worth it (and then from the cache of encodings when its bytes are named);
   * a large body is encoded off the event loop, so its Response comes as a promise (docs/decisions.md#polygon-budget).
   */
  function jsonResponse(body: RenderedBody, etag: string | undefined, request: Request, set: SetLike, offer?: RepeatOffer): Response | Promise<Response> {
    const headers = set.headers;
    // A route may have chosen its JSON media type (OGC items: application/geo+json).
    headers["content-type"] ??= "application/json; charset=utf-8";
    // A route with a table has already said it varies on Accept too.
    headers["vary"] ??= "Accept-Encoding";
    const status = statusOf(set);
    // Only named bytes are the same on the next request; only a 200 is sent again.
    const repeatable = status === 200 && body.name !== undefined && etag !== undefined ? offer : undefined;
    const encoding = body.chars > COMPRESS_MIN_BYTES ? chooseEncoding(request.headers.get("accept-encoding")) : null;
    if (!encoding) return finished(body.payload, status, set, keeper(request, body.payload as Blob | string, etag!, body.until, repeatable));
    headers["content-encoding"] = encoding;
    if (etag) headers["etag"] = encodedTag(etag, encoding);
    const plain = () => body.bytes?.() ?? (body.payload as string);
    if (body.chars > LARGE_BODY_CHARS) {
      const large = body.name !== undefined ? encoded.ofLarge(body.name, encoding, plain) : compressLarge(plain(), encoding);
      return large.then((bytes) => finished(bytes, status, set, keeper(request, bytes, etag!, body.until, repeatable)));
    }
    const bytes = body.name !== undefined ? encoded.of(body.name, encoding, plain) : (compress(plain(), encoding) as Uint8Array<ArrayBuffer>);
    return finished(bytes, status, set, keeper(request, bytes, etag!, body.until, repeatable));
  }

  function csvResponse(table: RenderedTable, tag: string, request: Request, set: SetLike, offer?: RepeatOffer): Response {
    const headers = set.headers;
    headers["content-type"] = CSV_MEDIA_TYPE;
    headers["content-disposition"] = `attachment; filename="${table.fileName}"`;
    const status = statusOf(set);
    // A kept table carries no age: it stands as long as its cache entry (the offer's `until`).
    const repeatable = status === 200 && table.name !== undefined ? offer : undefined;
    const until = Number.POSITIVE_INFINITY;
    const encoding = table.text.length > COMPRESS_MIN_BYTES ? chooseEncoding(request.headers.get("accept-encoding")) : null;
    if (!encoding) return finished(table.text, status, set, keeper(request, table.text, tag, until, repeatable));
    headers["content-encoding"] = encoding;
    headers["etag"] = encodedTag(tag, encoding);
    const bytes = table.name !== undefined ? encoded.of(table.name, encoding, () => table.text) : (compress(table.text, encoding) as Uint8Array<ArrayBuffer>);
    return finished(bytes, status, set, keeper(request, bytes, tag, until, repeatable));
  }

  /**
   * Send a data answer: validators first, the body only when the client lacks it, as finished JSON,
   * or as the route's table when it passed one and the request asks for CSV (Elysia does not walk it
   * again against the route's response model: the models document the route, and the contract tests
   * check bodies against the served OpenAPI document). Typed as the route's body so the route keeps
   * its response model.
   */
  const send: Send = <T>(given: DataAnswer<T>, request: Request, set: SetLike, table?: CsvTable<T>): T => {
    const answer = withUnknownParameters(given, request);
    const cache = answer.cache;
    const csv = table !== undefined && representationOf(request) === "csv" ? table : undefined;
    const jsonTag = tagOf(answer);
    const etag = csv ? csvTag(jsonTag) : jsonTag;
    // The body of a route with a table depends on Accept: a shared cache must not answer one with the other.
    // Said on the 304 too, as on the 200 it stands for (RFC 9110 §15.4.5).
    set.headers["vary"] = table ? "Accept, Accept-Encoding" : "Accept-Encoding";
    const expiresAt = cache.storedAt + cache.ttlSeconds * 1000;
    set.headers["etag"] = etag;
    set.headers["cache-control"] = dataCacheControl(expiresAt, now(), cache.stale);
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
    // A fresh hit may be sent again as it is sent now, until its entry ends (repeat-answers.ts).
    const offer: RepeatOffer | undefined =
      trace?.cache === "hit"
        ? { until: expiresAt, expiresAt, cache: "hit", upstreamMs: cache.upstreamMs ?? null, serverTiming: repeatTiming(trace) }
        : undefined;
    const started = performance.now();
    if (csv) {
      const rendered = tables.of(answer, etag, csv);
      if (trace) {
        trace.normalizeMs = performance.now() - started;
        set.headers["server-timing"] = serverTiming(trace);
      }
      return asRouteBody<T>(csvResponse(rendered, etag, request, set, offer));
    }
    const respond = (body: RenderedBody): Response | Promise<Response> => {
      if (trace) {
        trace.normalizeMs = performance.now() - started;
        set.headers["server-timing"] = serverTiming(trace);
      }
      return jsonResponse(body, etag, request, set, offer);
    };
    const body = jsonBodies.of(answer, etag);
    return asRouteBody<T>(body instanceof Promise ? body.then(respond) : respond(body));
  };

  /**
   * Every other JSON body (catalog, metadata, ErrorResponses): a tag from the body for successful
   * GET/HEAD answers that set none, 304 when it matches, then compression (each tagged body's
   * encodings made once).
   */
  const plugin = new Elysia({ name: "loam.responses" }).mapResponse({ as: "global" }, ({ request, response, set }) => {
    if (response instanceof Response || response instanceof Blob || response === null || response === undefined) return;
    if (typeof response !== "object") return;
    const text = JSON.stringify(response);
    const headers = set.headers as HeaderBag;
    let etag = typeof headers["etag"] === "string" ? headers["etag"] : undefined;
    if (etag === undefined && statusOf(set) === 200 && (request.method === "GET" || request.method === "HEAD")) {
      etag = documentTags.of(text, entityTag);
      headers["etag"] = etag;
      headers["vary"] ??= "Accept-Encoding";
      const matched = matchingTag(request, etag);
      if (matched) return notModified({ ...headers, etag: matched });
    }
    // A route whose document never changes (GET /health) lets the front door send it again.
    const offer: RepeatOffer | undefined = traceOf(request)?.constant ? { until: Number.POSITIVE_INFINITY, cache: null, upstreamMs: null, serverTiming: repeatTiming() } : undefined;
    return jsonResponse({ payload: text, chars: text.length, name: etag, until: Number.POSITIVE_INFINITY }, etag, request, set as SetLike, offer);
  });

  return { plugin, send, sendFile };
}
export type ResponsePipeline = ReturnType<typeof createResponsePipeline>;

/**
 * A `/v1` answer to a request that gave parameters its route does not read: the same answer, its
 * warnings naming them (docs/decisions.md#unknown-parameters); its own key, so its own tag and rendering.
 */
function withUnknownParameters<T>(answer: DataAnswer<T>, request: Request): DataAnswer<T> {
  const warning = unknownParametersOf(request);
  if (warning === undefined || !routePath(request.url).startsWith("/v1/")) return answer;
  return {
    key: `${answer.key}\u0000${warning}`,
    cache: answer.cache,
    body: () => {
      const body = answer.body() as T & { warnings?: unknown };
      return Array.isArray(body.warnings) ? { ...body, warnings: [...body.warnings, warning] } : body;
    },
  };
}

/** A finished Response stands in for the route's body type: Elysia passes a Response through untouched. */
function asRouteBody<T>(response: Response | Promise<Response>): T {
  return response as unknown as T;
}
