/** Models of the series description endpoint, GET /v1/series/{name} (any series provider). */
import { t } from "elysia";
import { FORMAT_PARAMETER } from "../domain/model";
import { MunsellColor, SeriesDepth, SeriesHorizon, SeriesOriginalDepth, SeriesInfo, SeriesLink, SeriesResponse, SeriesSection, SeriesSource } from "../domain/series";

/**
 * The `name` path parameter in the words of the series provider the route answers from (its key
 * syntax and an example it describes): the document promises what the provider enforces.
 */
export const seriesParams = (names: { syntax: string; example: string }) =>
  t.Object({ name: t.String({ description: `Soil series name: ${names.syntax}.`, examples: [names.example] }) });

export const SeriesQueryParams = t.Object({
  provider: t.Optional(
    t.String({ maxLength: 60, default: "", description: "A provider of series descriptions (GET /v1/providers lists them); default the registry's first one." }),
  ),
  ...FORMAT_PARAMETER,
});

export const SERIES_MODELS = { SeriesResponse, SeriesInfo, SeriesSection, SeriesHorizon, SeriesDepth, SeriesOriginalDepth, MunsellColor, SeriesSource, SeriesLink };
