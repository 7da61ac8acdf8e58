/**
 * An area of interest as a user gives it (docs/decisions.md#areas): WKT `POLYGON ((lon lat, ...), (...))`
 * in CRS84, or a `bbox` read as the same rectangle; and geodesic areas on the WGS84 ellipsoid. Every
 * refusal is a ValidationError (422) that names the rule: the WKT does not parse, a ring is not closed
 * or has fewer than four points, a coordinate is out of range, more than MAX_AOI_VERTICES vertices, a
 * ring crosses itself or another ring, a hole lies outside the outer ring, more than MAX_AOI_HECTARES.
 */
import { ValidationError } from "../errors";
import { polygonsAreaM2 } from "../geometry/geodesic";
import { pointInRings, signedArea2 } from "../geometry/rings";
import { readPlainPolygon, WktError, writeWkt } from "../geometry/wkt";

export const MAX_AOI_VERTICES = 1000;
export const MAX_AOI_HECTARES = 10_000;
/** An area's box, degrees a side: the flat cut and the ellipsoid agree within it (docs/decisions.md#areas). */
export const MAX_AOI_SIDE_DEGREES = 1;
/** Latitude, either side of the equator, an area may reach: nearer the poles a degree of longitude shrinks to nothing. */
export const MAX_AOI_LATITUDE = 85;
/** Below a square metre a geodesic area is rounding noise (it may be exactly 0), and no percent of it means anything. */
export const MIN_AOI_SQUARE_METRES = 1;
export const SQUARE_METRES_PER_HECTARE = 10_000;
/** International acre: 4046.8564224 m² (the US survey acre differs by 2 parts per million). */
export const SQUARE_METRES_PER_ACRE = 4046.8564224;

type Position = [lon: number, lat: number];
/** [outer ring, ...holes], each ring closed (first position repeated last). */
export type AreaRings = Position[][];

export interface Aoi {
  /** Outer ring counter-clockwise, holes clockwise (RFC 7946), closed. */
  rings: AreaRings;
  /** Vertices, each ring's closing repeat not counted. */
  vertices: number;
  /** Geodesic area on WGS84, m². */
  areaM2: number;
}

type Given = "polygon" | "bbox";

const fail = (rule: string, given: Given = "polygon"): never => {
  throw new ValidationError(`Query parameter '${given}' ${rule}`);
};

/** POLYGON ((x y, ...), (...)): the rings as written (geometry/wkt.ts reads it); every failure says where. */
function polygonParameter(text: string): number[][][] {
  try {
    return readPlainPolygon(text);
  } catch (error) {
    if (!(error instanceof WktError)) throw error;
    return refuseWkt(error);
  }
}

/** The 422 of a text that is not one plain POLYGON, naming what is wrong and where. */
function refuseWkt(error: WktError): never {
  const { type = "", ring, position, given, twoNumbers } = error.detail;
  if (error.kind === "type") {
    fail(`must be WKT of one POLYGON, e.g. POLYGON ((lon lat, lon lat, lon lat, lon lat)); got ${type ? `a ${type.slice(0, 20)}` : "no geometry type"}.`);
  }
  if (error.kind === "dimension") fail("must be a two-dimensional POLYGON with its rings, e.g. POLYGON ((lon lat, lon lat, lon lat, lon lat)): no Z, M or EMPTY.");
  if (error.kind === "position") {
    fail(`is not valid WKT: ring ${ring} position ${position} must be two ${twoNumbers ? "decimal numbers" : "numbers"} 'lon lat'; got '${given}'.`);
  }
  return fail(`is not valid WKT: ${error.message}.`);
}

const orient = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
const within = (a: number, b: number, c: number) => Math.min(a, b) <= c && c <= Math.max(a, b);

/** Do segments p1-p2 and p3-p4 meet (cross, touch or overlap)? */
function segmentsMeet(p1: Position, p2: Position, p3: Position, p4: Position): boolean {
  const d1 = orient(p3[0], p3[1], p4[0], p4[1], p1[0], p1[1]);
  const d2 = orient(p3[0], p3[1], p4[0], p4[1], p2[0], p2[1]);
  const d3 = orient(p1[0], p1[1], p2[0], p2[1], p3[0], p3[1]);
  const d4 = orient(p1[0], p1[1], p2[0], p2[1], p4[0], p4[1]);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const on = (d: number, a: Position, b: Position, c: Position) => d === 0 && within(a[0], b[0], c[0]) && within(a[1], b[1], c[1]);
  return on(d1, p3, p4, p1) || on(d2, p3, p4, p2) || on(d3, p1, p2, p3) || on(d4, p1, p2, p4);
}

