/** GET /v1/soil/mapunits?bbox=…: map-unit polygons of any mapped_location provider that has them. */
import { Elysia } from "elysia";
import { documentedRoute, PLANNED_PROVIDER_ERROR, UPSTREAM_ERRORS } from "../http/openapi";
import { strictQuery, type QueryOf } from "../http/query";
import type { Send } from "../http/response";
import { ValidationError } from "../errors";
import type { DataDeps } from "../answer";
import { fitFor, otherProviders, resolveProvider, type ProviderFit } from "../answer/providers";
import { parseBbox } from "../domain/bbox";
import type { PointProvider } from "../providers/provider";
import { cursorBinding, decodeCursor, encodeCursor } from "../domain/cursor";
import { nextPageHref, setNextLink } from "../http/paging";
import { requestQuery } from "../http/request-path";
import { Memo } from "../lru";
import { DEFAULT_MAP_UNIT_PROVIDER, MAP_UNIT_BBOX_LIMITS, MapUnitCollection, MapUnitCollectionQueryParams } from "./model";
import type { SummaryPlan } from "../aggregation/plan";
import { readPolygonSummaries } from "./plan";
import { summaryOptions } from "../aggregation/options";
import { mapUnitsInBbox, planKey, type EffectiveMapUnitQuery } from "./service";
import { mapUnitCollectionTable } from "../tables";
import { representationOf } from "../http/negotiate";
import { retrievedAt } from "../domain/retrieved-at";

export interface MapUnitRouteDeps extends DataDeps {
  send: Send;
}

const POLYGONS: ProviderFit<PointProvider> = fitFor("mapped_location", "map-unit polygons", "Query parameter 'provider'", (provider) => provider.mapUnitPolygons !== undefined);

/** A mapped-survey provider with polygons; unknown 404, planned 409, another role 422. */
export function polygonProvider(deps: DataDeps, given: string): PointProvider {
  if (given.trim() === "") throw new ValidationError("Query parameter 'provider' must name a mapped-survey provider; it is empty (omit it for the default).");
  return resolveProvider(deps.registry, given.trim(), POLYGONS);
}

/**
 * The polygons a request naming no provider reads when it has no `provider` parameter (the OGC
 * collection): the app's registry's first mapped_location provider, refused as the route refuses
 * when it has no polygons (docs/architecture.md#providers).
 */
export function defaultPolygonProvider(deps: DataDeps): PointProvider {
  const provider = deps.registry.defaultFor("mapped_location");
  return polygonProvider(deps, provider?.id ?? DEFAULT_MAP_UNIT_PROVIDER);
}

const collectionQuery = strictQuery(MapUnitCollectionQueryParams);

function effectiveQuery(read: QueryOf<typeof MapUnitCollectionQueryParams>, provider: PointProvider): { query: EffectiveMapUnitQuery; plan: SummaryPlan | null } {
  const bbox = parseBbox(read.bbox, MAP_UNIT_BBOX_LIMITS);
  const summaries = readPolygonSummaries(read, provider);
  return {
    plan: summaries.plan,
    query: {
      bbox,
      provider: provider.id,
      limit: read.limit,
      property: summaries.property,
      properties: summaries.properties,
      method: summaries.method,
      depth_top_cm: read.depth_top_cm,
      depth_bottom_cm: read.depth_bottom_cm,
      ...summaryOptions(read),
    },
  };
}

/**
 * What a cursor of this collection is bound to: everything that picks the features and their members,
 * never the limit. The summaries are bound by their plan's key, so a summary option added to the plan
 * binds the cursor too.
 */
export function mapUnitBinding(query: Omit<EffectiveMapUnitQuery, "limit">, plan: SummaryPlan | null): string {
  const { bbox, provider, property } = query;
  return cursorBinding({ collection: "mapunits", bbox, provider, property, summaries: plan ? planKey(plan) : null });
}

/** Queries already checked, by their text: a cached request repeats one (docs/decisions.md#derived-once). */
const CHECKED_QUERIES = 256;

