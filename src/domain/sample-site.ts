/**
 * A sample site: where a sample of soil was taken, when, and from what depth (docs/decisions.md#geochem).
 * The context of an observation made on a collected sample (USGS DS 801 geochemistry; later sensor or
 * lab sites), as against a survey's map unit or a grid cell: it names no survey area, map unit or
 * component, because a sample has none. Shared by the providers of role `sample_sites` and the routes
 * that serve them.
 */
import { t, type Static } from "elysia";
import { Type } from "@sinclair/typebox";

import { closed, nullable } from "./model";
import { PropertyReference, Transformation } from "../catalog/model";
import { ValueQualifier } from "./lab";

export const SampleDepth = t.Object(
  { top_cm: t.Number(), bottom_cm: t.Number() },
  { ...closed, title: "SampleDepth", description: "Depth below the soil surface the sample was taken from, centimetres." },
);

export const SampleSite = t.Object(
  {
    context: t.Literal("sample", { description: "The kind of place an observation belongs to: a sampled site (not a survey map unit, grid cell or station)." }),
    site_id: Type.Integer({ minimum: 1, description: "The dataset's site identifier." }),
    lab_id: nullable(t.String({ description: "The laboratory's sample identifier; null when no sample reached the laboratory." })),
    state: nullable(t.String({ description: "Two-letter US state code as the dataset records it.", examples: ["IA"] })),
    latitude: t.Number({ description: "WGS84 latitude as recorded, at the source's precision." }),
    longitude: t.Number({ description: "WGS84 longitude as recorded, at the source's precision." }),
    collection_date: nullable(t.String({ format: "date", description: "When the sample was collected (YYYY-MM-DD); null when the dataset records none." })),
    land_cover_primary: nullable(t.String({ description: "Primary land cover class as recorded, in the source's classification." })),
    land_cover_secondary: nullable(t.String({ description: "Secondary land cover class as recorded, in the source's classification." })),
    depth: SampleDepth,
  },
  { ...closed, title: "SampleSite", description: "A sampled site and its sample: the context of observations made on collected soil." },
);
export type SampleSite = Static<typeof SampleSite>;

export const SAMPLE_SITE_MODELS = { SampleSite, SampleDepth };

// ---- what is measured on a site's sample, and where the file came from ----------------------------

export const GeochemObservationSource = t.Object(
  {
    provider: t.String({ description: "The sample-site provider id." }),
    column: t.String({ description: "The file's column.", examples: ["Top5_As"] }),
    original_value: t.String({ description: "The file's cell as written.", examples: ["4.7", "<1"] }),
    original_unit: t.String({ description: "The unit row's cell of that column.", examples: ["mg/kg", "wt. %"] }),
    citation: t.String(),
    retrieved_at: t.String({ format: "date-time" }),
  },
  { ...closed, title: "GeochemObservationSource" },
);

export const GeochemObservation = t.Object(
  {
    property: PropertyReference,
    value: nullable(t.Number({ description: "The result in `unit`; null when censored. Never the reporting limit." })),
    reported_value: t.String({ description: "The file's cell exactly." }),
    value_qualifier: ValueQualifier,
    reporting_limit: nullable(t.Number({ description: "The stated limit of a censored result, in `unit`." })),
    unit: t.String(),
    data_kind: t.Literal("observed"),
    measurement_method: nullable(t.String()),
    source: GeochemObservationSource,
    transformations: t.Array(Transformation),
    warnings: t.Array(t.String()),
  },
  { ...closed, title: "GeochemObservation", description: "One element result of a site's 0-5 cm sample." },
);
export type GeochemObservation = Static<typeof GeochemObservation>;

export const GeochemSource = t.Object(
  {
    provider: t.String({ description: "The sample-site provider id." }),
    organization: t.String(),
    citation: t.String(),
    source_url: t.String(),
    retrieved_at: t.String({ format: "date-time", description: "When the file was read: the snapshot build, or the live download." }),
  },
  { ...closed, title: "GeochemSource" },
);
export type GeochemSource = Static<typeof GeochemSource>;

