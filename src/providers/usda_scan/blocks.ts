/**
 * A SCAN series' values in the snapshot as blocks (docs/decisions.md#series-blocks): one row of
 * `usda_scan_block` per series and calendar month (UTC), its times, values and flags packed and
 * zstd-compressed. A window of time reads the months it spans, by the key (series, month). Before, a row
 * per value (series, time, value, flags) took about 25 bytes a value; hourly soil moisture blocks take
 * under 1 (docs/benchmarks.md, "State and national scale").
 *
 * A block, before compression, is a run of unsigned varints (signed ones zigzagged):
 *   count, first time (s, signed), step (s; 0: the times follow as count - 1 differences), decimals
 *   (d: each value is an integer over 10^d, exactly; FLOAT64: the values are 8-byte doubles instead),
 *   [time differences], values (the integers' differences, signed; or the doubles), the distinct flags
 *   (their number, then each as its length and UTF-8 bytes), the flags as runs (length, flag's index).
 * Every value reads back as the same double: d is the fewest decimals for which k / 10^d gives back
 * every value of the month (a division of two exact integers rounds to the double the decimal names).
 */
import type { Database, Statement } from "bun:sqlite";

export const BLOCK_TABLE = "usda_scan_block";
/** What `decimals` says when a month's values are stored as doubles (some value has more than 9 decimals). */
const FLOAT64 = 255;
const MAX_DECIMALS = 9;
/** zstd's level: the blocks are small (a month of hours, about 2 KB packed); reading is as fast at any level. */
const ZSTD_LEVEL = 9;

/** One value of a series: its time (seconds since 1970, UTC), value and flags as the file wrote them. */
export interface BlockValue {
  t: number;
  value: number;
  flags: string;
}

export function createBlockTable(db: Database): void {
  db.run(`CREATE TABLE IF NOT EXISTS ${BLOCK_TABLE} (series_id INTEGER NOT NULL, month INTEGER NOT NULL, cells BLOB NOT NULL, PRIMARY KEY (series_id, month))`);
}

/** Months since year 0 of a time in seconds (UTC): a block's key. */
export const monthOf = (t: number) => {
  const d = new Date(t * 1000);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
};

class Writer {
  private bytes = new Uint8Array(4096);
  private length = 0;

  unsigned(n: number): void {
    this.room(10);
    // Arithmetic, not bit operators: times and scaled values may pass 2^31.
    while (n >= 128) {
      this.bytes[this.length++] = (n % 128) + 128;
      n = Math.floor(n / 128);
    }
    this.bytes[this.length++] = n;
  }

  signed(n: number): void {
    this.unsigned(n >= 0 ? 2 * n : -2 * n - 1);
  }

  raw(chunk: Uint8Array): void {
    this.room(chunk.byteLength);
    this.bytes.set(chunk, this.length);
    this.length += chunk.byteLength;
  }

  done(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }

