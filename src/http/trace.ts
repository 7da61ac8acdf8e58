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
  if (trace.upstreamMs !== undefined) parts.push(`upstream;dur=${trace.upstreamMs.toFixed(1)}`);
  if (trace.normalizeMs !== undefined) parts.push(`normalize;dur=${trace.normalizeMs.toFixed(1)}`);
  return parts.join(", ");
}
