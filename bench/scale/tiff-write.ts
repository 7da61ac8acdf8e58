/**
 * A minimal tiled GeoTIFF writer (one UInt16 band, EPSG:4326, DEFLATE tiles of 256 x 256, GDAL's
 * nodata tag) for the scale bench's generated SoilGrids layers: what `gdal_translate -co TILED=YES
 * -co COMPRESS=DEFLATE` makes of SoilGrids' VRTs, without the predictor.
 */
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const TILE = 256;

export interface GeoGrid {
  width: number;
  height: number;
  /** Top-left corner (lon, lat) and cell size (degrees). */
  origin: [number, number];
  cell: number;
  nodata: number;
  description: string;
  /** Row-major cells, top row first. */
  values: Uint16Array;
}

type Tag = { tag: number; type: 2 | 3 | 4 | 12; values: number[] | string };
const TYPE_BYTES = { 2: 1, 3: 2, 4: 4, 12: 8 } as const;

export function writeGeoTiff(path: string, grid: GeoGrid): void {
  const across = Math.ceil(grid.width / TILE);
  const down = Math.ceil(grid.height / TILE);
  const tiles: Uint8Array[] = [];
  for (let ty = 0; ty < down; ty++) {
    for (let tx = 0; tx < across; tx++) {
      const tile = new Uint16Array(TILE * TILE).fill(grid.nodata);
      for (let r = 0; r < TILE && ty * TILE + r < grid.height; r++) {
        const from = (ty * TILE + r) * grid.width + tx * TILE;
        tile.set(grid.values.subarray(from, from + Math.min(TILE, grid.width - tx * TILE)), r * TILE);
      }
      tiles.push(deflateSync(new Uint8Array(tile.buffer)));
    }
  }
  const geoKeys = [1, 1, 0, 3, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326];
  const tags: Tag[] = [
    { tag: 256, type: 4, values: [grid.width] },
    { tag: 257, type: 4, values: [grid.height] },
    { tag: 258, type: 3, values: [16] },
    { tag: 259, type: 3, values: [8] },
    { tag: 262, type: 3, values: [1] },
    { tag: 270, type: 2, values: `${grid.description}\0` },
    { tag: 277, type: 3, values: [1] },
    { tag: 284, type: 3, values: [1] },
    { tag: 322, type: 3, values: [TILE] },
    { tag: 323, type: 3, values: [TILE] },
    { tag: 324, type: 4, values: tiles.map(() => 0) },
    { tag: 325, type: 4, values: tiles.map((t) => t.length) },
    { tag: 339, type: 3, values: [1] },
    { tag: 33550, type: 12, values: [grid.cell, grid.cell, 0] },
    { tag: 33922, type: 12, values: [0, 0, 0, grid.origin[0], grid.origin[1], 0] },
    { tag: 34735, type: 3, values: geoKeys },
    { tag: 42113, type: 2, values: `${grid.nodata}\0` },
  ];
  const count = (t: Tag) => (typeof t.values === "string" ? t.values.length : t.values.length);
  const bytesOf = (t: Tag) => count(t) * TYPE_BYTES[t.type];
  const ifdBytes = 2 + tags.length * 12 + 4;
  let extra = 8 + ifdBytes;
  const extraAt = new Map<Tag, number>();
  for (const t of tags) {
    if (bytesOf(t) > 4) {
      extraAt.set(t, extra);
      extra += bytesOf(t) + (bytesOf(t) % 2);
    }
  }
  let dataAt = extra;
  const offsets = tiles.map((t) => ((dataAt += t.length), dataAt - t.length));
  tags.find((t) => t.tag === 324)!.values = offsets;
  const out = new DataView(new ArrayBuffer(dataAt));
  const bytes = new Uint8Array(out.buffer);
  bytes.set([0x49, 0x49], 0);
  out.setUint16(2, 42, true);
  out.setUint32(4, 8, true);
  out.setUint16(8, tags.length, true);
  const put = (t: Tag, at: number) => {
    if (typeof t.values === "string") return void bytes.set(new TextEncoder().encode(t.values), at);
    t.values.forEach((v, i) => {
      const p = at + i * TYPE_BYTES[t.type];
      if (t.type === 3) out.setUint16(p, v, true);
      else if (t.type === 4) out.setUint32(p, v, true);
      else out.setFloat64(p, v, true);
    });
  };
  tags.forEach((t, i) => {
    const at = 10 + i * 12;
    out.setUint16(at, t.tag, true);
    out.setUint16(at + 2, t.type, true);
    out.setUint32(at + 4, count(t), true);
    if (bytesOf(t) > 4) {
      out.setUint32(at + 8, extraAt.get(t)!, true);
      put(t, extraAt.get(t)!);
    } else put(t, at + 8);
  });
  out.setUint32(10 + tags.length * 12, 0, true);
  tiles.forEach((t, i) => bytes.set(t, offsets[i]!));
  writeFileSync(path, bytes);
}
