/** Models of the point query and its raw twin (docs/decisions.md#provenance). */
import { defaultProviderId } from "../providers/registry";
import { t } from "elysia";
import { CacheMetadata, COORDINATE_PARAMETERS, DEPTH_PARAMETERS, FORMAT_PARAMETER, closed, envelope } from "../domain/model";
import { propertiesParameter } from "../catalog/model";
import { DataKind, LicenseRecord, MapUnitSummary, OBSERVATION_MODELS, Observation, ObservationLocation, SourceProvenance, SurveyContext, Uncertainty } from "../domain/observation";

/** The mapped-location provider a request names when it names none (declared in the registry). */
export const DEFAULT_POINT_PROVIDER = defaultProviderId("mapped_location");

export const DEFAULT_LOCATION_PROPERTIES = "ph,organic_matter,sand,silt,clay";

const pointParameters = {
  ...COORDINATE_PARAMETERS,
  properties: propertiesParameter(DEFAULT_LOCATION_PROPERTIES),
  ...DEPTH_PARAMETERS,
};

export const LocationQueryParams = t.Object({
  ...pointParameters,
  providers: t.Optional(
    t.String({ maxLength: 40, default: DEFAULT_POINT_PROVIDER, description: "One mapped-location provider id; at most 40 characters.", examples: [DEFAULT_POINT_PROVIDER] }),
  ),
  ...FORMAT_PARAMETER,
});

export const RawLocationQueryParams = t.Object(pointParameters);

export const RawLocationPathParams = t.Object({
  provider_id: t.String({ description: `A mapped-location provider id (${DEFAULT_POINT_PROVIDER}).`, examples: [DEFAULT_POINT_PROVIDER] }),
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

export const LocationResponse = envelope(
  "LocationResponse",
  {
    query: LocationQuery,
    data_kind: t.Union(DataKind.anyOf, { description: "What the provider's values are, as it declares: mapped_survey for a mapped soil survey, observed for samples." }),
    observations: t.Array(Observation),
    map_units: t.Array(MapUnitSummary),
  },
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
  ...OBSERVATION_MODELS,
  LocationResponse,
  RawProviderResponse,
};
