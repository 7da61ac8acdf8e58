/**
 * One number (or class) per map unit and depth interval, computed the way NRCS computes its
 * map-unit aggregates (muaggatt, the Soil Data Development Toolbox, soilDB get_SDA_property), with
 * every component's contribution and the formulas used. Pure functions, no I/O.
 *
 * - weighted_average: component values weighted by comppct_r, normalized by the percent of the
 *   components that have a value (reproduces muaggatt aws025wta ... aws0150wta).
 * - dominant_component: the component with the highest comppct_r (tie: lowest cokey); null with a
 *   warning when it has no data, as Web Soil Survey shows it.
 * - dominant_condition: comppct_r summed per class; components without a class form a condition of
 *   their own, so a map unit that is mostly Urban land has no dominant drainage class (muaggatt
 *   drclassdcd is null there). A tie is reported and broken by the class of the largest component.
 * - min / max: over the horizons (or, for component-level and storage properties, the components)
 *   that overlap the interval, across all components.
 */
import { compareKeys, hasReading, readComponent, type ComponentReading, type DepthInterval, type SummaryComponent } from "../domain/component";
import { ValidationError } from "../errors";
import { roundDerived, roundDerivedOrNull } from "../domain/precision";
import { assertMethodFits, type SummaryMethod } from "./methods";
import type { SummaryProperty, SummaryTransformation } from "../domain/summary-property";
import { describeTransformations, summaryWarnings, type MethodOutcome } from "./explain";
import { countedComponents, DEFAULT_SUMMARY_OPTIONS, leftOut, type SummaryOptions } from "./options";

export interface SummaryContribution {
  component_key: string;
  component_name: string;
  component_percent: number | null;
  value: number | null;
  category: string | null;
  covered_depth: DepthInterval | null;
  horizon_keys: string[];
}

export interface MapUnitSummary {
  property: { id: string; name: string };
  method: SummaryMethod;
  value: number | null;
  category: string | null;
  unit: string | null;
  depth: DepthInterval;
  /** Which components counted (docs/decisions.md#summary-options). */
  options: SummaryOptions;
  /** Sum of the component percents that made the value (for dominant_condition: the winning class's). */
  percent_of_map_unit: number;
  contributions: SummaryContribution[];
  transformations: SummaryTransformation[];
  warnings: string[];
}

const pct = (c: SummaryComponent) => c.percent ?? 0;

/** Highest comppct_r first; equal percents by lowest component key. */
export function byDominance(a: SummaryComponent, b: SummaryComponent): number {
  return pct(b) - pct(a) || compareKeys(a.key, b.key);
}

/** Drops binary noise (9.640000000000001) from sums of percents in warnings. */
const clean = (v: number) => Math.round(v * 1e9) / 1e9;

const asShown = (r: ComponentReading) => ({ reading: r, value: r.value, category: r.category, horizonKeys: r.horizonKeys });

function weightedAverage(readings: ComponentReading[]): MethodOutcome {
  const withValue = readings.filter(hasReading);
  const percent = withValue.reduce((s, r) => s + pct(r.component), 0);
  const notes: string[] = [];
  let value: number | null = null;
  if (percent > 0) value = withValue.reduce((s, r) => s + r.value! * pct(r.component), 0) / percent;
  else if (withValue.length > 0) notes.push("The components with a value have no component percent (comppct_r), so no weighted average can be formed.");
  return { value, category: null, percent, shown: withValue.map(asShown), notes };
}

function dominantComponent(readings: ComponentReading[], property: SummaryProperty): MethodOutcome {
  const sorted = [...readings].sort((a, b) => byDominance(a.component, b.component));
  const top = sorted[0];
  if (!top) return { value: null, category: null, percent: 0, shown: [], notes: [] };
  const notes: string[] = [];
  const tied = sorted.filter((r) => pct(r.component) === pct(top.component));
  if (tied.length > 1) {
    notes.push(`Components ${tied.map((r) => `${r.component.name} (${r.component.key})`).join(", ")} share the highest percent (${pct(top.component)} %); the lowest component key, ${top.component.key}, is taken as dominant.`);
  }
  if (!hasReading(top)) {
    notes.push(`The dominant component, ${top.component.name} (${pct(top.component)} %), has no ${property.id} data (${top.missing}), so the value is null, as Web Soil Survey shows it.`);
    return { value: null, category: null, percent: 0, shown: [], notes };
  }
  return { value: top.value, category: top.category, percent: pct(top.component), shown: [asShown(top)], notes };
}

