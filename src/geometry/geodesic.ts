/**
 * Measures on the WGS84 ellipsoid, by Karney's algorithms (geographiclib-geodesic,
 * docs/decisions.md#geometry): the area of rings as they are cut (straight lines in longitude and
 * latitude), the distance between two points (the geodesic, as pyproj's `Geod(ellps="WGS84").inv`
 * gives it), and the points nearest a point by that distance.
 */
import { Geodesic } from "geographiclib-geodesic";
import type { Ring } from "./rings";

/**
 * Edges longer than this (degrees of longitude or latitude) are measured through points along their
 * straight longitude/latitude line, so the area measured is the area cut: the geodesic between two
 * points 0.01° apart departs from that line by about a centimetre, under a square metre in a
 * 10,000 ha area (more points would add more of the measurement's own rounding than they remove).
 */
const MEASURE_STEP_DEGREES = 0.01;

/**
 * Area of one ring on the WGS84 ellipsoid, m² (positive whatever its winding), of the ring as it is cut:
 * each edge a straight line in longitude/latitude (followed in MEASURE_STEP_DEGREES steps), between
 * the points geodesics.
 */
function ringAreaM2(ring: Ring): number {
  const polygon = Geodesic.WGS84.Polygon(false);
  const last = ring.length - 1;
  const closed = last > 0 && ring[0]![0] === ring[last]![0] && ring[0]![1] === ring[last]![1];
  const count = closed ? last : ring.length;
  for (let i = 0; i < count; i++) {
    const [x0, y0] = ring[i]! as [number, number];
    const [x1, y1] = ring[(i + 1) % ring.length]! as [number, number];
    polygon.AddPoint(y0, x0);
    // Less a hair, so an edge the same both ways round (a ring given clockwise) gets the same steps.
    const steps = Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)) / MEASURE_STEP_DEGREES - 1e-9);
    for (let k = 1; k < steps; k++) polygon.AddPoint(y0 + ((y1 - y0) * k) / steps, x0 + ((x1 - x0) * k) / steps);
  }
  return Math.abs(polygon.Compute(false, true).area ?? 0);
}

/** Geodesic area of polygons ([outer, ...holes] each) on WGS84, m²: outer rings less their holes. */
export function polygonsAreaM2(polygons: readonly (readonly Ring[])[]): number {
  let total = 0;
  for (const polygon of polygons) polygon.forEach((ring, i) => (total += i === 0 ? ringAreaM2(ring) : -ringAreaM2(ring)));
  return total;
}

/** The geodesic distance between two points on WGS84, km (the one distance Loam reports: docs/decisions.md#geometry). */
export function geodesicKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  return Geodesic.WGS84.Inverse(lat1, lon1, lat2, lon2, Geodesic.DISTANCE).s12! / 1000;
}

const A_KM = 6378.137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);
const RAD = Math.PI / 180;

/**
 * The `limit` items nearest (lat, lon) by geodesic distance, nearest first, ties in the items' order,
 * each with its distance in km. Exact, without measuring every geodesic: the straight line through the
 * Earth between two points (the chord) is never longer than the geodesic on its surface. The items of
 * the `limit` shortest chords are measured; the `limit`-th of those distances bounds the answer, so only
 * the items whose chord is within it can belong to it, and only they are measured.
 */
export function nearestByGeodesic<T>(items: readonly T[], lat: number, lon: number, limit: number, at: (item: T) => readonly [lat: number, lon: number]): { item: T; km: number }[] {
  if (limit <= 0 || items.length === 0) return [];
  const chords = chordsKm(items, lat, lon, at);
  const k = Math.min(limit, items.length);
  const kthChord = Float64Array.from(chords).sort()[k - 1]!;
  const measured = new Map<number, number>();
  const measure = (index: number) => {
    let km = measured.get(index);
    if (km === undefined) measured.set(index, (km = geodesicKm(lat, lon, ...at(items[index]!))));
    return km;
  };
  const first: number[] = [];
  chords.forEach((chord, index) => {
    if (chord <= kthChord) first.push(measure(index));
  });
  // Rounding of a chord (far below a micrometre) never leaves out an item that could still be nearer.
  const bound = first.sort((a, b) => a - b)[k - 1]! * (1 + 1e-12) + 1e-9;
  const candidates: { index: number; km: number }[] = [];
  chords.forEach((chord, index) => {
    if (chord <= bound) candidates.push({ index, km: measure(index) });
  });
  candidates.sort((a, b) => a.km - b.km || a.index - b.index);
  return candidates.slice(0, k).map(({ index, km }) => ({ item: items[index]!, km }));
}

/** The chord from (lat, lon) to each item through the WGS84 ellipsoid, km. */
function chordsKm<T>(items: readonly T[], lat: number, lon: number, at: (item: T) => readonly [lat: number, lon: number]): Float64Array {
  const [x, y, z] = earthCentred(lat, lon);
  const chords = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const [ilat, ilon] = at(items[i]!);
    const [ix, iy, iz] = earthCentred(ilat, ilon);
    chords[i] = Math.sqrt((ix - x) ** 2 + (iy - y) ** 2 + (iz - z) ** 2);
  }
  return chords;
}

/** Earth-centred coordinates of a point on the WGS84 ellipsoid, km. */
function earthCentred(lat: number, lon: number): [number, number, number] {
  const sinLat = Math.sin(lat * RAD);
  const cosLat = Math.cos(lat * RAD);
  const n = A_KM / Math.sqrt(1 - E2 * sinLat * sinLat);
  return [n * cosLat * Math.cos(lon * RAD), n * cosLat * Math.sin(lon * RAD), n * (1 - E2) * sinLat];
}
