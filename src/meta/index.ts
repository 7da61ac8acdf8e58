/** GET /health, GET /v1 and GET /v1/layers: answered from memory, never calling an upstream. */
import { Elysia } from "elysia";
import { documentedRoute } from "../http/openapi";
import { requestOrigin } from "../http/request-path";
import { constantDocument } from "../http/trace";
import type { Registry } from "../providers/registry";
import { SERVICE_NAME, VERSION } from "../version";
import { coverageWords, LIVE_COVERS_ALL, type CoverageSource, type MappedScope } from "../domain/coverage";
import { ApiMetadata, HealthResponse, LayersResponse } from "./model";
import { layerEntries } from "./layers";

const EXPERIMENTAL_WARNING =
  "Loam is experimental: limits, fields and behaviour may change. Mapped survey values are not laboratory observations at a point, pedons are points, and a successful response does not establish fitness for an agronomic, environmental, engineering or regulatory decision. Check data_kind, depth, measurement_method, source, transformations, warnings and cache before using a value.";

/**
 * What this instance covers, appended to the experimental warning (ApiMetadata is a closed object of the
 * spec, so the coverage is named in its warning text: docs/decisions.md#coverage-messages).
 */
export function coverageSentence(source: CoverageSource, scope: MappedScope | undefined): string {
  if (source.kind === "snapshot") {
    return ` Coverage: this instance serves an offline snapshot holding ${coverageWords(source) || "no dataset"}; ${LIVE_COVERS_ALL}.`;
  }
  // Where the mapped provider maps is its own sentence (docs/decisions.md#provider-words).
  return ` Coverage: live Soil Data Access (${source.kind}), every published US soil survey area${scope ? `; ${scope.sentence}` : ""}.`;
}

export function meta(registry: Registry, source: () => CoverageSource) {
  const supported = registry.operational.map((p) => p.id);
  const scope = registry.defaultFor("mapped_location")?.point.scope;
  return new Elysia({ name: "loam.meta" })
  .get(
    "/health",
    ({ set, request }) => {
      set.headers["cache-control"] = "no-store";
      // The same document on every request while the process answers: sent again by the front door (docs/decisions.md#repeat-answers).
      constantDocument(request);
      return { status: "healthy" as const, service: SERVICE_NAME, version: VERSION };
    },
    {
      ...documentedRoute({
        operationId: "getHealth",
        tag: "meta",
        summary: "Service health",
        description: "Reports that the process answers. Makes no upstream call.",
        ok: [HealthResponse, "The service is up."],
        etag: true,
        cacheControl: "no-store",
      }),
    },
  )
  .get(
    "/v1",
    ({ set, request }) => {
      set.headers["cache-control"] = "public, max-age=300";
      const origin = requestOrigin(request);
      return {
        name: SERVICE_NAME,
        version: VERSION,
        project_status: "experimental" as const,
        documentation_url: `${origin}/docs`,
        openapi_url: `${origin}/openapi.json`,
        supported_providers: [...supported],
        warning: EXPERIMENTAL_WARNING + coverageSentence(source(), scope),
      };
    },
    {
      ...documentedRoute({
        operationId: "getApiMetadata",
        tag: "meta",
        summary: "API metadata",
        description: "Name, version, maturity, where the documentation is, and the operational providers.",
        ok: [ApiMetadata, "API metadata."],
        etag: true,
      }),
    },
  )
  .get(
    "/v1/layers",
    ({ set }) => {
      set.headers["cache-control"] = "public, max-age=300";
      return { layers: layerEntries(registry, source()) };
    },
    {
      ...documentedRoute({
        operationId: "listLayers",
        tag: "meta",
        summary: "Map layers",
        description:
          "What a map can draw from this instance: one entry per operational provider with a map layer (survey polygons, pedons, sample sites; grids and stations when a provider of those roles is registered), with the endpoint it reads, the properties it serves and its coverage (the snapshot's places and their boxes when known). Makes no upstream call.",
        ok: [LayersResponse, "The map layers."],
        etag: true,
      }),
    },
  );
}
