/**
 * GET /v1/soil/evidence (docs/decisions.md#evidence): every source's evidence at one point, side by
 * side, and per asked property a comparison on the GlobalSoilMap depths. Each source keeps its own
 * provider, data_kind, provenance and warnings; `sources` is keyed by provider id (the registry's), so
 * the model names no provider: each entry is one of the role shapes below, told apart by `role`.
 */
import { t, type Static } from "elysia";
import { Type } from "@sinclair/typebox";
import { COORDINATE_PARAMETERS, DEPTH_PARAMETERS, FORMAT_PARAMETER, closed, envelope, nullable } from "../domain/model";
import { PropertyReference, Transformation, propertiesParameter } from "../catalog/model";
import { GridObservation, MapUnitSummary, Observation } from "../domain/observation";
import { SeriesLink } from "../domain/series";
import { GeochemObservation } from "../domain/sample-site";
import { MapUnitComponent } from "../summaries/model";

export const DEFAULT_EVIDENCE_PROPERTIES = "ph,organic_matter,sand,silt,clay";

export const EvidenceQueryParams = t.Object({
  ...COORDINATE_PARAMETERS,
  properties: propertiesParameter(DEFAULT_EVIDENCE_PROPERTIES),
  ...DEPTH_PARAMETERS,
  ...FORMAT_PARAMETER,
});

export const EvidenceQuery = t.Object(
  {
    latitude: t.Number(),
    longitude: t.Number(),
    properties: t.Array(t.String()),
    depth_top_cm: t.Number(),
    depth_bottom_cm: t.Number(),
    radius_km: t.Number({ description: "How far the nearest lab pedons, sample sites and stations are looked for (geodesic, WGS84)." }),
    nearest: Type.Integer({ description: "Most sites listed per located source." }),
  },
  { ...closed, title: "EvidenceQuery", description: "The effective query: defaults applied, aliases resolved to canonical ids, and the search radius and count Loam uses." },
);

/** Where one source's items came from: the source's citation, its page, and when Loam's source read it. */
export const EvidenceProvenance = t.Object(
  {
    organization: nullable(t.String()),
    citations: t.Array(t.String()),
    source_url: nullable(t.String()),
    retrieved_at: nullable(t.String({ format: "date-time" })),
  },
  { ...closed, title: "EvidenceProvenance" },
);

const sourceMembers = <R extends string>(role: R, what: string) => ({
  provider: t.String({ description: "The provider id (the key of this entry)." }),
  short_name: t.String({ description: "What served text calls the source." }),
  role: t.Literal(role, { description: what }),
  data_kind: t.String({ description: "What the source's values are: mapped_survey, modeled, observed." }),
  provenance: EvidenceProvenance,
  warnings: t.Array(t.String(), { description: "The source's own warnings, as its own route gives them." }),
});

const Location = t.Object({ latitude: t.Number(), longitude: t.Number() }, { ...closed, title: "EvidenceLocation" });
const distance = () => t.Number({ description: "Geodesic distance from the asked point on the WGS84 ellipsoid (Karney), km to the metre." });

export const SurveyEvidence = t.Object(
  {
    ...sourceMembers("mapped_location", "A mapped soil survey: the map unit holding the point and its components."),
    map_units: t.Array(MapUnitSummary, { description: "The map units holding the point, as GET /v1/soil/location gives them." }),
    components: t.Array(MapUnitComponent, { description: "Every component of the first map unit, as GET /v1/soil/mapunits/{map_unit_key} lists them." }),
    // The location route's kind: the union here, named SoilObservation by the document where every served
    // mapped_location provider is a mapped survey, as LocationResponse is (docs/decisions.md#typed-observations).
    observations: t.Array(Observation, { description: "The components' horizons, as GET /v1/soil/location gives them." }),
  },
  { ...closed, title: "SurveyEvidence" },
);

export const ModelEvidence = t.Object(
  {
    ...sourceMembers("point_values", "A modeled grid: the values of the cell holding the point."),
    observations: t.Array(GridObservation, { description: "The cell's values at the model's depths, as GET /v1/soil/modeled gives them (uncertainty: its interval)." }),
  },
  { ...closed, title: "ModelEvidence" },
);

export const EvidencePedon = t.Object(
  {
    pedon_key: t.String(),
    name: nullable(t.String({ description: "The name the pedon was sampled as." })),
    series: nullable(SeriesLink),
    location: Location,
    distance_km: distance(),
    href: t.String({ description: "The pedon's layers and results.", examples: ["/v1/pedons/04N0873"] }),
  },
  { ...closed, title: "EvidencePedon" },
);

export const PedonEvidence = t.Object(
  {
    ...sourceMembers("lab_pedons", "Laboratory pedons: points sampled and measured, nearest first."),
    pedons: t.Array(EvidencePedon),
  },
  { ...closed, title: "PedonEvidence" },
);

export const EvidenceSite = t.Object(
  {
    site_id: Type.Integer(),
    collection_date: nullable(t.String()),
    depth: t.Object({ top_cm: t.Number(), bottom_cm: t.Number() }, { ...closed, title: "EvidenceSiteDepth" }),
    location: Location,
    distance_km: distance(),
    href: t.String({ examples: ["/v1/geochem/sites/11992"] }),
    elements: t.Array(GeochemObservation, { description: "The asked properties the source reports, where the site has a result." }),
  },
  { ...closed, title: "EvidenceSite" },
);

