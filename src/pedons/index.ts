/**
 * GET /v1/pedons, GET /v1/pedons/{pedon_key} and GET /v1/providers/{provider_id}/raw/pedons/{pedon_key}:
 * any lab_pedons provider.
 */
import { Elysia } from "elysia";
import { documentedRoute, UPSTREAM_ERRORS, PLANNED_PROVIDER_ERROR } from "../http/openapi";
import { queryOfRequest, strictQuery, type QueryOf } from "../http/query";
import type { Send } from "../http/response";
import { ValidationError } from "../errors";
import { checkDepthInterval, type DataDeps } from "../answer";
import { siteKey } from "../shapes/sites/service";
import { fitFor, otherProviders, resolveProvider } from "../answer/providers";
import { parseProperties } from "../catalog/properties-param";
import type { PedonKey } from "../domain/pedon-key";
import type { PedonProvider } from "../providers/provider";
import { parseBbox, WORLD_BBOX_LIMITS } from "../domain/bbox";
import { representationOf } from "../http/negotiate";
import { cursorBinding, decodeCursor, encodeCursor } from "../domain/cursor";
import { nextPageHref, setNextLink } from "../http/paging";
import { DEFAULT_LAB_PROVIDER, PedonCollection, PedonCollectionQueryParams, PedonParams, PedonQueryParams, PedonResponse, RawPedonParams, RawPedonResponse } from "./model";
import { pedonDetail, pedonsInBbox, rawPedon, type EffectivePedonQuery } from "./service";
import { layerTableOf, pedonCollectionTable, PEDON_TABLE } from "../tables";
import { retrievedAt } from "../domain/retrieved-at";
import { LayerTable, LayerTableQueryParams } from "./layers-model";
import { layerTable } from "./layers";

export interface PedonRouteDeps extends DataDeps {
  send: Send;
}

/** A laboratory provider id or alias → the provider; unknown 404, planned 409, another role 422. */
function labProvider(deps: DataDeps, given: string, where: string): PedonProvider {
  if (given.trim() === "") throw new ValidationError(`${where} must name a laboratory pedon provider; it is empty (omit it for the default).`);
  return resolveProvider(deps.registry, given.trim(), fitFor("lab_pedons", "laboratory pedons", where));
}

/** The path segment as the provider's own key syntax reads it; a 422 in its words when malformed. */
function pedonKey(provider: PedonProvider, raw: string): PedonKey {
  return siteKey(provider, provider.pedons, raw, "pedon_key");
}

const collectionQuery = strictQuery(PedonCollectionQueryParams);
const layerQuery = strictQuery(LayerTableQueryParams);
const pedonQuery = strictQuery(PedonQueryParams);

/** Without depth_bottom_cm a pedon answer covers the whole pedon, however deep (docs/decisions.md#pedon-depth). */
const asksWholePedon = (request: Request) => !queryOfRequest(request).values.has("depth_bottom_cm");

/** The effective query, and whether the interval is the whole pedon (depth_bottom_cm absent). */
function effectivePedonQuery(key: PedonKey, query: QueryOf<typeof PedonQueryParams>, request: Request): { query: EffectivePedonQuery; wholePedon: boolean } {
  checkDepthInterval(query.depth_top_cm, query.depth_bottom_cm);
  return {
    query: {
      pedon_key: String(key.value),
      properties: parseProperties(query.properties),
      depth_top_cm: query.depth_top_cm,
      depth_bottom_cm: query.depth_bottom_cm,
    },
    wholePedon: asksWholePedon(request),
  };
}

const PROVIDER_ERRORS = {
  404: ["ErrorResponse", "Unknown provider (code unknown_provider), or no pedon with this key (code not_found)."],
  409: PLANNED_PROVIDER_ERROR,
} as const;

