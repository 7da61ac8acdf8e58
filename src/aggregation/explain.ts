/**
 * How a summary shows its work: the formulas it applied (`transformations`) and what a reader must
 * know before using the number (`warnings`). Pure functions over the method's outcome.
 */
import { hasReading, isMiscellaneousArea, type ComponentReading, type DepthInterval } from "../domain/component";
import type { SummaryMethod } from "./methods";
import type { SummaryProperty, SummaryTransformation } from "../domain/summary-property";
import { PRECISION_RULE } from "../domain/precision";

/** What a method decided (aggregate.ts), before the explanation is written: declared here, the side that reads it, so the two files import one way. */
export interface MethodOutcome {
  value: number | null;
  category: string | null;
  percent: number;
  /** Readings listed as contributions, with the value each shows (a component's extreme for min/max). */
  shown: Array<{ reading: ComponentReading; value: number | null; category: string | null; horizonKeys: string[] }>;
  notes: string[];
}

const interval = (d: DepthInterval) => `${d.top_cm}–${d.bottom_cm} cm`;

function depthStep(property: SummaryProperty, depth: DepthInterval): SummaryTransformation | null {
  if (property.level !== "horizon") return null;
  if (property.kind === "class") {
    return {
      operation: "dominant_texture_by_thickness",
      from_unit: "class",
      to_unit: "class",
      formula: `component texture = the representative texture group (rvindicator Yes) covering the greatest thickness of ${interval(depth)}`,
    };
  }
  if (property.storage) {
    return { operation: "sum_over_depth", from_unit: property.unit!, to_unit: property.storage.unit, formula: `${property.storage.formula}, over ${interval(depth)}; ${PRECISION_RULE} where shown` };
  }
  return {
    operation: "thickness_weighted_mean",
    from_unit: property.unit!,
    to_unit: property.unit!,
    formula: `component value = sum(value x overlap cm) / sum(overlap cm) over the horizons overlapping ${interval(depth)}; ${PRECISION_RULE} where shown`,
  };
}

function methodStep(property: SummaryProperty, method: SummaryMethod, depth: DepthInterval): SummaryTransformation {
  const unit = property.storage?.unit ?? property.unit ?? "class";
  const step = (operation: string, formula: string) => ({ operation, from_unit: unit, to_unit: unit, formula: property.kind === "numeric" ? `${formula}; ${PRECISION_RULE}` : formula });
  switch (method) {
    case "weighted_average":
      return step("component_percent_weighted_mean", "map unit value = sum(component value x comppct_r) / sum(comppct_r) over the components that have a value");
    case "dominant_component":
      return step("dominant_component", "map unit value = the value of the component with the highest comppct_r (tie: lowest component key)");
    case "dominant_condition":
      return step("dominant_condition", "map unit class = the class whose components' comppct_r sum is largest (components without a class count as one condition)");
    case "min":
    case "max": {
      const over = property.level === "component" || property.storage ? "the components' values" : `the horizons overlapping ${interval(depth)}`;
      return step(method === "min" ? "minimum" : "maximum", `map unit value = ${method}(${over}), all components`);
    }
  }
}

/** The formulas of a summary, in the order they were applied. */
export function describeTransformations(property: SummaryProperty, method: SummaryMethod, depth: DepthInterval): SummaryTransformation[] {
  const steps: SummaryTransformation[] = [];
  if (property.derived) steps.push(property.derived.transformation);
  const depthTransformation = depthStep(property, depth);
  if (depthTransformation) steps.push(depthTransformation);
  steps.push(methodStep(property, method, depth));
  return steps;
}

const named = (r: ComponentReading) => `${r.component.name} (${r.component.percent ?? "no"} %)`;

