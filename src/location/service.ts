/**
 * The point query: effective query → SSURGO answer (cache → source) → observations and warnings.
 * Knows nothing of HTTP; the route turns its result into headers and a body.
 */
import type { Static } from "elysia";
import type { UpstreamCache, CachedAnswer } from "../upstream/cache";
import { cacheMetadata, freshness, maxAge, rawWarnings, sourceWarnings, type Prepared } from "../shared/answer";
import type { UpstreamSource } from "../upstream/source";
import type { Cell } from "../upstream/table";
import { entityTag } from "../http/conditional";
import { ssurgoPoint, SSURGO_PROPERTIES, SSURGO_PROVIDER } from "../providers/ssurgo";
import { VERSION } from "../version";
import type { LocationQuery, LocationResponse, RawProviderResponse } from "./model";
import { normalizeLocation } from "./normalize";
import { parseSdaDateTime } from "../shared/dates";

export interface LocationDeps {
  cache: UpstreamCache;
  source: UpstreamSource;
  cacheTtlSeconds: number;
  now: () => number;
}

export type EffectiveLocationQuery = Static<typeof LocationQuery>;

const COMPONENTS_WARNING =
  "Components are constituents of the map unit, in the proportions of component_percent; none of them is located at the queried point, and which one occurs at the point is unknown.";

/** When the values were retrieved: the export date for the snapshot, the upstream call for SDA. */
function retrievedAtFor(source: UpstreamSource, cached: CachedAnswer): (row: Record<string, Cell>) => string {
  const stored = new Date(cached.storedAt).toISOString();
  if (source.kind !== "snapshot") return () => stored;
  return (row) => parseSdaDateTime(row.saverest)?.toISOString() ?? stored;
}

export async function soilAtPoint(deps: LocationDeps, query: EffectiveLocationQuery): Promise<Prepared<Static<typeof LocationResponse>>> {
  const cached = await ssurgoPoint(deps.cache, deps.source, query.latitude, query.longitude);
  return {
    cached,
    etag: entityTag("location", JSON.stringify(query), cached.storedAt, freshness(cached)),
    maxAgeSeconds: maxAge(deps, cached),
    body: () => {
      const normalized = normalizeLocation(cached.answer.table, {
        latitude: query.latitude,
        longitude: query.longitude,
        properties: query.properties,
        depthTop: query.depth_top_cm,
        depthBottom: query.depth_bottom_cm,
        retrievedAt: retrievedAtFor(deps.source, cached),
      });
      const warnings: string[] = [];
      if (normalized.mapUnits.length === 0) {
        const coverage = deps.source.kind === "snapshot" ? " Offline snapshot coverage is limited; see the snapshot warning." : "";
        warnings.push(`The point (${query.latitude}, ${query.longitude}) falls in no SSURGO map unit: no completed soil survey covers it, or it lies in water or outside the data.${coverage}`);
      } else {
        warnings.push(COMPONENTS_WARNING);
        if (normalized.observations.length === 0) {
          warnings.push(`No horizon of the map unit's components reports the requested properties within ${query.depth_top_cm}–${query.depth_bottom_cm} cm.`);
        }
      }
      if (normalized.hasMinorComponents) warnings.push("Minor components (majcompflag No) are included; each carries a warning and a small component_percent.");
      for (const id of normalized.unsupported) {
        warnings.push(`${SSURGO_PROVIDER} does not report '${id}'; it serves ${Object.keys(SSURGO_PROPERTIES).join(", ")}.`);
      }
      if (query.properties.includes("organic_carbon") && normalized.observations.some((o) => o.data_kind === "derived")) {
        warnings.push("organic_carbon is derived from SSURGO organic matter (om_r / 1.724), not reported by SSURGO; see each observation's transformations.");
      }
      warnings.push(...sourceWarnings(deps.source, cached));
      return {
        api_version: VERSION,
        status: "experimental" as const,
        query,
        data_kind: "mapped_survey" as const,
        observations: normalized.observations,
        map_units: normalized.mapUnits,
        cache: cacheMetadata(cached, deps.now()),
        warnings,
      };
    },
  };
}

export async function rawAtPoint(deps: LocationDeps, provider: string, query: EffectiveLocationQuery): Promise<Prepared<Static<typeof RawProviderResponse>>> {
  const cached = await ssurgoPoint(deps.cache, deps.source, query.latitude, query.longitude);
  return {
    cached,
    etag: entityTag("raw-location", provider, JSON.stringify(query), cached.storedAt, freshness(cached)),
    maxAgeSeconds: maxAge(deps, cached),
    body: () => {
      const warnings = rawWarnings(deps.source, cached, [
        "Raw upstream payload: not normalized, no units or provenance attached, and its layout is not promised to stay stable. Use /v1/soil/location for normalized values.",
        MAPPED_SURVEY_NOTE,
      ]);
      return {
        provider,
        status: "experimental" as const,
        query,
        retrieved_at: new Date(cached.storedAt).toISOString(),
        cache: cacheMetadata(cached, deps.now()),
        upstream_response: cached.answer.payload,
        warnings,
      };
    },
  };
}

const MAPPED_SURVEY_NOTE = "Mapped survey data are not a laboratory observation at the queried point.";
