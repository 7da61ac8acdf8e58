/**
 * The one place failures become HTTP answers (docs/decisions.md#errors): a LoamError keeps its
 * status and code; Elysia's own failures are mapped; anything else is a 500 with no stack and no path.
 * ErrorResponse is the body of every non-2xx answer.
 */
import { t, type Static } from "elysia";
import { BadRequestError, LoamError, ValidationError, NotFoundError } from "../errors";

const closed = { additionalProperties: false } as const;

export const ErrorBody = t.Object(
  {
    code: t.String({
      description:
        "validation_error, bad_request (OGC API routes), not_found, unknown_provider, provider_not_operational, method_not_allowed, uri_too_long, rate_limited, unauthorized, upstream_error, upstream_timeout, upstream_unreachable, upstream_budget_exhausted (503: an upstream's own call budget is spent; see Retry-After), internal_error",
      examples: ["validation_error"],
    }),
    message: t.String({ examples: ["Query parameter 'latitude' must be a number from -90 to 90; got '95'."] }),
    request_id: t.String({ description: "Equals the X-Request-Id response header." }),
    provider: t.Optional(t.Union([t.String(), t.Null()])),
    retryable: t.Optional(t.Boolean({ default: false, description: "True for 429, 502, 504 and upstream_budget_exhausted, except a 502 for a query Soil Data Access refused as invalid (a fault in the query; retrying will not help)." })),
  },
  { ...closed, title: "ErrorBody" },
);

export const ErrorResponse = t.Object({ error: ErrorBody }, { ...closed, title: "ErrorResponse", description: "Every non-2xx answer." });
export type ErrorResponse = Static<typeof ErrorResponse>;


interface ElysiaValidationLike {
  /** What failed the check: "query", "params", ... or "response" (Loam's own body: a server bug). */
  type?: string;
  all?: { path?: string; message?: string }[];
}

/** Turn whatever was thrown into a LoamError. */
export function asLoamError(code: string | number, error: unknown): LoamError {
  if (error instanceof LoamError) return error;
  if (code === "NOT_FOUND") return new NotFoundError("No such resource. GET /v1 lists the API; /docs documents it.");
  if (code === "VALIDATION" && (error as ElysiaValidationLike).type !== "response") {
    const first = (error as ElysiaValidationLike).all?.[0];
    const where = first?.path ? ` '${first.path.replace(/^\//, "")}'` : "";
    return new ValidationError(`Parameter${where} is invalid: ${first?.message ?? "it violates its rule"}.`);
  }
  if (code === "PARSE") return new ValidationError("The request could not be parsed.");
  return new LoamError(500, "internal_error", "Loam failed to answer this request. The failure was logged; please retry later or report it with the request id.");
}

/** The OGC API - Features routes: `/ogc` and everything under it. */
export const isOgcPath = (path: string) => path === "/ogc" || path.startsWith("/ogc/");

/**
 * OGC API - Features Part 1 (OGC 17-069r4, /req/core/query-param-invalid) answers a parameter it
 * cannot use with 400: on `/ogc` every refusal of the request's own values (a cursor, a repeated or
 * over-long parameter, a path id over its length, an unknown element) is a 400 `bad_request` with the
 * same message; the `/v1` routes keep the spec's 422 (docs/decisions.md#ogc-api-features).
 */
export function asOgcRefusal(error: LoamError, path: string): LoamError {
  if (!(error instanceof ValidationError) || !isOgcPath(path)) return error;
  return new BadRequestError(error.message, error.provider);
}

export function errorResponse(error: LoamError, requestId: string): ErrorResponse {
  return {
    error: {
      code: error.code,
      message: error.message,
      request_id: requestId,
      provider: error.provider,
      retryable: error.retryable,
    },
  };
}
