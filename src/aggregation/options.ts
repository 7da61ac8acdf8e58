/**
 * Which components a map-unit summary counts (docs/decisions.md#summary-options): all of them, as NRCS
 * muaggatt does (the defaults), or, as soilDB get_SDA_property does by default, only major components
 * (`include_minors=false`) and no miscellaneous areas (`miscellaneous_areas=exclude`).
 *
 * One model and one parser for every route that summarizes map units (the map unit by key, the summary
 * at a point, the map-unit polygons' choropleth, an area's features): spread `SUMMARY_OPTION_PARAMETERS`
 * into the route's query schema, call `summaryOptions(read)` on the read query, hand the result to
 * `planSummaries` (plan.ts), and echo it with `SummaryOptions`.
 */
import { t, type Static } from "elysia";
import { closed } from "../domain/model";
import { isMiscellaneousArea, type SummaryComponent } from "../domain/component";

export const SUMMARY_OPTION_PARAMETERS = {
  include_minors: t.Optional(
    t.UnionEnum(["true", "false"], {
      default: "true",
      description:
        "true (default): every component counts, as NRCS muaggatt counts them. false: only major components (majcompflag Yes), as soilDB get_SDA_property does by default.",
    }),
  ),
  miscellaneous_areas: t.Optional(
    t.UnionEnum(["include", "exclude"], {
      default: "include",
      description:
        "include (default): miscellaneous areas (Urban land, Rubble land, Beaches, Water, ...) count, as in NRCS muaggatt. exclude: they do not, as soilDB get_SDA_property does by default.",
    }),
  ),
};

export const SummaryOptions = t.Object(
  {
    include_minors: t.Boolean({ description: "Whether minor components (majcompflag No) counted." }),
    miscellaneous_areas: t.UnionEnum(["include", "exclude"], { description: "Whether miscellaneous areas counted." }),
  },
  { ...closed, title: "SummaryOptions", description: "Which components the summary counted (docs/decisions.md#summary-options)." },
);
export type SummaryOptions = Static<typeof SummaryOptions>;

/** muaggatt's rule: every component counts. */
export const DEFAULT_SUMMARY_OPTIONS: SummaryOptions = Object.freeze({ include_minors: true, miscellaneous_areas: "include" });

/** The options of a query read with `SUMMARY_OPTION_PARAMETERS` (the strict reader already refused other values). */
export function summaryOptions(read: { include_minors?: string; miscellaneous_areas?: string }): SummaryOptions {
  return {
    include_minors: (read.include_minors ?? "true") !== "false",
    miscellaneous_areas: read.miscellaneous_areas === "exclude" ? "exclude" : "include",
  };
}

/** The components a summary with these options counts. */
export function countedComponents<C extends SummaryComponent>(components: readonly C[], options: SummaryOptions): C[] {
  return components.filter((c) => (options.include_minors || c.major) && (options.miscellaneous_areas === "include" || !isMiscellaneousArea(c)));
}

/** The components left out, for the summary's warning. */
export function leftOut<C extends SummaryComponent>(components: readonly C[], options: SummaryOptions): C[] {
  const counted = new Set(countedComponents(components, options));
  return components.filter((c) => !counted.has(c));
}
