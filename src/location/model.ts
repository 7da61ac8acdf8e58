/** Models of the point query and its raw twin (docs/decisions.md#provenance). */
import { t } from "elysia";
import { CacheMetadata, COORDINATE_PARAMETERS, DEPTH_PARAMETERS, DepthInterval, FORMAT_PARAMETER, closed, nullable } from "../answer/model";
import { PropertyReference, Transformation, propertiesParameter } from "../catalog/model";

export const DEFAULT_LOCATION_PROPERTIES = "ph,organic_matter,sand,silt,clay";

const pointParameters = {
  ...COORDINATE_PARAMETERS,
  properties: propertiesParameter(DEFAULT_LOCATION_PROPERTIES),
  ...DEPTH_PARAMETERS,
};

export const LocationQueryParams = t.Object({
  ...pointParameters,
  providers: t.Optional(
    t.String({ maxLength: 40, default: "usda_ssurgo", description: "One mapped-location provider id; at most 40 characters.", examples: ["usda_ssurgo"] }),
  ),
  ...FORMAT_PARAMETER,
});

export const RawLocationQueryParams = t.Object(pointParameters);

export const RawLocationPathParams = t.Object({
  provider_id: t.String({ description: "A mapped-location provider id (usda_ssurgo).", examples: ["usda_ssurgo"] }),
});

export const LocationQuery = t.Object(
  {
    latitude: t.Number(),
    longitude: t.Number(),
    providers: t.Array(t.String()),
    properties: t.Array(t.String()),
    depth_top_cm: t.Number(),
    depth_bottom_cm: t.Number(),
  },
  { ...closed, title: "LocationQuery", description: "The effective query: defaults applied, aliases resolved to canonical ids." },
);

export const MapUnitSummary = t.Object(
  {
    area_symbol: t.String(),
    map_unit_key: t.String(),
    map_unit_symbol: t.String(),
    map_unit_name: t.String(),
  },
  {
    ...closed,
    title: "MapUnitSummary",
    description:
      "The spec's map unit: exactly these four fields (docs/decisions.md#location-map-units). Its components are listed by GET /v1/soil/mapunits/{map_unit_key}; components without horizon data are named in warnings.",
  },
);

export const SourceProvenance = t.Object(
  {
    provider: t.String(),
    organization: t.String(),
    record_id: nullable(t.String({ description: "Provider horizon key (SSURGO chkey)." })),
    retrieved_at: t.String({ format: "date-time" }),
    original_property_name: t.String({ examples: ["chorizon.om_r"] }),
    original_value: t.Number(),
    original_unit: t.String(),
    original_depth: DepthInterval,
    original_measurement_method: nullable(t.String()),
    citation: t.String(),
    source_url: t.String(),
    spatial_resolution: t.Optional(nullable(t.String())),
  },
  { ...closed, title: "SourceProvenance" },
);

export const ObservationLocation = t.Object(
  { latitude: t.Number(), longitude: t.Number(), horizontal_accuracy_m: t.Optional(nullable(t.Number())) },
  { ...closed, title: "ObservationLocation" },
);

export const Uncertainty = t.Object(
  { lower: t.Optional(nullable(t.Number())), upper: t.Optional(nullable(t.Number())), method: t.Optional(nullable(t.String())) },
  { ...closed, title: "Uncertainty" },
);

export const LicenseRecord = t.Object(
  { name: t.Optional(nullable(t.String())), url: t.Optional(nullable(t.String())) },
  { ...closed, title: "LicenseRecord" },
);

export const SurveyContext = t.Object(
  {
    area_symbol: t.String(),
    map_unit_key: t.String(),
    map_unit_symbol: t.String(),
    map_unit_name: t.String(),
    component_key: t.String(),
    component_name: t.String(),
    component_percent: nullable(t.Number()),
    horizon_key: t.String(),
    horizon_name: nullable(t.String()),
  },
  { ...closed, title: "SurveyContext" },
);

export const DataKind = t.Union([t.Literal("observed"), t.Literal("modeled"), t.Literal("mapped_survey"), t.Literal("derived"), t.Literal("user_supplied")]);

export const SoilObservation = t.Object(
  {
    property: PropertyReference,
    value: t.Number(),
    unit: t.String(),
    depth: DepthInterval,
    data_kind: DataKind,
    measurement_method: nullable(t.String()),
    source: SourceProvenance,
    location: ObservationLocation,
    uncertainty: Uncertainty,
    license: LicenseRecord,
    transformations: t.Array(Transformation),
    warnings: t.Array(t.String()),
    survey_context: SurveyContext,
  },
  { ...closed, title: "SoilObservation" },
);

export const LocationResponse = t.Object(
  {
    api_version: t.String(),
    status: t.Literal("experimental"),
    query: LocationQuery,
    data_kind: t.Literal("mapped_survey"),
    observations: t.Array(SoilObservation),
    map_units: t.Array(MapUnitSummary),
    cache: CacheMetadata,
    warnings: t.Array(t.String()),
  },
  { ...closed, title: "LocationResponse" },
);

export const RawProviderResponse = t.Object(
  {
    provider: t.String(),
    status: t.Literal("experimental"),
    query: LocationQuery,
    retrieved_at: t.String({ format: "date-time" }),
    cache: CacheMetadata,
    upstream_response: t.Object({}, { additionalProperties: true, description: "The exact provider JSON, unmodified (SDA: {\"Table\": [[names], [metadata], ...rows]} or {})." }),
    warnings: t.Array(t.String()),
  },
  { ...closed, title: "RawProviderResponse" },
);

export const LOCATION_MODELS = {
  LocationQuery,
  MapUnitSummary,
  SourceProvenance,
  ObservationLocation,
  Uncertainty,
  LicenseRecord,
  SurveyContext,
  SoilObservation,
  LocationResponse,
  RawProviderResponse,
};