export const SampleSiteEvidence = t.Object(
  {
    ...sourceMembers("sample_sites", "Sample sites: one sample each, nearest first."),
    sites: t.Array(EvidenceSite),
  },
  { ...closed, title: "SampleSiteEvidence" },
);

export const EvidenceHeldSeries = t.Object(
  {
    element: t.String(),
    depth_cm: t.Number(),
    start: nullable(t.String()),
    end: nullable(t.String()),
    href: nullable(t.String({ description: "A series request that answers (daily values over the held period, at most the route's span); null where the period is not known." })),
  },
  { ...closed, title: "EvidenceHeldSeries" },
);

export const EvidenceStation = t.Object(
  {
    station_triplet: t.String(),
    name: nullable(t.String()),
    location: Location,
    distance_km: distance(),
    period: t.Object({ begin_date: nullable(t.String()), end_date: nullable(t.String({ description: "Null: still reporting." })) }, { ...closed, title: "EvidenceStationPeriod" }),
    held: t.Array(EvidenceHeldSeries, { description: "The series the source holds for the station (offline: what the snapshot holds), each with a working request." }),
    href: t.String({ description: "The station: its sensors, links and sources." }),
  },
  { ...closed, title: "EvidenceStation" },
);

export const StationEvidence = t.Object(
  {
    ...sourceMembers("site_series", "Sensor stations: time series at their own site, nearest first."),
    stations: t.Array(EvidenceStation),
  },
  { ...closed, title: "StationEvidence" },
);

export const EvidenceDescription = t.Object(
  {
    component_key: t.String(),
    component_name: t.String(),
    component_percent: nullable(t.Number()),
    series: SeriesLink,
    taxonomic_class: nullable(t.String({ description: "The class the current description gives; null where it was not read (the warnings say why)." })),
    survey_taxonomic_class: nullable(t.String({ description: "The class the survey records for the component." })),
  },
  { ...closed, title: "EvidenceDescription" },
);

export const SeriesEvidence = t.Object(
  {
    ...sourceMembers("series", "Series descriptions of the survey's components."),
    descriptions: t.Array(EvidenceDescription),
  },
  { ...closed, title: "SeriesEvidence" },
);

export const SourceEvidence = t.Union([SurveyEvidence, ModelEvidence, PedonEvidence, SampleSiteEvidence, StationEvidence, SeriesEvidence], {
  title: "SourceEvidence",
  description: "One source's evidence; `role` says which shape.",
});

export const ComparisonCell = t.Object(
  {
    provider: t.String(),
    role: t.String(),
    data_kind: t.String({ description: "derived where Loam weighted the source's values (components, depths, layers), else the source's own." }),
    value: nullable(t.Number()),
    unit: nullable(t.String()),
    lower: nullable(t.Number({ description: "The source's interval, lower end (a model's Q0.05), where it gives one." })),
    upper: nullable(t.Number({ description: "The source's interval, upper end (a model's Q0.95)." })),
    distance_km: nullable(t.Number({ description: "How far the value's support lies from the point: 0 for a map unit holding it, the cell centre for a grid, the site for a pedon or a sample." })),
    describes: t.String({ description: "What the value describes (a map unit, a cell, a pedon), by its key." }),
    transformations: t.Array(Transformation, { description: "How the value was derived from the source's own." }),
    warnings: t.Array(t.String()),
  },
  { ...closed, title: "ComparisonCell" },
);

export const ComparisonDepth = t.Object(
  {
    top_cm: t.Number(),
    bottom_cm: t.Number(),
    cells: t.Array(ComparisonCell, { description: "One per source with a value here, side by side: never averaged across sources." }),
    statements: t.Array(t.String(), { description: "Plain statements where a source's value falls outside the model's interval." }),
  },
  { ...closed, title: "ComparisonDepth" },
);

export const PropertyComparison = t.Object(
  {
    property: PropertyReference,
    depths: t.Array(ComparisonDepth, { description: "The GlobalSoilMap depths (0-5, 5-15, 15-30, 30-60, 60-100, 100-200 cm), clipped to the asked interval." }),
  },
  { ...closed, title: "PropertyComparison" },
);

export const EvidenceResponse = envelope("EvidenceResponse", {
  query: EvidenceQuery,
  sources: t.Record(t.String(), SourceEvidence, { description: "Each source's evidence, keyed by provider id; a source left out (out of budget, failing) is absent and named in warnings." }),
  comparison: t.Array(PropertyComparison),
});

export type EvidenceResponse = Static<typeof EvidenceResponse>;
export type EffectiveEvidenceQuery = Static<typeof EvidenceQuery>;
export type SourceEvidence = Static<typeof SourceEvidence>;
export type ComparisonCell = Static<typeof ComparisonCell>;

export const EVIDENCE_MODELS = {
  EvidenceQuery,
  EvidenceProvenance,
  SurveyEvidence,
  ModelEvidence,
  EvidencePedon,
  PedonEvidence,
  EvidenceSite,
  SampleSiteEvidence,
  EvidenceHeldSeries,
  EvidenceStation,
  StationEvidence,
  EvidenceDescription,
  SeriesEvidence,
  SourceEvidence,
  ComparisonCell,
  ComparisonDepth,
  PropertyComparison,
  EvidenceResponse,
};
