/**
 * A grid's legend (docs/decisions.md#grid-legend): six equal classes between the layer's smallest and
 * largest value, rounded outwards to whole units, in a sequential palette (ColorBrewer YlOrBr), so a
 * map and its panel draw the same classes from the API alone.
 */
const PALETTE = ["#ffffd4", "#fee391", "#fec44f", "#fe9929", "#d95f0e", "#993404"];

export function legendOf(values: readonly (number | null)[], unit: string): { min: number; max: number; color: string; label: string }[] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v === null) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!Number.isFinite(lo)) return [];
  const min = Math.floor(lo);
  const max = Math.max(Math.ceil(hi), min + 1);
  const step = (max - min) / PALETTE.length;
  return PALETTE.map((color, i) => {
    const from = Number((min + i * step).toFixed(3));
    const to = i === PALETTE.length - 1 ? max : Number((min + (i + 1) * step).toFixed(3));
    return { min: from, max: to, color, label: `${from}–${to} ${unit}` };
  });
}
