/** Models of the laboratory pedon endpoints (docs/decisions.md#censored). */
import { defaultProviderId } from "../providers/registry";
import { t } from "elysia";
import { BBOX_PATTERN } from "../domain/model";
import { PEDON_KEY_PATTERN } from "../domain/pedon-key";
import { Type } from "@sinclair/typebox";
import { CacheMetadata, CURSOR_PARAMETER, queryNumber, queryInteger, FORMAT_PARAMETER, featureCollection, closed } from "../domain/model";
import { propertiesParameter } from "../catalog/model";
import { LabLayer, LabObservation, PedonFeature, PedonFeatureProperties, PedonLocation, PointGeometry } from "../domain/lab";
import { SeriesLink } from "../domain/series";

/** The laboratory provider a request names when it names none (a documented default of the contract). */
export const DEFAULT_LAB_PROVIDER = defaultProviderId("lab_pedons");

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
    pattern: BBOX_PATTERN,
  }),
  provider: t.Optional(
    t.String({
      maxLength: 40,
      default: DEFAULT_LAB_PROVIDER,
      description: `Laboratory pedon provider: ${DEFAULT_LAB_PROVIDER}, or one of its aliases (GET /v1/providers; answered as its id).`,
      examples: [DEFAULT_LAB_PROVIDER],
    }),
  ),
  limit: t.Optional(queryInteger({ minimum: 1, maximum: MAX_PEDON_LIMIT, default: DEFAULT_PEDON_LIMIT, description: "Most features per page, 1 to 500." })),
  ...CURSOR_PARAMETER,
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

export const PedonCollection = featureCollection(PedonCollectionQuery, PedonFeature, {
  title: "PedonCollection",
  description: "RFC 7946 FeatureCollection of laboratory pedon points with foreign members provider, query, cache, truncated, warnings.",
  truncated: "True when more pedons match than `limit`: the list is not complete; narrow the bbox.",
});

// ---- GET /v1/pedons/{pedon_key} -----------------------------------------------------------------

export const PedonKeyParam = t.String({
  description: "A laboratory pedon sample number (pedlabsampnum, e.g. 02N0245; lower case accepted) or SDA's integer pedon_key.",
  examples: ["02N0245"],
  pattern: PEDON_KEY_PATTERN,
});

/** Path parameters the route's own parser checks, with messages naming the rule: Elysia does not check them first (noValidate). */
const parsedByRoute = { noValidate: true } as const;

export const PedonParams = t.Object({ pedon_key: PedonKeyParam }, parsedByRoute);

/** The deepest bottom a pedon request may name, cm (docs/decisions.md#pedon-depth); the spec leaves pedon bounds open. */
export const PEDON_MAX_DEPTH_CM = 1000;

/**
 * The pedon detail's depth interval: Loam's own bounds (the spec leaves them open; the point query's
 * 0–200 cm stay the spec's). Without depth_bottom_cm the interval reaches the pedon's deepest layer.
 */
export const PEDON_DEPTH_PARAMETERS = {
  depth_top_cm: t.Optional(queryNumber({ minimum: 0, maximum: PEDON_MAX_DEPTH_CM - 1, default: 0, description: `Top of the depth interval, cm, 0 to ${PEDON_MAX_DEPTH_CM - 1}.` })),
  depth_bottom_cm: t.Optional(
    queryNumber({
      exclusiveMinimum: 0,
      maximum: PEDON_MAX_DEPTH_CM,
      default: PEDON_MAX_DEPTH_CM,
      description: `Bottom of the depth interval, cm, greater than 0 and at most ${PEDON_MAX_DEPTH_CM}, and greater than depth_top_cm. Absent (default): the whole pedon (${PEDON_MAX_DEPTH_CM} cm, or the bottom of its deepest layer where that is deeper; the query echo says which). A layer outside the interval is named in a warning.`,
    }),
  ),
};

export const PedonQueryParams = t.Object({
  properties: propertiesParameter(DEFAULT_PEDON_PROPERTIES),
  ...PEDON_DEPTH_PARAMETERS,
  provider: t.Optional(
    t.String({ maxLength: 40, default: DEFAULT_LAB_PROVIDER, description: `Laboratory pedon provider: ${DEFAULT_LAB_PROVIDER}, or one of its aliases (GET /v1/providers; answered as its id). A pedon's links from another provider name it.`, examples: [DEFAULT_LAB_PROVIDER] }),
  ),
  ...FORMAT_PARAMETER,
});

export const PedonQuery = t.Object(
  {
    pedon_key: t.String({ description: "The key as read: a pedlabsampnum upper-cased, or an integer pedon_key." }),
    properties: t.Array(t.String()),
    depth_top_cm: t.Number(),
    depth_bottom_cm: t.Number(),
  },
  { ...closed, title: "PedonQuery", description: "The effective query: defaults applied, aliases resolved to canonical ids." },
);

export const PedonResponse = t.Object(
  {
    api_version: t.String(),
    status: t.Literal("experimental"),
    provider: t.String(),
    pedon_key: t.String(),
    data_kind: t.Literal("observed"),
    name: t.Union([t.String(), t.Null()], { description: "The name the pedon was sampled as (samp_name), else its correlated name (corr_name)." }),
    series: t.Union([SeriesLink, t.Null()], { description: "The series description of that name, when one exists; null otherwise. The name says what the pedon was sampled as, not that it fits the series." }),
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
  provider_id: t.String({ description: `Laboratory provider id or alias (${DEFAULT_LAB_PROVIDER}; GET /v1/providers lists the aliases).`, examples: [DEFAULT_LAB_PROVIDER] }),
  pedon_key: PedonKeyParam,
}, parsedByRoute);

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
