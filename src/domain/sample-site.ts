/**
 * A sample site: where a sample of soil was taken, when, and from what depth (docs/decisions.md#geochem).
 * The context of an observation made on a collected sample (USGS DS 801 geochemistry; later sensor or
 * lab sites), as against a survey's map unit or a grid cell: it names no survey area, map unit or
 * component, because a sample has none. Shared by the providers of role `sample_sites` and the routes
 * that serve them.
 */
import { t, type Static } from "elysia";
import { Type } from "@sinclair/typebox";

const closed = { additionalProperties: false } as const;
const nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);

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
    latitude: t.Number({ description: "WGS84 latitude as recorded (4 decimals in DS 801)." }),
    longitude: t.Number({ description: "WGS84 longitude as recorded (4 decimals in DS 801)." }),
    collection_date: nullable(t.String({ format: "date", description: "When the sample was collected (YYYY-MM-DD); null when the dataset records none." })),
    land_cover_primary: nullable(t.String({ description: "Primary land cover class as recorded (DS 801: NLCD 1992 classification)." })),
    land_cover_secondary: nullable(t.String({ description: "Secondary land cover class as recorded (DS 801: NLCD 1992 classification)." })),
    depth: SampleDepth,
  },
  { ...closed, title: "SampleSite", description: "A sampled site and its sample: the context of observations made on collected soil." },
);
export type SampleSite = Static<typeof SampleSite>;

export const SAMPLE_SITE_MODELS = { SampleSite, SampleDepth };
