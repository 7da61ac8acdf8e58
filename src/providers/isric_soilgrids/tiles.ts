/**
 * A stored raster's cells by tile (docs/decisions.md#raster-tiles): a clip larger than one tile is
 * stored as TILE_SIDE x TILE_SIDE blocks, one row each, so a point reads the one block holding it
 * instead of the whole raster, and the parts read are kept decoded in an LRU bounded in bytes. What
 * serving holds of the rasters is then that bound, whatever their size (before, every layer read was
 * held whole: 133 MB at a 2-degree region, docs/benchmarks.md "State and national scale").
 * A block is stored compressed, as PART_SIDE x PART_SIDE parts each compressed on its own (its rows
 * differenced as GeoTIFF's PREDICTOR=2 does, then zstd, Bun's own), so a point decompresses one part.
 */
import type { Database, Statement } from "bun:sqlite";
import { UpstreamError } from "../../errors";
import { Lru } from "../../lru";
import { SOILGRIDS_ID } from "./catalog";

export const TILE_TABLE = `${SOILGRIDS_ID}_tile`;
/** 128 x 128 cells a block: one row of the tile table (a smaller row wastes the rest of its page). */
export const TILE_SIDE = 128;
/**
 * 64 x 64 cells a part: what a point decompresses per layer, 8 KB decoded (about 12 us). A whole
 * 128 x 128 block took 21 to 35 us, 1.7 ms more than raw for a modeled point's 72 layers cold; 64 x 64
 * parts 0.7 ms more, strips of 16 rows 0.5 ms but 10 points more of the bytes (docs/decisions.md#raster-tiles).
 */
export const PART_SIDE = 64;
/** zstd's level for the blocks: 19 saves 4 % more and takes 8 times as long to import; reading is as fast. */
const ZSTD_LEVEL = 9;
/** What serving keeps of the parts read, decoded, per opened snapshot (a point of 24 layers x 3 statistics reads 72 parts: 0.6 MB). */
export const RASTER_CACHE_BYTES = 16 * 1024 * 1024;

type Cells = Uint16Array | Int16Array;

/** The clip's key and shape, as a block is found by; `values` says the sample type (Int16 or UInt16), empty when served. */
export interface TiledClip {
  layer: string;
  depth: string;
  statistic: string;
  width: number;
  height: number;
  values: Cells;
}

export function createTileTable(db: Database): void {
  db.run(`CREATE TABLE IF NOT EXISTS ${TILE_TABLE} (layer TEXT NOT NULL, depth TEXT NOT NULL, statistic TEXT NOT NULL, tile INTEGER NOT NULL, cells BLOB NOT NULL, PRIMARY KEY (layer, depth, statistic, tile))`);
}

/** Whether a raster of this size is stored by tile (more cells than one block). */
export const storedByTile = (width: number, height: number) => width * height > TILE_SIDE * TILE_SIDE;

const across = (clip: { width: number }) => Math.ceil(clip.width / TILE_SIDE);

/** Replace the clip's blocks with the blocks of `values` (row-major, width x height); edge blocks are cut short. */
export function storeTiles(db: Database, clip: TiledClip): void {
  const values = clip.values;
  db.query(`DELETE FROM ${TILE_TABLE} WHERE layer = ? AND depth = ? AND statistic = ?`).run(clip.layer, clip.depth, clip.statistic);
  const insert = db.query(`INSERT INTO ${TILE_TABLE} VALUES (?, ?, ?, ?, ?)`);
  const down = Math.ceil(clip.height / TILE_SIDE);
  for (let ty = 0; ty < down; ty++) {
    for (let tx = 0; tx < across(clip); tx++) {
      const w = Math.min(TILE_SIDE, clip.width - tx * TILE_SIDE);
      const h = Math.min(TILE_SIDE, clip.height - ty * TILE_SIDE);
      const block = new (values.constructor as Uint16ArrayConstructor)(w * h);
      for (let r = 0; r < h; r++) block.set(values.subarray((ty * TILE_SIDE + r) * clip.width + tx * TILE_SIDE, (ty * TILE_SIDE + r) * clip.width + tx * TILE_SIDE + w), r * w);
      insert.run(clip.layer, clip.depth, clip.statistic, ty * across(clip) + tx, encodeBlock(block, w));
    }
  }
}

/** A width x height block cut into PART_SIDE parts, row by row: part `part`'s origin and size. */
function partOf(width: number, height: number, part: number): { x: number; y: number; w: number; h: number } {
  const across = Math.ceil(width / PART_SIDE);
  const [x, y] = [(part % across) * PART_SIDE, Math.floor(part / across) * PART_SIDE];
  return { x, y, w: Math.min(PART_SIDE, width - x), h: Math.min(PART_SIDE, height - y) };
}

/**
 * A block's cells as stored: a table of each part's start offset (UInt32, little-endian; the first
 * says the table's length), then the parts, row by row of parts. A part is its cells row by row, each
 * cell after a row's first replaced by its difference to the cell before (modulo 2^16, the same for
 * Int16 and UInt16 bits: GeoTIFF's horizontal predictor), zstd-compressed.
 */