function dominantCondition(readings: ComponentReading[], property: SummaryProperty): MethodOutcome {
  // A component without a class is a condition of its own ("no class"), as in NRCS's aggregation.
  const totals = new Map<string | null, number>();
  for (const r of readings) totals.set(r.category, (totals.get(r.category) ?? 0) + pct(r.component));
  const best = Math.max(0, ...totals.values());
  const tied = [...totals.keys()].filter((k) => totals.get(k) === best);
  const largest = [...readings].sort((a, b) => byDominance(a.component, b.component));
  const winner = tied.length === 1 ? tied[0]! : (largest.find((r) => tied.includes(r.category))?.category ?? null);
  const notes: string[] = [];
  const label = (k: string | null) => (k === null ? `no ${property.id}` : `'${k}'`);
  if (tied.length > 1) {
    notes.push(`Tie: ${tied.map(label).join(" and ")} each cover ${best} % of the map unit; broken by the class of the component with the highest percent: ${label(winner)}.`);
  }
  if (winner === null && readings.some(hasReading)) {
    notes.push(`Components without a ${property.id} make up ${best} % of the map unit, more than any class, so the dominant condition is null (as NRCS muaggatt reports it).`);
  }
  const shown = readings.filter(hasReading).map(asShown);
  return { value: null, category: winner, percent: winner === null ? 0 : best, shown, notes };
}

function extreme(readings: ComponentReading[], property: SummaryProperty, method: "min" | "max"): MethodOutcome {
  const pick = method === "min" ? Math.min : Math.max;
  const byComponent = property.level === "component" || property.storage !== undefined;
  const shown: MethodOutcome["shown"] = [];
  for (const r of readings.filter(hasReading)) {
    if (byComponent) {
      shown.push(asShown(r));
      continue;
    }
    const v = pick(...r.pieces.map((p) => p.value!));
    shown.push({ reading: r, value: v, category: null, horizonKeys: r.pieces.filter((p) => p.value === v).map((p) => p.key) });
  }
  const value = shown.length === 0 ? null : pick(...shown.map((s) => s.value!));
  const percent = shown.reduce((s, x) => s + pct(x.reading.component), 0);
  return { value, category: null, percent, shown, notes: [] };
}

function decide(method: SummaryMethod, readings: ComponentReading[], property: SummaryProperty): MethodOutcome {
  switch (method) {
    case "weighted_average":
      return weightedAverage(readings);
    case "dominant_component":
      return dominantComponent(readings, property);
    case "dominant_condition":
      return dominantCondition(readings, property);
    case "min":
    case "max":
      return extreme(readings, property, method);
  }
}

/** The components the options left out, named with their percents (none with the defaults). */
function optionWarnings(components: readonly SummaryComponent[], options: SummaryOptions): string[] {
  const out = leftOut(components, options);
  if (out.length === 0) return [];
  const share = out.reduce((s, c) => s + pct(c), 0);
  const why = [options.include_minors ? null : "include_minors=false leaves out minor components", options.miscellaneous_areas === "exclude" ? "miscellaneous_areas=exclude leaves out miscellaneous areas" : null].filter(Boolean).join("; ");
  const soilDb = !options.include_minors && options.miscellaneous_areas === "exclude" ? " (soilDB get_SDA_property's defaults)" : "";
  return [`${why}${soilDb}: ${out.map((c) => `${c.name} (${c.percent ?? "no"} %)`).join(", ")}, ${clean(share)} % of the map unit, do not count; NRCS muaggatt counts every component.`];
}

/**
 * The summary of one property over one depth interval for a map unit's components. A method that
 * does not fit the property, or an empty interval, is a ValidationError (422); the route checks
 * both first so its message names the query parameters.
 */
export function summarize(
  components: readonly SummaryComponent[],
  property: SummaryProperty,
  method: SummaryMethod,
  depth: DepthInterval,
  options: SummaryOptions = DEFAULT_SUMMARY_OPTIONS,
): MapUnitSummary {
  assertMethodFits(property, method);
  if (!(depth.bottom_cm > depth.top_cm)) throw new ValidationError(`The depth interval ${depth.top_cm}–${depth.bottom_cm} cm is empty: the bottom must lie below the top.`);
  const counted = countedComponents(components, options);
  const readings = counted.sort((a, b) => byDominance(a, b)).map((c) => readComponent(c, property, depth));
  const outcome = decide(method, readings, property);
  // Computed values at the documented precision (docs/decisions.md#precision); the method computes from unrounded component values.
  const round = roundDerivedOrNull;
  return {
    property: { id: property.id, name: property.name },
    method,
    value: property.kind === "numeric" ? round(outcome.value) : null,
    category: property.kind === "class" ? outcome.category : null,
    unit: property.storage?.unit ?? property.unit,
    depth: { top_cm: depth.top_cm, bottom_cm: depth.bottom_cm },
    options: { ...options },
    percent_of_map_unit: roundDerived(outcome.percent),
    contributions: outcome.shown.map((s) => ({
      component_key: s.reading.component.key,
      component_name: s.reading.component.name,
      component_percent: s.reading.component.percent,
      value: property.kind === "numeric" ? round(s.value) : null,
      category: property.kind === "class" ? s.category : null,
      covered_depth: s.reading.covered,
      horizon_keys: s.horizonKeys,
    })),
    transformations: describeTransformations(property, method, depth),
    warnings: [...optionWarnings(components, options), ...outcome.notes, ...summaryWarnings(readings, outcome, property, method, depth)],
  };
}

