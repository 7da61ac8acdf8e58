/**
 * Munsell notation to sRGB, from the Munsell renotation table (Newhall, Nickerson and Judd 1943, the
 * RIT `all.dat` file that aqp builds its colour table from): CIE xyY under illuminant C, 2° observer.
 *
 * Steps: interpolate the table to the asked hue, value and chroma (linear in x, y between the
 * neighbouring table hues, values and even chromas; chroma 0 is the illuminant's own chromaticity),
 * xyY -> XYZ, Bradford adaptation from illuminant C to D65, XYZ -> linear sRGB (IEC 61966-2-1),
 * sRGB companding. A colour the table cannot reach (a chroma beyond its last row at that hue and
 * value, a value outside 0.2 to 10) gets no hex and a warning rather than an invented colour.
 *
 * Pure: the table rows come in from the caller (the snapshot holds them), and are indexed once.
 */

/** One row of the renotation table: Y on the table's 0-100 scale (magnesium oxide = 100). */
export interface RenotationRow {
  hue: string;
  value: number;
  chroma: number;
  x: number;
  y: number;
  Y: number;
}

/** A parsed notation; `chroma` is 0 for neutral (N) hues, whose notation may leave it out ("N 2/"). */
export interface MunsellSpec {
  hue: string;
  value: number;
  chroma: number;
}

export interface SrgbResult {
  /** "#rrggbb", or null when the table cannot reach the colour. */
  srgb_hex: string | null;
  warning: string | null;
}

/** Hue families around the circle, each spanning 10 hue steps (2.5R ... 10R, 2.5YR ...). */
const FAMILIES = ["R", "YR", "Y", "GY", "G", "BG", "B", "PB", "P", "RP"] as const;
const HUE_PATTERN = /^(\d{1,2}(?:\.\d{1,3})?)(R|YR|Y|GY|G|BG|B|PB|P|RP)$/;
const NUMBER = String.raw`(\d{1,2}(?:\.\d{1,3})?)`;
const NOTATION_PATTERN = new RegExp(String.raw`^\s*(N|\d{1,2}(?:\.\d{1,3})?[A-Z]{1,2})\s+${NUMBER}\s*/\s*${NUMBER}?\s*$`, "i");

/** CIE 1931 2° chromaticity of illuminant C (the renotation's white) and of D65 (sRGB's white). */
export const ILLUMINANT_C_XY = [0.31006, 0.31616] as const;
export const D65_XY = [0.3127, 0.329] as const;

/** Bradford cone-response matrix (Lam 1985), as used for chromatic adaptation in ICC practice. */
const BRADFORD = [
  [0.8951, 0.2664, -0.1614],
  [-0.7502, 1.7135, 0.0367],
  [0.0389, -0.0685, 1.0296],
] as const;

/** XYZ (D65) to linear sRGB, IEC 61966-2-1. */
const XYZ_TO_SRGB = [
  [3.2406, -1.5372, -0.4986],
  [-0.9689, 1.8758, 0.0415],
  [0.0557, -0.204, 1.057],
] as const;

type Matrix = readonly (readonly number[])[];
type Vec3 = [number, number, number];

const apply = (m: Matrix, v: readonly number[]): Vec3 => [
  m[0]![0]! * v[0]! + m[0]![1]! * v[1]! + m[0]![2]! * v[2]!,
  m[1]![0]! * v[0]! + m[1]![1]! * v[1]! + m[1]![2]! * v[2]!,
  m[2]![0]! * v[0]! + m[2]![1]! * v[1]! + m[2]![2]! * v[2]!,
];

function invert3(m: Matrix): Matrix {
  const [a, b, c] = m[0]!;
  const [d, e, f] = m[1]!;
  const [g, h, i] = m[2]!;
  const A = e! * i! - f! * h!;
  const B = -(d! * i! - f! * g!);
  const C = d! * h! - e! * g!;
  const det = a! * A + b! * B + c! * C;
  return [
    [A / det, -(b! * i! - c! * h!) / det, (b! * f! - c! * e!) / det],
    [B / det, (a! * i! - c! * g!) / det, -(a! * f! - c! * d!) / det],
    [C / det, -(a! * h! - b! * g!) / det, (a! * e! - b! * d!) / det],
  ];
}

