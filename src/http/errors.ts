/**
 * The one place failures become HTTP answers (DESIGN §3): a LoamError keeps its status and code;
 * Elysia's own failures are mapped; anything else is a 500 with no stack and no path.
 */
import { LoamError, ValidationError, NotFoundError } from "../errors";
import type { ErrorResponse } from "../shared/model";

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
