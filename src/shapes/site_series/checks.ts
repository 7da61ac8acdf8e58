/**
 * A series' values checked before they are served (docs/decisions.md#series-checks): whatever a
 * source sends, an answer holds finite numbers inside the unit's physical bounds, in time order, one
 * value per time. What is dropped is counted and said in one warning each.
 */
import type { SeriesPoint } from "../../domain/station";

/** Physical bounds of a served unit: a volumetric water content is a share of the volume; a soil below -60 °C or above 80 °C is a broken sensor. */
const BOUNDS: Record<string, [number, number]> = { "% vol": [0, 100], "°C": [-60, 80] };

/** What a series' checks dropped or reordered, over every window of one answer. */
export interface SeriesChecks {
  notFinite: number;
  outOfBounds: number;
  unordered: number;
  /** Times reported more than once with the same value: one kept. */
  repeated: number;
  /** Times reported more than once with different values: none kept. */
  conflicting: number;
}

export const noProblems = (): SeriesChecks => ({ notFinite: 0, outOfBounds: 0, unordered: 0, repeated: 0, conflicting: 0 });

/** The values of `values` inside [startMs, endMs) that pass the checks, in time order; `checks` counts the others. */
export function checkedValues(values: readonly SeriesPoint[], unit: string, startMs: number, endMs: number, checks: SeriesChecks): SeriesPoint[] {
  const [low, high] = BOUNDS[unit] ?? [-Infinity, Infinity];
  const kept: SeriesPoint[] = [];
  for (const v of values) {
    if (typeof v.t !== "number" || v.t < startMs || v.t >= endMs) continue;
    if (typeof v.value !== "number" || !Number.isFinite(v.value)) checks.notFinite++;
    else if (v.value < low || v.value > high) checks.outOfBounds++;
    else {
      if (kept.length > 0 && v.t < kept[kept.length - 1]!.t) checks.unordered++;
      kept.push(v);
    }
  }
  if (checks.unordered > 0) kept.sort((a, b) => a.t - b.t);
  const out: SeriesPoint[] = [];
  for (let i = 0; i < kept.length; ) {
    let j = i + 1;
    while (j < kept.length && kept[j]!.t === kept[i]!.t) j++;
    const same = kept.slice(i, j);
    if (same.every((v) => v.value === same[0]!.value)) {
      out.push(same[0]!);
      checks.repeated += same.length - 1;
    } else checks.conflicting += same.length;
    i = j;
  }
  return out;
}

/** One warning per kind of problem the checks met, naming the source. */
export function checkWarnings(checks: SeriesChecks, unit: string, source: string): string[] {
  const warnings: string[] = [];
  const bounds = BOUNDS[unit];
  if (checks.notFinite > 0) warnings.push(`${source} sent ${checks.notFinite} value(s) that are not finite numbers (e.g. 1e309, null); they are dropped, not served: those times have no value.`);
  if (checks.outOfBounds > 0 && bounds) warnings.push(`${source} sent ${checks.outOfBounds} value(s) outside ${bounds[0]} to ${bounds[1]} ${unit}, which no working sensor reads; they are dropped, not served.`);
  if (checks.unordered > 0) warnings.push(`${source} sent ${checks.unordered} value(s) out of time order; they are served in time order.`);
  if (checks.repeated > 0) warnings.push(`${source} sent ${checks.repeated} time(s) again with the same value; each time is served once.`);
  if (checks.conflicting > 0) warnings.push(`${source} sent ${checks.conflicting} values for times it reported more than once with different values; none of them is served, since which is right is not known.`);
  return warnings;
}
