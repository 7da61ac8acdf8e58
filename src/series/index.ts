/** GET /v1/series/{name}: the description of a soil series, from the registry's series provider. */
import { Elysia } from "elysia";
import { documentedRoute, PLANNED_PROVIDER_ERROR, UPSTREAM_ERRORS } from "../http/openapi";
import type { Send } from "../http/response";
import { strictQuery } from "../http/query";
import { SERIES_TABLE } from "../tables";
import { defaultProvider, fitFor, otherProviders, resolveProvider } from "../answer/providers";
import { ValidationError } from "../errors";
import { parsedQuery } from "../http/query";
import type { DataDeps } from "../answer";
import { seriesParams, SeriesQueryParams } from "./model";
import { SeriesResponse } from "../domain/series";
import { seriesDescription } from "./service";

export interface SeriesRouteDeps extends DataDeps {
  send: Send;
}

const seriesQuery = strictQuery(SeriesQueryParams);
const SERIES = fitFor("series", "series descriptions", "Query parameter 'provider'");

/** The provider a request names (`provider`), else the registry's default of the role. */
function seriesProvider(deps: DataDeps, read: string, request: Request) {
  if (read !== "") return resolveProvider(deps.registry, read, SERIES);
  if (parsedQuery(request.url).values.has("provider")) throw new ValidationError("Query parameter 'provider' must not be empty; omit it for the default provider of series descriptions.");
  return defaultProvider(deps.registry, "series");
}

/** The route's words when no series provider is registered (it then answers 409 for any name). */
const NO_PROVIDER = { describedAs: "soil series description", names: { syntax: "a soil series name", example: "Clarion" } };

export function series(deps: SeriesRouteDeps) {
  // The document speaks the registry's series provider's words: what it calls a description, its names.
  const { describedAs, names } = deps.registry.defaultFor("series")?.series ?? NO_PROVIDER;
  const others = otherProviders(deps.registry, "series");
  return new Elysia({ name: "loam.series" }).get(
    "/v1/series/:name",
    async ({ params, query, request, set }) => {
      // Read for its 422 (format not json or csv) before any upstream call; the pipeline negotiates.
      const read = seriesQuery.queryOf(query);
      const provider = seriesProvider(deps, read.provider, request);
      const key = provider.series.keyOf(params.name);
      const answer = await seriesDescription(deps, provider, key);
      return deps.send(answer, request, set, SERIES_TABLE);
    },
    {
      params: seriesParams(names),
      transform: seriesQuery.transform,
      query: SeriesQueryParams,
      ...documentedRoute({
        operationId: "getSeries",
        tag: "series",
        summary: `The ${describedAs} of a soil series`,
        description: `The series' taxonomic class, status, states and revision month, every text section of the description in its order, and the typical pedon's horizons (depths in cm, moist and dry Munsell colours as notation and sRGB, texture, structure, reaction class, the horizon's own narrative), with provenance (the citation names the revision) and cache metadata. The name is ${names.syntax}. \`format=csv\` gives the horizons as a table. Example: /v1/series/${encodeURIComponent(names.example)}${others}`,
        ok: [SeriesResponse, "The description, its horizons, provenance, cache metadata and warnings."],
        errors: {
          404: ["ErrorResponse", "No description of a series with this name (code not_found), or an unknown provider (code unknown_provider)."],
          409: PLANNED_PROVIDER_ERROR,
          422: ["ErrorResponse", `Not ${names.syntax} (the default provider's key; another provider's own); a provider that does not describe series; or format not json or csv (code validation_error).`],
          ...UPSTREAM_ERRORS,
        },
        etag: true,
        csv: "one row per horizon of the typical pedon",
      }),
    },
  );
}
