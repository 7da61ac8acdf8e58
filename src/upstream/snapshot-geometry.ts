/**
 * How the snapshot stores a map-unit polygon record (one shapefile record, one `mupolygon` row): its
 * rings, outer rings and holes of possibly several parts, as the bytes of a flat Float64Array (the
 * layout of `geometry/rings.ts` `flatRings`). Binary keeps the exact doubles of the shapefile (JSON would
 * round-trip too, but is 2-3x larger and slower to parse on the hot point-query path). The geometry
 * itself (point in polygon, meeting a box, grouping into polygons) is `src/geometry/`
 * (docs/decisions.md#geometry).
 */
import { flatRings, flatRingsMeetBox, pointInFlatRings, ringsOfFlat, type Ring } from "../geometry/rings";

/** Encode rings as the stored blob. */
export function encodeRings(rings: readonly Ring[]): Uint8Array {
  const flat = flatRings(rings);
  return new Uint8Array(flat.buffer);
}

/** View a stored blob as flat rings (copying only when SQLite hands back an unaligned slice). */
export function ringsView(blob: Uint8Array): Float64Array {
  if (blob.byteOffset % 8 === 0) return new Float64Array(blob.buffer, blob.byteOffset, blob.byteLength / 8);
  return new Float64Array(blob.slice().buffer);
}

export function decodeRings(blob: Uint8Array): number[][][] {
  return ringsOfFlat(ringsView(blob));
}

/** Is the point in the stored record (geometry/rings.ts: even-odd, half-open edges)? */
export function pointInEncodedRings(blob: Uint8Array, px: number, py: number): boolean {
  return pointInFlatRings(ringsView(blob), px, py);
}

/** Does the stored record meet the closed box [w, s, e, n] (as SQL Server's STIntersects)? */
export function encodedRingsMeetBox(blob: Uint8Array, w: number, s: number, e: number, n: number): boolean {
  return flatRingsMeetBox(ringsView(blob), w, s, e, n);
}
