/** GET /v1/soil/mapunits?bbox=…: map-unit polygons of any mapped_location provider that has them. */
import { Elysia } from "elysia";
import { documentedResponses, PLANNED_PROVIDER_ERROR, UPSTREAM_ERRORS } from "../http/openapi";
import { strictQuery, type QueryOf } from "../http/query";
import type { Send } from "../http/response";
import { ValidationError } from "../errors";
import { checkDepthInterval, type DataDeps } from "../answer";
import { clip } from "../errors";
import { fitFor, resolveProvider, type ProviderFit } from "../answer/providers";
import { parseBbox } from "../domain/bbox";
import type { PointProvider } from "../providers/provider";
import { MAP_UNIT_BBOX_LIMITS, MapUnitCollection, MapUnitCollectionQueryParams } from "./model";
import { parseMethod, planSummaries, type SummaryPlan } from "../summaries/service";
import { mapUnitsInBbox, type EffectiveMapUnitQuery } from "./service";
import { MAP_UNIT_COLLECTION_TABLE } from "../tables";

export interface MapUnitRouteDeps extends DataDeps {
  send: Send;
}

const POLYGONS: ProviderFit<PointProvider> = fitFor("mapped_location", "map-unit polygons (use usda_ssurgo)", "Query parameter 'provider'", (provider) => provider.mapUnitPolygons !== undefined);

/** A mapped-survey provider with polygons; unknown 404, planned 409, another role 422. */
function polygonProvider(deps: DataDeps, given: string): PointProvider {
  if (given.trim() === "") throw new ValidationError("Query parameter 'provider' must name a mapped-survey provider (usda_ssurgo); it is empty.");
  return resolveProvider(deps.registry, given.trim(), POLYGONS);
}

const collectionQuery = strictQuery(MapUnitCollectionQueryParams);

function effectiveQuery(read: QueryOf<typeof MapUnitCollectionQueryParams>, provider: PointProvider): { query: EffectiveMapUnitQuery; plan: SummaryPlan | null } {
  const bbox = parseBbox(read.bbox, MAP_UNIT_BBOX_LIMITS);
  checkDepthInterval(read.depth_top_cm, read.depth_bottom_cm);
  const property = read.property.trim() === "" ? null : read.property.trim();
  const method = parseMethod(read.method);
  if (property === null && method !== null) throw new ValidationError("Query parameter 'method' needs a 'property' to summarize.");
  let plan: SummaryPlan | null = null;
  if (property !== null) {
    if (!provider.mapUnits) throw new ValidationError(`Provider '${provider.id}' has no map-unit summaries; leave out 'property'.`, provider.id);
    plan = planSummaries(provider.mapUnits.properties, [property], method, { top_cm: read.depth_top_cm, bottom_cm: read.depth_bottom_cm });
    if (plan.summaries.length === 0) {
      throw new ValidationError(`Query parameter 'property' must be a property map-unit summaries answer (GET /v1/properties); got '${clip(property)}'.`);
    }
  }
  return {
    plan,
    query: {
      bbox,
      provider: provider.id,
      limit: read.limit,
      property: plan ? plan.summaries[0]!.property.id : null,
      method: plan ? plan.summaries[0]!.method : null,
      depth_top_cm: read.depth_top_cm,
      depth_bottom_cm: read.depth_bottom_cm,
    },
  };
}

export function mapUnits(deps: MapUnitRouteDeps) {
  return new Elysia({ name: "loam.mapunits" }).get(
    "/v1/soil/mapunits",
    async ({ query, request, set }) => {
      const read = collectionQuery.queryOf(query);
      const provider = polygonProvider(deps, read.provider);
      const { query: effective, plan } = effectiveQuery(read, provider);
      const answer = await mapUnitsInBbox(deps, provider, effective, plan);
      return deps.send(answer, request, set, MAP_UNIT_COLLECTION_TABLE);
    },
    {
      transform: collectionQuery.transform,
      query: MapUnitCollectionQueryParams,
      response: { 200: MapUnitCollection },
      detail: {
        operationId: "listMapUnits",
        tags: ["soil"],
        summary: "Map-unit polygons in a bounding box",
        description:
          "An RFC 7946 FeatureCollection (EPSG:4326, [lon, lat]) of the SSURGO map-unit polygons that meet the box, holes kept, ordered by polygon key, at most `limit`; `truncated` is true when more exist (narrow the box: the collection is then not complete). Each feature names its map unit (map_unit_key, map_unit_symbol, map_unit_name, area_symbol); with `property` (and optionally `method` and a depth interval) each also carries summary {value, category, unit} of its map unit, for choropleths. Example: /v1/soil/mapunits?bbox=-94.37,41.934,-94.35,41.954&property=clay&method=weighted_average&depth_top_cm=0&depth_bottom_cm=30",
        responses: documentedResponses(
          {
            200: ["MapUnitCollection", "Polygons (possibly none), whether the collection is truncated, cache metadata and warnings."],
            404: ["ErrorResponse", "Unknown provider (code unknown_provider)."],
            409: PLANNED_PROVIDER_ERROR,
            422: [
              "ErrorResponse",
              "A parameter violates its rules (code validation_error): bbox not four numbers, out of range, min not less than max, over 0.25 degrees per side; limit outside 1 to 5000; an unknown summary property, a method that does not fit it, a bad depth interval; a provider without polygons; format not json or csv.",
            ],
            ...UPSTREAM_ERRORS,
          },
          { etag: true, csv: "one row per polygon feature (its map unit and summary; no geometry)" },
        ),
      },
    },
  );
}
