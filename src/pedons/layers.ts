/**
 * GET /v1/pedons/layers (docs/decisions.md#bulk-tables): the layers of every pedon on one page of a
 * box, one row per layer and property, as soilDB's fetchLDM gives them. Each pedon's rows are exactly
 * what GET /v1/pedons/{pedon_key} answers for the same properties and depths (the same provider
 * detail, flattened): censoring (value null, reported_value, qualifier, limit) and layer_type are kept.
 * One upstream query per pedon, at most MAX_LAYER_TABLE_LIMIT per page.
 */
import type { Static } from "elysia";
import { cacheMetadata, sourceWarnings, type CacheDescriptor, type DataAnswer, type DataDeps } from "../answer";
import type { CachedAnswer } from "../upstream/cache";
import type { PedonProvider } from "../providers/provider";
import { VERSION } from "../version";
import type { Bbox } from "../domain/bbox";
import { pedonPage } from "./service";
import type { LayerTable, LayerTableRow } from "./layers-model";

export interface EffectiveLayerTableQuery {
  bbox: Bbox;
  provider: string;
  properties: string[];
  limit: number;
  depth_top_cm: number;
  depth_bottom_cm: number;
  /** depth_bottom_cm absent: every layer, as the pedon detail answers then (docs/decisions.md#pedon-depth). */
  whole_pedon: boolean;
}

/** Pedon details loaded at once (SDA requests in flight for one page). */
const CONCURRENCY = 6;

/** Several stored answers behind one body: fresh only if all are, as old as the oldest, named by all digests. */
function combined(parts: readonly CachedAnswer<unknown>[], ttlSeconds: number): CacheDescriptor {
  const oldest = parts.reduce((a, b) => (b.storedAt < a.storedAt ? b : a));
  const stale = parts.find((p) => p.stale);
  return {
    source: parts[0]!.source,
    digest: Bun.hash(parts.map((p) => p.digest).join("+")).toString(36),
    hit: parts.every((p) => p.hit),
    storedAt: oldest.storedAt,
    stale: stale !== undefined,
    staleBecause: stale?.staleBecause,
    ttlSeconds: Math.min(...parts.map((p) => p.ttlSeconds ?? ttlSeconds)),
    upstreamMs: parts.reduce((sum, p) => sum + p.upstreamMs, 0),
  };
}

export async function layerTable(
  deps: DataDeps,
  provider: PedonProvider,
  query: EffectiveLayerTableQuery,
  paging: { after: string | null; nextHref: (after: string) => string },
): Promise<{ answer: DataAnswer<Static<typeof LayerTable>>; next: string | null }> {
  const { cached: page, listed, nextAfter } = await pedonPage(deps, provider, { bbox: query.bbox, limit: query.limit, after: paging.after });
  const keys = listed.features.map((f) => f.properties.pedon_key);
  const details: CachedAnswer<unknown>[] = [];
  for (let i = 0; i < keys.length; i += CONCURRENCY) {
    // The key as the bbox answer names it: SDA's integer pedon_key, or the snapshot's pedlabsampnum.
    const batch = keys.slice(i, i + CONCURRENCY).map((key) =>
      deps.connected.ask(provider, provider.pedons.pedon, { pedonKey: /^\d+$/.test(key) ? { form: "pedon_key", value: Number(key) } : { form: "pedlabsampnum", value: key } }),
    );
    details.push(...(await Promise.all(batch)));
  }
  const cache = combined([page, ...details], deps.cacheTtlSeconds);
  const source = deps.connected.sourceOf(provider);
  const next = nextAfter === null ? null : paging.nextHref(nextAfter);
  const answer: DataAnswer<Static<typeof LayerTable>> = {
    key: `pedon-layers|${JSON.stringify(query)}|${paging.after ?? ""}`,
    cache,
    body: () => {
      const rows: Static<typeof LayerTableRow>[] = [];
      // A warning said of several pedons is listed once, with their keys.
      const said = new Map<string, string[]>();
      details.forEach((detailAnswer, i) => {
        const detail = provider.pedons.detail(detailAnswer.answer, {
          properties: query.properties,
          depthTop: query.depth_top_cm,
          depthBottom: query.whole_pedon ? Number.POSITIVE_INFINITY : query.depth_bottom_cm,
          source,
          storedAt: detailAnswer.storedAt,
        });
        for (const warning of detail.warnings) said.set(warning, [...(said.get(warning) ?? []), keys[i]!]);
        for (const layer of detail.layers) {
          for (const o of layer.observations) {
            rows.push({
              layer_key: layer.layer_key,
              pedon_key: detail.pedonKey,
              depth_top_cm: layer.depth.top_cm,
              depth_bottom_cm: layer.depth.bottom_cm,
              horizon_designation: layer.horizon_designation,
              layer_type: layer.layer_type,
              property: o.property.id,
              value: o.value,
              reported_value: o.reported_value,
              value_qualifier: o.value_qualifier,
              reporting_limit: o.reporting_limit,
              unit: o.unit,
              method_code: o.method_code,
              measurement_method: o.measurement_method,
            });
          }
        }
      });
      const warnings = [...said].map(([warning, pedons]) => (pedons.length === keys.length && keys.length > 1 ? warning : `${warning} (pedon${pedons.length === 1 ? "" : "s"} ${pedons.join(", ")})`));
      if (listed.truncated) warnings.push(`More pedons lie in the bbox after this page of ${query.limit}: follow 'next' (or the Link header) for the rest.`);
      if (keys.length === 0) warnings.push(`No laboratory pedon with site coordinates lies in the bbox${paging.after === null ? "" : " after the cursor"}.${provider.pedons.coverageNote(source)}`);
      warnings.push(...sourceWarnings(source, cache));
      return {
        api_version: VERSION,
        status: "experimental" as const,
        provider: query.provider,
        data_kind: "observed" as const,
        query: { bbox: [...query.bbox], provider: query.provider, properties: [...query.properties], limit: query.limit, depth_top_cm: query.depth_top_cm, depth_bottom_cm: query.depth_bottom_cm },
        cache: cacheMetadata(cache, deps.now()),
        truncated: listed.truncated,
        next,
        pedon_count: keys.length,
        rows,
        warnings,
      };
    },
  };
  return { answer, next };
}