export function pedons(deps: PedonRouteDeps) {
  const others = otherProviders(deps.registry, "lab_pedons");
  return new Elysia({ name: "loam.pedons" })
    .get(
      "/v1/pedons",
      async ({ query, request, set }) => {
        const read = collectionQuery.queryOf(query);
        const provider = labProvider(deps, read.provider, "Query parameter 'provider'");
        const bbox = parseBbox(read.bbox);
        const binding = cursorBinding({ collection: "pedons", provider: provider.id, bbox });
        const after = read.cursor === "" ? null : decodeCursor(read.cursor, binding);
        // A CSV holds every page (docs/decisions.md#csv-whole): read.csv and pandas cannot follow a Link header.
        const { answer, nextAfter } = await pedonsInBbox(deps, provider, { bbox, provider: provider.id, limit: read.limit }, after, representationOf(request) === "csv");
        // The spec's body stays as it is: the next page is named by the Link header only.
        setNextLink(set.headers, nextAfter === null ? null : nextPageHref(request, encodeCursor(binding, nextAfter)));
        const source = deps.connected.sourceOf(provider);
        return deps.send(answer, request, set, pedonCollectionTable((body) => retrievedAt(source, Date.parse(body.cache.stored_at))));
      },
      {
        transform: collectionQuery.transform,
        query: PedonCollectionQueryParams,
        ...documentedRoute({
          operationId: "listPedons",
          tag: "pedons",
          summary: "Laboratory pedon points in a bounding box",
          description:
            "An RFC 7946 FeatureCollection of laboratory pedons with site coordinates inside the box, ordered by pedon key, at most `limit` per page; `truncated` is true when more exist, and then a `Link: <...>; rel=\"next\"` header names the next page (the same query with `cursor`): walking the pages returns every pedon of the box once; format=csv answers every page in one file (at most 50,000 rows). Each pedon is a point with representative_of_bbox false. Example: /v1/pedons?bbox=-96.5,38.5,-95,39.5&limit=50" + others,
          ok: [PedonCollection, "Pedon points (possibly none), whether the list is truncated, cache metadata and warnings."],
          errors: {
            404: ["ErrorResponse", "Unknown provider (code unknown_provider)."],
            409: PROVIDER_ERRORS[409],
            422: ["ErrorResponse", "A parameter violates its rules (code validation_error): bbox not four numbers, out of range, min not less than max, over 5 degrees per side or 4 square degrees; limit outside 1 to 500; a mapped-survey provider; format not json or csv; a CSV of more than 50,000 rows; a cursor that was edited or made by another query (another bbox or provider)."],
            ...UPSTREAM_ERRORS,
          },
          etag: true,
          csv: "one row per pedon feature",
        }),
      },
    )
    .get(
      "/v1/pedons/layers",
      async ({ query, request, set }) => {
        const read = layerQuery.queryOf(query);
        const provider = labProvider(deps, read.provider, "Query parameter 'provider'");
        // Any box inside WGS84, as the OGC pedons collection takes: a page is bounded by limit, a CSV by its cap.
        const bbox = parseBbox(read.bbox, WORLD_BBOX_LIMITS);
        checkDepthInterval(read.depth_top_cm, read.depth_bottom_cm);
        const effective = { bbox, provider: provider.id, properties: parseProperties(read.properties), limit: read.limit, depth_top_cm: read.depth_top_cm, depth_bottom_cm: read.depth_bottom_cm, whole_pedon: asksWholePedon(request) };
        const { limit: _limit, ...bound } = effective;
        const binding = cursorBinding({ collection: "pedon_layers", ...bound });
        const after = read.cursor === "" ? null : decodeCursor(read.cursor, binding);
        const whole = representationOf(request) === "csv";
        const { answer, next } = await layerTable(deps, provider, effective, { after, nextHref: (last) => nextPageHref(request, encodeCursor(binding, last)) }, whole);
        setNextLink(set.headers, next);
        const source = deps.connected.sourceOf(provider);
        return deps.send(answer, request, set, layerTableOf((body) => retrievedAt(source, Date.parse(body.cache.stored_at))));
      },
      {
        transform: layerQuery.transform,
        query: LayerTableQueryParams,
        ...documentedRoute({
          operationId: "listPedonLayers",
          tag: "pedons",
          summary: "Laboratory layers of every pedon in a bounding box, one row per layer and property",
          description:
            "A bulk table as soilDB's fetchLDM gives it: for each pedon of the box (in key order, at most `limit` per page), every layer overlapping the depth interval, one row per layer and requested property: layer_key, pedon_key, depths, horizon_designation, layer_type, value (null when censored), reported_value, value_qualifier, reporting_limit, unit, method_code, measurement_method; the same values GET /v1/pedons/{pedon_key} answers. When more pedons follow, `next` (and a Link header with rel=\"next\") names the next page; format=csv answers every page in one file (at most 50,000 rows). Example: /v1/pedons/layers?bbox=-96,38.5,-95,39.5&properties=clay,ph",
          ok: [LayerTable, "Rows (possibly none), the page's pedon count, the next page, cache metadata and warnings."],
          errors: {
            404: ["ErrorResponse", "Unknown provider (code unknown_provider)."],
            409: PROVIDER_ERRORS[409],
            422: [
              "ErrorResponse",
              "A parameter violates its rules (code validation_error): bbox not four numbers, outside WGS84 or min not less than max; a CSV of more than 50,000 rows or 2,000 pedons (narrow the box); unknown or more than eight properties; limit outside 1 to 100; a bad depth interval; format not json or csv; a cursor that was edited or made by another query.",
            ],
            ...UPSTREAM_ERRORS,
          },
          etag: true,
          csv: "one row per layer and property",
        }),
      },
    )
    .get(
      "/v1/pedons/:pedon_key",
      async ({ params, query, request, set }) => {
        // Without `provider`, the default laboratory provider (refused, 409, should the catalog ever mark it planned).
        const read = pedonQuery.queryOf(query);
        const provider = labProvider(deps, read.provider, "Query parameter 'provider'");
        const key = pedonKey(provider, params.pedon_key);
        const effective = effectivePedonQuery(key, read, request);
        const answer = await pedonDetail(deps, provider, key, effective.query, effective.wholePedon);
        return deps.send(answer, request, set, PEDON_TABLE);
      },
      {
        params: PedonParams,
        transform: pedonQuery.transform,
        query: PedonQueryParams,
        ...documentedRoute({
          operationId: "getPedon",
          tag: "pedons",
          summary: "One laboratory pedon: its layers and observations",
          description:
            "The pedon's lab layers overlapping the depth interval, each with the requested observations as reported: value (null when censored), reported_value, value_qualifier, reporting_limit, unit, original column, method code and method, data kind, transformations and warnings; with location, citation and cache metadata. The key is a pedlabsampnum (lower case accepted) or an SDA pedon_key. Example: /v1/pedons/02N0245?properties=ph,organic_carbon,clay,cec&depth_bottom_cm=50",
          ok: [PedonResponse, "Layers (possibly none in the interval), observations, location, citation, cache metadata and warnings."],
          errors: {
            ...PROVIDER_ERRORS,
            422: ["ErrorResponse", "Malformed pedon key, unknown or more than eight properties, a bad depth interval, or a provider that does not serve laboratory pedons (code validation_error)."],
            ...UPSTREAM_ERRORS,
          },
          etag: true,
          csv: "one row per lab observation",
        }),
      },
    )
    .get(
      "/v1/providers/:provider_id/raw/pedons/:pedon_key",
      async ({ params, request, set }) => {
        const provider = labProvider(deps, params.provider_id, "Path parameter 'provider_id'");
        const answer = await rawPedon(deps, provider, pedonKey(provider, params.pedon_key));
        return deps.send(answer, request, set);
      },
      {
        params: RawPedonParams,
        ...documentedRoute({
          operationId: "getRawPedon",
          tag: "raw",
          summary: "Untouched upstream laboratory table for one pedon",
          description:
            `The exact SDA JSON (JSON+COLUMNNAME+METADATA) of the fixed, bounded laboratory query behind /v1/pedons/{pedon_key}, inside a labelled wrapper; in snapshot mode the same table shape built from the snapshot. Not normalized; not promised to stay stable. Example: /v1/providers/${DEFAULT_LAB_PROVIDER}/raw/pedons/02N0245`,
          ok: [RawPedonResponse, "The raw payload in its wrapper."],
          errors: {
            ...PROVIDER_ERRORS,
            422: ["ErrorResponse", "Malformed pedon key, or a provider that serves mapped values rather than laboratory pedons (code validation_error)."],
            ...UPSTREAM_ERRORS,
          },
          etag: true,
        }),
      },
    );
}
