/**
 * Models of the map-unit summaries (GET /v1/soil/mapunits/{map_unit_key}, GET /v1/soil/summary): one
 * body for both, the map unit with every component, and one summary per requested property.
 */
import { defaultProviderId } from "../providers/registry";

/** The provider of map-unit summaries when a request names none (declared in the registry). */
export const DEFAULT_SUMMARY_PROVIDER = defaultProviderId("mapped_location");
import { t } from "elysia";
import { COORDINATE_PARAMETERS, DEPTH_PARAMETERS, FORMAT_PARAMETER, closed, nullable, envelope } from "../domain/model";
import { propertiesParameter } from "../catalog/model";
import { SeriesLink } from "../domain/series";
import { DEFAULT_SUMMARY_PROPERTIES, PropertySummary, SummaryContribution, SummaryMethodName, SummarySource } from "../aggregation/model";
import { SUMMARY_OPTION_PARAMETERS, SummaryOptions } from "../aggregation/options";

const summaryParameters = {
  providers: t.Optional(
    t.String({ maxLength: 40, default: DEFAULT_SUMMARY_PROVIDER, description: `One mapped-location provider id (${DEFAULT_SUMMARY_PROVIDER}); at most 40 characters.`, examples: [DEFAULT_SUMMARY_PROVIDER] }),
  ),
  provider: t.Optional(t.String({ maxLength: 40, default: "", description: "Same as providers (one provider id); give one of the two.", examples: [DEFAULT_SUMMARY_PROVIDER] })),
  properties: propertiesParameter(DEFAULT_SUMMARY_PROPERTIES),
  method: t.Optional(
    t.String({
      maxLength: 40,
      default: "",
      description:
        "Aggregation method for every requested property: weighted_average, dominant_component, dominant_condition, min or max. Empty (default): weighted_average for numbers, dominant_condition for classes. A method that does not fit a property is a 422.",
      examples: ["weighted_average"],
    }),
  ),
  ...DEPTH_PARAMETERS,
  ...SUMMARY_OPTION_PARAMETERS,
  ...FORMAT_PARAMETER,
};

export const SummaryQueryParams = t.Object({
  ...COORDINATE_PARAMETERS,
  ...summaryParameters,
});

/** The map unit by key lists its components; it summarizes only when `properties` is given. */
export const MapUnitQueryParams = t.Object({
  ...summaryParameters,
  properties: t.Optional(
    t.String({
      maxLength: 200,
      default: "",
      description:
        "Comma-separated canonical property ids or aliases (GET /v1/properties) to summarize, at most eight after aliases are resolved and duplicates removed; at most 200 characters. Empty (default): the map unit and its components, no summaries.",
      // Numbers only: the method example (weighted_average) does not fit a class such as drainage_class (a 422).
      examples: ["clay,available_water_storage,ksat"],
    }),
  ),
});

/**
 * The key in the words of the provider the route answers from by default (its syntax, pattern and a key
 * it holds): the document promises what the provider enforces. The route checks the key itself (the
 * provider's checkKey, with a message naming the rule): Elysia does not check it first (noValidate).
 */
export const mapUnitParams = (keys: { syntax: string; pattern?: string; example: string }) =>
  t.Object(
    { map_unit_key: t.String({ maxLength: 40, description: `The map unit key: ${keys.syntax}, e.g. ${keys.example}.`, examples: [keys.example], ...(keys.pattern ? { pattern: keys.pattern } : {}) }) },
    { noValidate: true },
  );

export const SummaryQuery = t.Object(
  {
    latitude: nullable(t.Number()),
    longitude: nullable(t.Number()),
    map_unit_key: nullable(t.String()),
    providers: t.Array(t.String()),
    properties: t.Array(t.String()),
    method: t.Union([SummaryMethodName, t.Null()], { description: "The method asked for; null when each property takes its default." }),
    depth_top_cm: t.Number(),
    depth_bottom_cm: t.Number(),
    include_minors: SummaryOptions.properties.include_minors,
    miscellaneous_areas: SummaryOptions.properties.miscellaneous_areas,
  },
  { ...closed, title: "SummaryQuery", description: "The effective query: defaults applied, aliases resolved. A point query has latitude and longitude, a map-unit query map_unit_key." },
);

export const MapUnitComponent = t.Object(
  {
    component_key: t.String(),
    component_name: t.String(),
    component_kind: nullable(t.String({ description: "Series, Taxadjunct, Miscellaneous area, ..." })),
    component_percent: nullable(t.Number()),
    major_component: t.Boolean(),
    taxonomic_class: nullable(t.String()),
    slope_percent: nullable(t.Number()),
    drainage_class: nullable(t.String()),
    hydrologic_group: nullable(t.String()),
    has_horizon_data: t.Boolean({ description: "False for components without horizons (Urban land, Water, ...)." }),
    series: t.Union([SeriesLink, t.Null()], { description: "The series description of a Series or Taxadjunct component, when one exists; null for other kinds and for series without a description." }),
  },
  { ...closed, title: "MapUnitComponent" },
);

export const MapUnit = t.Object(
  {
    provider: t.String(),
    area_symbol: t.String(),
    map_unit_key: t.String(),
    map_unit_symbol: t.String(),
    map_unit_name: t.String(),
    components: t.Array(MapUnitComponent, { description: "Every component, with or without horizon data, highest percent first." }),
  },
  { ...closed, title: "MapUnit" },
);

export const SummaryResponse = envelope(
  "SummaryResponse",
  {
    query: SummaryQuery,
    data_kind: t.Literal("derived"),
    map_unit: nullable(MapUnit),
    summaries: t.Array(PropertySummary),
  },
);

export const SUMMARY_MODELS = {
  SummaryMethod: SummaryMethodName,
  SummaryOptions,
  SummaryQuery,
  MapUnitComponent,
  MapUnit,
  SummaryContribution,
  SummarySource,
  PropertySummary,
  SummaryResponse,
};
