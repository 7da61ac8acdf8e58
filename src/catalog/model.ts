import { t, type Static } from "elysia";

export const Status = t.Union(
  [t.Literal("researching"), t.Literal("planned"), t.Literal("experimental"), t.Literal("supported"), t.Literal("temporarily_unavailable"), t.Literal("deprecated")],
  { description: "Maturity of a provider or property." },
);

export const ProviderRecord = t.Object(
  {
    id: t.String({ examples: ["usda_ssurgo"] }),
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
