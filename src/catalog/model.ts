/** Models of the catalog: providers, the property vocabulary, and how answers name a property and a conversion. */
import { t, type Static } from "elysia";

const closed = { additionalProperties: false } as const;

export const Status = t.Union(
  [t.Literal("researching"), t.Literal("planned"), t.Literal("experimental"), t.Literal("supported"), t.Literal("temporarily_unavailable"), t.Literal("deprecated")],
  { description: "Maturity of a provider or property." },
);

export const ProviderRecord = t.Object(
  {
    id: t.String({ description: "The provider id (GET /v1/providers lists them)." }),
    name: t.String(),
    organization: t.String(),
    coverage: t.String(),
    data_kind: t.String({ description: "Kind of data the provider serves: mapped_survey, observed, modeled." }),
    status: Status,
    access_method: t.String(),
    documentation_url: t.String(),
    source_url: t.String(),
    license: t.Optional(t.Union([t.String(), t.Null()])),
    authentication: t.String({ description: "How Loam reaches the upstream provider (not how callers reach Loam)." }),
    operational: t.Boolean(),
    supported_properties: t.Optional(t.Array(t.String())),
    limitations: t.Optional(t.Array(t.String())),
  },
  { additionalProperties: false, title: "ProviderRecord" },
);
export type ProviderRecord = Static<typeof ProviderRecord>;

export const ProvidersResponse = t.Object(
  { providers: t.Array(ProviderRecord) },
  { additionalProperties: false, title: "ProvidersResponse" },
);

export const PropertyRecord = t.Object(
  {
    id: t.String({ examples: ["ph"] }),
    name: t.String(),
    description: t.String(),
    standard_unit: t.Union([t.String(), t.Null()]),
    accepted_aliases: t.Array(t.String()),
    conversion_notes: t.Union([t.String(), t.Null()]),
    method_dependency_warning: t.String(),
    status: Status,
  },
  { additionalProperties: false, title: "PropertyRecord" },
);
export type PropertyRecord = Static<typeof PropertyRecord>;

export const PropertiesResponse = t.Object(
  { properties: t.Array(PropertyRecord), warning: t.String() },
  { additionalProperties: false, title: "PropertiesResponse" },
);

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

/** The `properties` query parameter with its default (at most 200 characters, at most eight items: docs/decisions.md#limits). */
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
