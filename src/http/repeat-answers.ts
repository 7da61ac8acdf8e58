/**
 * Answers sent again (docs/decisions.md#repeat-answers). A cache hit's body is rendered once per
 * second of its age and its encodings once (rendered-bodies.ts, compression.ts); what is left per
 * request is the framework's routing, validation and hooks, which cost a small cached answer more
 * than sending it. So the pipeline remembers each answer it sent from a kept rendering, under the
 * request's URL and the headers that choose its representation (Accept, Accept-Encoding), until the
 * moment the route would send other bytes: the rendering's next age second, or the cache entry's end.
 * The front door (front-door.ts) answers the same request again from here, before routing.
 *
 * Only what the route sends identically to every client is kept: the body, its validators and its
 * representation headers. The request id, the rate-limit headers, Cache-Control's max-age (counted
 * down to the entry's end) and Server-Timing are made per request by the front door.
 */
import { Lru } from "../lru";
import { isBareTarget } from "./request-path";

/** Headers the front door makes per request; never kept. */
const PER_REQUEST_HEADERS = new Set(["x-request-id", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after", "server-timing"]);
/** Headers of a body, left out of its 304. */
const BODY_HEADERS = new Set(["content-type", "content-encoding", "content-disposition", "content-length"]);

const REPEAT_ENTRIES = 1024;
/** Bodies are the Blobs the rendered-body and encoding caches already hold, so this mostly counts shared bytes. */
const REPEAT_BYTES = 128_000_000;

export interface RepeatAnswer {
  body: Blob;
  /**
   * The 200's headers that are the same for every client (representation, validators, CORS,
   * security), made once: copying a Headers is a fraction of building one from an object.
   */
  headers: Headers;
  /** The same, without the body's own headers: a 304's. */
  notModifiedHeaders: Headers;
  /** The representation's entity tag without its encoding suffix (what If-None-Match is matched against). */
  tag: string;
  /** Until when (ms) the route would send these bytes. */
  until: number;
  /**
   * A data answer's Cache-Control counts down to the end of its cache entry (ms), and its tag names
   * the entry's data until then, so a client holding it gets a 304 from here until then, also after
   * the bytes have turned (the body's age_seconds); a document keeps its own Cache-Control.
   */
  expiresAt?: number;
  /** Server-Timing of a repeat: the cache outcome and the upstream wait the entry records, nothing normalized. */
  serverTiming?: string;
  /** For the access log and metrics, as the boundary would record them. */
  route: string;
  cache: "hit" | null;
  upstreamMs: number | null;
  query: Record<string, unknown> | undefined;
}

/** What a route's finished 200 tells the store, besides its body and headers. */
export type RepeatTerms = Omit<RepeatAnswer, "body" | "headers" | "notModifiedHeaders" | "route" | "query">;

export interface RepeatOptions {
  /** The route pattern of a path (metrics and access-log label). */
  routeOf: (request: Request) => string;
  /** The query as the access log keeps it. */
  loggedQuery: (request: Request) => Record<string, unknown> | undefined;
}

export class RepeatAnswers {
  private readonly answers = new Lru<string, RepeatAnswer>(REPEAT_ENTRIES, REPEAT_BYTES);

  constructor(private readonly options: RepeatOptions) {}

  /** The URL and the headers that pick the representation; any other header leaves the bytes alone. */
  private keyOf(request: Request): string {
    const headers = request.headers;
    return `${request.url}\u0000${headers.get("accept") ?? ""}\u0000${headers.get("accept-encoding") ?? ""}`;
  }

  /** The answer remembered for this GET, while its tag or its bytes stand (the caller checks which). */
  find(request: Request, now: number): RepeatAnswer | undefined {
    const key = this.keyOf(request);
    const found = this.answers.get(key);
    if (found === undefined) return undefined;
    if (now < Math.max(found.until, found.expiresAt ?? found.until)) return found;
    this.answers.delete(key);
    return undefined;
  }

  /** Remember a 200 the pipeline just finished for a GET: its body, its headers as sent, and how long they stand. */
  remember(request: Request, body: Blob | Uint8Array | string, sent: Record<string, string>, terms: RepeatTerms): void {
    // A bare target's copy (request-path.ts) is keyed by a placeholder URL no client sends as such.
    if (request.method !== "GET" || isBareTarget(request)) return;
    const headers = new Headers();
    const notModifiedHeaders = new Headers();
    for (const name in sent) {
      if (PER_REQUEST_HEADERS.has(name)) continue;
      // A data answer's max-age is counted down per request; a document's Cache-Control is its own.
      if (name === "cache-control" && terms.expiresAt !== undefined) continue;
      headers.set(name, sent[name]!);
      if (!BODY_HEADERS.has(name)) notModifiedHeaders.set(name, sent[name]!);
    }
    const blob = body instanceof Blob ? body : new Blob([body as Uint8Array<ArrayBuffer> | string]);
    const answer: RepeatAnswer = { ...terms, body: blob, headers, notModifiedHeaders, route: this.options.routeOf(request), query: this.options.loggedQuery(request) };
    this.answers.set(this.keyOf(request), answer, blob.size);
  }
}
