/**
 * Loam as one Elysia app. Data flows one way (STYLE.md):
 * route (validate) → service → provider → upstream source → cache → normalize → response.
 */
import { Elysia } from "elysia";
import type { Config } from "./config";
import type { LoamDatabase } from "../db/client";
import type { UpstreamSource } from "./upstream/source";
import { createRateLimiter } from "./http/rate-limit";
import { httpBoundary } from "./http/boundary";
import { bodyEntityTags } from "./http/conditional";
import { openApiDocument } from "./http/openapi";
import { createUpstreamCache } from "./upstream/cache";
import { MODELS } from "./models";
import { meta } from "./meta";
import { catalog } from "./catalog";
import { pages } from "./pages";
import { createMetrics, instrumentSource, metricsRoute } from "./http/metrics";
import { storageErrorReporter } from "./http/storage-errors";
import { idleTimeoutFor } from "./http/idle-timeout";
import { bufferedStdout, createAccessLog } from "./http/access-log";
import { compression } from "./http/compression";
import { location } from "./location";
import { pedons } from "./pedons";

export interface AppDeps {
  config: Config;
  db: LoamDatabase;
  source: UpstreamSource;
  now?: () => number;
  /** Internal failures (with stacks) for operators; never sent to clients. */
  log?: (line: Record<string, unknown>) => void;
  /** Where access-log lines go (default: buffered stdout). */
  writeLine?: (line: string) => void;
}

export function createApp(deps: AppDeps) {
  const now = deps.now ?? Date.now;
  const metrics = createMetrics();
  // A counter write that fails is skipped (fail open), logged and counted: storage never takes the API down.
  const rateLimiter = createRateLimiter(deps.db, deps.config.rateLimitPerMinute, storageErrorReporter("rate_counters", metrics, deps.log));
  const source = instrumentSource(deps.source, metrics);
  const cache = createUpstreamCache(deps.db, { ttlSeconds: deps.config.cacheTtlSeconds, now });
  const data = { cache, source, cacheTtlSeconds: deps.config.cacheTtlSeconds, now };
  const accessLog = createAccessLog(deps.config.logLevel, deps.writeLine ?? bufferedStdout());
  let routeOf: (pathname: string) => string | undefined = () => undefined;
  const app = new Elysia({
    name: "loam",
    // Bun closes a connection idle this long (seconds), so no client holds one open forever; it
    // outlasts UPSTREAM_TIMEOUT_MS so a slow upstream ends in a 504, not a dropped connection.
    serve: { idleTimeout: idleTimeoutFor(deps.config.upstreamTimeoutMs) },
  })
    .use(
      httpBoundary({
        rateLimiter,
        trustProxy: deps.config.trustProxy,
        accessLog,
        metrics,
        now,
        routeOf: (pathname) => routeOf(pathname),
        onUnexpected: (error, requestId) => deps.log?.({ level: "error", request_id: requestId, error: error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error) }),
      }),
    )
    .use(compression)
    .use(metricsRoute(metrics, deps.source))
    .use(openApiDocument(MODELS))
    .use(bodyEntityTags)
    .use(meta)
    .use(catalog)
    .use(location(data))
    .use(pedons(data))
    .use(pages());
  routeOf = routeMatcher(app.routes.map((route) => route.path));
  return app;
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