  private room(n: number): void {
    if (this.length + n <= this.bytes.byteLength) return;
    const grown = new Uint8Array(Math.max(2 * this.bytes.byteLength, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}

class Reader {
  private at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  unsigned(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      const byte = this.bytes[this.at++];
      if (byte === undefined) throw new Error(`${BLOCK_TABLE}: a block ends early; import the series again`);
      n += (byte % 128) * scale;
      if (byte < 128) return n;
      scale *= 128;
    }
  }

  signed(): number {
    const z = this.unsigned();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }

  raw(n: number): Uint8Array {
    this.at += n;
    return this.bytes.subarray(this.at - n, this.at);
  }
}

/** Integers up to 2^50: their differences and the varints of those stay exact doubles. */
const LARGEST = 2 ** 50;

/** The fewest decimals that give back every value exactly as an integer over 10^d; null when none up to 9 does. */
function decimalsOf(values: readonly BlockValue[]): number | null {
  for (let d = 0; d <= MAX_DECIMALS; d++) {
    const scale = 10 ** d;
    const exact = ({ value }: BlockValue) => Math.abs(value * scale) <= LARGEST && Math.round(value * scale) / scale === value;
    if (values.every(exact)) return d;
  }
  return null;
}

/** One month's values (in time order, times distinct), packed and compressed. */
export function encodeBlock(values: readonly BlockValue[]): Uint8Array {
  const out = new Writer();
  const first = values[0]!.t;
  const step = values.length > 1 ? values[1]!.t - first : 0;
  const regular = step > 0 && values.every((v, i) => v.t === first + i * step);
  const decimals = decimalsOf(values);
  out.unsigned(values.length);
  out.signed(first);
  out.unsigned(regular ? step : 0);
  out.unsigned(decimals ?? FLOAT64);
  if (!regular) for (let i = 1; i < values.length; i++) out.unsigned(values[i]!.t - values[i - 1]!.t);
  if (decimals === null) {
    out.raw(new Uint8Array(Float64Array.from(values, (v) => v.value).buffer));
  } else {
    let last = 0;
    for (const { value } of values) {
      const k = Math.round(value * 10 ** decimals);
      out.signed(k - last);
      last = k;
    }
  }
  const distinct = [...new Set(values.map((v) => v.flags))];
  out.unsigned(distinct.length);
  for (const flags of distinct) {
    const utf8 = new TextEncoder().encode(flags);
    out.unsigned(utf8.byteLength);
    out.raw(utf8);
  }
  const index = new Map(distinct.map((f, i) => [f, i]));
  for (let i = 0; i < values.length; ) {
    let run = 1;
    while (i + run < values.length && values[i + run]!.flags === values[i]!.flags) run++;
    out.unsigned(run);
    out.unsigned(index.get(values[i]!.flags)!);
    i += run;
  }
  return Bun.zstdCompressSync(out.done(), { level: ZSTD_LEVEL });
}

/** A block's values, in time order, as encodeBlock was given them. */
export function decodeBlock(cells: Uint8Array): BlockValue[] {
  const input = new Reader(Bun.zstdDecompressSync(cells));
  const count = input.unsigned();
  const first = input.signed();
  const step = input.unsigned();
  const decimals = input.unsigned();
  const times = new Array<number>(count);
  times[0] = first;
  for (let i = 1; i < count; i++) times[i] = step > 0 ? first + i * step : times[i - 1]! + input.unsigned();
  let values: number[];
  if (decimals === FLOAT64) {
    // A copy at offset 0 (a Buffer's slice is a view: the doubles may sit at any offset).
    values = Array.from(new Float64Array(new Uint8Array(input.raw(8 * count)).buffer));
  } else {
    const scale = 10 ** decimals;
    values = new Array<number>(count);
    let k = 0;
    for (let i = 0; i < count; i++) {
      k += input.signed();
      values[i] = k / scale;
    }
  }
  const distinct = Array.from({ length: input.unsigned() }, () => new TextDecoder().decode(input.raw(input.unsigned())));
  const out: BlockValue[] = [];
  while (out.length < count) {
    const run = input.unsigned();
    const flags = distinct[input.unsigned()]!;
    for (let k = 0; k < run; k++) out.push({ t: times[out.length]!, value: values[out.length]!, flags });
  }
  return out;
}

/**
 * Store a series' values (ISMN's order: a time written twice keeps its first value, as the row per
 * value's primary key did), one block per calendar month.
 */
export function storeBlocks(db: Database, seriesId: number, values: readonly BlockValue[]): void {
  const byTime = new Map<number, BlockValue>();
  for (const v of values) if (!byTime.has(v.t)) byTime.set(v.t, v);
  const ordered = [...byTime.values()].sort((a, b) => a.t - b.t);
  const insert = db.prepare(`INSERT INTO ${BLOCK_TABLE} (series_id, month, cells) VALUES (?, ?, ?)`);
  db.transaction(() => {
    for (let i = 0; i < ordered.length; ) {
      const month = monthOf(ordered[i]!.t);
      let end = i + 1;
      while (end < ordered.length && monthOf(ordered[end]!.t) === month) end++;
      insert.run(seriesId, month, encodeBlock(ordered.slice(i, end)));
      i = end;
    }
  })();
  insert.finalize();
}

/** The reader of a snapshot's blocks: a series' values from `from` to before `to` (seconds), in time order. */
export function blockReader(db: Database): (seriesId: number, from: number, to: number) => BlockValue[] {
  const months: Statement<{ cells: Uint8Array }, [number, number, number]> = db.query(`SELECT cells FROM ${BLOCK_TABLE} WHERE series_id = ? AND month BETWEEN ? AND ? ORDER BY month`);
  return (seriesId, from, to) => {
    if (!(to > from)) return [];
    // A window past the dates a Date holds reads every month of the series: still only what it holds.
    const [first, last] = [monthOf(Math.max(from, -8.64e12)), monthOf(Math.min(to - 1, 8.64e12))];
    return months.all(seriesId, first, last).flatMap((row) => decodeBlock(row.cells).filter((v) => v.t >= from && v.t < to));
  };
}
