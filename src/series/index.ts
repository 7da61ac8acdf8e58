/** GET /v1/series/{name}: the description of a soil series, from the registry's series provider. */
import { Elysia } from "elysia";
import { documentedRoute, UPSTREAM_ERRORS } from "../http/openapi";
import type { Send } from "../http/response";
import { strictQuery } from "../http/query";
import { SERIES_TABLE } from "../tables";
import { defaultProvider } from "../answer/providers";
import type { DataDeps } from "../answer";
import { seriesParams, SeriesQueryParams } from "./model";
import { SeriesResponse } from "../domain/series";
import { seriesDescription } from "./service";

export interface SeriesRouteDeps extends DataDeps {
  send: Send;
}

const seriesQuery = strictQuery(SeriesQueryParams);

/** The route's words when no series provider is registered (it then answers 409 for any name). */
const NO_PROVIDER = { describedAs: "soil series description", names: { syntax: "a soil series name", example: "Clarion" } };

export function series(deps: SeriesRouteDeps) {
  // The document speaks the registry's series provider's words: what it calls a description, its names.
  const { describedAs, names } = deps.registry.defaultFor("series")?.series ?? NO_PROVIDER;
  return new Elysia({ name: "loam.series" }).get(
    "/v1/series/:name",
    async ({ params, query, request, set }) => {
      // Read for its 422 (format not json or csv) before any upstream call; the pipeline negotiates.
      seriesQuery.queryOf(query);
      const provider = defaultProvider(deps.registry, "series");
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
        description: `The series' taxonomic class, status, states and revision month, every text section of the description in its order, and the typical pedon's horizons (depths in cm, moist and dry Munsell colours as notation and sRGB, texture, structure, reaction class, the horizon's own narrative), with provenance (the citation names the revision) and cache metadata. The name is ${names.syntax}. \`format=csv\` gives the horizons as a table. Example: /v1/series/${encodeURIComponent(names.example)}`,
        ok: [SeriesResponse, "The description, its horizons, provenance, cache metadata and warnings."],
        errors: {
          404: ["ErrorResponse", "No description of a series with this name (code not_found)."],
          422: ["ErrorResponse", `Not ${names.syntax}; or format not json or csv (code validation_error).`],
          ...UPSTREAM_ERRORS,
        },
        etag: true,
        csv: "one row per horizon of the typical pedon",
      }),
    },
  );
}
