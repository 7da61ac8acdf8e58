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
