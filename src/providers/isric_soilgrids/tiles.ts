/**
 * A stored raster's cells by tile (docs/decisions.md#raster-tiles): a clip larger than one tile is
 * stored as TILE_SIDE x TILE_SIDE blocks, one row each, so a point reads the one block holding it
 * instead of the whole raster, and the blocks read are kept in an LRU bounded in bytes. What serving
 * holds of the rasters is then that bound, whatever their size (before, every layer read was held whole:
 * 133 MB at a 2-degree region, docs/benchmarks.md "State and national scale").
 */
import type { Database, Statement } from "bun:sqlite";
import { Lru } from "../../lru";
import { SOILGRIDS_ID } from "./catalog";

export const TILE_TABLE = `${SOILGRIDS_ID}_tile`;
/** 128 x 128 16-bit cells: 32 KB a block, what a point reads per layer. */
export const TILE_SIDE = 128;
/** What serving keeps of the blocks read, per opened snapshot (a point of 24 layers x 3 statistics reads 72 blocks: 2.3 MB). */
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
      insert.run(clip.layer, clip.depth, clip.statistic, ty * across(clip) + tx, new Uint8Array(block.buffer));
    }
  }
}

/** The blocks of one opened snapshot, read on demand and kept up to `maxBytes`. */
export class StoredTiles {
  private readonly kept: Lru<string, Cells>;
  private readonly read: Statement<{ cells: Uint8Array }, [string, string, string, number]>;

  constructor(db: Database, maxBytes = RASTER_CACHE_BYTES) {
    this.kept = new Lru(Math.ceil(maxBytes / 1024), maxBytes);
    this.read = db.query(`SELECT cells FROM ${TILE_TABLE} WHERE layer = ? AND depth = ? AND statistic = ? AND tile = ?`);
  }

  /** The cell at (column, row) of the clip (inside it: the caller checked). */
  cell(clip: TiledClip, column: number, row: number): number {
    const tile = Math.floor(row / TILE_SIDE) * across(clip) + Math.floor(column / TILE_SIDE);
    const width = Math.min(TILE_SIDE, clip.width - Math.floor(column / TILE_SIDE) * TILE_SIDE);
    return this.block(clip, tile)[(row % TILE_SIDE) * width + (column % TILE_SIDE)]!;
  }

  /** The bytes held now (never above the bound). */
  get bytes(): number {
    return this.kept.weight;
  }

  private block(clip: TiledClip, tile: number): Cells {
    const key = `${clip.layer}\0${clip.depth}\0${clip.statistic}\0${tile}`;
    const held = this.kept.get(key);
    if (held) return held;
    const row = this.read.get(clip.layer, clip.depth, clip.statistic, tile);
    if (!row) throw new Error(`${TILE_TABLE}: block ${tile} of ${clip.layer} ${clip.depth} ${clip.statistic} is missing; import the raster again`);
    // A view of the row's own bytes when aligned (a copy otherwise).
    const blob = row.cells;
    const bytes = blob.byteOffset % 2 === 0 ? blob : blob.slice();
    const cells = clip.values instanceof Int16Array ? new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2) : new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
    this.kept.set(key, cells, cells.byteLength);
    return cells;
  }
}
