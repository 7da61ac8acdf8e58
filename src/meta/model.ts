/** Models of /health and /v1. */
import { t, type Static } from "elysia";

const closed = { additionalProperties: false } as const;

export const HealthResponse = t.Object(
  {
    status: t.Literal("healthy"),
    service: t.String({ examples: ["loam"] }),
    version: t.String({ examples: ["0.6.0"] }),
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


const Box = t.Array(t.Number(), { minItems: 4, maxItems: 4, description: "[west, south, east, north], WGS84 degrees." });

export const LayerKind = t.Union([t.Literal("survey_polygons"), t.Literal("pedons"), t.Literal("sites"), t.Literal("grid"), t.Literal("stations")], {
  description: "How the layer is drawn: survey_polygons (map-unit polygons), pedons and sites (points), grid (a raster clip), stations (sensor stations with series).",
});
export type LayerKind = Static<typeof LayerKind>;

export const LayerCoverage = t.Object(
  {
    description: t.String({ description: "The provider catalog's coverage statement (GET /v1/providers)." }),
    source: t.String({ description: "The source this instance reads: snapshot, sda, or a provider's own transport." }),
    places: t.Array(
      t.Object({ id: t.String(), label: t.String(), bbox: t.Union([Box, t.Null()]) }, closed),
      { description: "Snapshot only: the places of this provider the snapshot holds (the datasets it declares as places), with the box of each when the source states it (survey areas and raster clips do)." },
    ),
    extent: t.Union([Box, t.Null()], { description: "The union of the places' boxes; null when no box is known here." }),
    extent_url: t.Union([t.String(), t.Null()], { description: "The OGC collection whose extent is computed from this layer's data, when there is one." }),
  },
  { ...closed, title: "LayerCoverage" },
);

export const LayerEntry = t.Object(
  {
    id: t.String({ description: "The provider id (GET /v1/providers)." }),
    kind: LayerKind,
    label: t.String({ description: "What the layer shows, in a few words (a legend's line)." }),
    title: t.String({ description: "The provider's name in its catalog record." }),
    organization: t.String(),
    data_kind: t.String({ description: "mapped_survey, observed or modeled, as the catalog record says." }),
    geometry: t.Union([t.Literal("polygon"), t.Literal("point"), t.Literal("raster")]),
    endpoint: t.String({ description: "The endpoint the layer reads for a view." }),
    detail_endpoint: t.Union([t.String(), t.Null()], { description: "The endpoint a click on a feature opens (a template)." }),
    properties: t.Array(t.String(), { description: "Property ids the provider serves (GET /v1/properties names them)." }),
    coverage: LayerCoverage,
  },
  { ...closed, title: "LayerEntry" },
);
export type LayerEntry = Static<typeof LayerEntry>;

export const LayersResponse = t.Object(
  { layers: t.Array(LayerEntry, { description: "One entry per operational provider that has a map layer, in registry order." }) },
  { ...closed, title: "LayersResponse" },
);
