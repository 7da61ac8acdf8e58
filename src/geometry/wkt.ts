/**
 * Well-known text (OGC Simple Features) of polygons, both ways, in one reader and one writer
 * (docs/decisions.md#geometry): what SQL Server's `STAsText()` sends for a map-unit polygon or its cut by
 * an area, what a user gives as an area of interest, and what Loam writes back (SQL text, a raw answer,
 * the area a report echoes). A text that does not read throws WktError, which says what was wrong and
 * where; each caller turns it into its own error (a 502 naming the upstream, a 422 naming the parameter).
 */
import type { Polygons, Ring } from "./rings";

/** A number of a written position: `axis` 0 is x (longitude), 1 is y; `index` counts from 0 within its ring. */
export type CoordinateText = (value: number, axis: 0 | 1, index: number) => string;

const plain: CoordinateText = (value) => `${value}`;

/** POLYGON ((...), (...)) for one polygon, MULTIPOLYGON (((...)), ((...))) for several; as SQL Server writes it. */
export function writeWkt(polygons: readonly (readonly Ring[])[], coordinate: CoordinateText = plain): string {
  const ringText = (ring: Ring) => `(${ring.map((p, i) => `${coordinate(p[0]!, 0, i)} ${coordinate(p[1]!, 1, i)}`).join(", ")})`;
  const polygonText = (polygon: readonly Ring[]) => `(${polygon.map(ringText).join(", ")})`;
  if (polygons.length === 1) return `POLYGON ${polygonText(polygons[0]!)}`;
  return `MULTIPOLYGON (${polygons.map(polygonText).join(", ")})`;
}

/**
 * Why a text is not the WKT asked for. `kind`: `type` (another geometry type, `type` says which; "" when
 * none), `dimension` (Z, M or EMPTY where a plain polygon was asked), `position` (ring `ring`, position
 * `position`, counting from 1, is not two numbers: `given` holds its text), `syntax` (anything else).
 * `at` is the character where reading stopped.
 */
export class WktError extends Error {
  constructor(
    readonly kind: "type" | "dimension" | "position" | "syntax",
    readonly what: string,
    readonly at: number,
    readonly detail: { type?: string; ring?: number; position?: number; given?: string; twoNumbers?: boolean } = {},
  ) {
    super(`${what} at character ${at}`);
    this.name = "WktError";
  }
}

const SPACE = new Set([9, 10, 11, 12, 13, 32]);
const COMMA = 44;
const OPEN = 40;
const CLOSE = 41;

/**
 * Most parentheses a text may nest: a MULTIPOLYGON's ring sits 3 deep, inside one GEOMETRYCOLLECTION 4
 * (what STIntersection sends); one more level is allowed for a collection in a collection. Deeper is
 * refused before any recursion goes further, never a stack overflow (docs/decisions.md#areas).
 */
export const MAX_WKT_DEPTH = 5;

/** Is `code` one of the characters a WKT number may hold (digits, sign, point, exponent)? */
function numberChar(code: number): boolean {
  return (code >= 48 && code <= 57) || code === 43 || code === 45 || code === 46 || code === 69 || code === 101;
}

interface ReadRules {
  /** Z and M ordinates read and dropped (SQL Server's answers); when false a position is exactly 'x y'. */
  dropZm: boolean;
  /** Fewest positions a ring may have (4 for a closed ring); 0 leaves the rule to the caller. */
  minRingPoints: number;
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
  /** Rings read so far (for messages: ring 1 is the first). */
  private rings = 0;
  /** Points read so far. */
  constructor(
    private readonly text: string,
    private readonly rules: ReadRules,
  ) {}

