/**
 * OGC API - Features Part 1 at /ogc (docs/decisions.md#ogc-api-features): what GDAL's OAPIF driver,
 * OWSLib and QGIS read. Collections come from the entry table (table.ts); items pages are cursor
 * paged (src/domain/cursor.ts), with `next` links, and sent as cached GeoJSON answers.
 */
import { Elysia } from "elysia";
import type { DataDeps } from "../answer";
import { BadRequestError, NotFoundError, clip } from "../errors";
import { cursorBinding, decodeCursor, encodeCursor } from "../domain/cursor";
import { documentedOperation, documentedRoute, UPSTREAM_ERRORS } from "../http/openapi";
import { absoluteNextPage } from "../http/paging";
import { requestOrigin, requestQuery } from "../http/request-path";
import { Memo } from "../lru";
import { parsedQuery, strictQuery, type QueryOf } from "../http/query";
import type { Send } from "../http/response";
import { SUMMARY_PARAMETER_NAMES } from "./mapunits-entry";
import { collectionsOf } from "./table";
import { CollectionParams, ItemParams, ItemQueryParams, ItemsQueryParams, OUTPUT_FORMATS, OgcQueryables, OgcCollection, OgcCollections, OgcConformance, OgcLandingPage, OgcFeature, OgcFeatureCollection } from "./model";
import { collection, collectionOf, collections, CONFORMANCE, queryables, SCHEMA_JSON, itemAnswer, itemsAnswer, landingPage, parseItemsBbox, parseItemsDatetime, parseItemsLimit } from "./service";
import { rangeText } from "../domain/time-range";

export interface CollectionRouteDeps extends DataDeps {
  send: Send;
}

const GEOJSON = "application/geo+json";
const itemsQuery = strictQuery(ItemsQueryParams);
const itemQuery = strictQuery(ItemQueryParams);

const originOf = requestOrigin;

/**
 * Every query parameter the OGC API declares (the items parameters). A name it does not declare is a
 * 400 (OGC 17-069r4 /req/core/query-param-unknown; docs/decisions.md#ogc-api-features). The other
 * OGC endpoints accept these names too, unread: GDAL sends its connection URL's query (e.g.
 * `OAPIF:<base>/ogc/collections/mapunits?properties=clay`) with the collection's own requests.
 */
const OGC_PARAMETERS: ReadonlySet<string> = new Set(Object.keys(ItemsQueryParams.properties));

function refuseUndeclared(request: Request): void {
  const values = parsedQuery(request.url).values;
  for (const name of values.keys()) {
    if (!OGC_PARAMETERS.has(name)) {
      throw new BadRequestError(`The OGC API takes no query parameter '${clip(name)}'; it declares ${[...OGC_PARAMETERS].join(", ")} (OGC API - Features Part 1: an undeclared parameter is a 400).`);
    }
  }
  // Every OGC document has one representation (JSON; GeoJSON for features): `f` may name it, on every endpoint.
  const f = values.get("f");
  if (f !== undefined && !(OUTPUT_FORMATS as readonly string[]).includes(f)) {
    throw new BadRequestError(`Query parameter 'f' must be one of ${OUTPUT_FORMATS.join(", ")} (HTML is not served; /docs documents the API); got '${clip(f)}'.`);
  }
}

const NOT_FOUND = { 404: ["ErrorResponse", "No such collection (code not_found)."] } as const;
const BAD_REQUEST =
  "A parameter the request gives is refused, as OGC API - Features Part 1 asks (code bad_request): a query parameter the OGC API does not declare; a parameter given twice with different values; bbox not four numbers (six, a 3D box, included), outside WGS84 or across the antimeridian; bbox-crs other than CRS84; limit not an integer from 1 to 999999999; a cursor that was edited or made by another query (another bbox, collection or properties); an unknown element or more than 8 in properties; a summary parameter on a collection without summaries, or one that breaks its rule; in Soil Data Access mode, a mapunits request without a bbox or with one over 0.25 degrees per side.";
const ITEM_BAD_REQUEST =
  "A parameter the request gives is refused (code bad_request): a query parameter the OGC API does not declare or one given twice with different values; a feature id or collection id over 40 characters; an unknown element; a summary parameter that breaks its rule.";

const UNDECLARED = { 400: ["ErrorResponse", "A query parameter the OGC API does not declare, or one given twice with different values (code bad_request); the items parameters are accepted here unread."] } as const;

/** Items queries already checked, by collection and query text: a cached request repeats one (docs/decisions.md#derived-once). */
const CHECKED_QUERIES = 256;

