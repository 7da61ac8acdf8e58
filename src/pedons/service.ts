/**
 * Laboratory pedons: effective query → the provider's answer (cache → transport) → features or
 * layers, with warnings. Works with any lab_pedons provider; knows nothing of HTTP (it returns
 * DataAnswers, which the response pipeline sends).
 */
import type { Static } from "elysia";
import { NotFoundError } from "../errors";
import { cacheMetadata, describeCache, rawWarnings, sourceWarnings, type CacheDescriptor, type DataAnswer, type DataDeps } from "../answer";
import type { CachedAnswer } from "../upstream/cache";
import type { PedonFeature } from "../domain/lab";
import type { PedonKey } from "../domain/pedon-key";
import type { PedonProvider } from "../providers/provider";
import { VERSION } from "../version";
import { retrievedAt } from "../domain/retrieved-at";
import { listClassificationWarning, seriesClassificationWarning, seriesLinker } from "../answer/series-links";
import type { Bbox } from "../domain/bbox";
import { boxPage, boxPages, oneSite } from "../shapes/sites/service";
import { MAX_PEDON_LIMIT, type PedonCollection, type PedonQuery, type PedonResponse, type RawPedonResponse } from "./model";

export interface EffectiveCollectionQuery {
  bbox: Bbox;
  provider: string;
  limit: number;
}

export type EffectivePedonQuery = Static<typeof PedonQuery>;

// The scientific boundaries every pedon list states.
const POINT_WARNING = "A pedon is a point. It is not representative of its search box, field, soil series or map unit without further evidence.";
const COORDINATE_WARNING =
  "Pedon coordinates are provider records whose accuracy varies, especially for older pedons (some were located from maps or recorded to the nearest minute); horizontal accuracy is unknown.";
const NO_COORDINATES_NOTE = "Pedons without site coordinates cannot be placed in a box and are never listed; GET /v1/pedons/{pedon_key} still answers for them.";

/** One page of pedons in a box, after a cursor's key (docs/decisions.md#cursors): the features in key order and where the next page starts. */
export async function pedonPage(deps: DataDeps, provider: PedonProvider, page: { bbox: Bbox; limit: number; after: string | null }) {
  const { cached, sites, truncated, nextAfter } = await boxPage(deps, provider, provider.pedons, { bbox: page.bbox, limit: page.limit, after: page.after });
  return { cached, listed: { features: sites, truncated }, nextAfter };
}

/**
 * GET /v1/pedons: the spec's body; `nextAfter` is where the Link header's next page starts. `whole`
 * (a CSV answer): every page from `after` on, in one body, up to the CSV cap (docs/decisions.md#csv-whole).
 */
export async function pedonsInBbox(
  deps: DataDeps,
  provider: PedonProvider,
  query: EffectiveCollectionQuery,
  after: string | null = null,
  whole = false,
): Promise<{ answer: DataAnswer<Static<typeof PedonCollection>>; nextAfter: string | null }> {
  const read = await boxPages(
    deps,
    provider,
    provider.pedons,
    (position, limit) => ({ bbox: query.bbox, limit, after: position }),
    whole ? { after, limit: MAX_PEDON_LIMIT, whole, rows: "rows (pedons)" } : { after, limit: query.limit, whole },
  );
  const { pages, nextAfter, cache } = read;
  const greatGroups = new Map(pages.flatMap((p) => [...(provider.pedons.greatGroups?.(p.cached.answer) ?? [])]));
  const answer = await pedonList(deps, provider, query, { features: read.sites, truncated: read.truncated }, greatGroups, cache, after, whole);
  return { answer, nextAfter };
}

/**
 * GET /v1/pedons's body for pedons already read: a box's pages, or the list read out of a wider answer
 * that holds it (the nearest pedons with their layers: docs/decisions.md#evidence).
 */
export async function pedonList(
  deps: DataDeps,
  provider: PedonProvider,
  query: EffectiveCollectionQuery,
  listed: { features: Static<typeof PedonFeature>[]; truncated: boolean },
  greatGroups: ReadonlyMap<string, string | null>,
  cache: CacheDescriptor,
  after: string | null = null,
  whole = false,
): Promise<DataAnswer<Static<typeof PedonCollection>>> {
  const source = deps.connected.sourceOf(provider);
  const link = await seriesLinker(deps);
  // A pedon links the series it was sampled as, when that series has a description: linked once, for the check and the body.
  const series = listed.features.map((f) => (f.properties.name ? link(f.properties.name) : null));
  const classification = await listClassificationWarning(
    deps,
    listed.features.map((f, i) => ({ key: f.properties.pedon_key, link: series[i] ?? null, greatGroup: greatGroups.get(f.properties.pedon_key) ?? null })),
  );
  return {
    key: `pedons|${JSON.stringify(query)}|${after ?? ""}${whole ? "|whole" : ""}`,
    cache,
    body: () => {
      const { truncated } = listed;
      const features = listed.features.map((f, i) => ({ ...f, properties: { ...f.properties, series: series[i] ?? null } }));
      const warnings = [POINT_WARNING, COORDINATE_WARNING, NO_COORDINATES_NOTE, ...(classification ? [classification] : [])];
      if (truncated) {
        const raise = query.limit < MAX_PEDON_LIMIT ? ` or raise limit (at most ${MAX_PEDON_LIMIT})` : "";
        warnings.push(
          `Truncated: more than ${query.limit} pedons lie in the bbox${after === null ? "" : " after the cursor"}, and only the next ${query.limit} by pedon key are listed, so this list is not complete. Narrow the bbox${raise}, or follow the Link header (rel="next") to the next page.`,
        );
      }
      if (features.length === 0) warnings.push(`No laboratory pedon with site coordinates lies in the bbox.${provider.pedons.coverageNote(source)}`);
      warnings.push(...sourceWarnings(source, cache));
      return {
        type: "FeatureCollection" as const,
        provider: query.provider,
        query: { bbox: [...query.bbox], provider: query.provider, limit: query.limit },
        cache: cacheMetadata(cache, deps.now()),
        truncated,
        warnings,
        features,
      };
    },
  };
}