  fail(what: string, kind: WktError["kind"] = "syntax", detail: WktError["detail"] = {}): never {
    throw new WktError(kind, what, this.at, detail);
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

  /** The geometry type word, upper case ("" when the text holds none there). */
  word(): string {
    this.skip();
    const m = /^[A-Za-z]+/.exec(this.text.slice(this.at, this.at + 40));
    if (!m) return "";
    this.at += m[0].length;
    return m[0].toUpperCase();
  }

  /** The text of the position that starts at `start`, as a message quotes it. */
  private positionText(start: number): string {
    let end = start;
    while (end < this.text.length && this.text.charCodeAt(end) !== COMMA && this.text.charCodeAt(end) !== CLOSE) end++;
    return this.text.slice(start, end).trim().slice(0, 40);
  }

  private number(where: { ring: number; position: number; start: number }): number {
    this.skip();
    const text = this.text;
    const start = this.at;
    while (this.at < text.length && numberChar(text.charCodeAt(this.at))) this.at++;
    // Number() reads what the characters allow; anything else ("1-2", "1e", "", ".") is NaN.
    const value = this.at > start ? Number(text.slice(start, this.at)) : NaN;
    if (!Number.isFinite(value)) {
      this.at = start;
      this.fail("expected a number", "position", { ring: where.ring, position: where.position, given: this.positionText(where.start), twoNumbers: true });
    }
    return value;
  }

  /** (x y [z [m]], ...): the first two ordinates of each point. */
  ring(): number[][] {
    this.expect("(");
    const ring = ++this.rings;
    const points: number[][] = [];
    const text = this.text;
    for (;;) {
      this.skip();
      const where = { ring, position: points.length + 1, start: this.at };
      const x = this.number(where);
      const y = this.number(where);
      this.skip();
      while (this.at < text.length && text.charCodeAt(this.at) !== COMMA && text.charCodeAt(this.at) !== CLOSE) {
        if (!this.rules.dropZm || text.charCodeAt(this.at) === OPEN) {
          this.fail("expected ',' or ')'", "position", { ring, position: where.position, given: this.positionText(where.start), twoNumbers: false });
        }
        // Z and M ordinates are read and dropped.
        this.number(where);
        this.skip();
      }
      points.push([x, y]);
      if (text.charCodeAt(this.at) !== COMMA) break;
      this.at++;
    }
    this.expect(")");
    if (points.length < this.rules.minRingPoints) this.fail("a ring needs at least four points");
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

  /** ((...)), ((...)): the polygons of a MULTIPOLYGON. */
  polygons(): Polygons {
    this.expect("(");
    const polygons: Polygons = [];
    do polygons.push(this.polygon());
    while (this.take(","));
    this.expect(")");
    return polygons;
  }

  /** An optional dimension tag (POLYGON Z (...)): whether there was one. */
  dimension(): boolean {
    const z = this.take("Z");
    const m = this.take("M");
    return z || m;
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

const ANSWER_RULES: ReadRules = { dropZm: true, minRingPoints: 4 };

/** POLYGON or MULTIPOLYGON (optionally Z or M; EMPTY gives none): its polygons. */
export function readWkt(text: string): Polygons {
  const reader = new Reader(text, ANSWER_RULES);
  const type = reader.word();
  if (type !== "POLYGON" && type !== "MULTIPOLYGON") reader.fail("expected POLYGON or MULTIPOLYGON", "type", { type });
  reader.dimension();
  if (reader.emptyTag()) {
    reader.end();
    return [];
  }
  const polygons = type === "POLYGON" ? [reader.polygon()] : reader.polygons();
  reader.end();
  return polygons;
}

const OTHER_TYPES = new Set(["POINT", "LINESTRING", "MULTIPOINT", "MULTILINESTRING"]);

/**
 * The polygons of an intersection (SQL Server's `STIntersection(...).STAsText()`): POLYGON or
 * MULTIPOLYGON, but where the two only touch along an edge or at a corner also a LINESTRING, a POINT, or
 * a GEOMETRYCOLLECTION of such parts. Parts without area are left out; an unknown type is refused.
 */
export function readPolygonalWkt(text: string): Polygons {
  const reader = new Reader(text, ANSWER_RULES);
  const polygons = polygonalPart(reader);
  reader.end();
  return polygons;
}

function polygonalPart(reader: Reader): Polygons {
  const type = reader.word();
  reader.dimension();
  if (reader.emptyTag()) return [];
  if (type === "GEOMETRYCOLLECTION") {
    const parts: Polygons = [];
    reader.expect("(");
    do parts.push(...polygonalPart(reader));
    while (reader.take(","));
    reader.expect(")");
    return parts;
  }
  if (type === "POLYGON") return [reader.polygon()];
  if (type === "MULTIPOLYGON") return reader.polygons();
  if (OTHER_TYPES.has(type)) {
    reader.skipBalanced();
    return [];
  }
  return reader.fail("expected a polygonal geometry", "type", { type });
}

/**
 * One two-dimensional POLYGON, as a user writes it: every position exactly 'x y', no Z, M or EMPTY;
 * the rings as written (whether they close, and how many positions they hold, is the caller's rule).
 */
export function readPlainPolygon(text: string): number[][][] {
  const reader = new Reader(text, { dropZm: false, minRingPoints: 0 });
  const type = reader.word();
  if (type !== "POLYGON") reader.fail("expected POLYGON", "type", { type });
  if (reader.dimension() || reader.emptyTag()) reader.fail("expected a two-dimensional polygon", "dimension");
  const polygon = reader.polygon();
  reader.end();
  return polygon;
}