export function ogcCollections(deps: CollectionRouteDeps) {
  // Keys of the registry's default providers, for the item route's examples (docs/decisions.md#provider-words).
  const stationExample = deps.registry.defaultFor("site_series")?.stations.key.example ?? "{station_triplet}";
  const pedonExample = deps.registry.defaultFor("lab_pedons")?.pedons.key.example ?? "{pedon_key}";
  const siteExample = deps.registry.defaultFor("sample_sites")?.sites.key.example ?? "{site_id}";
  // Per app: the entries resolve this app's providers.
  const checked = new Memo<string, ReturnType<typeof check>>(CHECKED_QUERIES);
  function check(collectionId: string, read: QueryOf<typeof ItemsQueryParams>, given: ReadonlyMap<string, string>) {
    const entry = collectionOf(deps, collectionId);
    const foreign = SUMMARY_PARAMETER_NAMES.find((name) => given.has(name) && !entry.parameters.includes(name));
    if (foreign) throw new BadRequestError(`The ${entry.id} collection takes no parameter '${foreign}'.`);
    const bbox = parseItemsBbox(read.bbox, read["bbox-crs"]);
    const limit = parseItemsLimit(read.limit);
    const time = parseItemsDatetime(deps, entry, read.datetime);
    const items = entry.query(deps, bbox, read, time);
    const binding = cursorBinding({ collection: `ogc:${entry.id}`, bbox, ...(time ? { datetime: rangeText(time) } : {}), ...items.binding });
    const after = read.cursor === "" ? null : decodeCursor(read.cursor, binding);
    return { entry, limit, items, binding, after };
  }
  return new Elysia({ name: "loam.ogc" })
    .onBeforeHandle(({ request }) => refuseUndeclared(request))
    .get("/ogc", ({ request }) => landingPage(originOf(request)), {
      ...documentedRoute({
        operationId: "getOgcLandingPage",
        tag: "ogc",
        summary: "OGC API - Features landing page",
        description:
          "Links to the API definition, the conformance declaration and the collections: the URL to give GDAL (OAPIF:<base>/ogc), OWSLib or QGIS (WFS / OGC API - Features connection).",
        ok: [OgcLandingPage, "The landing page."],
        errors: UNDECLARED,
        etag: true,
        cacheControl: null,
      }),
    })
    .get("/ogc/conformance", () => ({ conformsTo: [...CONFORMANCE] }), {
      ...documentedRoute({
        operationId: "getOgcConformance",
        tag: "ogc",
        summary: "OGC API - Features conformance classes",
        description: "The conformance classes implemented and tested: Part 1 core and GeoJSON.",
        ok: [OgcConformance, "The conformance declaration."],
        errors: UNDECLARED,
        etag: true,
        cacheControl: null,
      }),
    })
    .get("/ogc/collections", ({ request }) => collections(deps, originOf(request)), {
      ...documentedRoute({
        operationId: "listOgcCollections",
        tag: "ogc",
        summary: "OGC API - Features collections",
        description: `The collections (${collectionsOf(deps.registry).map((c) => c.id).join(", ")}: one per provider of map-unit polygons, laboratory pedons, sample sites and sensor stations, a role's default under the role's own id), each with its spatial extent computed from the data, its fields and its items link.`,
        ok: [OgcCollections, "The collections."],
        errors: { ...UNDECLARED, ...UPSTREAM_ERRORS },
        etag: true,
        cacheControl: null,
      }),
    })
    .get("/ogc/collections/:collection_id", ({ params, request }) => collection(deps, collectionOf(deps, params.collection_id), originOf(request)), {
      params: CollectionParams,
      ...documentedRoute({
        operationId: "getOgcCollection",
        tag: "ogc",
        summary: "One OGC API - Features collection",
        description: "The collection's id, title, description with its fields, extent (from the data), CRS and links.",
        ok: [OgcCollection, "The collection."],
        errors: {
          ...UNDECLARED,
          ...NOT_FOUND,
          ...UPSTREAM_ERRORS,
        },
        etag: true,
        cacheControl: null,
      }),
    })
    .get(
      "/ogc/collections/:collection_id/queryables",
      ({ params, request, set }) => {
        const document = queryables(deps, collectionOf(deps, params.collection_id), originOf(request));
        set.headers["content-type"] = `${SCHEMA_JSON}; charset=utf-8`;
        return document;
      },
      {
        params: CollectionParams,
        ...documentedRoute({
          operationId: "getOgcQueryables",
          tag: "ogc",
          summary: "The queryables of an OGC API - Features collection",
          description:
            "OGC API - Features Part 3: a JSON Schema (application/schema+json) of the collection's item properties and their types, derived from the model of the same features on /v1, and its geometry type.",
          ok: [OgcQueryables, "The queryables."],
          errors: { ...UNDECLARED, ...NOT_FOUND },
          mediaType: SCHEMA_JSON,
          etag: true,
          cacheControl: null,
        }),
      },
    )
    .get(
      "/ogc/collections/:collection_id/items",
      async ({ params, query, request, set }) => {
        const read = itemsQuery.queryOf(query);
        // A refused query throws and is not kept.
        const { entry, limit, items, binding, after } = checked.of(`${params.collection_id}?${requestQuery(request.url)}`, () =>
          check(params.collection_id, read, parsedQuery(request.url).values),
        );
        const page = await items.page(after, limit);
        const next = page.nextAfter === null ? null : absoluteNextPage(request, encodeCursor(binding, page.nextAfter));
        set.headers["content-type"] = `${GEOJSON}; charset=utf-8`;
        return deps.send(itemsAnswer(deps, entry, page, request.url, next, originOf(request)), request, set);
      },
      {
        params: CollectionParams,
        transform: itemsQuery.transform,
        query: ItemsQueryParams,
        // The pipeline builds the GeoJSON untyped: the model documents it, Elysia does not type the handler with it.
        detail: documentedOperation({
          operationId: "listOgcItems",
          tag: "ogc",
          summary: "Items of an OGC API - Features collection",
          description:
            "A GeoJSON FeatureCollection page of the collection's features in key order, at most `limit`, with numberReturned, timeStamp and links (self, collection, and next while more items follow: the same query with its cursor; walking them returns every feature once). Properties are flat strings and numbers. The mapunits collection takes the polygon summary parameters: with properties=clay,ph each polygon carries <id> and <id>_percent_of_map_unit. The geochem_sites collection takes properties (elements, at most 8): with properties=arsenic,lead each site carries <id> (null when censored or not sampled), <id>_reported_value, <id>_unit and <id>_status (measured, censored or not_sampled). Examples: /ogc/collections/mapunits/items?bbox=-94.37,41.934,-94.35,41.954&properties=clay,ph&limit=50, /ogc/collections/geochem_sites/items?bbox=-96.7,40.3,-90.1,43.6&properties=arsenic&limit=100",
          ok: [OgcFeatureCollection, "A page of features (possibly none), its links, numberReturned, timeStamp, cache metadata and warnings."],
          errors: {
            400: ["ErrorResponse", BAD_REQUEST],
            ...NOT_FOUND,
            ...UPSTREAM_ERRORS,
          },
          etag: true,
          mediaType: GEOJSON,
        }),
      },
    )
    .get(
      "/ogc/collections/:collection_id/items/:feature_id",
      async ({ params, query, request, set }) => {
        const read = itemQuery.queryOf(query);
        const entry = collectionOf(deps, params.collection_id);
        const found = await entry.item(deps, params.feature_id, read);
        if (found === null) throw new NotFoundError(`No feature '${params.feature_id.slice(0, 40)}' in the ${entry.id} collection.`);
        set.headers["content-type"] = `${GEOJSON}; charset=utf-8`;
        return deps.send(itemAnswer(deps, entry, found, request.url, originOf(request)), request, set);
      },
      {
        params: ItemParams,
        transform: itemQuery.transform,
        query: ItemQueryParams,
        // The pipeline builds the GeoJSON untyped: the model documents it, Elysia does not type the handler with it.
        detail: documentedOperation({
          operationId: "getOgcItem",
          tag: "ogc",
          summary: "One feature of an OGC API - Features collection",
          description:
            `The feature with its flat properties and links (self, collection); a mapunits feature takes the summary parameters, a geochem_sites feature the elements (properties), as the items do. Examples: /ogc/collections/pedons/items/${pedonExample}, /ogc/collections/stations/items/${stationExample}, /ogc/collections/geochem_sites/items/${siteExample}?properties=arsenic,lead`,
          ok: [OgcFeature, "The feature."],
          errors: {
            400: ["ErrorResponse", ITEM_BAD_REQUEST],
            404: ["ErrorResponse", "No such collection, or no such feature in it (code not_found)."],
            ...UPSTREAM_ERRORS,
          },
          etag: true,
          mediaType: GEOJSON,
        }),
      },
    );
}
