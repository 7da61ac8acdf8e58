/**
 * What Loam serves about soil, whoever the provider: an observation with its provenance, and the
 * context that says what kind of thing the value describes (docs/architecture.md#domain). A context is
 * one of four shapes, as the data's shape is: a mapped survey's map unit, component and horizon
 * (`survey_context`, the spec's SurveyContext); a sample taken at a site (`sample_context`); a grid
 * cell of a raster (`grid_context`); a station's time series (`station_context`). An observation
 * carries exactly one. Mapped-survey answers keep the spec's SoilObservation byte for byte.
 */
import { t } from "elysia";
import { DepthInterval, closed, nullable } from "./model";
import { PropertyReference, Transformation } from "../catalog/model";

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
    record_id: nullable(t.String({ description: "Provider horizon key (a mapped survey's chkey)." })),
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

/** A sample taken at a site (a geochemistry or lab sample point): where and when, not a map unit. */
export const SampleContext = t.Object(
  {
    site_id: t.String({ description: "The provider's site id." }),
    sample_id: nullable(t.String({ description: "The provider's sample or lab id; null where none is recorded." })),
    sampled_on: nullable(t.String({ format: "date", description: "Collection date (YYYY-MM-DD); null when unknown." })),
  },
  { ...closed, title: "SampleContext" },
);

/**
 * The statistics a model serves for one cell and depth, in the observation's unit (docs/decisions.md#grid-context):
 * a statistic the answer lacks is absent; null where the model masks the cell. `uncertainty` is the
 * model's own ratio (Q0.95 - Q0.05) / Q0.5, unitless.
 */
export const GridStatistics = t.Object(
  {
    mean: t.Optional(nullable(t.Number())),
    "Q0.05": t.Optional(nullable(t.Number())),
    "Q0.5": t.Optional(nullable(t.Number())),
    "Q0.95": t.Optional(nullable(t.Number())),
    uncertainty: t.Optional(nullable(t.Number({ description: "(Q0.95 - Q0.05) / Q0.5, unitless." }))),
  },
  { ...closed, title: "GridStatistics" },
);

/** A cell of a gridded (raster) model: which model and release, which cell, how large, which depth, every statistic. */
export const GridContext = t.Object(
  {
    cell_center: nullable(
      t.Object({ longitude: t.Number(), latitude: t.Number() }, { ...closed, description: "Centre of the cell that answered; null where the source does not say (a live point query)." }),
    ),
    resolution_m: t.Number({ description: "Nominal cell size in metres (e.g. 250)." }),
    model: t.String({ description: "The model or product, as the provider names it." }),
    release: t.String({ description: "Its release (2.0)." }),
    depth_label: t.String({ description: "The model's own depth label (0-5cm)." }),
    statistics: GridStatistics,
  },
  { ...closed, title: "GridContext" },
);

/** A station's reading in a time series (for a station role still to come). */
export const StationContext = t.Object(
  {
    station_id: t.String(),
    observed_at: t.String({ format: "date-time" }),
    sensor_depth_cm: nullable(t.Number()),
  },
  { ...closed, title: "StationContext" },
);

/** What every observation says, whatever its context. */
const observationFields = {
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
};

/** A mapped survey's value: the spec's SoilObservation, exactly (survey_context required, closed). */
export const SoilObservation = t.Object({ ...observationFields, survey_context: SurveyContext }, { ...closed, title: "SoilObservation" });
export const SampleObservation = t.Object({ ...observationFields, sample_context: SampleContext }, { ...closed, title: "SampleObservation" });
export const GridObservation = t.Object({ ...observationFields, grid_context: GridContext }, { ...closed, title: "GridObservation" });
export const StationObservation = t.Object({ ...observationFields, station_context: StationContext }, { ...closed, title: "StationObservation" });

/**
 * An observation with exactly one context, by the shape of its data: survey | sample | grid cell |
 * station. Mapped-survey providers (SSURGO) answer the first, the spec's SoilObservation.
 */
export const Observation = t.Union([SoilObservation, SampleObservation, GridObservation, StationObservation], {
  title: "Observation",
  description: "One value with its provenance and exactly one context member: survey_context (mapped survey: the spec's SoilObservation), sample_context, grid_context (a modeled raster cell) or station_context.",
});

export const OBSERVATION_MODELS = { SoilObservation, SampleObservation, GridObservation, StationObservation, SampleContext, GridContext, GridStatistics, StationContext, Observation };