export function mapUnits(deps: MapUnitRouteDeps) {
  // The route's text names the registry's default provider by its own short name (docs/decisions.md#provider-words).
  const mapped = deps.registry.defaultFor("mapped_location")?.shortName ?? "mapped-survey";
  const others = otherProviders(deps.registry, "mapped_location", "provider", (p) => p.role === "mapped_location" && p.mapUnitPolygons !== undefined);
  // Per app: the provider is this app's registry's.
  const checked = new Memo<string, ReturnType<typeof check>>(CHECKED_QUERIES);
  function check(read: QueryOf<typeof MapUnitCollectionQueryParams>) {
    const provider = polygonProvider(deps, read.provider);
    const { query: effective, plan } = effectiveQuery(read, provider);
    const binding = mapUnitBinding(effective, plan);
    const after = read.cursor === "" ? null : decodeCursor(read.cursor, binding);
    return { provider, effective, plan, binding, after };
  }
  return new Elysia({ name: "loam.mapunits" }).get(
    "/v1/soil/mapunits",
    async ({ query, request, set }) => {
      const read = collectionQuery.queryOf(query);
      // A refused query throws and is not kept.
      const { provider, effective, plan, binding, after } = checked.of(requestQuery(request.url), () => check(read));
      // A CSV holds every page (docs/decisions.md#csv-whole): read.csv and pandas cannot follow a Link header.
      const whole = representationOf(request) === "csv";
      const { answer, next } = await mapUnitsInBbox(deps, provider, effective, plan, { after, nextHref: (last) => nextPageHref(request, encodeCursor(binding, last)) }, whole);
      setNextLink(set.headers, next);
      const source = deps.connected.sourceOf(provider);
      return deps.send(answer, request, set, mapUnitCollectionTable((body) => retrievedAt(source, Date.parse(body.cache.stored_at))));
    },
    {
      transform: collectionQuery.transform,
      query: MapUnitCollectionQueryParams,
      ...documentedRoute({
        operationId: "listMapUnits",
        tag: "soil",
        summary: "Map-unit polygons in a bounding box",
        description:
          `An RFC 7946 FeatureCollection (EPSG:4326, [lon, lat]) of the ${mapped} map-unit polygons that meet the box, holes kept, ordered by polygon key, at most \`limit\` per page; when more exist, \`truncated\` is true, \`next\` is the URL of the next page and a \`Link: <...>; rel=\"next\"\` header says the same (explicit cursors: walking the pages returns every polygon once); format=csv answers every page in one file (at most 50,000 rows). Each feature names its map unit (map_unit_key, map_unit_symbol, map_unit_name, area_symbol); with \`properties\` (several) or \`property\` (one; then also summary {value, category, unit, percent_of_map_unit}), and optionally \`method\` and a depth interval, each carries flat members per property: \`<id>\` (value or class) and \`<id>_percent_of_map_unit\`; the warnings name, by map unit, values that rest on less than half of the map unit or on miscellaneous-area placeholders. Example: /v1/soil/mapunits?bbox=-94.37,41.934,-94.35,41.954&properties=clay,ph&depth_top_cm=0&depth_bottom_cm=30${others}`,
        ok: [MapUnitCollection, "Polygons (possibly none), whether the collection is truncated, cache metadata and warnings."],
        errors: {
          404: ["ErrorResponse", "Unknown provider (code unknown_provider)."],
          409: PLANNED_PROVIDER_ERROR,
          422: [
            "ErrorResponse",
            "A parameter violates its rules (code validation_error): bbox not four numbers, out of range, min not less than max, over 0.25 degrees per side; limit outside 1 to 5000; an unknown summary property, both property and properties, a method that does not fit a property, a bad depth interval; a provider without polygons; format not json or csv; a CSV of more than 50,000 rows; a cursor that was edited or made by another query (another bbox, provider or properties).",
          ],
          ...UPSTREAM_ERRORS,
        },
        etag: true,
        csv: "one row per polygon feature (its map unit and summary; no geometry)",
      }),
    },
  );
}
