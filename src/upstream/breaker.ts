/**
 * A short circuit breaker around one upstream transport (docs/decisions.md#circuit-breaker).
 *
 * While an upstream hangs, every request for an expired or missing entry would wait the whole
 * UPSTREAM_TIMEOUT_MS before stale-if-error could answer. After BREAKER_FAILURES consecutive failures
 * the breaker opens for BREAKER_OPEN_MS: calls fail at once with the last failure's class (so the
 * cache serves its stale copy at once, or the client gets its 502/504 at once). Then one call is let
 * through as a probe (half-open): its success closes the breaker, its failure opens it again.
 */
import { LoamBusyError, LoamError, UpstreamBudgetExhaustedError, UpstreamError, UpstreamTimeoutError, UpstreamUnreachableError } from "../errors";
import type { Payload, QueryKind, SourceDescription, Transport } from "./transport";

export const BREAKER_FAILURES = 5;
export const BREAKER_OPEN_MS = 5000;

/** What a breaker reports: it opened (or opened again after a failed probe), or it failed a call at once. */
export type BreakerEvent = "opened" | "fast_failure";

export interface BreakerOptions {
  failures?: number;
  openMs?: number;
  now?: () => number;
  /** Told of each opening and each call failed at once (counted in /metrics). */
  onEvent?: (event: BreakerEvent) => void;
}

/**
 * A failure that says the upstream is unwell: not a refusal of this one query, nor Loam's own stall
 * (docs/decisions.md#deadlines), nor a call budget's refusal (Loam's own fair-use limit, or the
 * upstream's 429 asking Loam to wait: docs/decisions.md#upstream-call-budget).
 */
function countsAsFailure(error: unknown): error is LoamError {
  return error instanceof LoamError && error.retryable && !(error instanceof LoamBusyError) && !(error instanceof UpstreamBudgetExhaustedError);
}

/** The error a call gets while the breaker is open: the class of the failure that opened it, a fixed message. */
function openError(last: LoamError, threshold: number, retryInMs: number): LoamError {
  const message = `The upstream failed ${threshold} or more times in a row; Loam is not calling it again for ${Math.max(1, Math.ceil(retryInMs / 1000))} s. Please retry later.`;
  if (last.code === "upstream_timeout") return new UpstreamTimeoutError(message);
  if (last.code === "upstream_unreachable") return new UpstreamUnreachableError(message);
  return new UpstreamError(message);
}

export function withBreaker(transport: Transport, options: BreakerOptions = {}): Transport {
  const threshold = options.failures ?? BREAKER_FAILURES;
  const openMs = options.openMs ?? BREAKER_OPEN_MS;
  const now = options.now ?? (() => performance.now());
  let failures = 0;
  let openUntil = 0;
  let lastFailure: LoamError | null = null;
  let probing = false;

  return {
    kind: transport.kind,
    ttlSeconds: transport.ttlSeconds,
    describe: (): SourceDescription => transport.describe(),
    close: transport.close ? () => transport.close?.() : undefined,
    async fetch<P>(query: QueryKind<P, unknown>, params: P): Promise<Payload> {
      const open = failures >= threshold && lastFailure !== null;
      if (open) {
        const at = now();
        // Open, or half-open with its one probe already under way.
        if (at < openUntil || probing) {
          options.onEvent?.("fast_failure");
          throw openError(lastFailure!, threshold, Math.max(0, openUntil - at));
        }
        probing = true;
      }
      try {
        const payload = await transport.fetch(query, params);
        failures = 0;
        lastFailure = null;
        return payload;
      } catch (error) {
        if (countsAsFailure(error)) {
          failures++;
          lastFailure = error;
          if (failures >= threshold) {
            openUntil = now() + openMs;
            options.onEvent?.("opened");
          }
        }
        throw error;
      } finally {
        if (open) probing = false;
      }
    },
  };
}