/** Do two segments that share the endpoint `b` (a-b, b-c) fold back onto each other? */
function foldsBack(a: Position, b: Position, c: Position): boolean {
  if (orient(a[0], a[1], b[0], b[1], c[0], c[1]) !== 0) return false;
  // Collinear: they overlap when a and c lie on the same side of b.
  return (a[0] - b[0]) * (c[0] - b[0]) + (a[1] - b[1]) * (c[1] - b[1]) > 0;
}

/**
 * Simple rings that neither cross nor touch each other: every pair of edges whose boxes meet is tested,
 * found by a sweep over the edges in order of their west end (a 1,000-edge ring meets a few thousand
 * pairs, not half a million: the check stays well under a millisecond on the event loop).
 */
function checkSimple(rings: AreaRings): void {
  type Edge = { ring: number; index: number; a: Position; b: Position; w: number; e: number; s: number; n: number };
  const edges: Edge[] = [];
  rings.forEach((ring, r) => {
    for (let i = 0; i + 1 < ring.length; i++) {
      const a = ring[i]!;
      const b = ring[i + 1]!;
      edges.push({ ring: r, index: i, a, b, w: Math.min(a[0], b[0]), e: Math.max(a[0], b[0]), s: Math.min(a[1], b[1]), n: Math.max(a[1], b[1]) });
    }
  });
  edges.sort((p, q) => p.w - q.w);
  const name = (r: number) => (r === 0 ? "the outer ring" : `hole ${r}`);
  for (let i = 0; i < edges.length; i++) {
    const p = edges[i]!;
    for (let j = i + 1; j < edges.length && edges[j]!.w <= p.e; j++) {
      const q = edges[j]!;
      if (q.s > p.n || q.n < p.s) continue;
      // Each pair in ring order, whichever the sweep met first.
      const [lo, hi] = p.ring < q.ring || (p.ring === q.ring && p.index < q.index) ? [p, q] : [q, p];
      if (lo.ring === hi.ring) {
        const count = rings[lo.ring]!.length - 1;
        const next = hi.index === lo.index + 1;
        const wraps = lo.index === 0 && hi.index === count - 1;
        if (next && !foldsBack(lo.a, lo.b, hi.b)) continue;
        if (wraps && !foldsBack(hi.a, hi.b, lo.b)) continue;
        if (next || wraps || segmentsMeet(lo.a, lo.b, hi.a, hi.b)) {
          fail(`is not a valid polygon: ${name(lo.ring)} intersects itself (edges ${lo.index + 1} and ${hi.index + 1}); a ring must not cross or touch itself.`);
        }
      } else if (segmentsMeet(lo.a, lo.b, hi.a, hi.b)) {
        fail(`is not a valid polygon: ${name(lo.ring)} and ${name(hi.ring)} cross or touch; holes must lie strictly inside the outer ring and apart from each other.`);
      }
    }
  }
}

/** A ring without positions repeated one after the other (valid WKT; a zero-length edge would read as a fold). */
function withoutRepeats(ring: Position[]): Position[] {
  return ring.filter((p, i) => i === 0 || p[0] !== ring[i - 1]![0] || p[1] !== ring[i - 1]![1]);
}

/** Round away the noise of a subtraction for messages (1.0000000000000142 → 1). */
const tidy = (value: number) => Number(value.toPrecision(10));

/**
 * Where the flat cut and the ellipsoid describe the same place (docs/decisions.md#areas): no edge
 * across the antimeridian, no position beyond MAX_AOI_LATITUDE, a box within MAX_AOI_SIDE_DEGREES.
 */
function checkFlatExtent(rings: readonly Position[][], given: Given): void {
  rings.forEach((ring, r) => {
    const name = r === 0 ? "the outer ring" : `hole ${r}`;
    ring.forEach(([lon, lat], i) => {
      if (Math.abs(lat) > MAX_AOI_LATITUDE) {
        fail(`reaches latitude ${lat}${given === "polygon" ? ` (${name} position ${i + 1})` : ""}; an area must lie between latitudes -${MAX_AOI_LATITUDE} and ${MAX_AOI_LATITUDE}, where a cut on the longitude/latitude plane measures true.`, given);
      }
      const next = ring[i + 1];
      if (next && Math.abs(next[0] - lon) > 180) {
        fail(`crosses the antimeridian: ${name} edge ${i + 1} runs from longitude ${lon} to ${next[0]}, more than 180 degrees; give an area on one side of 180° (split it in two requests).`, given);
      }
    });
  });
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lon, lat] of rings[0]!) [w, s, e, n] = [Math.min(w, lon), Math.min(s, lat), Math.max(e, lon), Math.max(n, lat)];
  for (const [side, span] of [["longitude", e - w], ["latitude", n - s]] as const) {
    if (span > MAX_AOI_SIDE_DEGREES) fail(`spans ${tidy(span)} degrees of ${side}; an area's box may be at most ${MAX_AOI_SIDE_DEGREES} degree a side.`, given);
  }
}