function missingWarning(readings: readonly ComponentReading[], property: SummaryProperty, depth: DepthInterval): string | null {
  const missing = readings.filter((r) => !hasReading(r));
  if (missing.length === 0) return null;
  const share = missing.reduce((s, r) => s + (r.component.percent ?? 0), 0);
  const where = property.level === "horizon" ? ` over ${interval(depth)}` : "";
  const list = missing.map((r) => `${named(r)}: ${r.missing}`).join("; ");
  return `${missing.length} component(s), ${share} % of the map unit, have no ${property.id}${where} and do not contribute: ${list}.`;
}

/** A miscellaneous area's fraction value that is SSURGO's placeholder: a zero sand, silt or clay (null ones are skipped before). */
export function isPlaceholder(property: SummaryProperty, reading: ComponentReading): boolean {
  return property.fraction === true && reading.pieces.some((p) => p.value === 0);
}

/**
 * Exact miscellaneous-area warnings (docs/decisions.md#miscellaneous-areas): "placeholder" only for
 * fraction values that are placeholders (Rubble land's zero clay); every other value of a
 * miscellaneous area (Beaches' real estimates, Rubble land's bulk density) "may not be soil".
 */
function miscellaneousWarnings(outcome: MethodOutcome, property: SummaryProperty): string[] {
  const misc = outcome.shown.filter((s) => isMiscellaneousArea(s.reading.component));
  const placeholders = misc.filter((s) => isPlaceholder(property, s.reading));
  const estimates = misc.filter((s) => !placeholders.includes(s));
  const warnings: string[] = [];
  if (placeholders.length > 0) {
    warnings.push(
      `Miscellaneous area(s) ${placeholders.map((s) => named(s.reading)).join(", ")} contribute placeholder ${property.id} values (zero): the survey fills the particle-size fractions of miscellaneous areas with placeholders, not fine-earth estimates; miscellaneous_areas=exclude leaves them out.`,
    );
  }
  if (estimates.length > 0) {
    const what = property.level === "horizon" ? `their ${property.id} values are the survey's estimates for the area's material` : `their ${property.id} is an assigned rating`;
    warnings.push(`Miscellaneous area(s) ${estimates.map((s) => named(s.reading)).join(", ")} contribute and may not be soil: ${what}, not for a soil.`);
  }
  return warnings;
}

/**
 * Horizon values of a component whose data stop short of the interval describe the covered part only:
 * an average describes that part, a storage sum (available_water_storage) counts only that part, so the
 * rest of the interval is unknown, not zero (docs/decisions.md#summaries).
 */
function coverageWarning(outcome: MethodOutcome, property: SummaryProperty, depth: DepthInterval): string | null {
  if (property.level !== "horizon" || property.kind !== "numeric") return null;
  const short = outcome.shown.filter((s) => s.reading.covered && (s.reading.covered.top_cm > depth.top_cm || s.reading.covered.bottom_cm < depth.bottom_cm));
  if (short.length === 0) return null;
  const list = short.map((s) => `${s.reading.component.name} ${interval(s.reading.covered!)}`).join(", ");
  if (property.storage) {
    return `Some components' ${property.id} data cover only part of ${interval(depth)} (${list}); their sums count only the covered depth, and the storage of the rest of the interval is unknown, not zero.`;
  }
  return `Some components' ${property.id} data cover only part of ${interval(depth)} (${list}); their values describe the covered part.`;
}

/** Warnings that follow from the data, after the method's own (ties, null dominant component). */
export function summaryWarnings(
  readings: readonly ComponentReading[],
  outcome: MethodOutcome,
  property: SummaryProperty,
  method: SummaryMethod,
  depth: DepthInterval,
): string[] {
  const warnings = [
    missingWarning(readings, property, depth),
    ...miscellaneousWarnings(outcome, property),
    coverageWarning(outcome, property, depth),
    property.derived?.warning ?? null,
  ].filter((w): w is string => w !== null);
  if (readings.length === 0) warnings.unshift("The map unit has no components, so there is nothing to summarize.");
  else if (method !== "dominant_component" && outcome.shown.length === 0) {
    warnings.unshift(`No component has ${property.id} data${property.level === "horizon" ? ` over ${interval(depth)}` : ""}; the summary is null.`);
  }
  return warnings;
}
