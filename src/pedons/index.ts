/**
 * GET /v1/pedons, GET /v1/pedons/{pedon_key} and GET /v1/providers/{provider_id}/raw/pedons/{pedon_key}
 * (spec §4.7–4.9, DESIGN §3).
 */
import { Elysia } from "elysia";
import { documentedResponses } from "../http/openapi";
import { sendPrepared } from "../http/data-answer";
import { strictQuery } from "../http/route-query";
import { ProviderNotOperationalError, UnknownProviderError, ValidationError } from "../errors";
import { canonicalProviderId, LAB_PROVIDER_ID, providerRole } from "../catalog/providers";
import { checkDepthInterval, parseProperties } from "../shared/properties-param";
import { parsePedonKey, type PedonKey } from "../upstream/queries";
import { parseBbox } from "./bbox";
import {
  DEFAULT_PEDON_PROPERTIES,
  PedonCollection,
  PedonCollectionQueryParams,
  PedonParams,
  PedonQueryParams,
  PedonResponse,
  RawPedonParams,
  RawPedonResponse,
} from "./model";
import { pedonDetail, pedonsInBbox, rawPedon, type EffectivePedonQuery, type PedonDeps } from "./service";

const show = (raw: string) => (raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);

/** A laboratory provider id or alias → the canonical id; unknown 404, planned 409, mapped-survey 422. */
function labProvider(given: string, where: string): string {
  if (given.trim() === "") throw new ValidationError(`${where} must name a laboratory pedon provider (usda_kssl or an alias); it is empty.`);
  const id = canonicalProviderId(given.trim());
  if (id === undefined) throw new UnknownProviderError(show(given));
  const role = providerRole(id);
  if (role === "planned") throw new ProviderNotOperationalError(id);
  if (role !== "lab_pedons") {
    throw new ValidationError(`${where} names '${id}', which serves mapped values for a point, not laboratory pedons; use GET /v1/soil/location for it.`, id);
  }
  return id;
}

function pedonKey(raw: string): PedonKey {
  const key = parsePedonKey(raw);
  if (key === null) {
    throw new ValidationError(
      `Path parameter 'pedon_key' must be a KSSL pedon lab sample number such as 02N0245 (two digits, a letter, four digits or letters) or an SDA integer pedon_key from 1 to 2147483647; got '${show(raw)}'.`,
    );
  }
  return key;
}

function effectivePedonQuery(key: PedonKey, query: Record<string, unknown>): EffectivePedonQuery {
  const top = query.depth_top_cm as number;
  const bottom = query.depth_bottom_cm as number;
  checkDepthInterval(top, bottom);
  return {
    pedon_key: String(key.value),
    properties: parseProperties((query.properties as string | undefined) ?? DEFAULT_PEDON_PROPERTIES),
    depth_top_cm: top,
    depth_bottom_cm: bottom,
  };
}

const UPSTREAM_ERRORS = {
  502: ["ErrorResponse", "The upstream provider failed (code upstream_error or upstream_unreachable); retryable."],
  504: ["ErrorResponse", "The upstream provider gave no complete answer in time (code upstream_timeout); retryable."],
} as const;
const PROVIDER_ERRORS = {
  404: ["ErrorResponse", "Unknown provider (code unknown_provider), or no pedon with this key (code not_found)."],
  409: ["ErrorResponse", "The provider is planned, not operational (code provider_not_operational)."],
} as const;

