/**
 * The test's own implementation of the standard Munsell-renotation-to-sRGB formulas, with the
 * published matrices (Lindbloom: Bradford-adapted illuminant C -> D65, and XYZ -> linear sRGB), not
 * the module's own derivation, so a mistake in either shows. Rows are read straight from the file text.
 */
/** The table row for hue, value, chroma, read straight from the file text. */
export function renotationRow(text: string, hue: string, value: string, chroma: string): { x: number; y: number; Y: number } {
  for (const line of text.split("\n")) {
    const c = line.trim().split(/\s+/);
    if (c[0] === hue && c[1] === value && c[2] === chroma) return { x: Number(c[3]), y: Number(c[4]), Y: Number(c[5]) };
  }
  throw new Error(`no table row ${hue} ${value}/${chroma}`);
}

// CIE 1931 chromaticity of illuminant C: the colour of chroma 0 under the renotation's light.
export const C_WHITE = { x: 0.31006, y: 0.31616 };
const BRADFORD_C_TO_D65 = [
  [0.9904476, -0.0071683, -0.0116156],
  [-0.0123712, 1.015595, -0.0029282],
  [-0.0035635, 0.0067697, 0.9181569],
];
const XYZ_D65_TO_LINEAR_SRGB = [
  [3.2404542, -1.5371385, -0.4985314],
  [-0.969266, 1.8760108, 0.041556],
  [0.0556434, -0.2040259, 1.0572252],
];
const times = (m: number[][], v: number[]) => m.map((r) => r[0]! * v[0]! + r[1]! * v[1]! + r[2]! * v[2]!);

export function expectedHex(x: number, y: number, Y: number): string {
  const lum = Y / 100;
  const XYZ = [(x * lum) / y, lum, ((1 - x - y) * lum) / y];
  const linear = times(XYZ_D65_TO_LINEAR_SRGB, times(BRADFORD_C_TO_D65, XYZ));
  const encoded = linear.map((c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * Math.pow(c, 1 / 2.4) - 0.055));
  return "#" + encoded.map((c) => Math.round(c * 255).toString(16).padStart(2, "0")).join("");
}

