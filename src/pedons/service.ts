/**
 * Laboratory pedons: effective query → KSSL answer (cache → source) → features or layers, with
 * warnings. Knows nothing of HTTP; the route turns the result into headers and a body.
 */
import type { Static } from "elysia";
import type { CachedAnswer, UpstreamCache } from "../upstream/cache";
import type { UpstreamSource } from "../upstream/source";
import type { PedonKey } from "../upstream/queries";
import { entityTag } from "../http/conditional";
import { NotFoundError } from "../errors";
import { KSSL_PROPERTIES, KSSL_PROVIDER, KSSL_SOURCE_URL, ksslBbox, ksslPedon } from "../providers/kssl";
import { cacheMetadata, freshness, maxAge, rawWarnings, sourceWarnings, type Prepared } from "../shared/answer";
import { VERSION } from "../version";
import type { Bbox } from "./bbox";
import { MAX_PEDON_LIMIT, type PedonCollection, type PedonQuery, type PedonResponse, type RawPedonResponse } from "./model";
import { normalizeCollection, normalizePedon, type NormalizedPedon, type PedonSummary } from "./normalize";

export interface PedonDeps {
  cache: UpstreamCache;
  source: UpstreamSource;
  cacheTtlSeconds: number;
  now: () => number;
}

export interface EffectiveCollectionQuery {
  bbox: Bbox;
  provider: string;
  limit: number;
}

export type EffectivePedonQuery = Static<typeof PedonQuery>;

// Spec §1.8: the scientific boundaries every pedon answer states.
const POINT_WARNING = "A pedon is a point. It is not representative of its search box, field, soil series or map unit without further evidence.";
const COORDINATE_WARNING =
  "Pedon coordinates are provider records whose accuracy varies, especially for older pedons (some were located from maps or recorded to the nearest minute); horizontal accuracy is unknown.";
const NO_COORDINATES_NOTE = "Pedons without site coordinates cannot be placed in a box and are never listed; GET /v1/pedons/{pedon_key} still answers for them.";
const ABSENT_NOTE = "Only selected analyses were run on many layers: a property missing from a layer was not reported for it, which is not a zero.";


/** Snapshot coverage, for answers that found nothing. */
function coverageNote(source: UpstreamSource): string {
  if (source.kind !== "snapshot") return "";
  const coverage = source.describe().coverage?.filter((c) => c.startsWith("KSSL")) ?? [];
  return ` The offline snapshot holds only ${coverage.join("; ") || "no laboratory pedons"}.`;
}

export async function pedonsInBbox(deps: PedonDeps, query: EffectiveCollectionQuery): Promise<Prepared<Static<typeof PedonCollection>>> {
  const cached = await ksslBbox(deps.cache, deps.source, query.bbox, query.limit);
  return {
    cached,
    etag: entityTag("pedons", JSON.stringify(query), cached.storedAt, freshness(cached)),
    maxAgeSeconds: maxAge(deps, cached),
    body: () => {
      const { features, truncated } = normalizeCollection(cached.answer.table, query.limit);
      const warnings = [POINT_WARNING, COORDINATE_WARNING, NO_COORDINATES_NOTE];
      if (truncated) {
        const raise = query.limit < MAX_PEDON_LIMIT ? ` or raise limit (at most ${MAX_PEDON_LIMIT})` : "";
        warnings.push(
          `Truncated: more than ${query.limit} pedons lie in the bbox, and only the first ${query.limit} by pedon key are listed, so this list is not complete. Narrow the bbox${raise}; there are no further pages.`,
        );
      }
      if (features.length === 0) warnings.push(`No laboratory pedon with site coordinates lies in the bbox.${coverageNote(deps.source)}`);
      warnings.push(...sourceWarnings(deps.source, cached));
      return {
        type: "FeatureCollection" as const,
        provider: query.provider,
        query: { bbox: [...query.bbox], provider: query.provider, limit: query.limit },
        cache: cacheMetadata(cached, deps.now()),
        truncated,
        warnings,
        features,
      };
    },
  };
}

function notFound(source: UpstreamSource, key: PedonKey): NotFoundError {
  const snapshotKeys =
    source.kind === "snapshot" && key.form === "pedon_key" ? " Offline snapshot pedons are keyed by their pedlabsampnum (e.g. 02N0245), not by SDA's integer pedon_key." : "";
  return new NotFoundError(`No ${KSSL_PROVIDER} pedon has the key '${key.value}'.${coverageNote(source)}${snapshotKeys}`, KSSL_PROVIDER);
}

/** When the values were retrieved: the upstream call for SDA; for the snapshot, when it was built (the KSSL export states no date). */
function retrievedAt(source: UpstreamSource, cached: CachedAnswer): string {
  const stored = new Date(cached.storedAt).toISOString();
  if (source.kind !== "snapshot") return stored;
  const built = source.describe().builtAt;
  const date = built ? new Date(built) : null;
  return date && Number.isFinite(date.getTime()) ? date.toISOString() : stored;
}

function citation(pedon: PedonSummary, retrieved: string, snapshot: boolean): string {
  const id = pedon.pedlabsampnum ?? pedon.pedonKey;
  const user = pedon.upedonid ? ` (${pedon.upedonid})` : "";
  const name = pedon.name ? `, sampled as ${pedon.name}` : "";
  const copy = snapshot ? " (offline snapshot of a Lab Data Mart-named export)" : "";
  return `National Cooperative Soil Survey, Kellogg Soil Survey Laboratory. Pedon ${id}${user}${name}. NCSS Soil Characterization Database / Lab Data Mart, ${KSSL_SOURCE_URL}. Retrieved ${retrieved.slice(0, 10)}${copy}. Soil Survey Staff, Natural Resources Conservation Service, United States Department of Agriculture.`;
}