/** The provider's answer for one pedon; 404 when it holds no such pedon. */
async function pedonAnswer(deps: DataDeps, provider: PedonProvider, key: PedonKey) {
  const cached = await oneSite(deps, provider, provider.pedons, key);
  const source = deps.connected.sourceOf(provider);
  if (cached === null) throw new NotFoundError(provider.pedons.notFoundMessage(key, source), provider.id);
  return { cached, source, cache: describeCache(cached, deps.cacheTtlSeconds) };
}

/**
 * GET /v1/pedons/{pedon_key}. `wholePedon` (depth_bottom_cm absent): the interval reaches the pedon's
 * deepest layer, and the echo says how deep that is (docs/decisions.md#pedon-depth).
 */
export async function pedonDetail(deps: DataDeps, provider: PedonProvider, key: PedonKey, asked: EffectivePedonQuery, wholePedon = false): Promise<DataAnswer<Static<typeof PedonResponse>>> {
  const { cached } = await pedonAnswer(deps, provider, key);
  return pedonDetailFrom(deps, provider, cached, asked, wholePedon);
}

/** GET /v1/pedons/{pedon_key}'s body from the pedon's answer in hand: its own query's, or read out of a wider answer (docs/decisions.md#evidence). */
export async function pedonDetailFrom(
  deps: DataDeps,
  provider: PedonProvider,
  cached: CachedAnswer<unknown>,
  asked: EffectivePedonQuery,
  wholePedon = false,
): Promise<DataAnswer<Static<typeof PedonResponse>>> {
  const source = deps.connected.sourceOf(provider);
  const cache = describeCache(cached, deps.cacheTtlSeconds);
  const link = await seriesLinker(deps);
  const sampled = provider.pedons.sampledAs(cached.answer);
  const series = sampled.name ? link(sampled.name) : null;
  const classification = await seriesClassificationWarning(deps, series, sampled.greatGroup);
  return {
    key: `pedon|${provider.id}|${JSON.stringify(asked)}|${wholePedon}`,
    cache,
    body: () => {
      const detail = provider.pedons.detail(cached.answer, {
        properties: asked.properties,
        depthTop: asked.depth_top_cm,
        depthBottom: wholePedon ? Number.POSITIVE_INFINITY : asked.depth_bottom_cm,
        source,
        storedAt: cached.storedAt,
      });
      const query = wholePedon && detail.deepestBottomCm !== null && detail.deepestBottomCm > asked.depth_bottom_cm ? { ...asked, depth_bottom_cm: detail.deepestBottomCm } : asked;
      return {
        api_version: VERSION,
        status: "experimental" as const,
        provider: provider.id,
        pedon_key: detail.pedonKey,
        data_kind: "observed" as const,
        name: detail.name,
        series,
        query,
        location: detail.location,
        citation: detail.citation,
        source_url: detail.sourceUrl,
        retrieved_at: detail.retrievedAt,
        cache: cacheMetadata(cache, deps.now()),
        layers: detail.layers,
        warnings: [...detail.warnings, ...(classification ? [classification] : []), ...sourceWarnings(source, cache), ...detail.afterSourceWarnings],
      };
    },
  };
}

export async function rawPedon(deps: DataDeps, provider: PedonProvider, key: PedonKey): Promise<DataAnswer<Static<typeof RawPedonResponse>>> {
  const { cached, source, cache } = await pedonAnswer(deps, provider, key);
  return {
    key: `raw-pedon|${provider.id}|${String(key.value)}`,
    cache,
    body: () => ({
      provider: provider.id,
      status: "experimental" as const,
      query: { pedon_key: String(key.value) },
      retrieved_at: retrievedAt(source, cached.storedAt),
      cache: cacheMetadata(cache, deps.now()),
      upstream_response: provider.pedons.one.query.raw(cached.answer),
      warnings: rawWarnings(source, cache, [
        "Raw upstream payload: not normalized, censored results not interpreted, no units or provenance attached, and its layout is not promised to stay stable. Use /v1/pedons/{pedon_key} for normalized values.",
        ...provider.pedons.rawNotes,
      ]),
    }),
  };
}
