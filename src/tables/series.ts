/**
 * GET /v1/series/{name} as a table: one row per horizon of the typical pedon, with the series, its
 * taxonomic class and the citation on every row, and the answer's warnings last (see ./flatten.ts).
 */
import type { SeriesHorizon, SeriesResponse } from "../domain/series";
import type { Static } from "@sinclair/typebox";
import { toCsv, type Column } from "./csv";
import { WARNING_SEPARATOR } from "./flatten";

type Row = { horizon: Static<typeof SeriesHorizon>; answer: SeriesResponse };

export const SERIES_HORIZON_COLUMNS: readonly Column<Row>[] = [
  ["series", ({ answer }) => answer.series.name],
  ["taxonomic_class", ({ answer }) => answer.series.taxonomic_class],
  ["horizon", ({ horizon }) => horizon.name],
  ["top_cm", ({ horizon }) => horizon.depth.top_cm],
  ["bottom_cm", ({ horizon }) => horizon.depth.bottom_cm],
  ["moist_color", ({ horizon }) => horizon.moist_color?.notation ?? null],
  ["moist_srgb_hex", ({ horizon }) => horizon.moist_color?.srgb_hex ?? null],
  ["dry_color", ({ horizon }) => horizon.dry_color?.notation ?? null],
  ["dry_srgb_hex", ({ horizon }) => horizon.dry_color?.srgb_hex ?? null],
  ["texture_class", ({ horizon }) => horizon.texture_class],
  ["structure", ({ horizon }) => horizon.structure],
  ["ph_class", ({ horizon }) => horizon.ph_class],
  ["narrative", ({ horizon }) => horizon.narrative],
  // The depth as the line states it (docs/decisions.md#osd-depths).
  ["original_top", ({ horizon }) => horizon.original_depth?.top ?? null],
  ["original_bottom", ({ horizon }) => horizon.original_depth?.bottom ?? null],
  ["original_unit", ({ horizon }) => horizon.original_depth?.unit ?? null],
  ["provider", ({ answer }) => answer.source.provider],
  ["citation", ({ answer }) => answer.source.citation],
  ["source_url", ({ answer }) => answer.source.source_url],
  ["retrieved_at", ({ answer }) => answer.source.retrieved_at],
  ["warnings", ({ answer }) => answer.warnings.join(WARNING_SEPARATOR)],
];

export function seriesCsv(answer: SeriesResponse): string {
  return toCsv(SERIES_HORIZON_COLUMNS, answer.horizons.map((horizon) => ({ horizon, answer })));
}
