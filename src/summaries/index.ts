/** GET /v1/soil/mapunits/{map_unit_key} and GET /v1/soil/summary: any mapped_location provider with map units. */
import { Elysia } from "elysia";
import { documentedRoute, PLANNED_PROVIDER_ERROR, UPSTREAM_ERRORS } from "../http/openapi";
import { strictQuery, type QueryOf } from "../http/query";
import type { Send } from "../http/response";
import { ValidationError } from "../errors";
import { checkDepthInterval, type DataDeps } from "../answer";
import { fitFor, oneProviderName, resolveProvider, unknownInProviders, type ProviderFit } from "../answer/providers";
import { parseProperties } from "../catalog/properties-param";
import { DEFAULT_SUMMARY_PROVIDER, mapUnitParams, MapUnitQueryParams, SummaryQueryParams, SummaryResponse } from "./model";
import { mapUnitSummary, summaryAtPoint, type EffectiveSummaryQuery } from "./service";
import { parseMethod, planSummaries, type MapUnitProvider } from "../aggregation/plan";
import { MAP_UNIT_TABLE, SUMMARY_TABLE } from "../tables";
import { summaryOptions } from "../aggregation/options";

export interface SummaryRouteDeps extends DataDeps {
  send: Send;
}

const MAP_UNITS: ProviderFit<MapUnitProvider> = {
  ...fitFor("mapped_location", "map units (map-unit summaries)", "Query parameter 'providers'", (provider) => provider.mapUnits !== undefined),
  unknown: unknownInProviders,
};

/** `providers` (or its synonym `provider`): exactly one operational provider that serves map units. */
function summaryProvider(deps: DataDeps, providers: string, provider: string): MapUnitProvider {
  let raw = providers;
  if (provider !== "") {
    if (providers !== DEFAULT_SUMMARY_PROVIDER && providers !== provider) {
      throw new ValidationError("Query parameters 'providers' and 'provider' name different providers; give one of them.");
    }
    raw = provider;
  }
  return resolveProvider(deps.registry, oneProviderName(raw), MAP_UNITS);
}

type SharedQuery = QueryOf<typeof MapUnitQueryParams>;

/** Defaults applied, aliases resolved, method and depth checked: everything a 422 can be found in, before any upstream call. */
function effectiveQuery(read: SharedQuery, provider: MapUnitProvider, place: Pick<EffectiveSummaryQuery, "latitude" | "longitude" | "map_unit_key">): EffectiveSummaryQuery {
  checkDepthInterval(read.depth_top_cm, read.depth_bottom_cm);
  // Only the map unit by key may name no property (its components alone); the point's default is a list.
  const properties = read.properties === "" ? [] : parseProperties(read.properties);
  const method = parseMethod(read.method);
  const options = summaryOptions(read);
  planSummaries(provider.mapUnits.properties, properties, method, { top_cm: read.depth_top_cm, bottom_cm: read.depth_bottom_cm }, options);
  return {
    ...place,
    providers: [provider.id],
    properties,
    method,
    depth_top_cm: read.depth_top_cm,
    depth_bottom_cm: read.depth_bottom_cm,
    ...options,
  };
}

const summaryQuery = strictQuery(SummaryQueryParams);
const mapUnitQuery = strictQuery(MapUnitQueryParams);

const DATA_ERRORS = {
  422: ["ErrorResponse", "A parameter violates its rules (code validation_error): the message names the parameter, or the method and the property that do not fit."],
  409: PLANNED_PROVIDER_ERROR,
  ...UPSTREAM_ERRORS,
} as const;

const BODY =
  "The body: the map unit with every component (with or without horizon data), and one summary per requested property: value or category, unit, depth, percent_of_map_unit, each component's contribution, the formulas (transformations), source and warnings.";

/** The route's words for a key when no provider of map units is registered (it then refuses every request). */
const NO_KEYS = { syntax: "a map unit key of the mapped-survey provider", example: "2765528" };

export function summaries(deps: SummaryRouteDeps) {
  // The document speaks the default mapped-survey provider's words for its keys.
  const keys = deps.registry.defaultFor("mapped_location")?.mapUnits?.keys ?? NO_KEYS;
  return new Elysia({ name: "loam.summaries" })
    .get(
      "/v1/soil/mapunits/:map_unit_key",
      async ({ params, query, request, set }) => {
        const read = mapUnitQuery.queryOf(query);
        const provider = summaryProvider(deps, read.providers, read.provider);
        const key = provider.mapUnits.checkKey(params.map_unit_key);
        const answer = await mapUnitSummary(deps, provider, effectiveQuery(read, provider, { latitude: null, longitude: null, map_unit_key: key }));
        return deps.send(answer, request, set, MAP_UNIT_TABLE);
      },
      {
        transform: mapUnitQuery.transform,
        params: mapUnitParams(keys),
        query: MapUnitQueryParams,
        ...documentedRoute({
          operationId: "getMapUnit",
          tag: "soil",
          summary: "One map unit, its components and its summaries",
          description: `${BODY} Example: /v1/soil/mapunits/${keys.example}?properties=clay,available_water_storage,drainage_class&depth_bottom_cm=100`,
          ok: [SummaryResponse, "The map unit, its components and the summaries."],
          errors: {
            404: ["ErrorResponse", "No map unit has this key (code not_found)."],
            ...DATA_ERRORS,
          },
          etag: true,
          csv: "one row per summary",
        }),
      },
    )
    .get(
      "/v1/soil/summary",
      async ({ query, request, set }) => {
        const read = summaryQuery.queryOf(query);
        const provider = summaryProvider(deps, read.providers, read.provider);
        const answer = await summaryAtPoint(deps, provider, effectiveQuery(read, provider, { latitude: read.latitude, longitude: read.longitude, map_unit_key: null }));
        return deps.send(answer, request, set, SUMMARY_TABLE);
      },
      {
        transform: summaryQuery.transform,
        query: SummaryQueryParams,
        ...documentedRoute({
          operationId: "getSoilSummary",
          tag: "soil",
          summary: "Summaries of the map unit at one WGS84 point",
          description:
            `The map unit containing the point, summarized as GET /v1/soil/mapunits/{map_unit_key} does. No map unit there: 200 with map_unit null and a warning. ${BODY} Example: /v1/soil/summary?latitude=41.944131&longitude=-94.359608&properties=clay&depth_bottom_cm=30`,
          ok: [SummaryResponse, "The map unit at the point (or null), its components and the summaries."],
          errors: DATA_ERRORS,
          etag: true,
          csv: "one row per summary",
        }),
      },
    );
}
