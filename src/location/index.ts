/** GET /v1/soil/location and GET /v1/providers/{provider_id}/raw/location (spec §4.5–4.6). */
import { Elysia } from "elysia";
import { documentedResponses } from "../http/openapi";
import { sendPrepared } from "../http/data-answer";
import { strictQuery } from "../http/route-query";
import { ProviderNotOperationalError, UnknownProviderError, ValidationError } from "../errors";
import { canonicalProviderId, providerRole } from "../catalog/providers";
import { checkDepthInterval, parseProperties } from "../shared/properties-param";
import { DEFAULT_LOCATION_PROPERTIES, LocationQueryParams, LocationResponse, RawLocationQueryParams, RawProviderResponse } from "./model";
import { rawAtPoint, soilAtPoint, type EffectiveLocationQuery, type LocationDeps } from "./service";

/** `providers`: exactly one operational mapped-location provider. */
function locationProvider(raw: string): string {
  const items = raw.split(",").map((item) => item.trim());
  if (items.length !== 1 || items[0] === "") {
    throw new ValidationError(`Query parameter 'providers' must name exactly one mapped-location provider (e.g. usda_ssurgo); got ${items.length}.`);
  }
  const given = items[0] as string;
  const id = canonicalProviderId(given);
  if (id === undefined) throw new ValidationError(`Query parameter 'providers' names an unknown provider '${given}'; GET /v1/providers lists them.`);
  const role = providerRole(id);
  if (role === "planned") throw new ProviderNotOperationalError(id);
  if (role !== "mapped_location") {
    throw new ValidationError(`Provider '${id}' serves laboratory pedons, not mapped values for a point; use GET /v1/pedons?bbox=... for it.`, id);
  }
  return id;
}

function effectiveQuery(query: Record<string, unknown>, provider: string): EffectiveLocationQuery {
  const top = query.depth_top_cm as number;
  const bottom = query.depth_bottom_cm as number;
  checkDepthInterval(top, bottom);
  return {
    latitude: query.latitude as number,
    longitude: query.longitude as number,
    providers: [provider],
    properties: parseProperties((query.properties as string | undefined) ?? DEFAULT_LOCATION_PROPERTIES),
    depth_top_cm: top,
    depth_bottom_cm: bottom,
  };
}

const DATA_ERRORS = {
  422: ["ErrorResponse", "A parameter violates its rules (code validation_error); the message names the parameter and the rule."],
  502: ["ErrorResponse", "The upstream provider failed (code upstream_error or upstream_unreachable); retryable."],
  504: ["ErrorResponse", "The upstream provider gave no complete answer in time (code upstream_timeout); retryable."],
} as const;

export function location(deps: LocationDeps) {
  return new Elysia({ name: "loam.location" })
    .get(
      "/v1/soil/location",
      async ({ query, request, set }) => {
        const provider = locationProvider((query.providers as string | undefined) ?? "usda_ssurgo");
        const prepared = await soilAtPoint(deps, effectiveQuery(query, provider));
        return sendPrepared(prepared, request, set);
      },
      {
        transform: strictQuery(LocationQueryParams),
        query: LocationQueryParams,
        response: { 200: LocationResponse },
        detail: {
          tags: ["soil"],
          summary: "Mapped-survey soil values for one WGS84 point",
          description:
            "SSURGO map units containing the point, their components and the horizons overlapping the depth interval, one observation per horizon and requested property with full provenance. A valid point with no data is 200 with empty observations and a warning. Example: /v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph,organic_matter,clay",
          responses: documentedResponses(
            {
              200: ["LocationResponse", "Observations (possibly none), map units, cache metadata and warnings."],
              ...DATA_ERRORS,
              409: ["ErrorResponse", "The provider is planned, not operational (code provider_not_operational)."],
            },
            { etag: true },
          ),
        },
      },
    )
    .get(
      "/v1/providers/:provider_id/raw/location",
      async ({ params, query, request, set }) => {
        const id = canonicalProviderId(params.provider_id);
        if (id === undefined) throw new UnknownProviderError(params.provider_id.slice(0, 60));
        const role = providerRole(id);
        if (role === "planned") throw new ProviderNotOperationalError(id);
        if (role !== "mapped_location") throw new ValidationError(`Provider '${id}' has no raw location endpoint: it serves laboratory pedons (use /v1/providers/${id}/raw/pedons/{pedon_key}).`, id);
        const prepared = await rawAtPoint(deps, id, effectiveQuery(query, id));
        return sendPrepared(prepared, request, set);
      },
      {
        transform: strictQuery(RawLocationQueryParams),
        query: RawLocationQueryParams,
        response: { 200: RawProviderResponse },
        detail: {
          tags: ["raw"],
          summary: "Untouched upstream payload for one point",
          description:
            "The exact SDA JSON (JSON+COLUMNNAME+METADATA) for the point query inside a labelled wrapper; in snapshot mode the same table shape built from the snapshot. Not normalized; not promised to stay stable. Example: /v1/providers/usda_ssurgo/raw/location?latitude=41.944131&longitude=-94.359608",
          responses: documentedResponses(
            {
              200: ["RawProviderResponse", "The raw payload in its wrapper."],
              404: ["ErrorResponse", "Unknown provider (code unknown_provider)."],
              409: ["ErrorResponse", "Planned provider, not operational (code provider_not_operational)."],
              ...DATA_ERRORS,
            },
            { etag: true },
          ),
        },
      },
    );
}
