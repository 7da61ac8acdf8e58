/**
 * What one request did, for the access log, Server-Timing and metrics: when it started, whether the
 * upstream answer came from the cache, and how long the upstream and normalization took.
 */
export interface RequestTrace {
  startedAt: number;
  requestId: string;
  client: string;
  cache?: "hit" | "miss" | "stale";
  upstreamMs?: number;
  normalizeMs?: number;
}

const traces = new WeakMap<Request, RequestTrace>();

export function startTrace(request: Request, requestId: string, client: string): RequestTrace {
  const trace = { startedAt: performance.now(), requestId, client };
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

/** A duration in milliseconds (0 or more) rounded to a tenth, always one decimal (cheaper per request than toFixed). */
export function tenths(ms: number): string {
  const t = Math.round(ms * 10);
  return `${Math.floor(t / 10)}.${t % 10}`;
}
