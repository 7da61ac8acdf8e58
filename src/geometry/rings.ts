/**
 * Rings and polygons on the longitude/latitude plane (docs/decisions.md#geometry): the one
 * point-in-ring test, ring orientation, the grouping of a record's rings into polygons, and whether a
 * polygon meets a box. A ring is a list of [x, y] positions (x longitude, y latitude); a polygon is
 * [outer, ...holes]; polygons are a list of those (a multipolygon).
 *
 * Rings are also kept flat, as one Float64Array [ringCount, n0, x, y, x, y, ..., n1, x, y, ...] (the
 * layout the snapshot's packed rings decode to, docs/decisions.md#ring-encoding), so the hot point query
 * tests a stored record without building arrays.
 *
 * Point in polygon: even-odd, so a point inside an outer ring and inside its hole is out, and which ring
 * is a hole need not be known. Edge rule (half-open, as in W. R. Franklin's PNPOLY): an edge counts as a
 * crossing when one end is at or below the point's latitude and the other strictly above, and the edge
 * passes strictly to the right of the point. Every edge is evaluated with its endpoints in a canonical
 * order (lower end first), so two polygons sharing an edge compute bit-identical answers for it. Hence a
 * point on an edge shared by two adjacent map units belongs to exactly one of them: the one to its
 * right (east) for a non-horizontal edge, the one above (north) for a horizontal edge. Polygons are
 * closed on their west/south sides and open on their east/north sides, like [a, b) intervals, so
 * adjacent delineations tile the plane without gaps or double counting.
 */

export type Position = readonly [number, number] | readonly number[];
export type Ring = readonly Position[];
/** Polygons, each [outer ring, ...holes], each ring [[x, y], ...] (x longitude, y latitude). */
export type Polygons = number[][][][];

export interface BBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** The rings as one flat Float64Array: [ringCount, n0, x, y, ..., n1, x, y, ...]. */
export function flatRings(rings: readonly Ring[]): Float64Array {
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
  return out;
}

/** Flat rings back as nested arrays. */
export function ringsOfFlat(v: Float64Array): number[][][] {
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

/** Even-odd point in polygon over every ring of flat rings (see the edge rule above). */
export function pointInFlatRings(v: Float64Array, px: number, py: number): boolean {
  let inside = false;
  let k = 1;
  const count = v[0] ?? 0;
  for (let r = 0; r < count; r++) {
    const n = v[k++] ?? 0;
    if (n > 0) {
      // Closed rings repeat their first point; the wrap-around edge is then zero-length.
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

/** Even-odd point in polygon over every ring given (outer rings and holes of one or several polygons). */
export function pointInRings(rings: readonly Ring[], px: number, py: number): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      if (crosses(px, py, ring[j]![0]!, ring[j]![1]!, ring[i]![0]!, ring[i]![1]!)) inside = !inside;
    }
  }
  return inside;
}

/** Twice the signed area (shoelace): > 0 for a counter-clockwise ring in x-east, y-north axes. */
export function signedArea2(ring: Ring): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[j]!;
    const b = ring[i]!;
    // Edge a → b: (x_b - x_a)(y_b + y_a) sums to twice the area, positive when clockwise; negated here.
    sum += (a[0]! - b[0]!) * (a[1]! + b[1]!);
  }
  return sum;
}

/**
 * Group a record's rings into polygons, each [outer, ...holes] (docs/decisions.md#polygons). ESRI's
 * shapefile specification orders an outer ring's vertices clockwise and a hole's counter-clockwise, and
 * a hole lies inside its outer ring; GeoJSON (RFC 7946) and WKT want them grouped. Each
 * counter-clockwise ring joins the smallest outer ring that contains its first vertex. A hole that lies
 * in no outer ring (malformed data) is kept as an outer ring of its own, so no vertex is dropped.
 */
export function polygonsOfRings(rings: readonly Ring[]): Polygons {
  const outers: { ring: Ring; area: number; holes: Ring[] }[] = [];
  const holes: Ring[] = [];
  for (const ring of rings) {
    if (ring.length === 0) continue;
    const area = signedArea2(ring);
    if (area <= 0) outers.push({ ring, area: -area, holes: [] });
    else holes.push(ring);
  }
  for (const hole of holes) {
    const [x, y] = hole[0]!;
    let home: (typeof outers)[number] | undefined;
    for (const outer of outers) {
      if ((home === undefined || outer.area < home.area) && pointInRings([outer.ring], x!, y!)) home = outer;
    }
    if (home) home.holes.push(hole);
    else outers.push({ ring: hole, area: signedArea2(hole), holes: [] });
  }
  const copy = (ring: Ring) => ring.map((p) => [p[0]!, p[1]!]);
  return outers.map((o) => [copy(o.ring), ...o.holes.map(copy)]);
}

/** A polygon wound as RFC 7946 asks: outer ring counter-clockwise, holes clockwise. */
export function rfc7946Winding(polygon: number[][][]): number[][][] {
  return polygon.map((ring, i) => {
    const ccw = signedArea2(ring) > 0;
    return (i === 0) === ccw ? ring : [...ring].reverse();
  });
}

/** Does the segment a-b meet the closed box? (Liang-Barsky clipping.) */
function segmentMeetsBox(ax: number, ay: number, bx: number, by: number, w: number, s: number, e: number, n: number): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = bx - ax;
  const dy = by - ay;
  const sides: [number, number][] = [
    [-dx, ax - w],
    [dx, e - ax],
    [-dy, ay - s],
    [dy, n - ay],
  ];
  for (const [p, q] of sides) {
    if (p === 0) {
      if (q < 0) return false;
    } else {
      const r = q / p;
      if (p < 0) {
        if (r > t1) return false;
        if (r > t0) t0 = r;
      } else {
        if (r < t0) return false;
        if (r < t1) t1 = r;
      }
    }
  }
  return true;
}

/**
 * Do flat rings meet the closed box [w, s, e, n] (boundary contact counts, as SQL Server's
 * STIntersects)? Either an edge meets the box, or the box lies wholly inside the polygon (then its
 * centre is inside; a box wholly inside a hole meets nothing).
 */
export function flatRingsMeetBox(v: Float64Array, w: number, s: number, e: number, n: number): boolean {
  let k = 1;
  const count = v[0] ?? 0;
  for (let r = 0; r < count; r++) {
    const size = v[k++] ?? 0;
    for (let p = 0; p < size; p++) {
      const ax = v[k + p * 2]!;
      const ay = v[k + p * 2 + 1]!;
      const q = p + 1 < size ? p + 1 : 0;
      if (segmentMeetsBox(ax, ay, v[k + q * 2]!, v[k + q * 2 + 1]!, w, s, e, n)) return true;
    }
    k += size * 2;
  }
  return pointInFlatRings(v, (w + e) / 2, (s + n) / 2);
}
