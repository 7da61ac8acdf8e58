/**
 * What a SoilGrids answer may say and still be served (docs/decisions.md#isric-soilgrids-values): an
 * answer is checked before it becomes observations, and what cannot be right is dropped with a warning
 * naming it, never served against the schema (issue 43: `1e309` was served as null, `1e308` as a
 * percentage, an interval whose upper bound lay below its lower, depths of -15 to -5 cm).
 */
import type { ValueDepth } from "../provider";
import type { DecodedDepth } from "./answer";
import type { SoilGridsLayer } from "./layers";

/**
 * SoilGrids stores every map as Int16 with NoData -32768 (datasets/docs/awdb-and-soilgrids-formats.md
 * B.6), and no soil quantity it maps is negative: a mapped value lies in 0..32767, or below the layer's
 * own bound (a fraction of 1000 g/kg, pH 14).
 */
const INT16_MAX = 32767;

/** The depth of `candidates` (same label or same range) that is the asked depth; the others, each said. */
export function askedDepth(candidates: readonly DecodedDepth[], want: ValueDepth, layer: string, refused: string[]): DecodedDepth | undefined {
  const matching = candidates.find((d) => d.label === want.label && d.top === want.top && d.bottom === want.bottom);
  for (const depth of candidates) {
    if (depth !== matching && depth.label === want.label) refused.push(`${layer} ${want.label} (its range is ${depth.top} to ${depth.bottom} cm, not the ${want.top} to ${want.bottom} cm its label and the question name)`);
  }
  return matching;
}

/** Why a mapped value cannot be one, or null when it can. */
function implausible(value: number, bound: number): string | null {
  if (!Number.isFinite(value)) return "not a finite number";
  if (value < 0) return "negative";
  if (value > bound) return `above ${bound}, the largest value the layer can hold`;
  return null;
}

/**
 * The depth's statistics Loam may serve: each implausible one dropped, and the quantiles dropped when
 * they are out of order (Q0.05 <= Q0.5 <= Q0.95), each said in `refused`. Null (no prediction) stays null.
 */
export function plausibleValues(layer: SoilGridsLayer, depth: DecodedDepth, refused: string[]): DecodedDepth["values"] {
  const values: DecodedDepth["values"] = {};
  for (const [statistic, value] of Object.entries(depth.values)) {
    if (value === null || value === undefined) {
      values[statistic] = value;
      continue;
    }
    // The uncertainty ratio is not the layer's quantity: only the storage bound holds.
    const why = implausible(value, statistic === "uncertainty" ? INT16_MAX : (layer.maxMapped ?? INT16_MAX));
    if (why) refused.push(`${layer.name} ${depth.label} ${statistic} (${String(value)}: ${why})`);
    else values[statistic] = value;
  }
  const [low, middle, high] = [values["Q0.05"], values["Q0.5"], values["Q0.95"]];
  const ordered = [low, middle, high].filter((v): v is number => typeof v === "number");
  if (ordered.some((v, i) => i > 0 && v < ordered[i - 1]!)) {
    refused.push(`${layer.name} ${depth.label} Q0.05, Q0.5 and Q0.95 (${[low, middle, high].map((v) => v ?? "none").join(", ")}: out of order, so no interval)`);
    delete values["Q0.05"];
    delete values["Q0.5"];
    delete values["Q0.95"];
  }
  return values;
}
