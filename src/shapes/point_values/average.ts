/**
 * method=weighted_average on GET /v1/soil/modeled (docs/decisions.md#modeled-weighted-average): one
 * `derived` observation per property over the asked interval, the average of the provider's depths
 * weighted by the centimetres each overlaps the interval. Only the mean is averaged (the mean of a
 * depth average is the depth average of the means); a quantile of the average is not the average of
 * the quantiles, and the provider gives no correlation between depths, so the interval's own
 * uncertainty is not derived and `uncertainty.method` says why. Works on any provider's observations.
 */
import type { Static } from "elysia";
import type { Observation } from "../../domain/observation";
import { PRECISION_RULE, roundDerived } from "../../domain/precision";

type Obs = Static<typeof Observation>;

export const AVERAGE_UNCERTAINTY =
  "Not derived: the interval of a depth average is not the average of each depth's interval, and the provider gives no correlation between its depths; each depth's own interval is served with method=none.";

export const AVERAGE_WARNING =
  "method=weighted_average: each observation is derived, the average of the provider's depths weighted by the centimetres each overlaps the asked interval (only the mean is averaged; the interval's uncertainty is not derived). Ask method=none for the provider's own depths.";

interface Part {
  observation: Obs;
  top: number;
  bottom: number;
}

const cm = (n: number) => Number(n.toFixed(6));
const labelOf = (o: Obs) => ("grid_context" in o ? o.grid_context.depth_label : `${o.depth.top_cm}-${o.depth.bottom_cm}cm`);

function weighted(parts: readonly Part[], valueOf: (o: Obs) => number | null | undefined): number | null {
  let sum = 0;
  let weight = 0;
  for (const part of parts) {
    const value = valueOf(part.observation);
    if (value === null || value === undefined) return null;
    sum += (part.bottom - part.top) * value;
    weight += part.bottom - part.top;
  }
  return weight > 0 ? sum / weight : null;
}

function uniqueBy<T>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** The derived observation of one property's parts (contiguous, one unit), over [top, bottom). */
function derive(parts: readonly Part[], top: number, bottom: number): Obs {
  const first = parts[0]!.observation;
  const value = roundDerived(weighted(parts, (o) => o.value)!);
  const terms = parts.map((p) => `${labelOf(p.observation)} (${cm(p.bottom - p.top)} cm)`).join(", ");
  const sameOriginalUnit = parts.every((p) => p.observation.source.original_unit === first.source.original_unit);
  const original = sameOriginalUnit ? weighted(parts, (o) => o.source.original_value) : null;
  const derived = {
    ...first,
    value,
    depth: { top_cm: top, bottom_cm: bottom },
    data_kind: "derived" as const,
    source: {
      ...first.source,
      record_id: null,
      // Computed, not published: the name says so, and so does a warning (issue 43).
      original_property_name: `depth-weighted average of ${parts.map((p) => p.observation.source.original_property_name).join(" + ")}`,
      // The provider's own numbers averaged the same way, where they share a unit; else the first depth's.
      original_value: original === null ? first.source.original_value : roundDerived(original),
      original_depth: { top_cm: parts[0]!.observation.depth.top_cm, bottom_cm: parts[parts.length - 1]!.observation.depth.bottom_cm },
    },
    uncertainty: { lower: null, upper: null, method: AVERAGE_UNCERTAINTY },
    transformations: [
      ...uniqueBy(parts.flatMap((p) => p.observation.transformations)),
      {
        operation: "depth_weighted_average",
        from_unit: first.unit,
        to_unit: first.unit,
        formula: `value = Σ(overlap_cm × value) / Σ overlap_cm over ${terms}; ${PRECISION_RULE}`,
      },
    ],
    warnings: [
      ...uniqueBy(parts.flatMap((p) => p.observation.warnings)),
      original === null
        ? `source.original_value is ${first.source.original_property_name}'s own (the depths' units differ, so no average of the provider's numbers is computed); value is the depth-weighted average.`
        : `source.original_value is computed by Loam, not published by the provider: the same depth-weighted average of the provider's own numbers (${first.source.original_unit}) over ${terms}.`,
    ],
  } as Obs;
  if ("grid_context" in first) {
    const mean = weighted(parts, (o) => ("grid_context" in o ? o.grid_context.statistics.mean : null));
    (derived as Extract<Obs, { grid_context: unknown }>).grid_context = {
      ...first.grid_context,
      depth_label: parts.map((p) => labelOf(p.observation)).join("+"),
      statistics: mean === null ? {} : { mean: roundDerived(mean) },
    };
  }
  return derived;
}

/** One derived observation per property over [top, bottom), with the warnings of what could not be averaged. */
export function weightedAverages<O extends Obs>(observations: readonly O[], top: number, bottom: number): { observations: O[]; warnings: string[] } {
  const byProperty = new Map<string, Part[]>();
  for (const observation of observations) {
    const part = { observation, top: Math.max(top, observation.depth.top_cm), bottom: Math.min(bottom, observation.depth.bottom_cm) };
    if (part.bottom <= part.top) continue;
    byProperty.set(observation.property.id, [...(byProperty.get(observation.property.id) ?? []), part]);
  }
  // A derived observation keeps its parts' context (derive: a grid cell's stays a grid cell's).
  const out: O[] = [];
  const warnings: string[] = [];
  for (const [property, unsorted] of byProperty) {
    const parts = [...unsorted].sort((a, b) => a.top - b.top);
    const broken = parts.findIndex((p, i) => i > 0 && p.top !== parts[i - 1]!.bottom);
    if (broken >= 0) {
      warnings.push(`${property}: the provider's depths with a value (${parts.map((p) => labelOf(p.observation)).join(", ")}) leave a gap or overlap at ${cm(parts[broken]!.top)} cm; no weighted average is served for it.`);
      continue;
    }
    if (new Set(parts.map((p) => p.observation.unit)).size > 1) {
      warnings.push(`${property}: the provider's depths are in different units; no weighted average is served for it.`);
      continue;
    }
    const from = parts[0]!.top;
    const to = parts[parts.length - 1]!.bottom;
    if (from !== top || to !== bottom) {
      warnings.push(`${property}: values cover only ${cm(from)}-${cm(to)} cm of the asked ${top}-${bottom} cm; its weighted average is over ${cm(from)}-${cm(to)} cm (its depth says so).`);
    }
    out.push(derive(parts, from, to) as O);
  }
  return { observations: out, warnings };
}