export function pedons(deps: PedonDeps) {
  return new Elysia({ name: "loam.pedons" })
    .get(
      "/v1/pedons",
      async ({ query, request, set }) => {
        const provider = labProvider((query.provider as string | undefined) ?? LAB_PROVIDER_ID, "Query parameter 'provider'");
        const bbox = parseBbox(query.bbox as string);
        const prepared = await pedonsInBbox(deps, { bbox, provider, limit: query.limit as number });
        return sendPrepared(prepared, request, set);
      },
      {
        transform: strictQuery(PedonCollectionQueryParams),
        query: PedonCollectionQueryParams,
        response: { 200: PedonCollection },
        detail: {
          tags: ["pedons"],
          summary: "Laboratory pedon points in a bounding box",
          description:
            "An RFC 7946 FeatureCollection of laboratory pedons with site coordinates inside the box, ordered by pedon key, at most `limit`; `truncated` is true when more exist (narrow the box: the list is then not complete). Each pedon is a point with representative_of_bbox false. Example: /v1/pedons?bbox=-96.5,38.5,-95,39.5&limit=50",
          responses: documentedResponses(
            {
              200: ["PedonCollection", "Pedon points (possibly none), whether the list is truncated, cache metadata and warnings."],
              404: ["ErrorResponse", "Unknown provider (code unknown_provider)."],
              409: PROVIDER_ERRORS[409],
              422: ["ErrorResponse", "A parameter violates its rules (code validation_error): bbox not four numbers, out of range, min not less than max, over 5 degrees per side or 4 square degrees; limit outside 1 to 500; a mapped-survey provider."],
              ...UPSTREAM_ERRORS,
            },
            { etag: true },
          ),
        },
      },
    )
    .get(
      "/v1/pedons/:pedon_key",
      async ({ params, query, request, set }) => {
        // The detail names no provider: it is the laboratory provider, refused (409) should the catalog ever mark it planned.
        labProvider(LAB_PROVIDER_ID, "The laboratory provider");
        const key = pedonKey(params.pedon_key);
        const prepared = await pedonDetail(deps, key, effectivePedonQuery(key, query));
        return sendPrepared(prepared, request, set);
      },
      {
        params: PedonParams,
        transform: strictQuery(PedonQueryParams),
        query: PedonQueryParams,
        response: { 200: PedonResponse },
        detail: {
          tags: ["pedons"],
          summary: "One laboratory pedon: its layers and observations",
          description:
            "The pedon's lab layers overlapping the depth interval, each with the requested observations as reported: value (null when censored), reported_value, value_qualifier, reporting_limit, unit, original column, method code and method, data kind, transformations and warnings; with location, citation and cache metadata. The key is a pedlabsampnum (lower case accepted) or an SDA pedon_key. Example: /v1/pedons/02N0245?properties=ph,organic_carbon,clay,cec&depth_bottom_cm=50",
          responses: documentedResponses(
            {
              200: ["PedonResponse", "Layers (possibly none in the interval), observations, location, citation, cache metadata and warnings."],
              404: ["ErrorResponse", "No pedon with this key (code not_found)."],
              409: ["ErrorResponse", "The laboratory provider is planned, not operational (code provider_not_operational); not the case today."],
              422: ["ErrorResponse", "Malformed pedon key, unknown or more than eight properties, or a bad depth interval (code validation_error)."],
              ...UPSTREAM_ERRORS,
            },
            { etag: true },
          ),
        },
      },
    )
    .get(
      "/v1/providers/:provider_id/raw/pedons/:pedon_key",
      async ({ params, request, set }) => {
        const provider = labProvider(params.provider_id, "Path parameter 'provider_id'");
        const prepared = await rawPedon(deps, provider, pedonKey(params.pedon_key));
        return sendPrepared(prepared, request, set);
      },
      {
        params: RawPedonParams,
        response: { 200: RawPedonResponse },
        detail: {
          tags: ["raw"],
          summary: "Untouched upstream laboratory table for one pedon",
          description:
            "The exact SDA JSON (JSON+COLUMNNAME+METADATA) of the fixed, bounded laboratory query behind /v1/pedons/{pedon_key}, inside a labelled wrapper; in snapshot mode the same table shape built from the snapshot. Not normalized; not promised to stay stable. Example: /v1/providers/usda_kssl/raw/pedons/02N0245",
          responses: documentedResponses(
            {
              200: ["RawPedonResponse", "The raw payload in its wrapper."],
              ...PROVIDER_ERRORS,
              422: ["ErrorResponse", "Malformed pedon key, or a provider that serves mapped values rather than laboratory pedons (code validation_error)."],
              ...UPSTREAM_ERRORS,
            },
            { etag: true },
          ),
        },
      },
    );
}
