/**
 * Map-unit polygon records as polygons (docs/decisions.md#polygons): which rings are outer rings and which are holes, and whether
 * a record meets a box. A shapefile record lists its rings flat; ESRI's shapefile specification
 * orders an outer ring's vertices clockwise and a hole's counter-clockwise, and a hole lies inside
 * its outer ring. GeoJSON (RFC 7946) and WKT want them grouped: [outer, ...holes] per polygon.
 */
import { pointInEncodedRings, pointInRings, ringsView } from "./snapshot-geometry";

type Point = readonly [number, number] | readonly number[];
type PlainRing = readonly Point[];

/** Twice the signed area (shoelace): > 0 for a counter-clockwise ring in x-east, y-north axes. */
export function signedArea2(ring: PlainRing): number {
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
 * Group the rings of one record into polygons, each [outer, ...holes]. Clockwise rings are outer
 * rings; each counter-clockwise ring joins the smallest outer ring that contains its first vertex.
 * A hole that lies in no outer ring (malformed data) is kept as an outer ring of its own, so no
 * vertex is dropped.
 */
export function polygonsOfRings(rings: readonly PlainRing[]): number[][][][] {
  const outers: { ring: PlainRing; area: number; holes: PlainRing[] }[] = [];
  const holes: PlainRing[] = [];
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
  const copy = (ring: PlainRing) => ring.map((p) => [p[0]!, p[1]!]);
  return outers.map((o) => [copy(o.ring), ...o.holes.map(copy)]);
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
 * Does an encoded polygon record meet the closed box [w, s, e, n] (boundary contact counts, as SQL
 * Server's STIntersects)? Either an edge meets the box, or the box lies wholly inside the polygon
 * (then its centre is inside; a box wholly inside a hole meets nothing).
 */
export function encodedRingsMeetBox(blob: Uint8Array, w: number, s: number, e: number, n: number): boolean {
  const v = ringsView(blob);
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
  return pointInEncodedRings(blob, (w + e) / 2, (s + n) / 2);
}
