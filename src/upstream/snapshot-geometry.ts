/**
 * How the snapshot stores a map-unit polygon record (one shapefile record, one `mupolygon` row): its
 * rings, outer rings and holes of possibly several parts, losslessly packed
 * (docs/decisions.md#ring-encoding). Every coordinate reads back as the shapefile's identical double, bit
 * for bit, which the one point-in-ring test needs to give a point on an edge shared by two map units to
 * exactly one of them (docs/decisions.md#geometry), in about 57 % of the bytes of raw float64 pairs.
 *
 * A ring's coordinates on one axis are all integer multiples of one power of two, 2^s, the lowest set
 * bit of any of them (a double is a 53-bit integer times a power of two): x = m * 2^s and m = x / 2^s,
 * both exact. A ring stores its first point as raw doubles and then, per axis, the differences of
 * consecutive m (exact integers), zigzagged and bit-packed at the ring's widest. A closed ring (last
 * point bitwise equal to the first) leaves the repeated point out. Each packed ring is decoded and
 * compared while it is encoded; a ring that would not come back bit for bit (a difference past 2^52, an
 * infinity, NaN, -0 after 0) is stored as raw doubles instead.
 *
 * Blob: [tag 1] [varint rings] [varint points, closing copies included], then per ring [varint points
 * stored] [flags: 1 closed, 2 packed] and either 16 bytes a point (raw doubles, little-endian) or, per
 * axis, [zigzag varint s] [width byte] [first coordinate, 8 bytes], then one bit stream of both axes'
 * differences (x's then y's, least significant bit first), padded to a byte. Decoded, it is the flat
 * layout of geometry/rings.ts, [ringCount, n0, x, y, ..., n1, x, y, ...], which the point and box tests
 * read without building arrays. The geometry itself is `src/geometry/` (docs/decisions.md#geometry).
 */
import { UpstreamError } from "../errors";
import { pointInFlatRings, ringsOfFlat, type Ring } from "../geometry/rings";

/** The blob's first byte. An older snapshot's blob was raw doubles, whose first byte (of the ring count) is 0. */
const RING_TAG = 1;
const CLOSED = 1;
const PACKED = 2;
const TWO_24 = 2 ** 24;
const TWO_48 = 2 ** 48;
/** More points than any record holds (1 GB decoded): a count past it is a damaged blob, not an allocation. */
const MAX_POINTS = 2 ** 26;

const scratch = new Float64Array(1);
const scratchWords = new Uint32Array(scratch.buffer);
const scratchBytes = new Uint8Array(scratch.buffer);

