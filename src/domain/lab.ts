/**
 * Laboratory data as Loam serves it, whoever the laboratory: a sampled point (a pedon or a sample
 * site), its layers and their observations as reported, censored results kept (docs/decisions.md#censored).
 */
import { t } from "elysia";
import { Type } from "@sinclair/typebox";
import { DepthInterval, closed, nullable } from "./model";
import { PropertyReference, Transformation } from "../catalog/model";
import { SeriesLink } from "./series";

// Elysia's t.Integer also admits numeric strings; answers hold real integers.
const integer = Type.Integer;

export const PointGeometry = t.Object(
  {
    type: t.Literal("Point"),
    coordinates: t.Array(t.Number(), { minItems: 2, maxItems: 2, description: "[longitude, latitude], WGS84 decimal degrees, as the provider recorded them." }),
  },
  { ...closed, title: "PointGeometry" },
);

export const PedonFeatureProperties = t.Object(
  {
    pedon_key: t.String({ description: "The provider's pedon key (SDA: integer pedon_key; offline snapshot: the pedlabsampnum).", examples: ["02N0245"] }),
    representative_of_bbox: t.Literal(false, { description: "Always false: a pedon is a point, not representative of the search box." }),
    pedlabsampnum: nullable(t.String({ description: "The laboratory's pedon lab sample number.", examples: ["02N0245"] })),
    upedonid: nullable(t.String({ description: "User pedon id.", examples: ["S01KS-177-001"] })),
    name: nullable(t.String({ description: "The name the pedon was sampled as (samp_name), else its correlated name (corr_name)." })),
    site_observation_date: nullable(t.String({ format: "date", description: "Site observation date (YYYY-MM-DD); null when the provider records none." })),
    series: t.Union([SeriesLink, t.Null()], { description: "The series description of the name the pedon was sampled as, when one exists; null otherwise. The name says what the pedon was sampled as, not that it fits the series." }),
    layer_count: nullable(integer({ minimum: 0, description: "Number of laboratory layers; null when unknown." })),
  },
  { ...closed, title: "PedonFeatureProperties" },
);

export const PedonFeature = t.Object(
  { type: t.Literal("Feature"), id: t.String({ description: "Equals properties.pedon_key." }), geometry: PointGeometry, properties: PedonFeatureProperties },
  { ...closed, title: "PedonFeature" },
);

export const PedonLocation = t.Object(
  {
    latitude: nullable(t.Number({ description: "Site latitude as recorded by the provider; null when the pedon has no coordinates." })),
    longitude: nullable(t.Number({ description: "Site longitude as recorded by the provider; null when the pedon has no coordinates." })),
    horizontal_accuracy_m: nullable(t.Number({ description: "Horizontal accuracy of the site coordinates, metres; null where the laboratory does not record it." })),
  },
  { ...closed, title: "PedonLocation" },
);

export const ValueQualifier = nullable(t.Union([t.Literal("less_than"), t.Literal("greater_than")], { description: "Censoring: less_than (e.g. '<0.05', 'ND', 'trace') or greater_than." }));

export const LabObservation = t.Object(
  {
    property: PropertyReference,
    value: nullable(t.Number({ description: "The canonical numeric value; null when the result is censored or not a number. Never the reporting limit." })),
    reported_value: t.String({ description: "The result exactly as the provider reported it (SDA sends every value as a string)." }),
    value_qualifier: ValueQualifier,
    reporting_limit: nullable(t.Number({ description: "The stated limit of a censored result, in the served unit." })),
    unit: t.String(),
    original_column: t.String({ examples: ["lab_chemical_properties.ph_h2o"] }),
    method_code: nullable(t.String({ description: "The laboratory's method code (from its Lab Data Mart *_method column); null where none is reported." })),
    measurement_method: nullable(t.String()),
    data_kind: t.Union([t.Literal("observed"), t.Literal("derived")]),
    transformations: t.Array(Transformation),
    warnings: t.Array(t.String()),
  },
  { ...closed, title: "LabObservation" },
);

export const LabLayer = t.Object(
  {
    layer_key: t.String({ description: "The provider's layer key (SDA: integer layer_key; offline snapshot: the labsampnum)." }),
    lab_sample_key: nullable(t.String({ description: "The laboratory's sample number of the layer (labsampnum).", examples: ["02N01100"] })),
    depth: DepthInterval,
    horizon_designation: nullable(t.String({ examples: ["Ap1"] })),
    layer_type: nullable(
      t.String({ description: "The laboratory's layer type as recorded: horizon, layer, reporting layer; null where the record has none (e.g. fixed-depth increments).", examples: ["horizon"] }),
    ),
    observations: t.Array(LabObservation),
  },
  { ...closed, title: "LabLayer" },
);

