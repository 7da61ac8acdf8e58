/**
 * Large SoilGrids rasters read window by window at query time (docs/decisions.md#import): a tiled
 * GeoTIFF bigger than WINDOWED_CELLS is not copied cell by cell into the snapshot; the import stores where
 * each tile lies in the file (offsets and byte counts, from the geotiff library), and a point reads the one
 * tile holding it, synchronously: one read, one inflate, the horizontal predictor undone. Decoded tiles are
 * kept in a small LRU. Uncompressed and DEFLATE tiles of one 16-bit band are read this way (what
 * `gdalwarp -co TILED=YES -co COMPRESS=DEFLATE` writes); any other layout is copied whole at import.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { inflateSync } from "node:zlib";
import { Lru } from "../../lru";

/** Above this many cells a tiled raster is read in place (8 MB of 16-bit cells). */
export const WINDOWED_CELLS = 4_000_000;

/** Where a raster's tiles lie, as the snapshot stores it (JSON). */
export interface TileIndex {
  /** The file, absolute: it must stay there. */
  path: string;
  /** Its size at import: a changed file is refused rather than misread. */
  bytes: number;
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  offsets: number[];
  counts: number[];
  /** 1 none, 8 or 32946 DEFLATE. */
  compression: number;
  /** 1 none, 2 horizontal differencing. */
  predictor: number;
  littleEndian: boolean;
  signed: boolean;
}

interface TiffImage {
  isTiled: boolean;
  littleEndian: boolean;
  getWidth(): number;
  getHeight(): number;
  getTileWidth(): number;
  getTileHeight(): number;
  fileDirectory: { loadValue(tag: string): Promise<unknown> };
}

const number = (value: unknown, fallback: number) => (Array.isArray(value) || ArrayBuffer.isView(value) ? Number((value as ArrayLike<number>)[0]) : value === undefined ? fallback : Number(value));

/** The tile index of a raster that should be read in place, or null (small, striped, or a layout read whole). */
export async function tileIndexOf(image: TiffImage, path: string): Promise<TileIndex | null> {
  if (!image.isTiled || image.getWidth() * image.getHeight() <= WINDOWED_CELLS) return null;
  const dir = image.fileDirectory;
  const compression = number(await dir.loadValue("Compression"), 1);
  const predictor = number(await dir.loadValue("Predictor"), 1);
  const bits = number(await dir.loadValue("BitsPerSample"), 0);
  const samples = number(await dir.loadValue("SamplesPerPixel"), 1);
  const format = number(await dir.loadValue("SampleFormat"), 1);
  if (![1, 8, 32946].includes(compression) || ![1, 2].includes(predictor) || bits !== 16 || samples !== 1 || ![1, 2].includes(format)) return null;
  const offsets = Array.from(await dir.loadValue("TileOffsets") as ArrayLike<number>, Number);
  const counts = Array.from(await dir.loadValue("TileByteCounts") as ArrayLike<number>, Number);
  return {
    path,
    bytes: statSync(path).size,
    width: image.getWidth(),
    height: image.getHeight(),
    tileWidth: image.getTileWidth(),
    tileHeight: image.getTileHeight(),
    offsets,
    counts,
    compression,
    predictor,
    littleEndian: image.littleEndian,
    signed: format === 2,
  };
}

const tiles = new Lru<string, Uint16Array | Int16Array>(256, 64 * 1024 * 1024);

function readTile(index: TileIndex, at: number): Uint16Array | Int16Array {
  const key = `${index.path}\0${at}`;
  const kept = tiles.get(key);
  if (kept) return kept;
  if (statSync(index.path).size !== index.bytes) throw new Error(`${index.path} changed since it was imported; import it again`);
  const raw = Buffer.alloc(index.counts[at]!);
  const fd = openSync(index.path, "r");
  try {
    readSync(fd, raw, 0, raw.length, index.offsets[at]!);
  } finally {
    closeSync(fd);
  }
  const bytes = index.compression === 1 ? raw : inflateSync(raw);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = index.tileWidth * index.tileHeight;
  const cells = index.signed ? new Int16Array(n) : new Uint16Array(n);
  for (let i = 0; i < n; i++) cells[i] = index.signed ? view.getInt16(2 * i, index.littleEndian) : view.getUint16(2 * i, index.littleEndian);
  // Horizontal differencing: each sample after the first of a row is stored as the difference (mod 2^16).
  if (index.predictor === 2) {
    for (let row = 0; row < index.tileHeight; row++) {
      for (let col = 1; col < index.tileWidth; col++) cells[row * index.tileWidth + col]! += cells[row * index.tileWidth + col - 1]!;
    }
  }
  tiles.set(key, cells, cells.byteLength);
  return cells;
}

/** The cell at (column, row) of the raster, read from the file. */
export function windowCell(index: TileIndex, column: number, row: number): number {
  const across = Math.ceil(index.width / index.tileWidth);
  const tile = readTile(index, Math.floor(row / index.tileHeight) * across + Math.floor(column / index.tileWidth));
  return tile[(row % index.tileHeight) * index.tileWidth + (column % index.tileWidth)]!;
}
