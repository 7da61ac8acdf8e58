/**
 * The area rules on their own (src/areas/geometry.ts), under generated input: any text is an area or a
 * ValidationError (never another failure), a convex polygon is accepted whatever its winding, a
 * polygon whose ring crosses itself is refused, and the geodesic area of a small rectangle agrees with
 * the spherical-excess figure for it to well within the 0.1 % the HTTP tests ask of the shapefiles.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { ValidationError } from "../../src/errors";
import { aoiOfBbox, parseAoiPolygon } from "../../src/areas/geometry";
import { polygonsAreaM2 } from "../../src/geometry/geodesic";
import { parsePoints } from "../../src/areas";

const wkt = (rings: number[][][]) => `POLYGON (${rings.map((r) => `(${r.map(([x, y]) => `${x} ${y}`).join(", ")})`).join(", ")})`;

/** A convex polygon: n points on an ellipse around (lon, lat), closed. */
function convex(lon: number, lat: number, n: number, rx: number, ry: number, clockwise: boolean): number[][] {
  const ring = Array.from({ length: n }, (_, i) => {
    const a = ((clockwise ? -1 : 1) * 2 * Math.PI * i) / n;
    return [lon + rx * Math.cos(a), lat + ry * Math.sin(a)];
  });
  return [...ring, ring[0]!];
}

describe("areas: the rules under generated input", () => {
  test("any text is an area or a ValidationError naming 'polygon'", () => {
    const tokens = fc.constantFrom("POLYGON", "(", ")", ",", " ", "-94.36", "41.94", "1e400", "NaN", "Z", "EMPTY", "((", "))", "x", "");
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.array(tokens, { maxLength: 40 }).map((t) => t.join(""))), (text) => {
        try {
          parseAoiPolygon(text);
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
          expect((error as Error).message).toContain("'polygon'");
        }
      }),
      { numRuns: 2000 },
    );
  });

  test("any points text is a list or a ValidationError naming 'points'", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        try {
          const points = parsePoints(text);
          for (const [lat, lon] of points) {
            expect(Math.abs(lat)).toBeLessThanOrEqual(90);
            expect(Math.abs(lon)).toBeLessThanOrEqual(180);
          }
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
          expect((error as Error).message).toContain("'points'");
        }
      }),
      { numRuns: 2000 },
    );
  });

  test("a convex polygon is accepted either way round, wound as RFC 7946 asks, with the same area", () => {
    fc.assert(
      fc.property(fc.double({ min: -170, max: 170, noNaN: true }), fc.double({ min: -60, max: 60, noNaN: true }), fc.integer({ min: 3, max: 200 }), (lon, lat, n) => {
        const ccw = parseAoiPolygon(wkt([convex(lon, lat, n, 0.01, 0.008, false)]));
        const cw = parseAoiPolygon(wkt([convex(lon, lat, n, 0.01, 0.008, true)]));
        expect(ccw.vertices).toBe(n);
        expect(Math.abs(ccw.areaM2 - cw.areaM2) / ccw.areaM2).toBeLessThan(1e-9);
        // Outer ring counter-clockwise: positive shoelace sum.
        const ring = cw.rings[0]!;
        let sum = 0;
        for (let i = 0; i + 1 < ring.length; i++) sum += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
        expect(sum).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });

  test("a ring that crosses itself is refused, wherever it lies", () => {
    fc.assert(
      fc.property(fc.double({ min: -170, max: 170, noNaN: true }), fc.double({ min: -60, max: 60, noNaN: true }), fc.double({ min: 0.001, max: 0.05, noNaN: true }), (lon, lat, d) => {
        const bowTie = [
          [lon, lat],
          [lon + d, lat + d],
          [lon + d, lat],
          [lon, lat + d * 1.5],
          [lon, lat],
        ];
        expect(() => parseAoiPolygon(wkt([bowTie]))).toThrow(/intersects itself/);
      }),
      { numRuns: 200 },
    );
  });

  test("a hole lowers the area by its own; a rectangle's area agrees with the spherical figure within 0.5 %", () => {
    const outer = [[-91.8162, 41.3022], [-91.8128, 41.3022], [-91.8128, 41.3067], [-91.8162, 41.3067], [-91.8162, 41.3022]];
    const hole = [[-91.815, 41.3035], [-91.815, 41.305], [-91.814, 41.305], [-91.814, 41.3035], [-91.815, 41.3035]];
    const whole = parseAoiPolygon(wkt([outer]));
    const holed = parseAoiPolygon(wkt([outer, hole]));
    expect(Math.abs(whole.areaM2 - holed.areaM2 - polygonsAreaM2([[hole]])) / whole.areaM2).toBeLessThan(1e-9);
    // Sphere of the authalic radius: R² (λ2 - λ1)(sin φ2 - sin φ1); the ellipsoid differs by a few tenths of a percent.
    const R = 6_371_007.2;
    const rad = Math.PI / 180;
    const box = aoiOfBbox([-91.8162, 41.3022, -91.8128, 41.3067]);
    const spherical = R * R * (0.0034 * rad) * (Math.sin(41.3067 * rad) - Math.sin(41.3022 * rad));
    expect(Math.abs(box.areaM2 - spherical) / spherical).toBeLessThan(0.005);
    expect(box.areaM2).toBeCloseTo(whole.areaM2, 6);
  });
});
