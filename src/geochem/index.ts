/**
 * GET /v1/geochem/sites, GET /v1/geochem/sites/{site_id} and
 * GET /v1/providers/{provider_id}/raw/sites/{site_id}: any sample_sites provider (docs/decisions.md#geochem).
 */
import { Elysia } from "elysia";
import { documentedRoute, PLANNED_PROVIDER_ERROR, UPSTREAM_ERRORS } from "../http/openapi";
import { parsedQuery, strictQuery } from "../http/query";
import { nextPageHref, setNextLink } from "../http/paging";
import type { Send } from "../http/response";
import { ValidationError } from "../errors";
import type { DataDeps } from "../answer";
import { defaultProvider, fitFor, otherProviders, resolveProvider, type ProviderFit } from "../answer/providers";
import { boxOrNear } from "../domain/bbox";
import { representationOf } from "../http/negotiate";
import type { SampleSiteProvider } from "../providers/provider";
import { geochemSiteCollectionTable, GEOCHEM_SITE_TABLE } from "./table";
import { retrievedAt } from "../domain/retrieved-at";
import { GEOCHEM_PROVIDER, GeochemSiteCollection, GeochemSiteParams, GeochemSiteQueryParams, GeochemSiteResponse, GeochemSitesQueryParams, MAX_NEAR_LIMIT, RawGeochemSiteParams, RawGeochemSiteResponse } from "./model";
import { element, elements, siteIdOf, geochemSite, geochemSites, rawGeochemSite, type EffectiveSitesQuery } from "./service";

export interface GeochemRouteDeps extends DataDeps {
  send: Send;
}


const SAMPLE_SITES: ProviderFit<SampleSiteProvider> = fitFor("sample_sites", "sample sites", "Path parameter 'provider_id'");

const ASKED_SITES: ProviderFit<SampleSiteProvider> = fitFor("sample_sites", "sample sites", "Query parameter 'provider'");

/** The provider a request names (`provider`), else the registry's default of the role. */
function sampleSites(deps: DataDeps, name: string, request: Request): SampleSiteProvider {
  if (name !== "") return resolveProvider(deps.registry, name, ASKED_SITES);
  if (parsedQuery(request.url).values.has("provider")) throw new ValidationError("Query parameter 'provider' must not be empty; omit it for the default provider of sample sites.");
  return defaultProvider(deps.registry, "sample_sites");
}


const sitesQuery = strictQuery(GeochemSitesQueryParams);
const siteQuery = strictQuery(GeochemSiteQueryParams);

function effectiveSitesQuery(provider: SampleSiteProvider, read: ReturnType<typeof sitesQuery.queryOf>, request: Request): EffectiveSitesQuery {
  return {
    ...boxOrNear(read, parsedQuery(request.url).values.has("bbox"), "sites", MAX_NEAR_LIMIT),
    limit: read.limit,
    property: read.property === "" ? null : element(provider, read.property, "property"),
    cursor: read.cursor === "" ? null : read.cursor,
  };
}

/** The Link header of a page that is followed by another (RFC 8288). */
const NEXT_PAGE_LINK = 'With truncated: <path of the next page>; rel="next" (RFC 8288).';

const SITE_ERRORS = {
  404: ["ErrorResponse", "No site with this SiteID (code not_found), or an unknown provider (code unknown_provider)."],
  ...UPSTREAM_ERRORS,
} as const;

