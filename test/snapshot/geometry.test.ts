import { describe, expect, test } from "bun:test";
import { decodeRings, encodeRings } from "../../src/upstream/snapshot-geometry";
import { pointInRings, ringsBBox } from "../../src/geometry/rings";

// A 10 x 10 square (clockwise, as shapefile outer rings are) with a 4 x 4 hole (counter-clockwise).
const outer = [[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]] as const;
const hole = [[3, 3], [7, 3], [7, 7], [3, 7], [3, 3]] as const;
const donut = [outer, hole];

describe("point in polygon (even-odd, half-open edges)", () => {
  test("a polygon with a hole: inside the ring is in, inside the hole is out", () => {
    expect(pointInRings(donut, 1, 1)).toBe(true);
    expect(pointInRings(donut, 5, 5)).toBe(false);
    expect(pointInRings(donut, 8, 5)).toBe(true);
    expect(pointInRings(donut, 11, 5)).toBe(false);
    expect(pointInRings(donut, -0.000001, 5)).toBe(false);
  });

  test("a multipolygon: rings of separate parts are all counted", () => {
    const twoParts = [outer, [[20, 0], [20, 5], [25, 5], [25, 0], [20, 0]]];
    expect(pointInRings(twoParts, 22, 2)).toBe(true);
    expect(pointInRings(twoParts, 15, 2)).toBe(false);
  });

  test("a point on an edge shared by two map units belongs to exactly one (east / north side)", () => {
    const west = [[[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]]];
    const east = [[[1, 0], [1, 1], [2, 1], [2, 0], [1, 0]]];
    const north = [[[0, 1], [0, 2], [1, 2], [1, 1], [0, 1]]];
    // vertical shared edge x = 1
    expect([pointInRings(west, 1, 0.5), pointInRings(east, 1, 0.5)]).toEqual([false, true]);
    // horizontal shared edge y = 1
    expect([pointInRings(west, 0.5, 1), pointInRings(north, 0.5, 1)]).toEqual([false, true]);
    // a shared vertex of the three: still exactly one owner among the four quadrants around it
    const northEast = [[[1, 1], [1, 2], [2, 2], [2, 1], [1, 1]]];
    const owners = [west, east, north, northEast].filter((p) => pointInRings(p, 1, 1));
    expect(owners).toEqual([northEast]);
  });

  test("a slanted shared edge gives the same answer from both sides, whatever the ring direction", () => {
    const left = [[[0, 0], [0, 3], [1.1, 3], [0.7, 0], [0, 0]]];
    const right = [[[0.7, 0], [1.1, 3], [3, 3], [3, 0], [0.7, 0]].reverse()];
    for (let i = 1; i < 300; i++) {
      const y = i / 100;
      const x = 0.7 + (0.4 * y) / 3; // on the shared edge (up to rounding)
      expect(Number(pointInRings(left, x, y)) + Number(pointInRings(right, x, y))).toBe(1);
    }
  });

  test("encoded rings round-trip exactly and carry their bbox", () => {
    const rings = [[[171.027176688, 6.073104675], [171.1, 6.2], [171.763860226, 8.712463683], [171.027176688, 6.073104675]]];
    expect(decodeRings(encodeRings(rings))).toEqual(rings);
    expect(ringsBBox(rings)).toEqual({ minX: 171.027176688, minY: 6.073104675, maxX: 171.763860226, maxY: 8.712463683 });
  });
});
