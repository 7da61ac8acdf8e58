/**
 * The one point-in-ring test (src/geometry/rings.ts): nested rings and the flat layout the snapshot
 * stores give the same answer everywhere, edges and vertices included.
 */
import { expect, test } from "bun:test";
import { flatRings, pointInFlatRings, pointInRings, polygonsOfRings, rfc7946Winding, signedArea2 } from "../../src/geometry/rings";

test("nested and flat rings answer alike on a grid that hits their vertices and edges", () => {
  // A clockwise outer ring with a counter-clockwise hole, and a second part (shapefile order).
  const rings = [
    [[0, 0], [0, 4], [2, 5], [4, 4], [4, 0], [0, 0]],
    [[1, 1], [3, 1], [3, 3], [1, 3], [1, 1]],
    [[6, 0], [6, 2], [8, 2], [6, 0]],
  ];
  const flat = flatRings(rings);
  let inside = 0;
  for (let x = -1; x <= 9; x += 0.25) {
    for (let y = -1; y <= 6; y += 0.25) {
      expect(pointInFlatRings(flat, x, y)).toBe(pointInRings(rings, x, y));
      if (pointInRings(rings, x, y)) inside++;
    }
  }
  expect(inside).toBeGreaterThan(100);
  expect(pointInRings(rings, 2, 2)).toBe(false); // in the hole
  expect(pointInRings(rings, 0.5, 2)).toBe(true);
  // Grouped into polygons, wound as RFC 7946 asks: the hole joins its outer ring.
  const polygons = polygonsOfRings(rings).map(rfc7946Winding);
  expect(polygons.map((p) => p.length)).toEqual([2, 1]);
  expect(polygons.map((p) => p.map((ring) => Math.sign(signedArea2(ring))))).toEqual([[1, -1], [1]]);
});
