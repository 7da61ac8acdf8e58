/**
 * In-process counters exposed at GET /metrics in the Prometheus text format. Nothing here calls an
 * upstream; the snapshot's build facts come from the source's own description.
 */
import { Elysia } from "elysia";
import { timingSafeEqual } from "node:crypto";
import { UnauthorizedError } from "../errors";
import type { SourceDescription, Transport } from "../upstream/transport";
import { VERSION } from "../version";
import type { RedisStats } from "../redis/client";

/** What an upstream's circuit breaker reports (src/upstream/breaker.ts). */
type BreakerEvent = "opened" | "fast_failure";

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export type UpstreamOutcome = "ok" | "error" | "timeout";

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

export interface MetricsOptions {
  /** This process's number under LOAM_WORKERS > 1: every sample carries `worker="<n>"`, so the workers behind one port can be told apart. */
  worker?: string;
  /** The Redis connection (REDIS_URL), for its up gauge and failure counters. */
  redis?: { stats(): RedisStats };
}

/** `name{a="b"} 1` or `name 1` with one more label first. */
function withLabel(line: string, label: string): string {
  const space = line.indexOf(" ");
  const brace = line.indexOf("{");
  if (brace !== -1 && brace < space) return `${line.slice(0, brace + 1)}${label},${line.slice(brace + 1)}`;
  return `${line.slice(0, space)}{${label}}${line.slice(space)}`;
}

