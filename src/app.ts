/**
 * Loam as one Elysia app (docs/architecture.md): route (validate) → service → provider → cache →
 * transport → decode → normalize → DataAnswer → response pipeline.
 */
import { Elysia } from "elysia";
import type { Config } from "./config";
import type { LoamDatabase } from "../db/client";
import { createRateLimiter } from "./http/rate-limit";
import { httpBoundary } from "./http/boundary";
import { openApiDocument } from "./http/openapi";
import { createResponsePipeline } from "./http/response";
import { createMetrics, instrumentTransport, metricsRoute } from "./http/metrics";
import { bufferedStdout, createAccessLog } from "./http/access-log";
import { createUpstreamCache } from "./upstream/cache";
import { connectProviders } from "./providers/connect";
import type { Provider, SharedUpstreams } from "./providers/provider";
import { createRegistry, DEFAULT_PROVIDERS } from "./providers/registry";
import { MODELS } from "./models";
import { meta } from "./meta";
import { catalog } from "./catalog";
import { pages } from "./pages";
import { location } from "./location";
import { pedons } from "./pedons";
import { series } from "./series";
import { summaries } from "./summaries";
import { mapUnits } from "./mapunits";

export const IDLE_TIMEOUT_SECONDS = 30;

export interface AppDeps {
  config: Config;
  db: LoamDatabase;
  /** The transports opened for the configured upstream; each provider picks the one it reads. */
  upstreams: SharedUpstreams;
  /** The providers served (default: DEFAULT_PROVIDERS). */
  providers?: readonly Provider[];
  now?: () => number;
  /** Internal failures (with stacks) for operators; never sent to clients. */
  log?: (line: Record<string, unknown>) => void;
  /** Where access-log lines go (default: buffered stdout). */
  writeLine?: (line: string) => void;
}

export function createApp(deps: AppDeps) {
  const now = deps.now ?? Date.now;
  const rateLimiter = createRateLimiter(deps.db, deps.config.rateLimitPerMinute);
  const metrics = createMetrics();
  const registry = createRegistry(deps.providers ?? DEFAULT_PROVIDERS);
  const cache = createUpstreamCache(deps.db, { ttlSeconds: deps.config.cacheTtlSeconds, now });
  const connected = connectProviders(registry.operational, {
    config: deps.config,
    upstreams: deps.upstreams,
    cache,
    instrument: (transport) => instrumentTransport(transport, metrics),
  });
  const responses = createResponsePipeline({ now });
  const data = { registry, connected, cacheTtlSeconds: deps.config.cacheTtlSeconds, now, send: responses.send };
  const upstream = deps.upstreams.sda ?? deps.upstreams.snapshot;
  const accessLog = createAccessLog(deps.config.logLevel, deps.writeLine ?? bufferedStdout());
  let routeOf: (pathname: string) => string | undefined = () => undefined;
  const app = new Elysia({
    name: "loam",
    // Bun closes a connection idle this long (seconds), so no client holds one open forever; the
    // server side of every request is bounded by UPSTREAM_TIMEOUT_MS (the snapshot answers at once).
    serve: { idleTimeout: IDLE_TIMEOUT_SECONDS },
  })
    .use(
      httpBoundary({
        rateLimiter,
        trustProxy: deps.config.trustProxy,
        accessLog,
        metrics,
        now,
        routeOf: (pathname) => routeOf(pathname),
        onUnexpected: (error, requestId) => deps.log?.({ level: "error", request_id: requestId, error: error instanceof Error ? error.stack : String(error) }),
      }),
    )
    .use(responses.plugin)
    .use(metricsRoute(metrics, () => upstream?.describe() ?? { kind: deps.config.upstream, location: "none" }))
    .use(openApiDocument(MODELS))
    .use(meta(registry))
    .use(catalog(registry))
    .use(location(data))
    .use(pedons(data))
    .use(series(data))
    .use(summaries(data))
    .use(mapUnits(data))
    .use(pages(responses.sendFile));
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
