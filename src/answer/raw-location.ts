/**
 * The spec's raw route (GET /v1/providers/{provider_id}/raw/location) belongs to the point query's
 * feature, but a provider of another shape may answer it too (docs/architecture.md#shapes): that
 * shape's feature hands the route a delegate for its role, and the route asks it for the answer. The
 * route keeps the spec's validation; neither feature imports the other, and no provider is named.
 */
import { cacheMetadata, type CacheDescriptor, type DataAnswer } from "./index";
import { retrievedAt } from "../domain/retrieved-at";
import type { SourceDescription } from "../upstream/transport";
import type { OperationalProvider, ProviderRole } from "../providers/provider";

/** The effective raw query (the spec's LocationQuery: defaults applied, ids resolved). */
export interface RawLocationQuery {
  latitude: number;
  longitude: number;
  providers: string[];
  properties: string[];
  depth_top_cm: number;
  depth_bottom_cm: number;
}

export interface RawLocationDelegate {
  /** The role whose providers it answers for. */
  role: Exclude<ProviderRole, "planned">;
  /** What the role serves in the raw wrapper, for the route's description of a refusal. */
  answer(provider: OperationalProvider, query: RawLocationQuery): Promise<DataAnswer<unknown>>;
}

/**
 * The spec's raw wrapper around a provider's own answer, the same for every shape that serves the raw
 * route: provider, status, the effective query, when the source read it, cache metadata, the upstream
 * JSON unmodified, and the shape's warnings (made only when the body is).
 */
export function rawAnswer<Q>(
  parts: { key: string; providerId: string; query: Q; source: SourceDescription; storedAt: number; cache: CacheDescriptor; upstream: () => Record<string, unknown>; warnings: () => string[] },
  now: () => number,
): DataAnswer<{ provider: string; status: "experimental"; query: Q; retrieved_at: string; cache: ReturnType<typeof cacheMetadata>; upstream_response: Record<string, unknown>; warnings: string[] }> {
  return {
    key: parts.key,
    cache: parts.cache,
    body: () => ({
      provider: parts.providerId,
      status: "experimental" as const,
      query: parts.query,
      retrieved_at: retrievedAt(parts.source, parts.storedAt),
      cache: cacheMetadata(parts.cache, now()),
      upstream_response: parts.upstream(),
      warnings: parts.warnings(),
    }),
  };
}
