/**
 * GET /v1/pedons/layers (docs/decisions.md#bulk-tables): the layers of every pedon on one page of a
 * box, one row per layer and property, as soilDB's fetchLDM gives them. Each pedon's rows are exactly
 * what GET /v1/pedons/{pedon_key} answers for the same properties and depths (the same provider
 * detail, flattened): censoring (value null, reported_value, qualifier, limit) and layer_type are kept.
 * One upstream query per pedon, at most MAX_LAYER_TABLE_LIMIT per page.
 */
import type { Static } from "elysia";
import { cacheMetadata, sourceWarnings, type CacheDescriptor, type DataAnswer, type DataDeps } from "../answer";
import { combinedCache, csvCap, csvTooLarge } from "../answer/whole-table";
import { clip, UpstreamError, ValidationError } from "../errors";
import type { SourceDescription } from "../upstream/transport";
import { MAX_PEDON_LIMIT } from "./model";
import type { CachedAnswer } from "../upstream/cache";
import type { PedonProvider } from "../providers/provider";
import { VERSION } from "../version";
import type { Bbox } from "../domain/bbox";
import { boxPages } from "../shapes/sites/service";
import type { PedonKey } from "../domain/pedon-key";
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

/** Pedons of one CSV answer at most: each is one upstream query (docs/decisions.md#csv-whole). */
const MAX_CSV_PEDONS = 2_000;

/** What the rows are together: observed, derived, or both. */
function kindOf(rows: readonly { data_kind: "observed" | "derived" }[]): "observed" | "derived" | "mixed" {
  const derived = rows.filter((r) => r.data_kind === "derived").length;
  return derived === 0 ? "observed" : derived === rows.length ? "derived" : "mixed";
}

/** One row per layer and property of each pedon's detail; a warning said of several pedons listed once, with their keys. */
function rowsOf(
  provider: PedonProvider,
  query: EffectiveLayerTableQuery,
  details: readonly CachedAnswer<unknown>[],
  keys: readonly string[],
  source: SourceDescription,
  cache: CacheDescriptor,
  page: { truncated: boolean; after: string | null },
): { rows: Static<typeof LayerTableRow>[]; warnings: string[] } {
  const rows: Static<typeof LayerTableRow>[] = [];
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
          original_column: o.original_column,
          data_kind: o.data_kind,
          transformations: o.transformations,
        });
      }
    }
  });
  const warnings = [...said].map(([warning, pedons]) => (pedons.length === keys.length && keys.length > 1 ? warning : `${warning} (pedon${pedons.length === 1 ? "" : "s"} ${pedons.join(", ")})`));
  if (page.truncated) warnings.push(`More pedons lie in the bbox after this page of ${query.limit}: follow 'next' (or the Link header) for the rest.`);
  if (keys.length === 0) warnings.push(`No laboratory pedon with site coordinates lies in the bbox${page.after === null ? "" : " after the cursor"}.${provider.pedons.coverageNote(source)}`);
  warnings.push(...sourceWarnings(source, cache));
  return { rows, warnings };
}

/** A listed pedon's key as its detail query takes it; a key the provider's own list gives that its syntax refuses is the upstream's fault. */
function pedonKeyOf(provider: PedonProvider, key: string): PedonKey {
  const parsed = provider.pedons.key.parse(key);
  if (parsed === null) throw new UpstreamError(`${provider.id} listed a pedon whose key '${clip(key)}' is not ${provider.pedons.key.syntax}.`, provider.id);
  return parsed;
}

export async function layerTable(
  deps: DataDeps,
  provider: PedonProvider,
  query: EffectiveLayerTableQuery,
  paging: { after: string | null; nextHref: (after: string) => string },
  whole = false,
): Promise<{ answer: DataAnswer<Static<typeof LayerTable>>; next: string | null }> {
  // A CSV answer (whole): every page of pedons from the cursor on, at most MAX_CSV_PEDONS (docs/decisions.md#csv-whole).
  const read = await boxPages(
    deps,
    provider,
    provider.pedons,
    (after, limit) => ({ bbox: query.bbox, limit, after }),
    whole
      ? {
          after: paging.after,
          limit: MAX_PEDON_LIMIT,
          whole,
          cap: MAX_CSV_PEDONS,
          refuse: () =>
            new ValidationError(
              `format=csv answers every pedon of the box in one file, at most ${MAX_CSV_PEDONS.toLocaleString("en-US")} pedons (each is one upstream query); this box holds more. Narrow the bbox, or page the JSON answer with its cursor.`,
              provider.id,
            ),
        }
      : { after: paging.after, limit: query.limit, whole },
  );
  const listed = { features: read.sites, truncated: read.truncated };
  const nextAfter = read.nextAfter;
  const keys = listed.features.map((f) => f.properties.pedon_key);
  const details: CachedAnswer<unknown>[] = [];
  for (let i = 0; i < keys.length; i += CONCURRENCY) {
    // The key as the bbox answer names it (SDA's integer pedon_key, or the snapshot's pedlabsampnum), read by the provider's key syntax.
    const batch = keys.slice(i, i + CONCURRENCY).map((key) => deps.connected.ask(provider, provider.pedons.one.query, provider.pedons.one.params(pedonKeyOf(provider, key))));
    details.push(...(await Promise.all(batch)));
  }
  const cache = combinedCache([...read.pages.map((p) => p.cached), ...details], deps.cacheTtlSeconds);
  const source = deps.connected.sourceOf(provider);
  const next = nextAfter === null ? null : paging.nextHref(nextAfter);
  let kept: { rows: Static<typeof LayerTableRow>[]; warnings: string[] } | null = null;
  /** The rows and warnings, made once (a CSV counts them before it is sent). */
  const made = () => (kept ??= rowsOf(provider, query, details, keys, source, cache, { truncated: listed.truncated, after: paging.after }));
  if (whole && made().rows.length > csvCap(deps)) throw csvTooLarge(csvCap(deps), "rows (layers times properties)", "a smaller bbox, fewer properties or a shallower depth interval", provider.id);
  const answer: DataAnswer<Static<typeof LayerTable>> = {
    key: `pedon-layers|${JSON.stringify(query)}|${paging.after ?? ""}${whole ? "|whole" : ""}`,
    cache,
    body: () => {
      const { rows, warnings } = made();
      return {
        api_version: VERSION,
        status: "experimental" as const,
        provider: query.provider,
        data_kind: kindOf(rows),
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