export function createMetrics(options: MetricsOptions = {}) {
  const workerLabel = options.worker === undefined ? undefined : `worker="${escapeLabel(options.worker)}"`;
  /** Per route: answers by status, and the latency histogram (each request counted in its own bucket; summed up when rendered). */
  const routes = new Map<string, { statuses: Map<number, number>; buckets: number[]; sum: number; count: number }>();
  const upstream: Record<UpstreamOutcome, number> = { ok: 0, error: 0, timeout: 0 };
  let cacheHits = 0;
  let cacheMisses = 0;
  let rateLimited = 0;
  let budgetRefused = 0;
  const breaker: Record<BreakerEvent, number> = { opened: 0, fast_failure: 0 };
  /** Failed reads and writes of LOAM_DB that were skipped instead of failing a request, by store and operation. */
  const storageErrors = new Map<string, number>();
  /** Bumped by every observation except of /metrics itself: a rendering is reused while it stands. */
  let changes = 0;

  return {
    /** What the next rendering would show differently from the last, in one comparable text. */
    state(): string {
      const redis = options.redis?.stats();
      return `${changes}|${redis ? `${redis.up}|${redis.failures}|${redis.outages}` : ""}`;
    },
    observeRequest(route: string, status: number, seconds: number): void {
      if (route !== "/metrics") changes++;
      let counted = routes.get(route);
      if (!counted) routes.set(route, (counted = { statuses: new Map(), buckets: BUCKETS.map(() => 0), sum: 0, count: 0 }));
      counted.statuses.set(status, (counted.statuses.get(status) ?? 0) + 1);
      let bucket = 0;
      while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]!) bucket++;
      if (bucket < BUCKETS.length) counted.buckets[bucket]!++;
      counted.sum += seconds;
      counted.count++;
      if (status === 429) rateLimited++;
    },
    observeCache(hit: boolean): void {
      changes++;
      if (hit) cacheHits++;
      else cacheMisses++;
    },
    observeUpstream(outcome: UpstreamOutcome): void {
      changes++;
      upstream[outcome]++;
    },
    /** A call a budget refused (docs/decisions.md#upstream-call-budget): not an upstream error. */
    observeBudgetRefusal(): void {
      changes++;
      budgetRefused++;
    },
    observeBreaker(event: BreakerEvent): void {
      changes++;
      breaker[event]++;
    },
    observeStorageError(store: string, operation: string): void {
      changes++;
      const key = `${store}\u0000${operation}`;
      storageErrors.set(key, (storageErrors.get(key) ?? 0) + 1);
    },
    render(description: SourceDescription): string {
      const lines: string[] = [];
      lines.push("# HELP loam_requests_total HTTP requests answered, by route and status.", "# TYPE loam_requests_total counter");
      for (const [route, counted] of routes) {
        for (const [status, count] of counted.statuses) lines.push(`loam_requests_total{route="${escapeLabel(route)}",status="${status}"} ${count}`);
      }
      lines.push("# HELP loam_request_duration_seconds Time to answer, by route.", "# TYPE loam_request_duration_seconds histogram");
      for (const [route, histogram] of routes) {
        const label = escapeLabel(route);
        let cumulative = 0;
        BUCKETS.forEach((bound, i) => lines.push(`loam_request_duration_seconds_bucket{route="${label}",le="${bound}"} ${(cumulative += histogram.buckets[i]!)}`));
        lines.push(`loam_request_duration_seconds_bucket{route="${label}",le="+Inf"} ${histogram.count}`);
        lines.push(`loam_request_duration_seconds_sum{route="${label}"} ${histogram.sum.toFixed(6)}`);
        lines.push(`loam_request_duration_seconds_count{route="${label}"} ${histogram.count}`);
      }
      lines.push("# HELP loam_cache_hits_total Upstream answers served from Loam's cache.", "# TYPE loam_cache_hits_total counter", `loam_cache_hits_total ${cacheHits}`);
      lines.push("# HELP loam_cache_misses_total Upstream answers fetched because the cache had none fresh.", "# TYPE loam_cache_misses_total counter", `loam_cache_misses_total ${cacheMisses}`);
      lines.push("# HELP loam_upstream_calls_total Calls to the upstream source, by outcome.", "# TYPE loam_upstream_calls_total counter");
      for (const outcome of ["ok", "error", "timeout"] as const) lines.push(`loam_upstream_calls_total{outcome="${outcome}"} ${upstream[outcome]}`);
      lines.push(
        "# HELP loam_upstream_budget_refusals_total Upstream answers refused by a call budget: Loam's fair-use budget of the upstream (no call made) or the upstream's own 429 and its Retry-After; not upstream errors.",
        "# TYPE loam_upstream_budget_refusals_total counter",
        `loam_upstream_budget_refusals_total ${budgetRefused}`,
      );
      lines.push("# HELP loam_storage_errors_total LOAM_DB reads and writes that failed and were skipped (the request was still answered).", "# TYPE loam_storage_errors_total counter");
      for (const [key, count] of storageErrors) {
        const [store, operation] = key.split("\u0000");
        lines.push(`loam_storage_errors_total{store="${escapeLabel(store!)}",operation="${escapeLabel(operation!)}"} ${count}`);
      }
      lines.push(
        "# HELP loam_breaker_opened_total Times an upstream's circuit breaker opened after consecutive failures (or again after a failed probe).",
        "# TYPE loam_breaker_opened_total counter",
        `loam_breaker_opened_total ${breaker.opened}`,
        "# HELP loam_breaker_fast_failures_total Upstream calls failed at once because the breaker was open (served stale, or a fast 502/504).",
        "# TYPE loam_breaker_fast_failures_total counter",
        `loam_breaker_fast_failures_total ${breaker.fast_failure}`,
      );
      lines.push("# HELP loam_rate_limited_total Requests refused with 429.", "# TYPE loam_rate_limited_total counter", `loam_rate_limited_total ${rateLimited}`);
      lines.push(
        "# HELP loam_build_info Version and upstream source of this process.",
        "# TYPE loam_build_info gauge",
        `loam_build_info{version="${VERSION}",upstream="${description.kind}"} 1`,
      );
      if (description.kind === "snapshot") {
        lines.push(
          "# HELP loam_snapshot_info The offline snapshot being served.",
          "# TYPE loam_snapshot_info gauge",
          `loam_snapshot_info{built_at="${escapeLabel(description.builtAt ?? "unknown")}",datasets="${(description.coverage ?? []).length}"} 1`,
        );
        const built = description.builtAt ? Date.parse(description.builtAt) : Number.NaN;
        if (Number.isFinite(built)) {
          lines.push("# HELP loam_snapshot_built_timestamp_seconds When the snapshot was built.", "# TYPE loam_snapshot_built_timestamp_seconds gauge", `loam_snapshot_built_timestamp_seconds ${Math.floor(built / 1000)}`);
        }
      }
      if (options.redis) {
        const redis = options.redis.stats();
        lines.push("# HELP loam_redis_up 1 while Redis (REDIS_URL) answers, 0 during an outage.", "# TYPE loam_redis_up gauge", `loam_redis_up ${redis.up ? 1 : 0}`);
        lines.push("# HELP loam_redis_failures_total Redis commands that failed, timed out, or were skipped while it was down (the request went on without Redis).", "# TYPE loam_redis_failures_total counter", `loam_redis_failures_total ${redis.failures}`);
        lines.push("# HELP loam_redis_outages_total Times Redis became unavailable.", "# TYPE loam_redis_outages_total counter", `loam_redis_outages_total ${redis.outages}`);
      }
      const text = workerLabel ? lines.map((line) => (line.startsWith("#") ? line : withLabel(line, workerLabel))) : lines;
      return `${text.join("\n")}\n`;
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;

/** Count every upstream call by outcome, without the providers knowing. */
export function instrumentTransport(transport: Transport, metrics: Metrics): Transport {
  return {
    kind: transport.kind,
    ttlSeconds: transport.ttlSeconds,
    describe: () => transport.describe(),
    close: () => transport.close?.(),
    async fetch(query, params) {
      try {
        const answer = await transport.fetch(query, params);
        metrics.observeUpstream("ok");
        return answer;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === "upstream_budget_exhausted") metrics.observeBudgetRefusal();
        else metrics.observeUpstream(code === "upstream_timeout" ? "timeout" : "error");
        throw error;
      }
    },
  };
}

