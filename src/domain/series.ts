/**
 * A soil series as described (e.g. an Official Series Description): what the series feature serves and
 * what components and pedons link to (docs/decisions.md#series).
 */
import { t, type Static } from "elysia";
import { CacheMetadata, closed, nullable } from "./model";

export const MunsellColor = t.Object(
  {
    hue: t.String({ description: "Munsell hue as the description states it; N for a neutral colour.", examples: ["10YR"] }),
    value: t.Number({ description: "Munsell value (lightness), 0 to 10.", examples: [2] }),
    chroma: t.Number({ description: "Munsell chroma; 0 for a neutral colour, also when the description leaves it out (N 2.5/).", examples: [1] }),
    notation: t.String({ description: "The colour as soil scientists write it.", examples: ["10YR 2/1", "N 2/0", "N 2.5/"] }),
    srgb_hex: nullable(
      t.String({
        pattern: "^#[0-9a-f]{6}$",
        description:
          "sRGB (D65) of the colour from the Munsell renotation table (illuminant C, Bradford-adapted to D65), interpolated between table hues, values and chromas; null, with a warning, when the colour lies outside the table.",
        examples: ["#38302a"],
      }),
    ),
  },
  { ...closed, title: "MunsellColor" },
);

export const SeriesDepth = t.Object(
  {
    top_cm: t.Number(),
    bottom_cm: nullable(t.Number({ description: "Null where the description gives no lower depth (usually bedrock: R, Cr)." })),
  },
  { ...closed, title: "SeriesDepth", description: "Depth below the soil surface of the typical pedon, centimetres." },
);

export const SeriesOriginalDepth = t.Object(
  {
    top: t.Number({ examples: [0] }),
    bottom: nullable(t.Number({ examples: [6] })),
    unit: t.UnionEnum(["in", "cm"], { description: "in: the line states inches first; cm: centimetres." }),
    text: t.String({ description: "The words of the horizon line that state the depth.", examples: ["0 to 6 inches"] }),
    conversion: nullable(t.String({ description: "How depth (cm) follows from the original; null when the original is centimetres." })),
  },
  {
    ...closed,
    title: "SeriesOriginalDepth",
    description: "The depth as the description's horizon line states it (docs/decisions.md#osd-depths).",
  },
);

export const SeriesHorizon = t.Object(
  {
    name: t.String({ description: "Horizon designation.", examples: ["Ap"] }),
    depth: SeriesDepth,
    original_depth: t.Union([SeriesOriginalDepth, t.Null()], { description: "The depth as the horizon line states it (inches or centimetres) and the conversion; null when the line states none Loam reads." }),
    moist_color: nullable(MunsellColor),
    dry_color: nullable(MunsellColor),
    texture_class: nullable(t.String({ examples: ["loam"] })),
    structure: nullable(t.String({ examples: ["weak fine subangular blocky"] })),
    ph_class: nullable(t.String({ description: "Reaction class as described.", examples: ["slightly acid"] })),
    narrative: nullable(t.String({ description: "The horizon's line of the typical pedon, as written; authoritative where the parsed fields differ." })),
  },
  { ...closed, title: "SeriesHorizon", description: "One horizon of the typical pedon, top to bottom." },
);

export const SeriesSection = t.Object(
  {
    name: t.String({ description: "The section heading as the description writes it.", examples: ["TAXONOMIC CLASS", "RANGE IN CHARACTERISTICS"] }),
    text: t.String({ description: "The section text without its heading." }),
  },
  { ...closed, title: "SeriesSection" },
);

export const SeriesInfo = t.Object(
  {
    name: t.String({ description: "Series name as the description writes it.", examples: ["CLARION"] }),
    status: nullable(t.String({ examples: ["Established Series"] })),
    taxonomic_class: nullable(t.String({ examples: ["Fine-loamy, mixed, superactive, mesic Typic Hapludolls"] })),
    states: t.Array(t.String({ description: "Two-letter US state or territory codes where the series is mapped.", examples: ["IA"] })),
    revised: nullable(t.String({ pattern: "^[0-9]{4}-[0-9]{2}$", description: "Month of the description's last revision (YYYY-MM).", examples: ["2005-10"] })),
    overview: nullable(t.String()),
  },
  { ...closed, title: "SeriesInfo" },
);

export const SeriesSource = t.Object(
  {
    provider: t.String({ description: "The series provider id." }),
    organization: t.String(),
    citation: t.String({ description: "Names the series and the description's revision date." }),
    source_url: t.String({ description: "Where the description was read (the document the provider fetched, or its home when served from a snapshot)." }),
    retrieved_at: t.String({ format: "date-time", description: "When the description was fetched, or the snapshot build time in offline mode." }),
  },
  { ...closed, title: "SeriesSource" },
);

export const SeriesResponse = t.Object(
  {
    api_version: t.String(),
    status: t.Literal("experimental"),
    provider: t.String({ description: "The series provider id." }),
    data_kind: t.Literal("mapped_survey", { description: "A described series concept (typical pedon and ranges), not a measurement at a place." }),
    series: SeriesInfo,
    sections: t.Array(SeriesSection, { description: "Every text section of the description, in its order." }),
    horizons: t.Array(SeriesHorizon),
    source: SeriesSource,
    cache: CacheMetadata,
    warnings: t.Array(t.String()),
  },
  { ...closed, title: "SeriesResponse", description: "A soil series description, from the registry's series provider." },
);

export type SeriesResponse = Static<typeof SeriesResponse>;
/** The answer before the pipeline adds its cache metadata. */
export type SeriesBody = Omit<SeriesResponse, "cache">;

/** Where a component's or a pedon's series is described: set only when a description exists. */
export const SeriesLink = t.Object(
  {
    name: t.String({ description: "The series name as the component or pedon gives it.", examples: ["Clarion"] }),
    url: t.String({ description: "Path of its description, GET /v1/series/{name}.", examples: ["/v1/series/CLARION"] }),
  },
  { ...closed, title: "SeriesLink", description: "The description of a named series (GET /v1/series/{name})." },
);
export type SeriesLink = Static<typeof SeriesLink>;

