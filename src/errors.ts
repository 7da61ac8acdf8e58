/**
 * Typed failures. Code that knows what went wrong throws one of these; one `onError` in
 * `src/http/error-response.ts` turns it into an ErrorResponse (docs/decisions.md#errors). Routes never build error bodies.
 */
/** A user-given name as it may be quoted in a message: at most 40 characters. */
export const clip = (raw: string) => (raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);

export type ErrorCode =
  | "validation_error"
  | "bad_request"
  | "not_found"
  | "unknown_provider"
  | "provider_not_operational"
  | "method_not_allowed"
  | "uri_too_long"
  | "rate_limited"
  | "unauthorized"
  | "upstream_error"
  | "upstream_timeout"
  | "upstream_unreachable"
  | "upstream_budget_exhausted"
  | "internal_error";

/** What an error may carry besides its message: operator-only text, and a retry verdict that differs from its status's. */
export interface ErrorExtras {
  /** For the log only (e.g. the upstream's own error text); never sent to clients. */
  detail?: string;
  /** Overrides the status default, e.g. false for a query the upstream refused as invalid. */
  retryable?: boolean;
  /** Seconds a client should wait before retrying: sent as Retry-After (a 503 of a busy Loam). */
  retryAfterSeconds?: number;
}

export class LoamError extends Error {
  /** What went wrong in the words of a lower layer (SQLite's, the upstream's): logged with the request id, never sent to the client. */
  detail?: string;
  /** Sent as the Retry-After header when set. */
  readonly retryAfterSeconds?: number;
  private readonly retryableOverride?: boolean;
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly provider: string | null = null,
    extras: ErrorExtras = {},
  ) {
    super(message);
    this.name = new.target.name;
    if (extras.detail !== undefined) this.detail = extras.detail;
    if (extras.retryable !== undefined) this.retryableOverride = extras.retryable;
    if (extras.retryAfterSeconds !== undefined) this.retryAfterSeconds = extras.retryAfterSeconds;
  }
  /** The same error with a detail for the log. */
  withDetail(detail: string): this {
    this.detail = detail;
    return this;
  }
  get retryable(): boolean {
    return this.retryableOverride ?? (this.status === 429 || this.status === 502 || this.status === 504);
  }
}

export class ValidationError extends LoamError {
  constructor(message: string, provider: string | null = null) {
    super(422, "validation_error", message, provider);
  }
}

/**
 * A request an OGC API - Features route refuses as the standard says (400): a bbox of six numbers,
 * a bbox-crs other than CRS84, a bad limit, a box over the source's limit (docs/decisions.md#ogc-api-features).
 */
export class BadRequestError extends LoamError {
  constructor(message: string, provider: string | null = null) {
    super(400, "bad_request", message, provider);
  }
}

export class NotFoundError extends LoamError {
  constructor(message: string, provider: string | null = null) {
    super(404, "not_found", message, provider);
  }
}

export class UnknownProviderError extends LoamError {
  constructor(providerId: string) {
    super(404, "unknown_provider", `Unknown provider '${providerId}'. GET /v1/providers lists the providers.`, null);
  }
}

export class ProviderNotOperationalError extends LoamError {
  constructor(providerId: string) {
    super(409, "provider_not_operational", `Provider '${providerId}' is planned and not operational yet; it serves no data.`, providerId);
  }
}

export class MethodNotAllowedError extends LoamError {
  constructor(method: string) {
    super(405, "method_not_allowed", `Method ${method} is not allowed: Loam is read-only and answers GET and HEAD only.`);
  }
}

export class UriTooLongError extends LoamError {
  constructor(limit: number) {
    super(414, "uri_too_long", `The request URI exceeds ${limit} characters.`);
  }
}

/** A route that needs a credential (GET /metrics with METRICS_TOKEN) was asked without the right one. */
export class UnauthorizedError extends LoamError {
  constructor(message: string) {
    super(401, "unauthorized", message);
  }
}

export class RateLimitedError extends LoamError {
  constructor(
    limit: number,
    override readonly retryAfterSeconds: number,
  ) {
    super(429, "rate_limited", `Rate limit of ${limit} requests per minute exceeded; retry after ${retryAfterSeconds} s.`);
  }
}

/**
 * One request needed more remote upstream calls than Loam makes for one request, or spent the
 * client's rate budget with them (docs/decisions.md#upstream-budget). Retryable: what was fetched is cached.
 */
export class UpstreamBudgetError extends LoamError {
  constructor(message: string) {
    super(429, "rate_limited", message, null, { retryable: true });
  }
}

/**
 * Loam itself was too busy to finish an upstream exchange within its deadline (its event loop was held
 * up): the upstream is not known to be at fault (docs/decisions.md#deadlines).
 */
export class LoamBusyError extends LoamError {
  constructor(message: string, extras: ErrorExtras = {}) {
    super(503, "internal_error", message, null, { retryable: true, ...extras });
  }
}

/** The upstream answered, but with an error status, an error body or a payload that does not parse. */
export class UpstreamError extends LoamError {
  constructor(message: string, provider: string | null = null, extras: ErrorExtras = {}) {
    super(502, "upstream_error", message, provider, extras);
  }
}

/** No complete answer within UPSTREAM_TIMEOUT_MS. */
export class UpstreamTimeoutError extends LoamError {
  constructor(message: string, provider: string | null = null, extras: ErrorExtras = {}) {
    super(504, "upstream_timeout", message, provider, extras);
  }
}

/** Connection refused, reset before an answer, or the host name does not resolve. */
export class UpstreamUnreachableError extends LoamError {
  constructor(message: string, provider: string | null = null, extras: ErrorExtras = {}) {
    super(502, "upstream_unreachable", message, provider, extras);
  }
}

/**
 * An upstream's own call budget is spent (docs/decisions.md#upstream-call-budget): the provider asks
 * Loam to send it at most so many calls a minute across every worker and instance, and this request
 * would need one more. Nothing was asked upstream; retryable after `retryAfterSeconds` (Retry-After).
 */
export class UpstreamBudgetExhaustedError extends LoamError {
  constructor(message: string, retryAfterSeconds: number, provider: string | null = null) {
    super(503, "upstream_budget_exhausted", message, provider, { retryable: true, retryAfterSeconds });
  }
}

/** The same error with the provider that asked filled in (sources do not know provider ids). */
export function withProvider(error: LoamError, provider: string): LoamError {
  if (error.provider) return error;
  const copy = Object.create(Object.getPrototypeOf(error)) as LoamError;
  Object.assign(copy, error, { provider });
  Object.defineProperty(copy, "message", { value: error.message });
  return copy;
}
