/**
 * GET /v1/soil/modeled (JSON and CSV) and GET /v1/soil/modeled/grid: any point_values provider
 * (docs/architecture.md#shapes); the spec's raw route answers for these providers through `rawDelegate`.
 */
import { Elysia } from "elysia";
import { documentedRoute, PLANNED_PROVIDER_ERROR, UPSTREAM_ERRORS } from "../../http/openapi";
import { strictQuery } from "../../http/query";
import type { Send } from "../../http/response";
import { checkDepthInterval, type DataDeps } from "../../answer";
import { defaultProvider, fitFor, otherProviders, resolveProvider, type ProviderFit } from "../../answer/providers";
import type { RawLocationDelegate } from "../../answer/raw-location";
import { resolvePropertyId } from "../../catalog/properties";
import { clip, ValidationError } from "../../errors";
import type { PointValuesProvider } from "../../providers/provider";
import { GridQueryParams, GridResponse, ModeledQueryParams, ModeledResponse } from "./model";
import { effectivePoint, gridOf } from "./service";
import { modeledAtPoint, rawModeled } from "./modeled";
import { MODELED_TABLE } from "./table";

export interface PointValuesRouteDeps extends DataDeps {
  send: Send;
}

const POINT_VALUES: ProviderFit<PointValuesProvider> = fitFor("point_values", "modeled values for a point", "Query parameter 'provider'");
const modeledQuery = strictQuery(ModeledQueryParams);
const gridQuery = strictQuery(GridQueryParams);

const ERRORS = {
  422: ["ErrorResponse", "A parameter violates its rules (code validation_error); the message names the parameter and the rule."],
  404: ["ErrorResponse", "Unknown provider (code unknown_provider), or a layer the provider holds no grid of (code not_found)."],
  409: PLANNED_PROVIDER_ERROR,
  ...UPSTREAM_ERRORS,
  503: ["ErrorResponse", "The provider's upstream call budget is spent (code upstream_budget_exhausted; see Retry-After), or Loam was too busy to finish the upstream exchange (code internal_error); retryable."],
} as const;

function providerOf(deps: DataDeps, name: string): PointValuesProvider {
  if (name !== "") return resolveProvider(deps.registry, name, POINT_VALUES);
  return defaultProvider(deps.registry, "point_values");
}

/** The raw route's delegate for point_values providers (mounted by the app on the spec's raw route). */
export function pointValuesRaw(deps: DataDeps): RawLocationDelegate {
  return { role: "point_values", answer: (provider, query) => rawModeled(deps, provider as PointValuesProvider, query) };
}

export function pointValues(deps: PointValuesRouteDeps) {
  const others = otherProviders(deps.registry, "point_values");
  return new Elysia({ name: "loam.point_values" })
    .get(
      "/v1/soil/modeled",
      async ({ query, request, set }) => {
        const read = modeledQuery.queryOf(query);
        checkDepthInterval(read.depth_top_cm, read.depth_bottom_cm);
        const provider = providerOf(deps, read.provider);
        const effective = { ...effectivePoint(read, { provider: provider.id }, read.properties === "" ? provider.pointValues.defaultProperties : read.properties), method: read.method };
        return deps.send(await modeledAtPoint(deps, provider, effective), request, set, MODELED_TABLE);
      },
      {
        transform: modeledQuery.transform,
        query: ModeledQueryParams,
        ...documentedRoute({
          operationId: "getSoilModeled",
          tag: "soil",
          summary: "Modeled soil values for one WGS84 point",
          description:
            "A point_values provider's values (the first registered by default): one observation per property and provider depth overlapping the interval (method=weighted_average: one derived observation per property over the interval), value = the mean, uncertainty = Q0.05 to Q0.95, every statistic in grid_context, with provenance. A valid point with no value is 200 with empty observations and a warning. Example: /v1/soil/modeled?latitude=18.65&longitude=-71.6&properties=clay,silt&depth_bottom_cm=15" + others,
          ok: [ModeledResponse, "Observations (possibly none), cache metadata and warnings."],
          errors: ERRORS,
          etag: true,
          csv: "one row per observation",
        }),
      },
    )
    .get(
      "/v1/soil/modeled/grid",
      async ({ query, request, set }) => {
        const read = gridQuery.queryOf(query);
        const provider = providerOf(deps, read.provider);
        const property = resolvePropertyId(read.property);
        if (!property) throw new ValidationError(`Query parameter 'property' names an unknown property '${clip(read.property)}'; GET /v1/properties lists the ids and their aliases.`);
        return deps.send(await gridOf(deps, provider, property, read.depth), request, set);
      },
      {
        transform: gridQuery.transform,
        query: GridQueryParams,
        ...documentedRoute({
          operationId: "getSoilModeledGrid",
          tag: "soil",
          summary: "One modeled layer as a grid a map can draw",
          description:
            "A layer the provider holds as a raster (e.g. an offline clip) as origin, cell size, width, height and values (row-major from the top-left, served units, null for no data), with a legend of six classes and every layer it holds. Example: /v1/soil/modeled/grid?property=clay&depth=0-5cm",
          ok: [GridResponse, "The grid, its legend and provenance."],
          errors: ERRORS,
          etag: true,
        }),
      },
    );
}
