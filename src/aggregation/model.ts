/**
 * Models of one property's summary over a map unit (docs/decisions.md#summaries): the body every
 * summarizing route carries per property, whatever else its body holds.
 */
import { t, type Static } from "elysia";
import { DepthInterval, closed, nullable } from "../domain/model";
import { PropertyReference, Transformation } from "../catalog/model";
import { SUMMARY_METHODS } from "./methods";
import { SummaryOptions } from "./options";

/** The properties summarized when a request names none. */
export const DEFAULT_SUMMARY_PROPERTIES = "ph,organic_matter,sand,silt,clay";

export const SummaryMethodName = t.Union(
  [t.Literal("weighted_average"), t.Literal("dominant_component"), t.Literal("dominant_condition"), t.Literal("min"), t.Literal("max")],
  { title: "SummaryMethod", description: "How component values become one map-unit value (docs/api.md, Map-unit summaries)." },
);

/** The model lists every method of methods.ts (checked here, at compile time). */
const _everyMethod: readonly Static<typeof SummaryMethodName>[] = SUMMARY_METHODS;

export const SummaryContribution = t.Object(
  {
    component_key: t.String(),
    component_name: t.String(),
    component_percent: nullable(t.Number()),
    value: nullable(t.Number()),
    category: nullable(t.String()),
    covered_depth: nullable(DepthInterval),
    horizon_keys: t.Array(t.String()),
  },
  { ...closed, title: "SummaryContribution" },
);

export const SummarySource = t.Object(
  {
    provider: t.String(),
    organization: t.String(),
    retrieved_at: t.String({ format: "date-time" }),
    original_property_name: t.String({ examples: ["chorizon.awc_r"] }),
    citation: t.String(),
    source_url: t.String(),
  },
  { ...closed, title: "SummarySource" },
);

export const PropertySummary = t.Object(
  {
    property: PropertyReference,
    method: SummaryMethodName,
    value: nullable(t.Number()),
    category: nullable(t.String()),
    unit: nullable(t.String()),
    depth: DepthInterval,
    options: SummaryOptions,
    percent_of_map_unit: t.Number({ description: "Sum of the component percents that made the value." }),
    contributions: t.Array(SummaryContribution),
    transformations: t.Array(Transformation),
    source: SummarySource,
    warnings: t.Array(t.String()),
  },
  { ...closed, title: "PropertySummary" },
);