/**
 * How long one rendering is served again while only /metrics requests were counted meanwhile: a flood
 * of scrapes renders once a second; any other request, cache, upstream or storage event renders anew.
 */
const RENDER_REUSE_MS = 1000;

/** Does the request bear `token` (`Authorization: Bearer <token>`)? Compared in constant time. */
function bears(request: Request, token: Buffer): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (!given) return false;
  const bytes = Buffer.from(given);
  return bytes.length === token.length && timingSafeEqual(bytes, token);
}

/**
 * GET /metrics (docs/decisions.md#metrics); `upstream` describes the configured upstream (snapshot or
 * SDA) for the build-info series. With METRICS_TOKEN only a request bearing it is answered (401
 * otherwise); it is rate limited like the API, and its text is rendered at most once a second.
 */
export function metricsRoute(metrics: Metrics, upstream: () => SourceDescription, options: { token?: string | null; now?: () => number } = {}) {
  const token = options.token ? Buffer.from(options.token) : null;
  const now = options.now ?? Date.now;
  let rendered: { text: string; at: number; state: string } | undefined;
  return new Elysia({ name: "loam.metrics" }).get(
    "/metrics",
    ({ request, set }) => {
      if (token && !bears(request, token)) {
        set.headers["www-authenticate"] = 'Bearer realm="loam metrics"';
        throw new UnauthorizedError("GET /metrics needs the operator's token (METRICS_TOKEN): send Authorization: Bearer <token>.");
      }
      set.headers["content-type"] = "text/plain; version=0.0.4; charset=utf-8";
      set.headers["cache-control"] = "no-store";
      const at = now();
      const state = metrics.state();
      if (!rendered || rendered.state !== state || at - rendered.at >= RENDER_REUSE_MS || at < rendered.at) rendered = { text: metrics.render(upstream()), at, state };
      return rendered.text;
    },
    {
      detail: {
        operationId: "getMetrics",
        tags: ["meta"],
        summary: "Prometheus metrics",
        description:
          "In-process counters in the Prometheus text exposition format 0.0.4: requests by route and status, latency histograms, cache hits and misses, upstream calls by outcome, refusals of upstream call budgets, rate-limited requests, and the snapshot's build facts. Rate limited like the API; rendered at most once a second; never cached. When the operator sets METRICS_TOKEN, only requests with `Authorization: Bearer <token>` are answered (401 otherwise).",
        responses: {
          200: {
            description: "The metrics as text/plain; version=0.0.4.",
            headers: { "X-Request-Id": { description: "Request id.", schema: { type: "string" } }, "Cache-Control": { description: "no-store", schema: { type: "string" } } },
            content: { "text/plain": { schema: { type: "string" } } },
          },
          401: { description: "METRICS_TOKEN is set and the request does not bear it (code unauthorized).", content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } } },
          429: { description: "Rate limit exceeded (code rate_limited).", content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } } },
        },
      },
    },
  );
}
