/**
 * Well-known text (OGC Simple Features) for map-unit polygons: what SQL Server's `STAsText()` sends
 * for a `mupolygongeo` value, and what the snapshot form writes in its place. Only POLYGON and
 * MULTIPOLYGON occur in `mupolygon`; anything else is refused, never guessed at.
 */
import { UpstreamError } from "../../errors";

/** Polygons, each [outer ring, ...holes], each ring [[x, y], ...] (x longitude, y latitude). */
export type Polygons = number[][][][];

const ringText = (ring: readonly (readonly number[])[]) => `(${ring.map((p) => `${p[0]} ${p[1]}`).join(", ")})`;
const polygonText = (polygon: readonly (readonly (readonly number[])[])[]) => `(${polygon.map(ringText).join(", ")})`;

/** POLYGON ((...), (...)) for one polygon, MULTIPOLYGON (((...)), ((...))) for several; as SQL Server writes it. */
export function writeWkt(polygons: Polygons): string {
  if (polygons.length === 1) return `POLYGON ${polygonText(polygons[0]!)}`;
  return `MULTIPOLYGON (${polygons.map(polygonText).join(", ")})`;
}

const SPACE = new Set([9, 10, 11, 12, 13, 32]);
const COMMA = 44;
const OPEN = 40;
const CLOSE = 41;

/**
 * Most parentheses a WKT answer may nest: a MULTIPOLYGON's ring sits 3 deep, inside one
 * GEOMETRYCOLLECTION 4 (what STIntersection sends); one more level is allowed for a collection in a
 * collection. Deeper is not a map-unit polygon: a 502, never a stack overflow (docs/decisions.md#areas).
 */
export const MAX_WKT_DEPTH = 5;

/** Is `code` one of the characters a WKT number may hold (digits, sign, point, exponent)? */
function numberChar(code: number): boolean {
  return (code >= 48 && code <= 57) || code === 43 || code === 45 || code === 46 || code === 69 || code === 101;
}

/**
 * A recursive-descent reader over nested parenthesized coordinate lists, reading character codes
 * (no substrings, no regular expressions per number): a 32 MB answer holds about a million points
 * (docs/decisions.md#polygon-budget).
 */
class Reader {
  private at = 0;
  /** Parentheses open at `at`: bounded by MAX_WKT_DEPTH. */
  private depth = 0;
  /** Points read so far. */
  points = 0;
  constructor(private readonly text: string) {}

  private fail(what: string): never {
    throw new UpstreamError(`Soil Data Access sent a polygon whose WKT does not parse (${what} at character ${this.at}).`);
  }

  private skip(): void {
    const text = this.text;
    while (this.at < text.length && SPACE.has(text.charCodeAt(this.at))) this.at++;
  }

  expect(char: string): void {
    this.skip();
    if (this.text[this.at] !== char) this.fail(`expected '${char}'`);
    this.at++;
    this.nest(char);
  }

  /** Count a parenthesis opened or closed; too deep is refused before any recursion goes further. */
  private nest(char: string): void {
    if (char === "(" && ++this.depth > MAX_WKT_DEPTH) this.fail(`parentheses nested deeper than ${MAX_WKT_DEPTH} levels`);
    if (char === ")") this.depth--;
  }

  /** Is the next non-blank character `char`? (consumed when it is) */
  take(char: string): boolean {
    this.skip();
    if (this.text[this.at] !== char) return false;
    this.at++;
    this.nest(char);
    return true;
  }

  word(): string {
    this.skip();
    const m = /^[A-Za-z]+/.exec(this.text.slice(this.at, this.at + 40));
    if (!m) this.fail("expected a geometry type");
    this.at += m[0].length;
    return m[0].toUpperCase();
  }

  private number(): number {
    this.skip();
    const text = this.text;
    const start = this.at;
    while (this.at < text.length && numberChar(text.charCodeAt(this.at))) this.at++;
    // Number() reads what the characters allow; anything else ("1-2", "1e", "", ".") is NaN.
    const value = this.at > start ? Number(text.slice(start, this.at)) : NaN;
    if (!Number.isFinite(value)) {
      this.at = start;
      this.fail("expected a number");
    }
    return value;
  }

