/**
 * What every request meets before and after its route: a request id, the read-only method rule,
 * a bound on the URI, the rate limit, and the single mapping of failures to ErrorResponse.
 */
import { Elysia } from "elysia";
import { MethodNotAllowedError, RateLimitedError, UriTooLongError } from "../errors";
import { asLoamError, errorResponse } from "./errors";
import { requestIdFor } from "./request-id";
import type { RateLimiter } from "./rate-limit";

export const MAX_URI_LENGTH = 8192;
const ALLOWED_METHODS = "GET, HEAD";

/** The API is rate limited; pages and their assets are not, so loading the map spends no budget. */
export function isCountedPath(pathname: string): boolean {
  return pathname === "/health" || pathname === "/v1" || pathname.startsWith("/v1/") || pathname === "/openapi.json";
}

export interface BoundaryOptions {
  rateLimiter: RateLimiter;
  trustProxy: boolean;
  now?: () => number;
  onUnexpected?: (error: unknown, requestId: string) => void;
}

function clientOf(request: Request, socketAddress: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for");
    const first = forwarded?.split(",")[0]?.trim();
    if (first) return first.slice(0, 64);
  }
  return socketAddress ?? "unknown";
}

export function httpBoundary(options: BoundaryOptions) {
  const now = options.now ?? Date.now;
  return new Elysia({ name: "loam.http-boundary" })
    .onRequest(({ request, set, server }) => {
      const requestId = requestIdFor(request);
      set.headers["x-request-id"] = requestId;
      if (request.method !== "GET" && request.method !== "HEAD") {
        set.headers["allow"] = ALLOWED_METHODS;
        throw new MethodNotAllowedError(request.method);
      }
      if (request.url.length > MAX_URI_LENGTH) throw new UriTooLongError(MAX_URI_LENGTH);
      const pathname = new URL(request.url).pathname;
      if (!isCountedPath(pathname)) return;
      const client = clientOf(request, server?.requestIP(request)?.address, options.trustProxy);
      const decision = options.rateLimiter.hit(client, now());
      set.headers["ratelimit-limit"] = String(decision.limit);
      set.headers["ratelimit-remaining"] = String(decision.remaining);
      set.headers["ratelimit-reset"] = String(decision.resetSeconds);
      if (!decision.allowed) {
        set.headers["retry-after"] = String(decision.resetSeconds);
        throw new RateLimitedError(decision.limit, decision.resetSeconds);
      }
    })
    .onError({ as: "global" }, ({ code, error, set }) => {
      const requestId = String(set.headers["x-request-id"] ?? crypto.randomUUID());
      set.headers["x-request-id"] = requestId;
      const failure = asLoamError(code, error);
      if (failure.status === 500) options.onUnexpected?.(error, requestId);
      if (failure.status === 405) set.headers["allow"] = ALLOWED_METHODS;
      set.status = failure.status;
      set.headers["cache-control"] = "no-store";
      return errorResponse(failure, requestId);
    });
}
