/** Models of the series description endpoint, GET /v1/series/{name} (any series provider). */
import { t } from "elysia";
import { FORMAT_PARAMETER } from "../domain/model";
import { MunsellColor, SeriesDepth, SeriesHorizon, SeriesOriginalDepth, SeriesInfo, SeriesLink, SeriesResponse, SeriesSection, SeriesSource } from "../domain/series";

export const SeriesNameParam = t.String({
  description:
    "Soil series name, case-insensitive; words separated by spaces or underscores (Clarion, new cambria, NEW_CAMBRIA). Letters only, at most four words and 40 characters.",
  examples: ["Clarion"],
});

export const SeriesParams = t.Object({ name: SeriesNameParam });

export const SeriesQueryParams = t.Object({ ...FORMAT_PARAMETER });

export const SERIES_MODELS = { SeriesResponse, SeriesInfo, SeriesSection, SeriesHorizon, SeriesDepth, SeriesOriginalDepth, MunsellColor, SeriesSource, SeriesLink };
