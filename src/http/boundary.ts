/**
 * What every request meets before and after its route: a request id, CORS and security headers,
 * the read-only method rule (with CORS preflight), a bound on the URI, the rate limit, the single
 * mapping of failures to ErrorResponse, and afterwards one access-log line and the metrics.
 */
import { Elysia } from "elysia";
import { MethodNotAllowedError, RateLimitedError, UriTooLongError, ValidationError, type LoamError } from "../errors";
import { asLoamError, asOgcRefusal, errorResponse, isOgcPath } from "./error-response";
import { requestIdFor } from "./request-id";
import { queryOfRequest, rejectRepeated } from "./query";
import { keepTrace, startTrace, traceOf, type RequestTrace } from "./trace";
import { lineShape, loggableQuery, type AccessEntry, type AccessLog, type KeptShape } from "./access-log";
import type { Metrics } from "./metrics";
import { writeRateLimit, type RateDecision } from "./rate-limit";
import { spendOf, type Budgets } from "./budgets";
import { hasMalformedEscape, routePath } from "./request-path";
import { clientKey } from "./client-address";
import { clientFacing } from "./client-message";
import { enterRequestScope } from "../request-scope";

export const MAX_URI_LENGTH = 8192;
/**
 * GET /v1/soil/aoi carries its area in the query: 1,000 vertices of WKT, percent-encoded, take about
 * 40,000 characters (docs/decisions.md#areas), within Bun's 262,144-byte header bound.
 */
export const MAX_AOI_URI_LENGTH = 65_536;
const AOI_PATH = "/v1/soil/aoi";
const ALLOWED_METHODS = "GET, HEAD";

/** 422 `validation_error`, and under /ogc 400 `bad_request` (asOgcRefusal), as any value a route cannot read. */
const MALFORMED_ESCAPE =
  "The request path holds a malformed percent-escape: every '%' must be followed by two hex digits, and the escaped bytes must be UTF-8 (encode the path with encodeURIComponent).";

/** A public read-only API: any origin may read, nobody sends credentials. */
const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "ETag, X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Server-Timing",
};
const PREFLIGHT_HEADERS = {
  "access-control-allow-methods": ALLOWED_METHODS,
  // Authorization and Content-Type are ignored on a GET, but browser apps and generated clients
  // often send them on every call; refusing them at preflight would refuse the whole request.
  "access-control-allow-headers": "Accept, Authorization, Content-Type, If-None-Match, X-Request-Id",
  "access-control-max-age": "86400",
};
const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

/** The API is rate limited; pages and their assets are not, so loading the map spends no budget. */
export function isCountedPath(pathname: string): boolean {
  return pathname === "/health" || pathname === "/v1" || pathname.startsWith("/v1/") || pathname === "/openapi.json" || pathname === "/metrics" || pathname === "/ogc" || pathname.startsWith("/ogc/");
}

export interface BoundaryOptions {
  /** The rate budgets (budgets.ts): the SQLite limiter decides at once; the Redis one (several instances) after a round trip. */
  budgets: Budgets;
  trustProxy: boolean;
  accessLog: AccessLog;
  metrics: Metrics;
  now?: () => number;
  /** The route pattern a path belongs to, for requests refused before routing (405, 414, 429). */
  routeOf?: (pathname: string) => string | undefined;
  onUnexpected?: (error: unknown, requestId: string) => void;
  /** A known failure that carries operator-only text (an upstream's own error report). */
  onDetail?: (error: LoamError, requestId: string) => void;
}

/**
 * The client's rate-limit key (client-address.ts); a forwarded value that is not an address falls back
 * to the socket's, which is asked for only then (Bun's requestIP costs about 4 % of a small answer).
 */
function clientOf(request: Request, socketAddress: () => string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for") ?? "";
    const comma = forwarded.indexOf(",");
    const first = comma === -1 ? forwarded : forwarded.slice(0, comma);
    const key = first ? clientKey(first) : null;
    if (key) return key;
  }
  const socket = socketAddress();
  return (socket && clientKey(socket)) || socket || "unknown";
}

/**
 * Retry-After of a 429 the limiter did not decide (docs/decisions.md#upstream-budget): a request that
 * reached its cap of upstream queries. When those queries spent the client's budget, the wait is the
 * window's reset; otherwise the answers fetched are cached and a retry goes further at once (1 s).
 */
