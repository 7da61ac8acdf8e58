/**
 * The snapshot's polygon keys (`mupolygon.id`, the polygons' `id` and cursors): made at import from the
 * polygon's survey area, so a key means the same polygon in every snapshot file and after every rebuild,
 * and a national mirror of several files never holds one key twice (docs/decisions.md#national-mirror).
 *
 * A survey area symbol of SSURGO's shape (two letters and three digits, IA073) is a code
 * ((L1 - 'A') * 26 + (L2 - 'A')) * 1000 + digits, below 676,000; the key is code * 10^7 + the polygon's
 * ordinal within its area (1, 2, ... in the download's record order). Any other symbol (none in SSURGO's
 * survey areas; STATSGO2's 'US', a missing one) takes a code from a band above every such code, from a
 * hash of the symbol: two such symbols could share a band (one file refuses it at import; two files could
 * not tell). Every key stays below 2^53, so it is exact as a JSON number and as a double.
 */
import { createHash } from "node:crypto";

/** Polygons per survey area a key can number (its ordinal's room). */
export const POLYGONS_PER_AREA = 10_000_000;
/** The codes of SSURGO-shaped symbols are below this (ZZ999 is 675,999). */
const SSURGO_CODES = 26 * 26 * 1000;
/** Codes for symbols of another shape: [SSURGO_CODES, SSURGO_CODES + OTHER_CODES), all keys below 2^53. */
const OTHER_CODES = 899_000_000;
/** The largest key any snapshot makes (what a polygon key may be: it is checked before it reaches SQL). */
export const MAX_POLYGON_KEY = (SSURGO_CODES + OTHER_CODES) * POLYGONS_PER_AREA - 1;

const A = "A".charCodeAt(0);

/** The code of a survey area symbol: its letters and digits for SSURGO's shape, a hash into the upper band otherwise. */
export function areaCode(areasymbol: string | null): number {
  const symbol = areasymbol ?? "";
  if (/^[A-Z]{2}\d{3}$/.test(symbol)) return ((symbol.charCodeAt(0) - A) * 26 + (symbol.charCodeAt(1) - A)) * 1000 + Number(symbol.slice(2));
  const hash = createHash("sha256").update(symbol).digest().readUIntBE(0, 6);
  return SSURGO_CODES + (hash % OTHER_CODES);
}

/** The first key of an area's band; its polygons are this + 1, + 2, ... */
export const areaKeyBase = (areasymbol: string | null): number => areaCode(areasymbol) * POLYGONS_PER_AREA;