/** An area's hectares as a message gives them: when over `limit`, never rounded down to it (10,000.4 ha). */
export function hectaresText(hectares: number, limit: number): string {
  for (let digits = 0; digits < 6; digits++) {
    const text = hectares.toLocaleString("en-US", { maximumFractionDigits: digits });
    if (hectares <= limit || Number(text.replaceAll(",", "")) > limit) return text;
  }
  return hectares.toLocaleString("en-US", { maximumFractionDigits: 9 });
}

/** Rings checked and wound as RFC 7946 asks, measured, and held to the size rules. */
function validAoi(raw: number[][][], given: Given): Aoi {
  let vertices = 0;
  const rings = raw.map((written, r) => {
    const name = r === 0 ? "the outer ring" : `hole ${r}`;
    written.forEach(([lon, lat], i) => {
      if (!(lon! >= -180 && lon! <= 180 && lat! >= -90 && lat! <= 90)) {
        fail(`has a coordinate out of range: ${name} position ${i + 1} is (${lon} ${lat}); longitude must be from -180 to 180 and latitude from -90 to 90, in that order (CRS84).`, given);
      }
    });
    const first = written[0]!;
    const last = written[written.length - 1]!;
    if (written.length < 4) fail(`is not a valid polygon: ${name} has ${written.length} positions; a closed ring needs at least four.`, given);
    if (first[0] !== last[0] || first[1] !== last[1]) fail(`is not a valid polygon: ${name} is not closed; its last position must repeat its first.`, given);
    const ring = withoutRepeats(written as Position[]);
    if (ring.length < 4) fail(`is not a valid polygon: ${name} has ${ring.length} distinct positions in turn; a closed ring needs at least four.`, given);
    vertices += ring.length - 1;
    return ring;
  });
  checkFlatExtent(rings, given);
  if (vertices > MAX_AOI_VERTICES) fail(`has ${vertices} vertices; an area may have at most ${MAX_AOI_VERTICES}.`, given);
  checkSimple(rings);
  rings.forEach((ring, r) => {
    if (signedArea2(ring) === 0) fail(`is not a valid polygon: ${r === 0 ? "the outer ring" : `hole ${r}`} encloses no area.`, given);
  });
  rings.slice(1).forEach((hole, h) => {
    if (!pointInRings([rings[0]!], hole[0]![0], hole[0]![1])) fail(`is not a valid polygon: hole ${h + 1} lies outside the outer ring.`, given);
    rings.slice(1).forEach((other, k) => {
      if (k !== h && pointInRings([other], hole[0]![0], hole[0]![1])) fail(`is not a valid polygon: hole ${h + 1} lies inside hole ${k + 1}.`, given);
    });
  });
  const wound = rings.map((ring, r) => ((signedArea2(ring) > 0) === (r === 0) ? ring : [...ring].reverse()));
  const areaM2 = polygonsAreaM2([wound]);
  if (areaM2 > MAX_AOI_HECTARES * SQUARE_METRES_PER_HECTARE) {
    fail(`encloses ${hectaresText(areaM2 / SQUARE_METRES_PER_HECTARE, MAX_AOI_HECTARES)} ha; an area may be at most ${MAX_AOI_HECTARES.toLocaleString("en-US")} ha.`, given);
  }
  if (!(areaM2 >= MIN_AOI_SQUARE_METRES)) fail(`encloses less than ${MIN_AOI_SQUARE_METRES} m² on the WGS84 ellipsoid; an area must enclose at least that.`, given);
  return { rings: wound, vertices, areaM2 };
}

/** The `polygon` parameter: WKT of one polygon, CRS84 (lon lat). */
export function parseAoiPolygon(text: string): Aoi {
  return validAoi(polygonParameter(text), "polygon");
}

/** A `bbox` (already parsed: southwest corner first) as the rectangle it names. */
export function aoiOfBbox([w, s, e, n]: readonly [number, number, number, number]): Aoi {
  return validAoi(
    [
      [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ],
    ],
    "bbox",
  );
}

/** The area as WKT, as the report's query echoes it. */
export function aoiWkt(aoi: Aoi): string {
  return writeWkt([aoi.rings]);
}