function pedonWarnings(normalized: NormalizedPedon, query: EffectivePedonQuery): string[] {
  const { pedon, layers } = normalized;
  const warnings = [POINT_WARNING];
  warnings.push(pedon.latitude === null ? `Pedon ${pedon.pedonKey} has no site coordinates in the provider's record: location is null.` : COORDINATE_WARNING);
  warnings.push(ABSENT_NOTE);
  for (const id of normalized.unsupported) {
    warnings.push(`${KSSL_PROVIDER} does not report '${id}'; it serves ${Object.keys(KSSL_PROPERTIES).join(", ")}.`);
  }
  if (normalized.usedEstimatedOrganicCarbon) {
    warnings.push(
      "Where no Walkley-Black organic carbon was reported, organic carbon (and organic matter derived from it) comes from KSSL's estimated organic carbon (total carbon minus carbonate carbon): data_kind derived, method stated on each observation.",
    );
  }
  if (query.properties.includes("organic_matter")) {
    warnings.push("organic_matter is not measured by KSSL: it is derived from organic carbon x 1.724; see each observation's transformations and warnings.");
  }
  if (normalized.censoredCount > 0) {
    warnings.push(
      `${normalized.censoredCount} result(s) are censored: value is null, and reported_value, value_qualifier and reporting_limit keep what was reported. A reporting limit is never a value.`,
    );
  }
  if (layers.some((layer) => layer.observations.some((o) => o.method_code === null))) {
    warnings.push("Some results carry no KSSL method code (method_code null); measurement_method then names the column's standard method. Compare results only of the same method.");
  }
  if (normalized.layersWithoutDepth.length > 0) {
    warnings.push(
      `Layer(s) ${normalized.layersWithoutDepth.join(", ")} have no reported depth and cannot be placed in the depth interval, so they are left out; the raw endpoint shows them.`,
    );
  }
  if (normalized.zeroThicknessLayers.length > 0) {
    warnings.push(`Layer(s) ${normalized.zeroThicknessLayers.join(", ")} are recorded with zero thickness (hzn_top = hzn_bot); such a layer is kept, as recorded, when that depth lies in the interval.`);
  }
  if (normalized.layerCount === 0) warnings.push(`Pedon ${pedon.pedonKey} has no laboratory layers.`);
  else if (layers.length === 0) warnings.push(`No layer of pedon ${pedon.pedonKey} overlaps ${query.depth_top_cm}–${query.depth_bottom_cm} cm.`);
  return warnings;
}

export async function pedonDetail(deps: PedonDeps, key: PedonKey, query: EffectivePedonQuery): Promise<Prepared<Static<typeof PedonResponse>>> {
  const cached = await ksslPedon(deps.cache, deps.source, key);
  if (cached.answer.table.rows.length === 0) throw notFound(deps.source, key);
  return {
    cached,
    etag: entityTag("pedon", JSON.stringify(query), cached.storedAt, freshness(cached)),
    maxAgeSeconds: maxAge(deps, cached),
    body: () => {
      const normalized = normalizePedon(cached.answer.table, { properties: query.properties, depthTop: query.depth_top_cm, depthBottom: query.depth_bottom_cm });
      if (!normalized) throw notFound(deps.source, key);
      const retrieved = retrievedAt(deps.source, cached);
      const warnings = pedonWarnings(normalized, query);
      warnings.push(...sourceWarnings(deps.source, cached));
      if (deps.source.kind === "snapshot") {
        warnings.push("The KSSL export in the snapshot states no export date: retrieved_at is when Loam built its snapshot from it.");
      }
      return {
        api_version: VERSION,
        status: "experimental" as const,
        provider: KSSL_PROVIDER,
        pedon_key: normalized.pedon.pedonKey,
        data_kind: "observed" as const,
        query,
        location: { latitude: normalized.pedon.latitude, longitude: normalized.pedon.longitude, horizontal_accuracy_m: null },
        citation: citation(normalized.pedon, retrieved, deps.source.kind === "snapshot"),
        source_url: KSSL_SOURCE_URL,
        retrieved_at: retrieved,
        cache: cacheMetadata(cached, deps.now()),
        layers: normalized.layers,
        warnings,
      };
    },
  };
}

export async function rawPedon(deps: PedonDeps, provider: string, key: PedonKey): Promise<Prepared<Static<typeof RawPedonResponse>>> {
  const cached = await ksslPedon(deps.cache, deps.source, key);
  if (cached.answer.table.rows.length === 0) throw notFound(deps.source, key);
  return {
    cached,
    etag: entityTag("raw-pedon", provider, String(key.value), cached.storedAt, freshness(cached)),
    maxAgeSeconds: maxAge(deps, cached),
    body: () => {
      const warnings = rawWarnings(deps.source, cached, [
        "Raw upstream payload: not normalized, censored results not interpreted, no units or provenance attached, and its layout is not promised to stay stable. Use /v1/pedons/{pedon_key} for normalized values.",
        "The fixed laboratory query joins lab_combine_nasis_ncss, lab_layer, lab_physical_properties and lab_chemical_properties; companion morphological pedon data are not part of the laboratory tables and are not joined.",
        POINT_WARNING,
      ]);
      return {
        provider,
        status: "experimental" as const,
        query: { pedon_key: String(key.value) },
        retrieved_at: new Date(cached.storedAt).toISOString(),
        cache: cacheMetadata(cached, deps.now()),
        upstream_response: cached.answer.payload,
        warnings,
      };
    },
  };
}