class Writer {
  bytes = new Uint8Array(256);
  length = 0;
  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
  byte(b: number): void {
    this.room(1);
    this.bytes[this.length++] = b;
  }
  /** A non-negative integer below 2^53, 7 bits a byte. */
  varint(v: number): void {
    while (v >= 128) {
      this.byte((v % 128) + 128);
      v = Math.floor(v / 128);
    }
    this.byte(v);
  }
  double(x: number): void {
    this.room(8);
    scratch[0] = x;
    this.bytes.set(scratchBytes, this.length);
    this.length += 8;
  }
  /** One bit stream of sections of values below 2^width (width <= 53), least significant bit first, padded to a byte. */
  bits(sections: readonly { values: readonly number[]; width: number }[]): void {
    const total = sections.reduce((sum, s) => sum + s.values.length * s.width, 0);
    this.room(Math.ceil(total / 8));
    const base = this.length;
    let bit = 0;
    for (const { values, width } of sections) {
      for (let v of values) {
        for (let i = 0; i < width; i++, bit++, v = Math.floor(v / 2)) if (v % 2 === 1) this.bytes[base + (bit >>> 3)]! |= 1 << (bit & 7);
      }
    }
    this.length = base + Math.ceil(total / 8);
  }
  result(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

// Zigzag by arithmetic: differences reach 2^52, past JavaScript's 32-bit operators.
const zigzag = (d: number) => (d >= 0 ? 2 * d : -2 * d - 1);
const unzigzag = (z: number) => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);

/** The exponent of the lowest set bit of a finite non-zero double (its mantissa's trailing zeros, placed). */
function lowestBit(x: number): number {
  scratch[0] = x;
  const lo = scratchWords[0]!;
  const hi = scratchWords[1]! & 0xfffff;
  const biased = (scratchWords[1]! >>> 20) & 0x7ff;
  const trailing = lo !== 0 ? 31 - Math.clz32(lo & -lo) : hi !== 0 ? 63 - Math.clz32(hi & -hi) : 52;
  return biased === 0 ? trailing - 1074 : biased - 1075 + trailing;
}

const bitWidth = (v: number) => {
  let w = 0;
  while (w < 53 && 2 ** w <= v) w++;
  return w;
};

interface PackedAxis {
  s: number;
  width: number;
  first: number;
  deltas: number[];
}

/** One axis (0 x, 1 y) of a ring's stored points as zigzagged integer differences, or null when not exact. */
function packAxis(points: Ring, axis: number): PackedAxis | null {
  let s = Infinity;
  for (const p of points) {
    const c = p[axis]!;
    if (!Number.isFinite(c)) return null;
    if (c !== 0) s = Math.min(s, lowestBit(c));
  }
  if (s === Infinity) s = 0;
  const scale = 2 ** s;
  const first = points[0]![axis]!;
  const deltas: number[] = [];
  let max = 0;
  let previous = first / scale;
  let decoded = previous;
  for (let i = 1; i < points.length; i++) {
    const c = points[i]![axis]!;
    const m = c / scale;
    const d = m - previous;
    if (!(Math.abs(d) < 2 ** 52) || !Number.isInteger(d)) return null;
    // The decoder's own arithmetic, checked here: what is stored reads back bit for bit.
    decoded += d;
    if (!Object.is(decoded * scale, c)) return null;
    const z = zigzag(d);
    if (z > max) max = z;
    deltas.push(z);
    previous = m;
  }
  return { s, width: bitWidth(max), first, deltas };
}

function writeRing(out: Writer, ring: Ring): void {
  const n = ring.length;
  const [a, b] = [ring[0], ring[n - 1]];
  const closed = n > 1 && Object.is(a![0], b![0]) && Object.is(a![1], b![1]) && !Number.isNaN(a![0]) && !Number.isNaN(a![1]);
  const stored = closed ? ring.slice(0, n - 1) : ring;
  const x = stored.length > 1 ? packAxis(stored, 0) : null;
  const y = x ? packAxis(stored, 1) : null;
  out.varint(stored.length);
  out.byte((closed ? CLOSED : 0) | (x && y ? PACKED : 0));
  if (!x || !y) {
    for (const p of stored) {
      out.double(p[0] ?? NaN);
      out.double(p[1] ?? NaN);
    }
    return;
  }
  for (const axis of [x, y]) {
    out.varint(zigzag(axis.s));
    out.byte(axis.width);
    out.double(axis.first);
  }
  out.bits([{ values: x.deltas, width: x.width }, { values: y.deltas, width: y.width }]);
}

/** Bits [bit, bit + k) of the stream as an unsigned integer, k <= 24 (past the end reads as 0). */
function read24(bytes: Uint8Array, bit: number, k: number): number {
  const i = bit >>> 3;
  const word = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
  return ((word >>> (bit & 7)) & ((1 << k) - 1)) >>> 0;
}

function readBits(bytes: Uint8Array, bit: number, k: number): number {
  if (k <= 24) return read24(bytes, bit, k);
  if (k <= 48) return read24(bytes, bit, 24) + read24(bytes, bit + 24, k - 24) * TWO_24;
  return read24(bytes, bit, 24) + read24(bytes, bit + 24, 24) * TWO_24 + read24(bytes, bit + 48, k - 48) * TWO_48;
}

/** A packed ring's n points from byte `at` into out[k...]; returns the byte after the ring. */
function unpackRing(bytes: Uint8Array, view: DataView, out: Float64Array, k: number, n: number, at: number): number {
  const scales = [0, 0];
  const widths = [0, 0];
  for (let axis = 0; axis < 2; axis++) {
    let z = 0;
    for (let mul = 1; ; mul *= 128) {
      const b = bytes[at++];
      if (b === undefined) throw damaged();
      z += (b & 127) * mul;
      if (b < 128) break;
    }
    scales[axis] = 2 ** unzigzag(z);
    widths[axis] = bytes[at++]!;
    if (at + 8 > bytes.length || !(widths[axis]! <= 53)) throw damaged();
    out[k + axis] = view.getFloat64(at, true);
    at += 8;
  }
  if (at + Math.ceil(((n - 1) * (widths[0]! + widths[1]!)) / 8) > bytes.length) throw damaged();
  let bit = at * 8;
  for (let axis = 0; axis < 2; axis++) {
    const scale = scales[axis]!;
    const width = widths[axis]!;
    let m = out[k + axis]! / scale;
    for (let p = 1; p < n; p++, bit += width) {
      m += unzigzag(readBits(bytes, bit, width));
      out[k + 2 * p + axis] = m * scale;
    }
  }
  return Math.ceil(bit / 8);
}

/** A blob cut short or inconsistent (a damaged file): refused, never read past its end. */
const damaged = () => new UpstreamError("The offline snapshot holds a damaged map-unit polygon: rebuild it with 'npm run snapshot:build'.");

/** A stored blob as flat rings (the layout of geometry/rings.ts). */
export function flatRingsOf(bytes: Uint8Array): Float64Array {
  if (bytes[0] !== RING_TAG) {
    throw new UpstreamError(
      "The offline snapshot holds map-unit polygons in an older layout (raw coordinates): rebuild it with 'npm run snapshot:build', or import the Web Soil Survey downloads again into a new snapshot.",
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 1;
  const varint = () => {
    let v = 0;
    for (let mul = 1; ; mul *= 128) {
      const b = bytes[at++];
      if (b === undefined) throw damaged();
      v += (b & 127) * mul;
      if (b < 128) return v;
    }
  };
  const count = varint();
  const points = varint();
  if (count > bytes.length || points > MAX_POINTS) throw damaged();
  const out = new Float64Array(1 + count + 2 * points);
  out[0] = count;
  let k = 1;
  for (let r = 0; r < count; r++) {
    const n = varint();
    const flags = bytes[at++]!;
    const closed = (flags & CLOSED) !== 0;
    out[k++] = n + (closed ? 1 : 0);
    if (k + 2 * (n + (closed ? 1 : 0)) > out.length) throw damaged();
    const start = k;
    if ((flags & PACKED) === 0) {
      if (at + 16 * n > bytes.length) throw damaged();
      for (let i = 0; i < 2 * n; i++, at += 8) out[k++] = view.getFloat64(at, true);
    } else {
      at = unpackRing(bytes, view, out, k, n, at);
      k += 2 * n;
    }
    if (closed) {
      out[k++] = out[start]!;
      out[k++] = out[start + 1]!;
    }
  }
  if (k !== out.length) throw damaged();
  return out;
}

/** Encode a record's rings as the stored blob. */
export function encodeRings(rings: readonly Ring[]): Uint8Array {
  const out = new Writer();
  out.byte(RING_TAG);
  out.varint(rings.length);
  out.varint(rings.reduce((sum, r) => sum + r.length, 0));
  for (const ring of rings) writeRing(out, ring);
  return out.result();
}

export function decodeRings(blob: Uint8Array): number[][][] {
  return ringsOfFlat(flatRingsOf(blob));
}

/** Is the point in the stored record (geometry/rings.ts: even-odd, half-open edges)? */
export function pointInEncodedRings(blob: Uint8Array, px: number, py: number): boolean {
  return pointInFlatRings(flatRingsOf(blob), px, py);
}