function retryAfter(headers: Record<string, unknown>): string {
  const remaining = Number(headers["ratelimit-remaining"]);
  const reset = headers["ratelimit-reset"];
  return remaining === 0 && reset !== undefined ? String(reset) : "1";
}

/** Rate-limit headers, the 429, and the repeated-parameter rule, once the limiter has decided. */
function withinRateLimit(request: Request, path: string, headers: Record<string, unknown>, decision: RateDecision): undefined {
  writeRateLimit(decision, (name, value) => (headers[name] = value));
  if (!decision.allowed) {
    headers["retry-after"] = String(decision.resetSeconds);
    throw new RateLimitedError(decision.limit, decision.resetSeconds);
  }
  // A repeated parameter is a 422 on every API route, also where the route reads none (docs/decisions.md#query-parameters).
  // OGC clients (GDAL) repeat their connection URL's query on every `next` link: the same value twice is allowed there.
  rejectRepeated(queryOfRequest(request), isOgcPath(path));
  return undefined;
}

/** A request the boundary admitted: its trace and its one rate-limit decision. */
export type Admitted = RequestTrace & { decision: RateDecision | Promise<RateDecision> };

export interface RecordedRequest {
  method: string;
  route: string;
  status: number;
  query: Record<string, unknown> | undefined;
  /** Kept by a caller whose requests of this kind log alike (the front door: per answer and status). */
  shape?: KeptShape;
}

/**
 * The boundary: the Elysia plugin every routed request meets, and the two steps the front door
 * (front-door.ts) shares with it for the requests it answers itself: admitting a counted request
 * (id, client, trace, one rate-limit decision) and recording it afterwards (metrics, access log).
 */
export function createBoundary(options: BoundaryOptions) {
  const now = options.now ?? Date.now;

  /**
   * Admit a request on a counted path: its trace holds its id, its client and one rate-limit
   * decision. The trace is the front door's until it leaves the request to routing (`leave`), which
   * the plugin then reads instead of admitting the request again.
   */
  function admit(request: Request, socketAddress: () => string | undefined): Admitted {
    const startedAt = performance.now();
    const requestId = requestIdFor(request);
    const client = clientOf(request, socketAddress, options.trustProxy);
    return { startedAt, requestId, client, decision: options.budgets.spend(client, now(), spendOf(routePath(request.url), request.url)) };
  }

  /**
   * A bare target routed as a copy (request-path.ts routableRequest): the copy carries the original's
   * id and client, since only the original knows its socket's address.
   */
  function adopt(request: Request, routed: Request, socketAddress: () => string | undefined): void {
    startTrace(routed, requestIdFor(request), clientOf(request, socketAddress, options.trustProxy));
  }

  /** An admitted request left to routing (the rate limit refused it): the plugin reads its admission instead of making another. */
  function leave(request: Request, admitted: RequestTrace): void {
    keepTrace(request, admitted);
  }

  /** One access-log line and the metrics of a request that has been answered. */
  function record(trace: RequestTrace, recorded: RecordedRequest): void {
    const seconds = (performance.now() - trace.startedAt) / 1000;
    options.metrics.observeRequest(recorded.route, recorded.status, seconds);
    if (trace.cache) options.metrics.observeCache(trace.cache !== "miss");
    const entry: AccessEntry = {
      request_id: trace.requestId,
      method: recorded.method,
      route: recorded.route,
      status: recorded.status,
      duration_ms: Math.round(seconds * 100_000) / 100,
      cache: trace.cache ?? null,
      upstream_ms: trace.upstreamMs === undefined ? null : Math.round(trace.upstreamMs * 100) / 100,
      client: trace.client,
      query: recorded.query,
    };
    const kept = recorded.shape;
    options.accessLog.record(entry, kept === undefined ? undefined : (kept.line ??= lineShape(entry)));
  }

  return { plugin: boundaryPlugin(options, now, record), admit, adopt, leave, record };
}
export type Boundary = ReturnType<typeof createBoundary>;

