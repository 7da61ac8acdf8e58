/**
 * TypeBox models shared by several resources. Each is named once in `src/models.ts` as an
 * OpenAPI component, and the same object validates and types the routes that return it. `additionalProperties: false` everywhere the spec says so (all objects but
 * `upstream_response`).
 */
import { t, type Static } from "elysia";
import { Type } from "@sinclair/typebox";

const closed = { additionalProperties: false } as const;

export const ErrorBody = t.Object(
  {
    code: t.String({
      description:
        "validation_error, not_found, unknown_provider, provider_not_operational, method_not_allowed, uri_too_long, rate_limited, upstream_error, upstream_timeout, upstream_unreachable, internal_error",
      examples: ["validation_error"],
    }),
    message: t.String({ examples: ["Query parameter 'latitude' must be a number from -90 to 90; got '95'."] }),
    request_id: t.String({ description: "Equals the X-Request-Id response header." }),
    provider: t.Optional(t.Union([t.String(), t.Null()])),
    retryable: t.Optional(t.Boolean({ default: false, description: "True for 429, 502 and 504, except a 502 for a query Soil Data Access refused as invalid (a fault in the query; retrying will not help)." })),
  },
  { ...closed, title: "ErrorBody" },
);

export const ErrorResponse = t.Object({ error: ErrorBody }, { ...closed, title: "ErrorResponse", description: "Every non-2xx answer." });
export type ErrorResponse = Static<typeof ErrorResponse>;

export const CacheMetadata = t.Object(
  {
    hit: t.Boolean({ description: "True when the upstream answer came from Loam's cache." }),
    stored_at: t.String({ format: "date-time", description: "When the upstream answer was retrieved and stored." }),
    // TypeBox's own Integer: Elysia's t.Integer also admits numeric strings, which the document would then say.
    age_seconds: Type.Integer({ minimum: 0 }),
  },
  { ...closed, title: "CacheMetadata" },
);
export type CacheMetadata = Static<typeof CacheMetadata>;

export const DepthInterval = t.Object(
  { top_cm: t.Number(), bottom_cm: t.Number() },
  { ...closed, title: "DepthInterval", description: "Depth below the soil surface, centimetres." },
);

/**
 * Query parameters of the depth interval, shared by the point query and the pedon detail (DESIGN §3:
 * the same bounds and defaults). depth_bottom_cm > depth_top_cm is checked by `checkDepthInterval`.
 */
export const DEPTH_PARAMETERS = {
  depth_top_cm: t.Optional(t.Number({ minimum: 0, maximum: 199, default: 0, description: "Top of the depth interval, cm, 0 to 199." })),
  depth_bottom_cm: t.Optional(
    t.Number({ exclusiveMinimum: 0, maximum: 200, default: 200, description: "Bottom of the depth interval, cm, greater than 0 and at most 200, and greater than depth_top_cm." }),
  ),
};

/** The `properties` query parameter with its default (spec §8: at most 200 characters, at most eight items). */
export function propertiesParameter(defaultValue: string) {
  return t.Optional(
    t.String({
      maxLength: 200,
      default: defaultValue,
      description: "Comma-separated canonical property ids or aliases (GET /v1/properties), at most eight after aliases are resolved and duplicates removed; at most 200 characters.",
      examples: ["ph,organic_carbon,clay"],
    }),
  );
}

export const PropertyReference = t.Object({ id: t.String(), name: t.String() }, { ...closed, title: "PropertyReference" });

export const Transformation = t.Object(
  {
    operation: t.String({ examples: ["derive_organic_carbon_from_organic_matter"] }),
    from_unit: t.String(),
    to_unit: t.String(),
    formula: t.String({ examples: ["organic_carbon = organic_matter / 1.724"] }),
  },
  { ...closed, title: "Transformation" },
);
export type Transformation = Static<typeof Transformation>;

export const HealthResponse = t.Object(
  {
    status: t.Literal("healthy"),
    service: t.String({ examples: ["loam"] }),
    version: t.String({ examples: ["0.2.0"] }),
  },
  { ...closed, title: "HealthResponse" },
);

export const ApiMetadata = t.Object(
  {
    name: t.String(),
    version: t.String(),
    project_status: t.Literal("experimental"),
    documentation_url: t.String(),
    openapi_url: t.String(),
    supported_providers: t.Array(t.String()),
    warning: t.String(),
  },
  { ...closed, title: "ApiMetadata" },
);
