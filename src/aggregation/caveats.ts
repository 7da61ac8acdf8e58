/**
 * What a map-unit summary's value rests on, in words an average of several map units can carry on
 * (docs/decisions.md#polygon-summaries, #areas): below half of the map unit a value describes only the
 * components with data; and the summary's own warnings (components without values, partial depth,
 * miscellaneous-area placeholders).
 */
import type { Static } from "@sinclair/typebox";
import type { PropertySummary } from "./model";

/** Below this share of the map unit, a summary value is flagged wherever it is carried (polygons, areas). */
export const HALF_OF_MAP_UNIT = 50;

type Summary = Pick<Static<typeof PropertySummary>, "value" | "category" | "percent_of_map_unit" | "warnings">;

/** The caveats of one map unit's summary; none for a summary without a value. */
export function summaryCaveats(summary: Summary): string[] {
  if (summary.value === null && summary.category === null) return [];
  const thin =
    summary.percent_of_map_unit < HALF_OF_MAP_UNIT
      ? [`its value rests on ${summary.percent_of_map_unit} % of the map unit (the components with data) and does not describe the rest of the map unit.`]
      : [];
  return [...thin, ...summary.warnings];
}