  /** (x y [z [m]], ...): the first two ordinates of each point. */
  ring(): number[][] {
    this.expect("(");
    const points: number[][] = [];
    const text = this.text;
    for (;;) {
      const x = this.number();
      const y = this.number();
      this.skip();
      // Z and M ordinates are read and dropped.
      while (this.at < text.length && text.charCodeAt(this.at) !== COMMA && text.charCodeAt(this.at) !== CLOSE) {
        if (text.charCodeAt(this.at) === OPEN) this.fail("expected a number");
        this.number();
        this.skip();
      }
      points.push([x, y]);
      if (text.charCodeAt(this.at) !== COMMA) break;
      this.at++;
    }
    this.expect(")");
    if (points.length < 4) this.fail("a ring needs at least four points");
    this.points += points.length;
    return points;
  }

  polygon(): number[][][] {
    this.expect("(");
    const rings: number[][][] = [];
    do rings.push(this.ring());
    while (this.take(","));
    this.expect(")");
    return rings;
  }

  end(): void {
    this.skip();
    if (this.at !== this.text.length) this.fail("unexpected text after the geometry");
  }

  /** A parenthesized part whose content is not needed (a line or point of an intersection), skipped whole. */
  skipBalanced(): void {
    const outside = this.depth;
    this.expect("(");
    while (this.depth > outside) {
      if (this.at >= this.text.length) this.fail("unbalanced parentheses");
      const char = this.text[this.at++]!;
      if (char === "(" || char === ")") this.nest(char);
    }
  }

  emptyTag(): boolean {
    this.skip();
    if (/^EMPTY\b/i.test(this.text.slice(this.at, this.at + 6))) {
      this.at += 5;
      return true;
    }
    return false;
  }
}

/** Parse POLYGON / MULTIPOLYGON WKT (optionally Z or M) into polygons; EMPTY gives none. */
export function parseWkt(text: string): Polygons {
  return readWkt(text).polygons;
}

/** The polygons of a WKT text and the number of points they hold. */
export function readWkt(text: string): { polygons: Polygons; points: number } {
  const reader = new Reader(text);
  const type = reader.word();
  if (type !== "POLYGON" && type !== "MULTIPOLYGON") {
    throw new UpstreamError(`Soil Data Access sent a ${type} where a map-unit polygon was expected.`);
  }
  // Optional dimension tag (POLYGON Z (...)).
  reader.take("Z");
  reader.take("M");
  if (reader.emptyTag()) {
    reader.end();
    return { polygons: [], points: 0 };
  }
  let polygons: Polygons;
  if (type === "POLYGON") polygons = [reader.polygon()];
  else {
    reader.expect("(");
    polygons = [];
    do polygons.push(reader.polygon());
    while (reader.take(","));
    reader.expect(")");
  }
  reader.end();
  return { polygons, points: reader.points };
}

const POLYGONAL = new Set(["POLYGON", "MULTIPOLYGON"]);
const OTHER_TYPES = new Set(["POINT", "LINESTRING", "MULTIPOINT", "MULTILINESTRING"]);

/**
 * The polygons of what SQL Server's `STIntersection(...).STAsText()` sends for a map-unit polygon cut
 * by an area: POLYGON or MULTIPOLYGON, but where the two only touch along an edge or at a corner also
 * a LINESTRING, a POINT, or a GEOMETRYCOLLECTION of such parts. Parts without area are left out (they
 * hold no soil); an unknown type is refused, never guessed at.
 */
export function parsePolygonalWkt(text: string): Polygons {
  const reader = new Reader(text);
  const polygons = readPolygonalPart(reader, text);
  reader.end();
  return polygons;
}

function readPolygonalPart(reader: Reader, text: string): Polygons {
  const type = reader.word();
  reader.take("Z");
  reader.take("M");
  if (reader.emptyTag()) return [];
  if (type === "GEOMETRYCOLLECTION") {
    const parts: Polygons = [];
    reader.expect("(");
    do parts.push(...readPolygonalPart(reader, text));
    while (reader.take(","));
    reader.expect(")");
    return parts;
  }
  if (POLYGONAL.has(type)) {
    if (type === "POLYGON") return [reader.polygon()];
    const polygons: Polygons = [];
    reader.expect("(");
    do polygons.push(reader.polygon());
    while (reader.take(","));
    reader.expect(")");
    return polygons;
  }
  if (OTHER_TYPES.has(type)) {
    reader.skipBalanced();
    return [];
  }
  throw new UpstreamError(`Soil Data Access sent a ${type.slice(0, 30)} where the intersection of a map-unit polygon and an area was expected.`);
}
