/**
 * Map-unit polygons: compact storage and an exact, deterministic point-in-polygon test.
 *
 * A SSURGO polygon record (one shapefile record, one `mupolygon` row) is a list of rings: outer
 * rings and holes, possibly several parts. With the even-odd rule we need not know which ring is a
 * hole: a point inside an outer ring and inside its hole crosses an even number of edges.
 *
 * Edge rule (half-open, as in W. R. Franklin's PNPOLY): an edge counts as a crossing when one end
 * is at or below the point's latitude and the other strictly above, and the edge passes strictly
 * to the right of the point. Every edge is evaluated with its endpoints in a canonical order
 * (lower end first), so two polygons sharing an edge compute bit-identical answers for it. Hence a
 * point on an edge shared by two adjacent map units belongs to exactly one of them: the one to its
 * right (east) for a non-horizontal edge, the one above (north) for a horizontal edge. Polygons are
 * closed on their west/south sides and open on their east/north sides, like [a, b) intervals, so
 * adjacent delineations tile the plane without gaps or double counting.
 */

export type Ring = ReadonlyArray<readonly [number, number]> | ReadonlyArray<readonly number[]>;

export interface BBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/**
 * Encode rings as a Float64 blob: [ringCount, n0, x, y, x, y, ..., n1, x, y, ...].
 * Binary keeps the exact doubles of the shapefile (JSON would round-trip too, but is 2-3x larger
 * and slower to parse on the hot point-query path).
 */
export function encodeRings(rings: readonly Ring[]): Uint8Array {
  let size = 1;
  for (const ring of rings) size += 1 + ring.length * 2;
  const out = new Float64Array(size);
  let k = 0;
  out[k++] = rings.length;
  for (const ring of rings) {
    out[k++] = ring.length;
    for (const point of ring) {
      out[k++] = point[0] ?? NaN;
      out[k++] = point[1] ?? NaN;
    }
  }
  return new Uint8Array(out.buffer);
}

/** View a stored blob as Float64 values (copying only when SQLite hands back an unaligned slice). */
export function ringsView(blob: Uint8Array): Float64Array {
  if (blob.byteOffset % 8 === 0) return new Float64Array(blob.buffer, blob.byteOffset, blob.byteLength / 8);
  return new Float64Array(blob.slice().buffer);
}

export function decodeRings(blob: Uint8Array): number[][][] {
  const v = ringsView(blob);
  const rings: number[][][] = [];
  let k = 1;
  const count = v[0] ?? 0;
  for (let r = 0; r < count; r++) {
    const n = v[k++] ?? 0;
    const ring: number[][] = [];
    for (let p = 0; p < n; p++, k += 2) ring.push([v[k] ?? NaN, v[k + 1] ?? NaN]);
    rings.push(ring);
  }
  return rings;
}

export function ringsBBox(rings: readonly Ring[]): BBox {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const ring of rings) {
    for (const point of ring) {
      const x = point[0] ?? NaN;
      const y = point[1] ?? NaN;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  return { minX, minY, maxX, maxY };
}

/** Does the edge (x1,y1)-(x2,y2) cross the ray going east from (px,py)? Canonical order, half-open in y. */
function crosses(px: number, py: number, x1: number, y1: number, x2: number, y2: number): boolean {
  let ax = x1;
  let ay = y1;
  let bx = x2;
  let by = y2;
  if (ay > by || (ay === by && ax > bx)) {
    ax = x2;
    ay = y2;
    bx = x1;
    by = y1;
  }
  if (!(ay <= py && py < by)) return false;
  // Sign of the cross product (b - a) x (p - a): > 0 means the point is strictly left (west) of the
  // upward edge, i.e. the edge passes strictly to its east.
  return (bx - ax) * (py - ay) - (px - ax) * (by - ay) > 0;
}

/** Even-odd point-in-polygon over every ring of an encoded polygon record. */
export function pointInEncodedRings(blob: Uint8Array, px: number, py: number): boolean {
  const v = ringsView(blob);
  let inside = false;
  let k = 1;
  const count = v[0] ?? 0;
  for (let r = 0; r < count; r++) {
    const n = v[k++] ?? 0;
    if (n > 0) {
      // Shapefile rings are closed (first point repeated); the wrap-around edge is then zero-length.
      let x1 = v[k + (n - 1) * 2] ?? NaN;
      let y1 = v[k + (n - 1) * 2 + 1] ?? NaN;
      for (let p = 0; p < n; p++) {
        const x2 = v[k + p * 2] ?? NaN;
        const y2 = v[k + p * 2 + 1] ?? NaN;
        if (crosses(px, py, x1, y1, x2, y2)) inside = !inside;
        x1 = x2;
        y1 = y2;
      }
    }
    k += n * 2;
  }
  return inside;
}

/** Even-odd point-in-polygon on plain rings (for callers that have not encoded them). */
export function pointInRings(rings: readonly Ring[], px: number, py: number): boolean {
  return pointInEncodedRings(encodeRings(rings), px, py);
}
