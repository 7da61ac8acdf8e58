import { describe, expect, test } from "bun:test";
import { decodeRings, encodeRings } from "../../src/upstream/snapshot-geometry";
import { flatRings, pointInRings, ringsBBox, type Ring } from "../../src/geometry/rings";

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

describe("packed rings (docs/decisions.md#ring-encoding)", () => {
  const bits = (rings: readonly Ring[]) => rings.map((ring) => ring.map((p) => Buffer.from(new Float64Array([p[0]!, p[1]!]).buffer).toString("hex")));
  const roundTrip = (rings: readonly Ring[]) => expect(bits(decodeRings(encodeRings(rings)))).toEqual(bits(rings));
  // A digitized boundary's steps: 12 m or so, each coordinate a full double (as WSS exports are).
  const boundary = (n: number, x: number, y: number) => {
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const ring = Array.from({ length: n }, (_, i) => [x + 1e-4 * Math.cos(i / n * 6.283) + 3e-5 * next(), y + 1e-4 * Math.sin(i / n * 6.283) + 3e-5 * next()]);
    return [...ring, ring[0]!];
  };

  test("a survey-like ring reads back bit for bit in under 60 % of raw doubles' bytes, its closing point restored", () => {
    const rings = [boundary(40, -93.7899120768844, 41.9443601462425), boundary(9, -93.79, 41.944)];
    roundTrip(rings);
    expect(encodeRings(rings).byteLength).toBeLessThan(0.6 * flatRings(rings).byteLength);
  });

  test("a ring that cannot be packed exactly is stored as raw doubles and still reads back bit for bit", () => {
    const unpackable: Ring[] = [
      [[1e-300, 0], [1e300, 1], [2, 2]], // a difference past 2^52 of the ring's smallest step
      [[0, 1], [-0, 2], [3, 3]], // -0 after 0: equal as numbers, not as bits
      [[NaN, 1], [2, 2], [3, 3]],
      [[Infinity, 1], [2, 2], [3, 3]],
    ];
    for (const ring of unpackable) {
      roundTrip([ring]);
      // tag, ring count, point count, the ring's point count and flags, then 16 bytes a point.
      expect(encodeRings([ring]).byteLength).toBe(5 + 16 * ring.length);
    }
  });

  test("open rings, single points, empty rings, zeros, subnormals and rings across signs and binades read back bit for bit", () => {
    roundTrip([
      [[-0.001, 0.5], [0, 0], [200.125, -45.5], [5e-324, 2 ** -1022], [-93.7899120768844, 41.9443601462425]],
      [[1, 2]],
      [],
      [[0, 0], [0, 0], [0, 0]],
      boundary(5, 179.99999, -89.99999),
    ]);
    roundTrip([]);
  });

  test("a blob cut short anywhere is refused as damaged, never read past its end", () => {
    const blob = encodeRings([boundary(12, -93.79, 41.94), [[1e-300, 0], [1e300, 1], [2, 2]], [[0, 0], [1, 1]]]);
    roundTrip([[[0, 0], [1, 1]]]);
    for (let end = 1; end < blob.byteLength; end++) expect(() => decodeRings(blob.subarray(0, end))).toThrow("damaged");
  });

  test("a blob of the older layout (raw doubles) is refused, never read as rings", () => {
    const rings = [boundary(6, -93.79, 41.94)];
    expect(() => decodeRings(new Uint8Array(flatRings(rings).buffer))).toThrow("older layout");
  });
});
