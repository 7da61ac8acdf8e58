/** GET /v1/soil/location and GET /v1/providers/{provider_id}/raw/location: any mapped_location provider. */
import { Elysia } from "elysia";
import { documentedRoute, PLANNED_PROVIDER_ERROR, UPSTREAM_ERRORS } from "../http/openapi";
import { strictQuery, type QueryOf } from "../http/query";
import type { Send } from "../http/response";
import { checkDepthInterval, type DataDeps } from "../answer";
import { fitFor, otherProviders, oneProviderName, resolveProvider, unknownInProviders, type ProviderFit } from "../answer/providers";
import type { PointProvider } from "../providers/provider";
import { DEFAULT_POINT_PROVIDER, LocationQueryParams, LocationResponse, RawLocationPathParams, RawLocationQueryParams, RawProviderResponse } from "./model";
import { rawAtPoint, soilAtPoint, type EffectiveLocationQuery } from "./service";
import { effectivePoint } from "../shapes/point_values/service";
import { LOCATION_TABLE } from "../tables";
import type { RawLocationDelegate } from "../answer/raw-location";

export interface LocationRouteDeps extends DataDeps {
  send: Send;
  /** Other shapes' answers to the raw route, by role (docs/architecture.md#shapes). */
  rawDelegates?: readonly RawLocationDelegate[];
}

/** Providers that serve mapped values for a point; another role is refused with the endpoint it serves. */
const POINT: ProviderFit<PointProvider> = fitFor("mapped_location", "mapped values for a point", "Query parameter 'providers'");

/** The raw endpoint names the path id: a laboratory provider is pointed to its own raw endpoint. */
const RAW_POINT: ProviderFit<PointProvider> = {
  ...fitFor("mapped_location", "a raw location table", "Path parameter 'provider_id'"),
  refusal: (provider, fitting) =>
    provider.role === "lab_pedons"
      ? `Path parameter 'provider_id' names '${provider.id}', which has no raw location endpoint: it serves laboratory pedons (use /v1/providers/${provider.id}/raw/pedons/{pedon_key}).`
      : fitFor("mapped_location", "a raw location table", "Path parameter 'provider_id'").refusal(provider, fitting),
};

const locationQuery = strictQuery(LocationQueryParams);
const rawLocationQuery = strictQuery(RawLocationQueryParams);

function effectiveQuery(query: QueryOf<typeof RawLocationQueryParams>, provider: string): EffectiveLocationQuery {
  checkDepthInterval(query.depth_top_cm, query.depth_bottom_cm);
  return effectivePoint(query, { providers: [provider] }, query.properties);
}

const DATA_ERRORS = {
  422: ["ErrorResponse", "A parameter violates its rules (code validation_error); the message names the parameter and the rule."],
  ...UPSTREAM_ERRORS,
} as const;

export function location(deps: LocationRouteDeps) {
  // The route's text names the registry's default provider by its own short name (docs/decisions.md#provider-words).
  const mapped = deps.registry.defaultFor("mapped_location")?.shortName ?? "Mapped-survey";
  const others = otherProviders(deps.registry, "mapped_location", "providers");
  return new Elysia({ name: "loam.location" })
    .get(
      "/v1/soil/location",
      async ({ query, request, set }) => {
        const read = locationQuery.queryOf(query);
        const provider = resolveProvider(deps.registry, oneProviderName(read.providers), { ...POINT, unknown: unknownInProviders });
        const answer = await soilAtPoint(deps, provider, effectiveQuery(read, provider.id));
        return deps.send(answer, request, set, LOCATION_TABLE);
      },
      {
        transform: locationQuery.transform,
        query: LocationQueryParams,
        ...documentedRoute({
          operationId: "getSoilLocation",
          tag: "soil",
          summary: "Mapped-survey soil values for one WGS84 point",
          description: `${mapped} map units containing the point, their components and the horizons overlapping the depth interval, one observation per horizon and requested property with full provenance. A valid point with no data is 200 with empty observations and a warning. Example: /v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph,organic_matter,clay${others}`,
          ok: [LocationResponse, "Observations (possibly none), map units, cache metadata and warnings."],
          errors: { ...DATA_ERRORS, 409: PLANNED_PROVIDER_ERROR },
          etag: true,
          csv: "one row per observation",
        }),
      },
    )
    .get(
      "/v1/providers/:provider_id/raw/location",
      async ({ params, query, request, set }) => {
        const named = deps.registry.find(params.provider_id);
        const delegate = named && deps.rawDelegates?.find((d) => d.role === named.role);
        if (delegate) {
          const other = resolveProvider(deps.registry, params.provider_id, fitFor(delegate.role, "a raw location answer", "Path parameter 'provider_id'"));
          const answer = await delegate.answer(other, effectiveQuery(rawLocationQuery.queryOf(query), other.id));
          // The delegate's body is the spec's RawProviderResponse (the shape builds it), typed unknown across the rooms.
          return deps.send(answer as Awaited<ReturnType<typeof rawAtPoint>>, request, set);
        }
        const provider = resolveProvider(deps.registry, params.provider_id, RAW_POINT);
        const answer = await rawAtPoint(deps, provider, effectiveQuery(rawLocationQuery.queryOf(query), provider.id));
        return deps.send(answer, request, set);
      },
      {
        transform: rawLocationQuery.transform,
        params: RawLocationPathParams,
        query: RawLocationQueryParams,
        ...documentedRoute({
          operationId: "getRawLocation",
          tag: "raw",
          summary: "Untouched upstream payload for one point",
          description:
            `The exact upstream JSON for the point query inside a labelled wrapper: for a mapped-location provider SDA's JSON (JSON+COLUMNNAME+METADATA), in snapshot mode the same table shape built from the snapshot; for a point_values provider its own answer (a REST answer exactly; offline, the raster cells holding the point with each file's metadata). Not normalized; not promised to stay stable. Example: /v1/providers/${DEFAULT_POINT_PROVIDER}/raw/location?latitude=41.944131&longitude=-94.359608`,
          ok: [RawProviderResponse, "The raw payload in its wrapper."],
          errors: {
            404: ["ErrorResponse", "Unknown provider (code unknown_provider)."],
            409: PLANNED_PROVIDER_ERROR,
            ...DATA_ERRORS,
          },
          etag: true,
        }),
      },
    );
}