function encodeBlock(block: Cells, width: number): Uint8Array {
  const height = block.length / width;
  const bits = new Uint16Array(block.buffer, block.byteOffset, block.length);
  const parts = Math.ceil(width / PART_SIDE) * Math.ceil(height / PART_SIDE);
  const frames: Uint8Array[] = [];
  for (let part = 0; part < parts; part++) {
    const { x, y, w, h } = partOf(width, height, part);
    const differenced = new Uint16Array(w * h);
    for (let r = 0; r < h; r++) {
      const at = (y + r) * width + x;
      differenced[r * w] = bits[at]!;
      for (let c = 1; c < w; c++) differenced[r * w + c] = bits[at + c]! - bits[at + c - 1]!;
    }
    frames.push(Bun.zstdCompressSync(new Uint8Array(differenced.buffer), { level: ZSTD_LEVEL }));
  }
  const out = new Uint8Array(4 * parts + frames.reduce((n, f) => n + f.byteLength, 0));
  const table = new DataView(out.buffer);
  let start = 4 * parts;
  frames.forEach((frame, part) => {
    table.setUint32(4 * part, start, true);
    out.set(frame, start);
    start += frame.byteLength;
  });
  return out;
}

/** What every zstd frame starts with (RFC 8878), little-endian. */
const ZSTD_MAGIC = 0xfd2fb528;

/**
 * Part `part` of `parts` of a stored block (encodeBlock undone for it): `w` cells a row, of the clip's
 * sample type; null when the blob is not such a block (raw cells of a snapshot of layout 4).
 */
function decodePart(blob: Uint8Array, parts: number, part: number, w: number, signed: boolean): Cells | null {
  const table = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  if (blob.byteLength < 4 * parts + 4 || table.getUint32(0, true) !== 4 * parts) return null;
  const start = table.getUint32(4 * part, true);
  const end = part + 1 < parts ? table.getUint32(4 * (part + 1), true) : blob.byteLength;
  if (start + 4 > end || end > blob.byteLength || table.getUint32(start, true) !== ZSTD_MAGIC) return null;
  const bytes = Bun.zstdDecompressSync(blob.subarray(start, end));
  // A copy at offset 0 when odd (a Buffer's slice is a view, not a copy).
  const aligned = bytes.byteOffset % 2 === 0 ? bytes : new Uint8Array(bytes);
  const bits = new Uint16Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 2);
  for (let row = 0; row < bits.length; row += w) {
    let cell = bits[row]!;
    for (let i = row + 1, last = row + w; i < last; i++) bits[i] = cell = (cell + bits[i]!) & 0xffff;
  }
  return signed ? new Int16Array(bits.buffer, bits.byteOffset, bits.length) : bits;
}

/** The blocks of one opened snapshot, read on demand, their parts kept decoded up to `maxBytes`. */
export class StoredTiles {
  private readonly kept: Lru<string, Cells>;
  private readonly read: Statement<{ cells: Uint8Array }, [string, string, string, number]>;

  constructor(db: Database, maxBytes = RASTER_CACHE_BYTES) {
    this.kept = new Lru(Math.ceil(maxBytes / 1024), maxBytes);
    this.read = db.query(`SELECT cells FROM ${TILE_TABLE} WHERE layer = ? AND depth = ? AND statistic = ? AND tile = ?`);
  }

  /** The cell at (column, row) of the clip (inside it: the caller checked). */
  cell(clip: TiledClip, column: number, row: number): number {
    const [tx, ty] = [Math.floor(column / TILE_SIDE), Math.floor(row / TILE_SIDE)];
    const blockWidth = Math.min(TILE_SIDE, clip.width - tx * TILE_SIDE);
    const blockHeight = Math.min(TILE_SIDE, clip.height - ty * TILE_SIDE);
    const [c, r] = [column % TILE_SIDE, row % TILE_SIDE];
    const part = Math.floor(r / PART_SIDE) * Math.ceil(blockWidth / PART_SIDE) + Math.floor(c / PART_SIDE);
    const { w } = partOf(blockWidth, blockHeight, part);
    const parts = Math.ceil(blockWidth / PART_SIDE) * Math.ceil(blockHeight / PART_SIDE);
    return this.part(clip, ty * across(clip) + tx, parts, part, w)[(r % PART_SIDE) * w + (c % PART_SIDE)]!;
  }

  /** The bytes held now (never above the bound). */
  get bytes(): number {
    return this.kept.weight;
  }

  private part(clip: TiledClip, tile: number, parts: number, part: number, w: number): Cells {
    const key = `${clip.layer}\0${clip.depth}\0${clip.statistic}\0${tile}\0${part}`;
    const held = this.kept.get(key);
    if (held) return held;
    const row = this.read.get(clip.layer, clip.depth, clip.statistic, tile);
    if (!row) throw new Error(`${TILE_TABLE}: block ${tile} of ${clip.layer} ${clip.depth} ${clip.statistic} is missing; import the raster again`);
    const cells = decodePart(row.cells, parts, part, w, clip.values instanceof Int16Array);
    if (!cells) throw new UpstreamError("The offline snapshot holds SoilGrids rasters in an older layout (uncompressed blocks): rebuild it with 'npm run snapshot:build', or import the GeoTIFFs again into a new snapshot.", SOILGRIDS_ID);
    this.kept.set(key, cells, cells.byteLength);
    return cells;
  }
}
