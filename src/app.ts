/**
 * Loam as one Elysia app (docs/architecture.md): route (validate) → service → provider → cache →
 * transport → decode → normalize → DataAnswer → response pipeline.
 */
import { loggedError } from "./http/logged-error";
import { Elysia } from "elysia";
import type { Config } from "./config";
import type { LoamDatabase } from "../db/client";
import { createRateLimiter } from "./http/rate-limit";
import { createBudgets, WALK_FACTOR } from "./http/budgets";
import { LoamRedis } from "./redis/client";
import { createRedisRateLimiter } from "./http/redis-rate-limit";
import { createSharedCacheStore, sharedCacheTimes } from "./redis/cache-store";
import { createBoundary } from "./http/boundary";
import { createFrontDoor, type FetchHandler } from "./http/front-door";
import { RepeatAnswers } from "./http/repeat-answers";
import { routePath } from "./http/request-path";
import { openApiDocument } from "./http/openapi";
import { documentSources } from "./meta/document-sources";
import { createResponsePipeline } from "./http/response";
import { createMetrics, instrumentTransport, metricsRoute } from "./http/metrics";
import { bufferedStdout, createAccessLog, loggableQuery } from "./http/access-log";
import { createUpstreamCache } from "./upstream/cache";
import { connectProviders } from "./providers/connect";
import type { Provider, SharedUpstreams } from "./providers/provider";
import { createRegistry, DEFAULT_PROVIDERS } from "./providers/registry";
import { MODELS } from "./models";
import { meta } from "./meta";
import { catalog } from "./meta/catalog";
import { pages } from "./pages";
import { LoamError } from "./errors";
import { storageErrorReporter } from "./http/storage-errors";
import { idleTimeoutFor } from "./http/idle-timeout";
import { location } from "./location";
import { pedons } from "./pedons";
import { series } from "./series";
import { summaries } from "./summaries";
import { mapUnits } from "./mapunits";
import { geochem } from "./geochem";
import { ogcCollections } from "./collections";
import { areas } from "./areas";
import { pointValues, pointValuesRaw } from "./shapes/point_values";
import { sqliteCallBudget } from "./upstream/call-budget";
import { redisCallBudget } from "./redis/call-budget";
import { siteSeries } from "./shapes/site_series";
import { evidence } from "./evidence";

export interface AppDeps {
  config: Config;
  db: LoamDatabase;
  /** The transports opened for the configured upstream; each provider picks the one it reads. */
  upstreams: SharedUpstreams;
  /** The providers served (default: DEFAULT_PROVIDERS). */
  providers?: readonly Provider[];
  now?: () => number;
  /** Internal failures (their message and the functions they passed through, no paths: docs/decisions.md#logged-failures) and upstream error text, for operators; never sent to clients. */
  log?: (line: Record<string, unknown>) => void;
  /** Where access-log lines go (default: buffered stdout). */
  writeLine?: (line: string) => void;
  /** This process's number under LOAM_WORKERS > 1 (the `worker` label of /metrics). */
  worker?: string;
  /** A Redis connection to use instead of opening one for REDIS_URL (closed by its owner, not the app). */
  redis?: LoamRedis;
}

