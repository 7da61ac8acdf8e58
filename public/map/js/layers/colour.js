// A sequential colour scale for choropleths (ColorBrewer YlOrBr, 7 classes, interpolated): light for
// the least value in view, dark brown for the greatest.
export const PALETTE = ["#ffffd4", "#fee391", "#fec44f", "#fe9929", "#ec7014", "#cc4c02", "#8c2d04"];
export const NO_VALUE = "#d9d4cc";

const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const hex = (parts) => "#" + parts.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");

/** value → "#rrggbb" over [min, max]; NO_VALUE for a value that is not a number. */
export function colourScale(min, max) {
  return (value) => {
    if (typeof value !== "number" || !isFinite(value)) return NO_VALUE;
    const t = max > min ? Math.min(1, Math.max(0, (value - min) / (max - min))) : 0.5;
    const at = t * (PALETTE.length - 1);
    const i = Math.min(PALETTE.length - 2, Math.floor(at));
    const a = rgb(PALETTE[i]), b = rgb(PALETTE[i + 1]);
    const f = at - i;
    return hex(a.map((v, k) => v + (b[k] - v) * f));
  };
}

/** A "nice" class width near `rough`: 1, 2, 2.5 or 5 times a power of ten. */
function niceStep(rough) {
  const power = Math.pow(10, Math.floor(Math.log10(rough)));
  const f = rough / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * power;
}

/** Decimals a class bound needs for `step` (2.5 → 1, 0.05 → 2, 20 → 0). */
function decimalsOf(step) {
  for (let d = 0; d < 8; d++) if (Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) < 1e-9) return d;
  return 8;
}

/**
 * Equal classes with round bounds over [min, max] (at most `wanted` + 1 classes): {classes: [{from, to,
 * colour, label}], decimals, colourOf(value)}. A value belongs to [from, to), the last class includes
 * its upper bound. The bounds carry the precision of the class width, not the data's digits.
 */
export function classify(min, max, wanted = 5) {
  if (typeof min !== "number" || typeof max !== "number" || !isFinite(min) || !isFinite(max)) return { classes: [], decimals: 0, colourOf: () => NO_VALUE };
  const step = max > min ? niceStep((max - min) / wanted) : niceStep(Math.abs(min) / 10 || 1);
  const decimals = decimalsOf(step);
  const start = Math.floor(min / step + 1e-9) * step;
  const bounds = [start];
  while (bounds[bounds.length - 1] < max - 1e-9 || bounds.length < 2) bounds.push(bounds[bounds.length - 1] + step);
  const count = bounds.length - 1;
  const scale = colourScale(0, Math.max(1, count - 1));
  const fmt = (x) => (Math.round(x * 10 ** decimals) / 10 ** decimals).toFixed(decimals);
  const classes = [];
  for (let i = 0; i < count; i++) classes.push({ from: Number(fmt(bounds[i])), to: Number(fmt(bounds[i + 1])), colour: count === 1 ? scale(0.5) : scale(i), label: fmt(bounds[i]) + "–" + fmt(bounds[i + 1]) });
  const colourOf = (value) => {
    if (typeof value !== "number" || !isFinite(value)) return NO_VALUE;
    const i = classes.findIndex((c, k) => value >= c.from && (value < c.to || k === classes.length - 1));
    return i < 0 ? NO_VALUE : classes[i].colour;
  };
  return { classes, decimals, colourOf };
}

/**
 * Classes at the quantiles of `values` (for skewed data such as element contents, where equal classes
 * put nearly every site in the first), bounds rounded to 2 significant figures: same shape as classify.
 */
export function classifyQuantiles(values, wanted = 5) {
  const sorted = values.filter((v) => typeof v === "number" && isFinite(v)).sort((a, b) => a - b);
  if (sorted.length < wanted * 2) return classify(sorted[0], sorted[sorted.length - 1], wanted);
  const round2 = (x) => (x === 0 ? 0 : Number(x.toPrecision(2)));
  // Outer bounds outward to 2 significant figures, so that every value lies inside and no bound has false precision.
  const step = (x) => Math.pow(10, Math.floor(Math.log10(Math.abs(x) || 1)) - 1);
  const lo = Number((Math.floor(sorted[0] / step(sorted[0])) * step(sorted[0])).toPrecision(12));
  const hi = Number((Math.ceil(sorted[sorted.length - 1] / step(sorted[sorted.length - 1])) * step(sorted[sorted.length - 1])).toPrecision(12));
  const cuts = [];
  for (let i = 1; i < wanted; i++) cuts.push(round2(sorted[Math.floor((i * sorted.length) / wanted)]));
  const bounds = [lo].concat(cuts.filter((c) => c > lo && c < hi)).concat([hi]).filter((b, i, all) => i === 0 || b > all[i - 1]);
  const count = bounds.length - 1;
  const scale = colourScale(0, Math.max(1, count - 1));
  const classes = [];
  for (let i = 0; i < count; i++) classes.push({ from: bounds[i], to: bounds[i + 1], colour: count === 1 ? scale(0.5) : scale(i), label: formatBound(bounds[i]) + "–" + formatBound(bounds[i + 1]) });
  const colourOf = (value) => {
    if (typeof value !== "number" || !isFinite(value)) return NO_VALUE;
    const i = classes.findIndex((c, k) => value >= c.from && (value < c.to || k === classes.length - 1));
    return i < 0 ? NO_VALUE : classes[i].colour;
  };
  return { classes, decimals: null, colourOf, quantiles: true };
}

const formatBound = (x) => String(Number(x.toPrecision(12)));