function boundaryPlugin(options: BoundaryOptions, now: () => number, record: (trace: RequestTrace, recorded: RecordedRequest) => void) {
  return new Elysia({ name: "loam.http-boundary" })
    .onRequest(({ request, set, server }) => {
      // The front door may have admitted this request already: it had an answer to send again, but the rate limit refused it.
      const admitted = traceOf(request);
      const requestId = admitted?.requestId ?? requestIdFor(request);
      const client = admitted?.client ?? clientOf(request, () => server?.requestIP(request)?.address, options.trustProxy);
      if (!admitted) startTrace(request, requestId, client);
      Object.assign(set.headers, CORS_HEADERS, SECURITY_HEADERS);
      set.headers["x-request-id"] = requestId;
      if (request.method === "OPTIONS") {
        const asked = request.headers.get("access-control-request-method");
        if (asked === "GET" || asked === "HEAD") {
          Object.assign(set.headers, PREFLIGHT_HEADERS);
          return new Response(null, { status: 204, headers: set.headers as Record<string, string> });
        }
      }
      if (request.method !== "GET" && request.method !== "HEAD") {
        set.headers["allow"] = ALLOWED_METHODS;
        throw new MethodNotAllowedError(request.method);
      }
      const path = routePath(request.url);
      if (request.url.length > MAX_URI_LENGTH) {
        // An area's WKT (up to 1,000 vertices) needs a longer URI than any other route (docs/decisions.md#areas).
        const limit = path === AOI_PATH ? MAX_AOI_URI_LENGTH : MAX_URI_LENGTH;
        if (request.url.length > limit) throw new UriTooLongError(limit);
      }
      // Once for every route: a route would get the parameter as null (docs/decisions.md#malformed-escapes).
      if (hasMalformedEscape(path)) throw new ValidationError(MALFORMED_ESCAPE);
      if (!isCountedPath(path)) return;
      // Upstream calls this request makes beyond its first spend the client's budget too (docs/decisions.md#upstream-budget).
      // Each unit spent rewrites the RateLimit-* headers, so the answer tells what is really left.
      const charged = (decision: RateDecision) => {
        writeRateLimit(decision, (name, value) => (set.headers[name] = value));
        return decision.allowed;
      };
      const charge = () => {
        const spent = options.budgets.hit(client, now());
        return spent instanceof Promise ? spent.then(charged) : charged(spent);
      };
      enterRequestScope({ requestId, client, upstreamCalls: 0, charge });
      // Scrapes (docs/decisions.md#metrics), documents and a walk's follow-up pages have budgets of their own (docs/decisions.md#rate-budgets).
      const decision = admitted?.decision ?? options.budgets.spend(client, now(), spendOf(path, request.url));
      // Only a limiter that has to wait makes the request wait (a resolved undefined lets it through).
      if (decision instanceof Promise) return decision.then((d) => withinRateLimit(request, path, set.headers, d));
      withinRateLimit(request, path, set.headers, decision);
    })
    .onError({ as: "global" }, ({ code, error, set, request }) => {
      const requestId = String(set.headers["x-request-id"] ?? crypto.randomUUID());
      set.headers["x-request-id"] = requestId;
      const raised = asOgcRefusal(asLoamError(code, error), routePath(request.url));
      // Storage and upstream error text is logged, never sent (client-message.ts).
      const failure = clientFacing(raised);
      if (failure.status === 500 || failure !== raised) options.onUnexpected?.(error, requestId);
      else if (raised.detail !== undefined) options.onDetail?.(raised, requestId);
      if (failure.status === 405) set.headers["allow"] = ALLOWED_METHODS;
      if (failure.retryAfterSeconds !== undefined) set.headers["retry-after"] = String(failure.retryAfterSeconds);
      if (failure.status === 429 && set.headers["retry-after"] === undefined) set.headers["retry-after"] = retryAfter(set.headers);
      set.status = failure.status;
      set.headers["cache-control"] = "no-store";
      return errorResponse(failure, requestId);
    })
    .onAfterResponse({ as: "global" }, ({ request, set, route }) => {
      const trace = traceOf(request);
      if (!trace) return;
      const status = typeof set.status === "number" ? set.status : 200;
      const pattern = route || options.routeOf?.(routePath(request.url)) || "unmatched";
      record(trace, { method: request.method, route: pattern, status, query: loggableQuery(request) });
    });
}
