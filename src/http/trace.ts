/**
 * What one request did, for the access log, Server-Timing and metrics: when it started, whether the
 * upstream answer came from the cache, and how long the upstream and normalization took.
 */
import type { RateDecision } from "./rate-limit";

export interface RequestTrace {
  startedAt: number;
  requestId: string;
  client: string;
  cache?: "hit" | "miss" | "stale";
  upstreamMs?: number;
  normalizeMs?: number;
  /** The rate limiter's decision, when the front door made it (src/http/front-door.ts) and left the request to routing. */
  decision?: RateDecision | Promise<RateDecision>;
  /** The route's document is the same on every request (GET /health): the front door may send it again (docs/decisions.md#repeat-answers). */
  constant?: boolean;
}

const traces = new WeakMap<Request, RequestTrace>();

export function startTrace(request: Request, requestId: string, client: string): RequestTrace {
  return keepTrace(request, { startedAt: performance.now(), requestId, client });
}

/** Attach a trace begun elsewhere (the front door's, for a request it leaves to routing). */
export function keepTrace(request: Request, trace: RequestTrace): RequestTrace {
  traces.set(request, trace);
  return trace;
}

export function traceOf(request: Request): RequestTrace | undefined {
  return traces.get(request);
}

/** `Server-Timing` for a data answer: cache outcome, upstream wait, normalization. */
export function serverTiming(trace: RequestTrace): string {
  const parts: string[] = [];
  if (trace.cache) parts.push(`cache;desc="${trace.cache}"`);
  if (trace.upstreamMs !== undefined) parts.push(`upstream;dur=${tenths(trace.upstreamMs)}`);
  if (trace.normalizeMs !== undefined) parts.push(`normalize;dur=${tenths(trace.normalizeMs)}`);
  return parts.join(", ");
}

/**
 * `Server-Timing` of an answer the front door sends again (docs/decisions.md#repeat-answers): the
 * entry's cache outcome and upstream wait, no normalization (none was done), and `repeat`.
 */
export function repeatTiming(trace?: RequestTrace): string {
  const kept = trace ? serverTiming({ ...trace, normalizeMs: undefined }) : "";
  return kept ? `${kept}, repeat` : "repeat";
}

/** A duration in milliseconds (0 or more) rounded to a tenth, always one decimal (cheaper per request than toFixed). */
export function tenths(ms: number): string {
  const t = Math.round(ms * 10);
  return `${Math.floor(t / 10)}.${t % 10}`;
}

/** The route's document is the same on every request: the front door may send it again (docs/decisions.md#repeat-answers). */
export function constantDocument(request: Request): void {
  const trace = traces.get(request);
  if (trace) trace.constant = true;
}