export function createApp(deps: AppDeps) {
  const now = deps.now ?? Date.now;
  // REDIS_URL: the counters live in Redis, shared by every instance; unset, in LOAM_DB.
  const redis = deps.redis ?? (deps.config.redisUrl ? new LoamRedis({ url: deps.config.redisUrl, timeoutMs: deps.config.redisTimeoutMs, log: deps.log }) : undefined);
  const metrics = createMetrics({ worker: deps.worker, redis });
  // A counter write that fails is skipped (fail open), logged and counted: storage never takes the API down.
  const limiter = (perMinute: number) =>
    redis ? createRedisRateLimiter(redis, perMinute) : createRateLimiter(deps.db, perMinute, storageErrorReporter("rate_counters", metrics, deps.log));
  // A walk's follow-up pages spend a larger budget of their own (docs/decisions.md#rate-budgets).
  const budgets = createBudgets(limiter(deps.config.rateLimitPerMinute), limiter(deps.config.rateLimitPerMinute * WALK_FACTOR));
  const registry = createRegistry(deps.providers ?? DEFAULT_PROVIDERS);
  // REDIS_URL: cache entries and the one-upstream-call lock are shared with the other instances too.
  const store = redis ? createSharedCacheStore(redis, { ...sharedCacheTimes(deps.config), now }) : undefined;
  const cache = createUpstreamCache(deps.db, {
    ttlSeconds: deps.config.cacheTtlSeconds,
    maxBytes: deps.config.cacheMaxBytes,
    now,
    store,
    // A cache read that fails is a miss, a write that fails is skipped: logged and counted the same way.
    onStorageError: storageErrorReporter("cache", metrics, deps.log),
    // A corrupt entry is deleted and fetched again (docs/decisions.md#cache-entries): logged with its request, counted.
    onCorruptEntry: ({ store: kind, provider, reason, requestId }) => {
      metrics.observeStorageError(kind === "redis" ? "redis_cache" : "cache", "corrupt_entry");
      deps.log?.({ level: "warn", msg: "corrupt cache entry deleted; fetching the answer again", request_id: requestId, store: kind, provider, reason });
    },
  });
  // Upstream call budgets (docs/decisions.md#upstream-call-budget): LOAM_DB for this machine's workers, Redis across instances.
  const localBudget = sqliteCallBudget(deps.db, now);
  const callBudget = redis ? redisCallBudget(redis, localBudget, now) : localBudget;
  const connected = connectProviders(registry.operational, {
    config: deps.config,
    callBudget,
    upstreams: deps.upstreams,
    now,
    cache,
    instrument: (transport) => instrumentTransport(transport, metrics),
    onBreakerEvent: (event) => metrics.observeBreaker(event),
  });
  let routeOf: (pathname: string) => string | undefined = () => undefined;
  // Answers sent again from the front door, before routing (docs/decisions.md#repeat-answers).
  const repeats = new RepeatAnswers({ routeOf: (request) => routeOf(routePath(request.url)) ?? "unmatched", loggedQuery: loggableQuery });
  const responses = createResponsePipeline({ now, repeats });
  const data = { registry, connected, cacheTtlSeconds: deps.config.cacheTtlSeconds, csvMaxRows: deps.config.csvMaxRows, now, send: responses.send };
  const upstream = deps.upstreams.sda ?? deps.upstreams.snapshot;
  const accessLog = createAccessLog(deps.config.logLevel, deps.writeLine ?? bufferedStdout());
  const boundary = createBoundary({
    budgets,
    trustProxy: deps.config.trustProxy,
    accessLog,
    metrics,
    now,
    routeOf: (pathname) => routeOf(pathname),
    onUnexpected: (error, requestId) =>
      deps.log?.({
        level: "error",
        request_id: requestId,
        ...loggedError(error),
        ...(error instanceof LoamError && error.detail !== undefined ? { detail: error.detail } : {}),
      }),
    // Upstream error text is logged, not echoed: the client got a fixed message for its class.
    onDetail: (error, requestId) =>
      deps.log?.({ level: "warn", msg: "upstream failure", request_id: requestId, code: error.code, provider: error.provider, detail: error.detail }),
  });
  const app = new Elysia({
    name: "loam",
    // Elysia finds the path after `http://`, not after the 11 characters of a host of four or more:
    // `Host: a` is routed too (src/http/request-path.ts, docs/decisions.md#host-header).
    handler: { standardHostname: false },
    // Bun closes a connection idle this long (seconds), so no client holds one open forever; it
    // outlasts UPSTREAM_TIMEOUT_MS so a slow upstream ends in a 504, not a dropped connection.
    serve: { idleTimeout: idleTimeoutFor(deps.config.upstreamTimeoutMs) },
  })
    .onStop(() => {
      if (redis && redis !== deps.redis) redis.close();
    })
    .use(boundary.plugin)
    .use(responses.plugin)
    .use(metricsRoute(metrics, () => upstream?.describe() ?? { kind: deps.config.upstream, location: "none" }, { token: deps.config.metricsToken, now }))
    .use(openApiDocument(MODELS, documentSources(registry)))
    .use(meta(registry, () => upstream?.describe() ?? { kind: deps.config.upstream, location: "none" }))
    .use(catalog(registry, () => upstream?.describe() ?? { kind: deps.config.upstream, location: "none" }))
    .use(location({ ...data, rawDelegates: [pointValuesRaw(data)] }))
    .use(pointValues(data))
    .use(pedons(data))
    .use(series(data))
    .use(summaries(data))
    .use(mapUnits(data))
    .use(geochem(data))
    .use(ogcCollections(data))
    .use(areas(data))
    .use(siteSeries(data))
    .use(evidence(data))
    .use(pages(responses.sendFile));
  routeOf = routeMatcher(app.routes.map((route) => route.path));
  frontDoors.set(app, (route) => createFrontDoor({ boundary, repeats, now, route }));
  return app;
}

const frontDoors = new WeakMap<object, (route: FetchHandler) => FetchHandler>();

export interface ListenOptions {
  port: number;
  hostname: string;
  /** Share the port with the other LOAM_WORKERS processes. */
  reusePort?: boolean;
}

/**
 * Serve the app: Bun's server with the front door as its fetch handler (repeated answers sent before
 * routing, docs/decisions.md#repeat-answers), the app's own handler behind it. The app's `server`
 * is this server, so `app.stop()` stops it.
 */
export function listen(app: LoamApp, options: ListenOptions) {
  const frontDoor = frontDoors.get(app)!((request) => app.fetch(request));
  const server = Bun.serve<undefined>({
    port: options.port,
    hostname: options.hostname,
    reusePort: options.reusePort ?? false,
    idleTimeout: app.config.serve?.idleTimeout,
    development: false,
    fetch: frontDoor,
  });
  app.server = server;
  return server;
}

/** Match a path to a registered pattern (`/v1/pedons/:pedon_key`), for metrics labels. */
function routeMatcher(patterns: string[]): (pathname: string) => string | undefined {
  const compiled = [...new Set(patterns)].map((pattern) => ({
    pattern,
    regex: new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[^/]+/g, "[^/]+")}$`),
  }));
  return (pathname) => compiled.find(({ regex }) => regex.test(pathname))?.pattern;
}
export type LoamApp = ReturnType<typeof createApp>;