export function geochem(deps: GeochemRouteDeps) {
  // The routes' text names the registry's default provider by its own short name (docs/decisions.md#provider-words).
  const provider = deps.registry.defaultFor("sample_sites");
  const source = provider?.shortName ?? "the sample-site provider's";
  const others = otherProviders(deps.registry, "sample_sites");
  const scope = provider ? ` (${provider.sites.scope.samples}, ${provider.sites.scope.area})` : "";
  return new Elysia({ name: "loam.geochem" })
    .get(
      "/v1/geochem/sites",
      async ({ query, request, set }) => {
        const read = sitesQuery.queryOf(query);
        const provider = sampleSites(deps, read.provider, request);
        const effective = effectiveSitesQuery(provider, read, request);
        // A CSV holds every page (docs/decisions.md#csv-whole): read.csv and pandas cannot follow a Link header.
        const { answer, next } = await geochemSites(deps, provider, effective, (cursor) => nextPageHref(request, cursor), representationOf(request) === "csv");
        setNextLink(set.headers, next);
        const source = deps.connected.sourceOf(provider);
        return deps.send(answer, request, set, geochemSiteCollectionTable((body) => retrievedAt(source, Date.parse(body.cache.stored_at))));
      },
      {
        transform: sitesQuery.transform,
        query: GeochemSitesQueryParams,
        ...documentedRoute({
          operationId: "listGeochemSites",
          tag: "geochem",
          summary: "Geochemistry sample sites in a box, or nearest a point",
          description:
            `An RFC 7946 FeatureCollection of ${source} sample sites${scope}. With bbox (any size inside WGS84): the sites in the box in site-id order, at most \`limit\` per page; when \`truncated\`, \`next\` (and the Link header) give the next page, whose cursor is bound to the box and property; format=csv answers every page of the box in one file (at most 50,000 rows). With near=lat,lon: the \`limit\` nearest sites, nearest first, each with distance_km. With property (one element): each site carries its result flat (value, reported_value, value_qualifier, reporting_limit, unit) for mapping; censored results have value null. Examples: /v1/geochem/sites?bbox=-96.7,40.3,-90.1,43.6&property=arsenic, /v1/geochem/sites?near=42.0864,-93.7571&limit=5${others}`,
          ok: [GeochemSiteCollection, "Sites (possibly none), whether more follow and the next page, cache metadata and warnings."],
          errors: {
            404: ["ErrorResponse", "Unknown provider (code unknown_provider)."],
            409: PLANNED_PROVIDER_ERROR,
            422: [
              "ErrorResponse",
              "A parameter violates its rules (code validation_error): a provider that does not serve sample sites, or an empty one; both bbox and near; bbox not four numbers, outside WGS84 or min not less than max; near not latitude,longitude; limit outside 1 to 1000 (1 to 100 with near); an unknown property or one that is not an element of the survey; a cursor from another query, altered, or with near; format not json or csv.",
            ],
            ...UPSTREAM_ERRORS,
          },
          etag: true,
          csv: "one row per site",
          link: NEXT_PAGE_LINK,
        }),
      },
    )
    .get(
      "/v1/geochem/sites/:site_id",
      async ({ params, query, request, set }) => {
        const read = siteQuery.queryOf(query);
        const provider = sampleSites(deps, read.provider, request);
        const siteId = siteIdOf(provider, params.site_id);
        const answer = await geochemSite(deps, provider, siteId, elements(provider, read.properties));
        return deps.send(answer, request, set, GEOCHEM_SITE_TABLE);
      },
      {
        params: GeochemSiteParams,
        transform: siteQuery.transform,
        query: GeochemSiteQueryParams,
        ...documentedRoute({
          operationId: "getGeochemSite",
          tag: "geochem",
          summary: "One geochemistry sample site and its element results",
          description:
            `The site (its id, lab id, state, coordinates, collection date, land cover as recorded, sampled depth) and one observation per element asked for (default all ${provider?.sites.properties.length ?? "it serves"}): value (null when censored), reported_value as the file has it, value_qualifier, reporting_limit, unit (from the file's unit row; wt. % served as %), the file's column and cell, citation and retrieval time. An element with no sample (N.S.) has no observation and a warning naming it. Example: /v1/geochem/sites/${provider?.sites.key.example ?? "3560"}?properties=arsenic,selenium,lead`,
          ok: [GeochemSiteResponse, "The site, its observations, provenance, cache metadata and warnings."],
          errors: {
            409: PLANNED_PROVIDER_ERROR,
            422: ["ErrorResponse", "Malformed site id; an unknown property or one the survey does not report; a provider that does not serve sample sites, or an empty one; format not json or csv (code validation_error)."],
            ...SITE_ERRORS,
          },
          etag: true,
          csv: "one row per element observation",
        }),
      },
    )
    .get(
      "/v1/providers/:provider_id/raw/sites/:site_id",
      async ({ params, request, set }) => {
        const provider = resolveProvider(deps.registry, params.provider_id, SAMPLE_SITES);
        const answer = await rawGeochemSite(deps, provider, siteIdOf(provider, params.site_id));
        return deps.send(answer, request, set);
      },
      {
        params: RawGeochemSiteParams,
        ...documentedRoute({
          operationId: "getRawGeochemSite",
          tag: "raw",
          summary: "Untouched upstream row for one sample site",
          description:
            `The source file's row for the site as {column: cell} beside the unit row as {column: unit}, every cell a string as written, inside a labelled wrapper. Not normalized; not promised to stay stable. Example: /v1/providers/${GEOCHEM_PROVIDER}/raw/sites/3560`,
          ok: [RawGeochemSiteResponse, "The raw row in its wrapper."],
          errors: {
            404: ["ErrorResponse", "Unknown provider (code unknown_provider), or no site with this SiteID (code not_found)."],
            409: PLANNED_PROVIDER_ERROR,
            422: ["ErrorResponse", "Malformed site id, or a provider that does not serve sample sites (code validation_error)."],
            ...UPSTREAM_ERRORS,
          },
          etag: true,
        }),
      },
    );
}
