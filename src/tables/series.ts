/**
 * GET /v1/series/{name} as a table: one row per horizon of the typical pedon, with the series, its
 * taxonomic class and the citation on every row, and the answer's warnings last (see ./flatten.ts).
 * The columns are derived from the models (SeriesHorizon, SeriesResponse: ./derive.ts); what the
 * table leaves out is declared below with why.
 */
import { SeriesHorizon, SeriesResponse } from "../domain/series";
import type { Static } from "@sinclair/typebox";
import { toCsv, type Column } from "./csv";
import { onFirstRow } from "./flatten";
import { CACHE_OMITTED, deriveColumns, ENVELOPE_OMITTED, type TableSpec } from "./derive";

type Row = { horizon: Static<typeof SeriesHorizon>; answer: SeriesResponse; index: number };

/** A colour as its notation and sRGB; hue, value and chroma are what the notation says. */
const colour = (name: "moist_color" | "dry_color", short: string) => ({
  rename: { [`${name}.notation`]: name, [`${name}.srgb_hex`]: `${short}_srgb_hex` },
  omit: { [`${name}.hue`]: "in the notation", [`${name}.value`]: "in the notation", [`${name}.chroma`]: "in the notation" },
});
const moist = colour("moist_color", "moist");
const dry = colour("dry_color", "dry");

export const SERIES_SPEC: TableSpec<Row> = {
  parts: [
    {
      model: SeriesResponse,
      at: "",
      of: (row) => row.answer,
      prefix: { series: "", source: "" },
      rename: { "series.name": "series", warnings: "answer_warnings" },
      // The answer's warnings once, on the first row (docs/decisions.md#csv-warning-codes).
      cells: { warnings: ({ answer, index }) => onFirstRow(index, answer.warnings) },
      omit: {
        ...ENVELOPE_OMITTED,
        provider: "the same as source.provider, which is the column",
        data_kind: "always mapped_survey for a description: in the JSON",
        "series.status": "a fact of the series, not of a horizon: in the JSON",
        "series.states": "a fact of the series, not of a horizon: in the JSON",
        "series.revised": "in the citation, which names the revision",
        "series.overview": "a paragraph of the series, not of a horizon: in the JSON",
        sections: "the description's text sections: in the JSON",
        horizons: "the rows",
        "source.organization": "named by the citation",
        ...CACHE_OMITTED,
        "cache.stored_at": "when Loam stored the answer; retrieved_at says when the description was read",
      },
    },
    {
      model: SeriesHorizon,
      at: "horizons[]",
      of: (row) => row.horizon,
      // The depths take the names every CSV gives them, depth_top_cm and depth_bottom_cm (docs/decisions.md#csv-columns).
      prefix: { original_depth: "original" },
      rename: { name: "horizon", ...moist.rename, ...dry.rename },
      omit: {
        ...moist.omit,
        ...dry.omit,
        // The depth as the line states it (docs/decisions.md#osd-depths): its numbers and unit are columns.
        "original_depth.text": "the words are in the narrative",
        "original_depth.conversion": "follows from original_unit",
      },
    },
  ],
  // Today's order (docs/api.md): the series first, the horizon, then the provenance and warnings.
  order: [
    "series", "taxonomic_class", "horizon", "depth_top_cm", "depth_bottom_cm", "moist_color", "moist_srgb_hex", "dry_color", "dry_srgb_hex",
    "texture_class", "structure", "ph_class", "narrative", "original_top", "original_bottom", "original_unit",
    "provider", "citation", "source_url", "retrieved_at", "answer_warnings",
  ],
};

export const SERIES_HORIZON_COLUMNS: readonly Column<Row>[] = deriveColumns(SERIES_SPEC);

export function seriesCsv(answer: SeriesResponse): string {
  return toCsv(SERIES_HORIZON_COLUMNS, answer.horizons.map((horizon, index) => ({ horizon, answer, index })));
}