const multiply = (p: Matrix, q: Matrix): Matrix => [0, 1, 2].map((r) => [0, 1, 2].map((c) => p[r]![0]! * q[0]![c]! + p[r]![1]! * q[1]![c]! + p[r]![2]! * q[2]![c]!));

const whiteXYZ = ([x, y]: readonly [number, number]): Vec3 => [x / y, 1, (1 - x - y) / y];

/** The von Kries transform in Bradford cone space that carries illuminant C's white onto D65's. */
const C_TO_D65: Matrix = (() => {
  const source = apply(BRADFORD, whiteXYZ(ILLUMINANT_C_XY));
  const target = apply(BRADFORD, whiteXYZ(D65_XY));
  const scale: Matrix = [
    [target[0] / source[0], 0, 0],
    [0, target[1] / source[1], 0],
    [0, 0, target[2] / source[2]],
  ];
  return multiply(invert3(BRADFORD), multiply(scale, BRADFORD));
})();

const compand = (linear: number) => (linear <= 0.0031308 ? 12.92 * linear : 1.055 * linear ** (1 / 2.4) - 0.055);

/**
 * xyY (illuminant C, Y on the table's 0-100 scale) to "#rrggbb". Y above 100 is clipped to 100 (as
 * aqp does: only value 10 exceeds it). A colour slightly outside the sRGB gamut is clipped channel
 * by channel, and says so.
 */
export function xyYToSrgb(x: number, y: number, Y: number): { hex: string; clipped: boolean } {
  const lum = Math.min(Y, 100) / 100;
  const xyz: Vec3 = y === 0 ? [0, 0, 0] : [(x * lum) / y, lum, ((1 - x - y) * lum) / y];
  const linear = apply(XYZ_TO_SRGB, apply(C_TO_D65, xyz));
  let clipped = false;
  const hex = linear
    .map((channel) => {
      // Rounding noise around 0 and 1 is not a gamut problem.
      if (channel < -1e-4 || channel > 1 + 1e-4) clipped = true;
      const encoded = compand(Math.min(1, Math.max(0, channel)));
      return Math.round(encoded * 255)
        .toString(16)
        .padStart(2, "0");
    })
    .join("");
  return { hex: `#${hex}`, clipped };
}

/** Position on the hue circle, (0, 100]: 2.5R = 2.5, 10R = 10, 2.5YR = 12.5, ..., 10RP = 100. */
export function hueAngle(hue: string): number | null {
  const match = HUE_PATTERN.exec(hue.toUpperCase());
  if (!match) return null;
  const step = Number(match[1]);
  if (!(step > 0 && step <= 10)) return null;
  return FAMILIES.indexOf(match[2] as (typeof FAMILIES)[number]) * 10 + step;
}

/** Parse "10YR 2/1", "2.5Y 6/2", "N 2/0", "N 2/"; null when it is not a Munsell notation. */
export function parseMunsell(notation: string): MunsellSpec | null {
  const match = NOTATION_PATTERN.exec(notation);
  if (!match) return null;
  const hue = match[1]!.toUpperCase();
  const value = Number(match[2]);
  const chroma = match[3] === undefined ? null : Number(match[3]);
  if (hue === "N") return { hue, value, chroma: chroma ?? 0 };
  if (chroma === null || hueAngle(hue) === null) return null;
  return { hue, value, chroma };
}

/** The notation as soil scientists write it: "10YR 2/1"; a neutral without a stated chroma is "N 2/". */
export function formatMunsell(hue: string, value: number, chroma: number | null): string {
  return `${hue} ${value}/${chroma ?? ""}`;
}

/**
 * Luminance factor Y (0-100, magnesium oxide scale) of a Munsell value: the quintic of the 1943
 * renotation, which the table's own Y column follows (V 2 -> 3.126, V 5 -> 19.77).
 */
export function renotationY(value: number): number {
  const v = value;
  return 1.2219 * v - 0.23111 * v ** 2 + 0.23951 * v ** 3 - 0.021009 * v ** 4 + 0.0008404 * v ** 5;
}

/** Parse the text of the renotation file (`all.dat`: header `H V C x y Y`, whitespace-separated). */
export function parseRenotationText(text: string): RenotationRow[] {
  const rows: RenotationRow[] = [];
  for (const line of text.split(/\r?\n/)) {
    const cells = line.trim().split(/\s+/);
    if (cells.length !== 6 || cells[0] === "H") continue;
    const [hue, value, chroma, x, y, Y] = cells as [string, string, string, string, string, string];
    const numbers = [value, chroma, x, y, Y].map(Number);
    if (numbers.some((n) => !Number.isFinite(n)) || hueAngle(hue) === null) throw new Error(`renotation table: malformed row '${line.trim()}'`);
    rows.push({ hue, value: numbers[0]!, chroma: numbers[1]!, x: numbers[2]!, y: numbers[3]!, Y: numbers[4]! });
  }
  return rows;
}

