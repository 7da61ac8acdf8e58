/**
 * The one distance (src/geometry/geodesic.ts): the geodesic on WGS84, checked against pyproj's
 * Geod(ellps="WGS84").inv under Debian's python (test/support/geodesic.ts), and the nearest points by it.
 */
import { describe, expect, test } from "bun:test";
import { geodesicKm, nearestByGeodesic } from "../../src/geometry/geodesic";
import { pyprojAvailable, pyprojDistancesKm } from "../support/geodesic";

const FROM: [number, number] = [42.0864, -93.7571];

describe.skipIf(!pyprojAvailable())("geodesic distances on WGS84", () => {
  test("agree with pyproj to the millimetre: next door, across a state, a continent, the antimeridian, near a pole and nearly antipodal", () => {
    const to: [number, number][] = [[42.0864, -93.7571], [42.0865, -93.7571], [41.5, -96.1], [25.77, -80.19], [64.84, -147.72], [-33.87, 151.21], [89.9, 30], [-42.0, 86.0]];
    const reference = pyprojDistancesKm(FROM, to);
    to.forEach(([lat, lon], i) => expect(Math.abs(geodesicKm(FROM[0], FROM[1], lat, lon) - reference[i]!)).toBeLessThan(1e-6));
  });

  test("the nearest points, nearest first, are the ones pyproj ranks first (ties in the points' order)", () => {
    // 3,000 points spread over the conterminous US (a fixed sequence, so a failure repeats).
    let seed = 34;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const points: [number, number][] = Array.from({ length: 3000 }, () => [24 + 26 * next(), -125 + 59 * next()]);
    // Two points repeated: their distances tie, the first given comes first.
    points.push([...points[10]!], [...points[20]!]);
    const reference = pyprojDistancesKm(FROM, points);
    const ranked = points.map((_, i) => ({ i, km: reference[i]! })).sort((a, b) => a.km - b.km || a.i - b.i);
    // The copies rank right after their originals (same distance, later in the list).
    expect(ranked.findIndex((r) => r.i === 3000)).toBe(ranked.findIndex((r) => r.i === 10) + 1);
    for (const limit of [1, 7, 100, 3002]) {
      const nearest = nearestByGeodesic(points, FROM[0], FROM[1], limit, (p) => p);
      expect(nearest.map((n) => points.indexOf(n.item))).toEqual(ranked.slice(0, limit).map((r) => r.i));
      nearest.forEach((n, k) => expect(Math.abs(n.km - ranked[k]!.km)).toBeLessThan(1e-6));
    }
    expect(nearestByGeodesic(points, FROM[0], FROM[1], 0, (p) => p)).toEqual([]);
  });
});
