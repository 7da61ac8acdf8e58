/** Models of the laboratory pedon endpoints (docs/decisions.md#censored). */
import { t } from "elysia";
import { Type } from "@sinclair/typebox";
import { CacheMetadata, DEPTH_PARAMETERS, queryInteger, DepthInterval, FORMAT_PARAMETER, featureCollection, closed, nullable } from "../answer/model";
import { PropertyReference, Transformation, propertiesParameter } from "../catalog/model";
import { SeriesLink } from "../series/model";

/** The laboratory provider a request names when it names none (a documented default of the contract). */
export const DEFAULT_LAB_PROVIDER = "usda_kssl";

// Elysia's t.Integer also admits numeric strings (for its own query coercion); Loam reads queries
// strictly itself and answers real integers, so the plain TypeBox integer is used.
const integer = Type.Integer;

export const DEFAULT_PEDON_PROPERTIES = "ph,organic_carbon,sand,silt,clay";
export const DEFAULT_PEDON_LIMIT = 100;
export const MAX_PEDON_LIMIT = 500;

// ---- GET /v1/pedons ----------------------------------------------------------------------------

export const PedonCollectionQueryParams = t.Object({
  bbox: t.String({
    maxLength: 200,
    description:
      "min_lon,min_lat,max_lon,max_lat: WGS84 decimal degrees, southwest corner then northeast corner; min < max on both axes; at most 5 degrees per side and 4 square degrees.",
    examples: ["-96.5,38.5,-95,39.5"],
  }),
  provider: t.Optional(
    t.String({
      maxLength: 40,
      default: DEFAULT_LAB_PROVIDER,
      description: "Laboratory pedon provider: usda_kssl, or one of its aliases kssl, ncss_lab, ncss_kssl (answered as usda_kssl).",
      examples: [DEFAULT_LAB_PROVIDER],
    }),
  ),
  limit: t.Optional(queryInteger({ minimum: 1, maximum: MAX_PEDON_LIMIT, default: DEFAULT_PEDON_LIMIT, description: "Most features per page, 1 to 500." })),
  cursor: t.Optional(
    t.String({
      maxLength: 512,
      default: "",
      description:
        "Where a page continues: the opaque cursor in the previous page's Link header (rel=\"next\"). Bound to its bbox and provider (another with it is a 422, as is an edited cursor). Empty or absent: the first page.",
    }),
  ),
  ...FORMAT_PARAMETER,
});

export const PedonCollectionQuery = t.Object(
  {
    bbox: t.Array(t.Number(), { minItems: 4, maxItems: 4, description: "[min_lon, min_lat, max_lon, max_lat]" }),
    provider: t.String({ description: "The canonical provider id (an alias is answered with it)." }),
    limit: integer(),
  },
  { ...closed, title: "PedonCollectionQuery", description: "The effective query: defaults applied, the provider alias resolved." },
);

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
    pedlabsampnum: nullable(t.String({ description: "KSSL pedon lab sample number.", examples: ["02N0245"] })),
    upedonid: nullable(t.String({ description: "User pedon id.", examples: ["S01KS-177-001"] })),
    name: nullable(t.String({ description: "The name the pedon was sampled as (samp_name), else its correlated name (corr_name)." })),
    site_observation_date: nullable(t.String({ format: "date", description: "Site observation date (YYYY-MM-DD); null when the provider records none." })),
    series: t.Union([SeriesLink, t.Null()], { description: "The Official Series Description of the name the pedon was sampled as, when one exists; null otherwise. The name says what the pedon was sampled as, not that it fits the series." }),
    layer_count: nullable(integer({ minimum: 0, description: "Number of laboratory layers; null when unknown." })),
  },
  { ...closed, title: "PedonFeatureProperties" },
);

export const PedonFeature = t.Object(
  { type: t.Literal("Feature"), id: t.String({ description: "Equals properties.pedon_key." }), geometry: PointGeometry, properties: PedonFeatureProperties },
  { ...closed, title: "PedonFeature" },
);

export const PedonCollection = featureCollection(PedonCollectionQuery, PedonFeature, {
  title: "PedonCollection",
  description: "RFC 7946 FeatureCollection of laboratory pedon points with foreign members provider, query, cache, truncated, warnings.",
  truncated: "True when more pedons match than `limit`: the list is not complete; narrow the bbox.",
});

