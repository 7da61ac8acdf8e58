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
import { location } from "./location";

export interface AppDeps {
  config: Config;
  db: LoamDatabase;
  source: UpstreamSource;
  now?: () => number;
  log?: (line: Record<string, unknown>) => void;
}

export function createApp(deps: AppDeps) {
  const now = deps.now ?? Date.now;
  const rateLimiter = createRateLimiter(deps.db, deps.config.rateLimitPerMinute);
  const cache = createUpstreamCache(deps.db, { ttlSeconds: deps.config.cacheTtlSeconds, now });
  const data = { cache, source: deps.source, cacheTtlSeconds: deps.config.cacheTtlSeconds, now };
  return new Elysia({ name: "loam" })
    .use(
      httpBoundary({
        rateLimiter,
        trustProxy: deps.config.trustProxy,
        now,
        onUnexpected: (error, requestId) => deps.log?.({ level: "error", request_id: requestId, error: error instanceof Error ? error.stack : String(error) }),
      }),
    )
    .use(openApiDocument(MODELS))
    .use(bodyEntityTags)
    .use(meta)
    .use(catalog)
    .use(location(data))
    .use(pages());
}
export type LoamApp = ReturnType<typeof createApp>;
