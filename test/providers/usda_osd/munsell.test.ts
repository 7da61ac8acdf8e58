/**
 * Munsell to sRGB against the test's own implementation of the standard formulas, applied to rows
 * of the real renotation table (RIT all.dat, as in the data README). The matrices here are the
 * published ones (Lindbloom: Bradford-adapted illuminant C -> D65, and XYZ -> linear sRGB), not the
 * module's own derivation, so a mistake in either shows.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { C_WHITE, expectedHex, renotationRow } from "../../support/munsell-reference";
import { formatMunsell, munsellTable, munsellToSrgb, parseMunsell, parseRenotationText } from "../../../src/providers/usda_osd/munsell";

const DATA = resolve(process.env.LOAM_DATA_DIR ?? "datasets");
const text = gunzipSync(readFileSync(join(DATA, "munsell", "munsell-all.dat.gz"))).toString("utf8");
const table = munsellTable(parseRenotationText(text));
const row = (hue: string, value: string, chroma: string) => renotationRow(text, hue, value, chroma);

const hexOf = (notation: string) => munsellToSrgb(table, parseMunsell(notation)!);

describe("Munsell notation to sRGB", () => {
  test("the table is the real renotation file: 4,995 rows, and the README's known rows", () => {
    expect(table.rowCount).toBe(4995);
    expect(row("10YR", "2", "2")).toEqual({ x: 0.3872, y: 0.3688, Y: 3.126 });
    expect(row("10YR", "2", "4")).toEqual({ x: 0.4676, y: 0.4168, Y: 3.126 });
  });

  test("10YR 5/4 (a table chip) equals the standard formulas applied to its row", () => {
    const r = row("10YR", "5", "4");
    expect(hexOf("10YR 5/4")).toEqual({ srgb_hex: expectedHex(r.x, r.y, r.Y), warning: null });
  });

  test("2.5Y 6/2 (a table chip) equals the standard formulas applied to its row", () => {
    const r = row("2.5Y", "6", "2");
    expect(hexOf("2.5Y 6/2")).toEqual({ srgb_hex: expectedHex(r.x, r.y, r.Y), warning: null });
  });

  test("10YR 2/1 (odd chroma) lies halfway between the neutral of value 2 and the 10YR 2/2 row", () => {
    const r = row("10YR", "2", "2");
    const expected = expectedHex((C_WHITE.x + r.x) / 2, (C_WHITE.y + r.y) / 2, r.Y);
    expect(hexOf("10YR 2/1")).toEqual({ srgb_hex: expected, warning: null });
    // Clarion's Ap: black (10YR 2/1) is dark and slightly warm (red above blue).
    const [red, , blue] = [1, 3, 5].map((i) => parseInt(expected.slice(i, i + 2), 16));
    expect(red!).toBeGreaterThan(blue!);
    expect(red!).toBeLessThan(0x40);
  });

  test("a neutral colour is grey from Y alone: N 2/0 and N 2/ are the same equal-channel grey", () => {
    const Y = row("10YR", "2", "2").Y; // every row of value 2 has the same Y
    const expected = expectedHex(C_WHITE.x, C_WHITE.y, Y);
    expect(expected.slice(1, 3)).toBe(expected.slice(3, 5));
    expect(expected.slice(3, 5)).toBe(expected.slice(5, 7));
    expect(hexOf("N 2/0")).toEqual({ srgb_hex: expected, warning: null });
    expect(hexOf("N 2/")).toEqual({ srgb_hex: expected, warning: null });
  });

  test("a value between table values is interpolated: 10YR 2.5/2 is lighter than 2/2 and darker than 3/2", () => {
    const lightness = (n: string) => parseInt(hexOf(n).srgb_hex!.slice(3, 5), 16);
    expect(lightness("10YR 2.5/2")).toBeGreaterThan(lightness("10YR 2/2"));
    expect(lightness("10YR 2.5/2")).toBeLessThan(lightness("10YR 3/2"));
  });

  test("a hue between table hues is interpolated between its neighbours", () => {
    const a = row("7.5YR", "4", "4");
    const b = row("10YR", "4", "4");
    expect(hexOf("8.75YR 4/4").srgb_hex).toBe(expectedHex((a.x + b.x) / 2, (a.y + b.y) / 2, a.Y));
  });

  test("a colour outside the table gets no hex and a warning naming it", () => {
    for (const notation of ["10YR 2/20", "5Y 9/40", "10YR 0.1/2"]) {
      const result = hexOf(notation);
      expect(result.srgb_hex).toBeNull();
      expect(result.warning).toContain(notation);
      expect(result.warning).toContain("outside the range of the renotation table");
    }
  });

  test("notations parse as soil scientists write them; anything else is not a colour", () => {
    expect(parseMunsell("10YR 2/1")).toEqual({ hue: "10YR", value: 2, chroma: 1 });
    expect(parseMunsell("2.5y 6/2")).toEqual({ hue: "2.5Y", value: 6, chroma: 2 });
    expect(parseMunsell("N 2/0")).toEqual({ hue: "N", value: 2, chroma: 0 });
    expect(parseMunsell("N 2.5/")).toEqual({ hue: "N", value: 2.5, chroma: 0 });
    for (const bad of ["10YR 2", "11YR 2/1", "10XY 2/1", "10YR 2/", "", "brown", "10YR 2/1; DROP TABLE"]) expect(parseMunsell(bad)).toBeNull();
    expect(formatMunsell("N", 2.5, null)).toBe("N 2.5/");
    expect(formatMunsell("10YR", 2, 1)).toBe("10YR 2/1");
  });
});