export interface MunsellTable {
  /** Chromaticity and Y of a notation by interpolation; null when the table does not reach it. */
  xyY(spec: MunsellSpec): [x: number, y: number, Y: number] | null;
  readonly rowCount: number;
}

/** Index the rows once (hue|value|chroma -> x, y; value -> Y). */
export function munsellTable(rows: readonly RenotationRow[]): MunsellTable {
  const xy = new Map<string, [number, number]>();
  const yOfValue = new Map<number, number>();
  for (const r of rows) {
    xy.set(`${hueAngle(r.hue)}|${r.value}|${r.chroma}`, [r.x, r.y]);
    yOfValue.set(r.value, r.Y);
  }
  const values = [...yOfValue.keys()].sort((a, b) => a - b);
  const lerp = (a: [number, number], b: [number, number], t: number): [number, number] => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];

  /** x, y at a table hue angle and table value, for any chroma up to the table's last even chroma. */
  function atChroma(angle: number, value: number, chroma: number): [number, number] | null {
    if (chroma === 0) return [...ILLUMINANT_C_XY];
    const key = (c: number) => `${angle === 0 ? 100 : angle}|${value}|${c}`;
    const low = Math.floor(chroma / 2) * 2;
    const high = Math.ceil(chroma / 2) * 2;
    const lowXy = low === 0 ? ([...ILLUMINANT_C_XY] as [number, number]) : xy.get(key(low));
    const highXy = xy.get(key(high));
    if (!lowXy || !highXy) return null;
    return high === low ? highXy : lerp(lowXy, highXy, (chroma - low) / (high - low));
  }

  function atHue(angle: number, value: number, chroma: number): [number, number] | null {
    const low = Math.floor(angle / 2.5) * 2.5;
    const high = Math.ceil(angle / 2.5) * 2.5;
    const a = atChroma(low, value, chroma);
    if (high === low || !a) return a;
    const b = atChroma(high, value, chroma);
    return b && lerp(a, b, (angle - low) / 2.5);
  }

  return {
    rowCount: rows.length,
    xyY(spec) {
      const neutral = spec.hue === "N" || spec.chroma === 0;
      if (!(spec.value >= 0 && spec.value <= 10) || !(spec.chroma >= 0)) return null;
      const tableY = yOfValue.get(spec.value);
      const Y = tableY ?? renotationY(spec.value);
      if (neutral) return [ILLUMINANT_C_XY[0], ILLUMINANT_C_XY[1], Y];
      const angle = hueAngle(spec.hue);
      if (angle === null) return null;
      if (tableY !== undefined) {
        const c = atHue(angle, spec.value, spec.chroma);
        return c && [c[0], c[1], Y];
      }
      const above = values.findIndex((v) => v > spec.value);
      if (above <= 0) return null; // below the table's lowest value (0.2)
      const v0 = values[above - 1]!;
      const v1 = values[above]!;
      const a = atHue(angle, v0, spec.chroma);
      const b = atHue(angle, v1, spec.chroma);
      if (!a || !b) return null;
      const c = lerp(a, b, (spec.value - v0) / (v1 - v0));
      return [c[0], c[1], Y];
    },
  };
}

/** sRGB of a notation, with the reason when there is none (or when it was clipped to the gamut). */
export function munsellToSrgb(table: MunsellTable, spec: MunsellSpec): SrgbResult {
  const notation = formatMunsell(spec.hue, spec.value, spec.hue === "N" ? null : spec.chroma);
  const xyY = table.xyY(spec);
  if (!xyY) {
    return { srgb_hex: null, warning: `Munsell colour ${notation} is outside the range of the renotation table; no sRGB value is given.` };
  }
  const { hex, clipped } = xyYToSrgb(...xyY);
  return {
    srgb_hex: hex,
    warning: clipped ? `Munsell colour ${notation} lies outside the sRGB gamut; its sRGB value is clipped to the nearest displayable colour.` : null,
  };
}