// ---- GET /v1/pedons/{pedon_key} -----------------------------------------------------------------

export const PedonKeyParam = t.String({
  description: "KSSL pedon lab sample number (pedlabsampnum, e.g. 02N0245; lower case accepted) or SDA's integer pedon_key.",
  examples: ["02N0245"],
});

export const PedonParams = t.Object({ pedon_key: PedonKeyParam });

export const PedonQueryParams = t.Object({ properties: propertiesParameter(DEFAULT_PEDON_PROPERTIES), ...DEPTH_PARAMETERS, ...FORMAT_PARAMETER });

export const PedonQuery = t.Object(
  {
    pedon_key: t.String({ description: "The key as read: a pedlabsampnum upper-cased, or an integer pedon_key." }),
    properties: t.Array(t.String()),
    depth_top_cm: t.Number(),
    depth_bottom_cm: t.Number(),
  },
  { ...closed, title: "PedonQuery", description: "The effective query: defaults applied, aliases resolved to canonical ids." },
);

export const PedonLocation = t.Object(
  {
    latitude: nullable(t.Number({ description: "Site latitude as recorded by the provider; null when the pedon has no coordinates." })),
    longitude: nullable(t.Number({ description: "Site longitude as recorded by the provider; null when the pedon has no coordinates." })),
    horizontal_accuracy_m: nullable(t.Number({ description: "Unknown for KSSL pedons: always null." })),
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
    method_code: nullable(t.String({ description: "KSSL method code from the Lab Data Mart *_method column; null where none is reported." })),
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
    lab_sample_key: nullable(t.String({ description: "KSSL lab sample number of the layer (labsampnum).", examples: ["02N01100"] })),
    depth: DepthInterval,
    horizon_designation: nullable(t.String({ examples: ["Ap1"] })),
    layer_type: nullable(
      t.String({ description: "KSSL layer type as recorded: horizon, layer, reporting layer; null where the record has none (e.g. fixed-depth increments).", examples: ["horizon"] }),
    ),
    observations: t.Array(LabObservation),
  },
  { ...closed, title: "LabLayer" },
);

export const PedonResponse = t.Object(
  {
    api_version: t.String(),
    status: t.Literal("experimental"),
    provider: t.String(),
    pedon_key: t.String(),
    data_kind: t.Literal("observed"),
    name: t.Union([t.String(), t.Null()], { description: "The name the pedon was sampled as (samp_name), else its correlated name (corr_name)." }),
    series: t.Union([SeriesLink, t.Null()], { description: "The Official Series Description of that name, when one exists; null otherwise. The name says what the pedon was sampled as, not that it fits the series." }),
    query: PedonQuery,
    location: PedonLocation,
    citation: t.String(),
    source_url: t.String(),
    retrieved_at: t.String({ format: "date-time" }),
    cache: CacheMetadata,
    layers: t.Array(LabLayer),
    warnings: t.Array(t.String()),
  },
  { ...closed, title: "PedonResponse" },
);

// ---- GET /v1/providers/{provider_id}/raw/pedons/{pedon_key} --------------------------------------

export const RawPedonParams = t.Object({
  provider_id: t.String({ description: "Laboratory provider id or alias (usda_kssl, kssl, ncss_lab, ncss_kssl).", examples: [DEFAULT_LAB_PROVIDER] }),
  pedon_key: PedonKeyParam,
});

export const RawPedonQuery = t.Object({ pedon_key: t.String() }, { ...closed, title: "RawPedonQuery" });

export const RawPedonResponse = t.Object(
  {
    provider: t.String(),
    status: t.Literal("experimental"),
    query: RawPedonQuery,
    retrieved_at: t.String({ format: "date-time" }),
    cache: CacheMetadata,
    upstream_response: t.Object({}, { additionalProperties: true, description: "The exact provider JSON, unmodified (SDA: {\"Table\": [[names], [metadata], ...rows]})." }),
    warnings: t.Array(t.String()),
  },
  { ...closed, title: "RawPedonResponse" },
);

export const PEDON_MODELS = {
  PedonCollectionQuery,
  PointGeometry,
  PedonFeatureProperties,
  PedonFeature,
  PedonCollection,
  PedonQuery,
  PedonLocation,
  LabObservation,
  LabLayer,
  PedonResponse,
  RawPedonQuery,
  RawPedonResponse,
};
