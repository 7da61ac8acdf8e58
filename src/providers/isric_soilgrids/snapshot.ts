/**
 * The offline SoilGrids clips (docs/decisions.md#isric-soilgrids): the snapshot step reads every
 * `soilgrids/raster/<layer>_<depth>_<statistic>.tif` of the data directory with the geotiff library
 * (UInt16, DEFLATE with PREDICTOR=2, EPSG:4326) into `isric_soilgrids_clip`, one row per file with its
 * grid and its cells as a blob, or, larger than one tile, with its cells by tile in `isric_soilgrids_tile`
 * (./tiles.ts, compressed); the readers answer a point (the cell containing it, per clip) and the whole grid of each
 * small clip. Only validated numbers reach SQL.
 */
import type { Database } from "bun:sqlite";
import { existsSync, readdirSync, statSync } from "node:fs";
import { contentHash } from "../file-hash";
import { basename, join, resolve } from "node:path";
import { tileIndexOf, windowCell, type TileIndex } from "./window";
import { createTileTable, storedByTile, StoredTiles, storeTiles, TILE_TABLE } from "./tiles";
import type { ImportFormat, SnapshotStep } from "../provider";
import type { DatasetInfo } from "../../upstream/snapshot-schema";
import { Payload, type SnapshotForm } from "../../upstream/transport";
import { sqliteTextOrder } from "../../upstream/sda/rows";
import type { ClipCell, ClipFacts, ClipPayload } from "./answer";
import { layerNamed, type SoilGridsLayer } from "./layers";
import { SOILGRIDS_ID } from "./catalog";

const TABLE = `${SOILGRIDS_ID}_clip`;
const FOLDER = "soilgrids/raster";
const FILE_NAME = /^([a-z0-9]+)_(\d+-\d+cm)_(mean|Q0\.05|Q0\.5|Q0\.95|uncertainty)\.tif$/;
/** Where the offline clips were cut (the data folder's README: the package's test area), their dataset's id and name. */
const CLIP_PLACE = { id: "sierra_de_neiba", name: "Sierra de Neiba, Dominican Republic" };

type Box = [number, number, number, number];

/** A clip's extent [w, s, e, n]: from its top-left origin, cell size and size in cells. */
function clipBox(c: Clip): Box {
  return [c.originLon, c.originLat - c.cellH * c.height, c.originLon + c.cellW * c.width, c.originLat];
}

function unionBox(boxes: Box[]): Box | null {
  if (boxes.length === 0) return null;
  return boxes.reduce((a, b) => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])]);
}

/** One clip as the readers hold it. */
export interface Clip {
  file: string;
  band: string;
  layer: string;
  depth: string;
  statistic: string;
  crs: string;
  originLon: number;
  originLat: number;
  cellW: number;
  cellH: number;
  width: number;
  height: number;
  nodata: number;
  /** UInt16 (the repository's clips) or Int16 (SoilGrids' own VRTs, NoData -32768), as the file stores them; empty when read in place or by tile. */
  values: Uint16Array | Int16Array;
  /** Where a clip stored by tile is read from (./tiles.ts), instead of `values`. */
  stored?: StoredTiles;
  /** A large tiled raster read window by window from its file at query time (./window.ts), instead of `values`. */
  window?: TileIndex;
}

/** The command that converts a raster to what Loam reads, keeping SoilGrids' file name (docs/your-region.md). */
export function warpCommand(file: string): string {
  return `gdalwarp -t_srs EPSG:4326 -co TILED=YES -co COMPRESS=DEFLATE ${file} 4326/${file}`;
}

async function readClip(path: string, file: string, match: RegExpExecArray): Promise<{ clip: Clip; sha256: string }> {
  // Loaded by the snapshot build only: serving reads the stored cells, and the library costs ~20 ms at every start.
  const { fromFile } = await import("geotiff");
  const tiff = await fromFile(path);
  const image = await tiff.getImage();
  const [originLon, originLat] = image.getOrigin() as [number, number];
  const [cellW, cellH] = image.getResolution() as [number, number];
  const keys = image.getGeoKeys() ?? {};
  const epsg = keys.GeographicTypeGeoKey;
  // A projected raster (SoilGrids' own VRTs are Interrupted Goode Homolosine) has a ProjectedCSTypeGeoKey.
  if (epsg !== 4326 || keys.ProjectedCSTypeGeoKey !== undefined) {
    const crs = keys.ProjectedCSTypeGeoKey !== undefined ? `projected CRS ${String(keys.ProjectedCSTypeGeoKey)}` : `geographic CRS ${String(epsg)}`;
    throw new Error(`${file} is in ${crs}, not EPSG:4326; convert it first: ${warpCommand(file)}`);
  }
  const window = await tileIndexOf(image as unknown as Parameters<typeof tileIndexOf>[0], resolve(path));
  const [band] = window ? [window.signed ? new Int16Array(0) : new Uint16Array(0)] : ((await image.readRasters()) as unknown as (Uint16Array | Int16Array)[]);
  if (!(band instanceof Uint16Array || band instanceof Int16Array)) throw new Error(`${file}: not a UInt16 or Int16 band (SoilGrids' VRTs are Int16)`);
  const nodata = image.getGDALNoData();
  const description = (image.fileDirectory as { ImageDescription?: string }).ImageDescription;
  return {
    sha256: contentHash(path),
    clip: {
      file,
      band: typeof description === "string" && description ? description : file.replace(/\.tif$/, ""),
      layer: match[1]!,
      depth: match[2]!,
      statistic: match[3]!,
      crs: "EPSG:4326",
      originLon,
      originLat,
      cellW,
      cellH: Math.abs(cellH),
      width: image.getWidth(),
      height: image.getHeight(),
      nodata: nodata ?? (band instanceof Int16Array ? -32768 : 65535),
      values: band,
      ...(window ? { window } : {}),
    },
  };
}

function createTable(db: Database): void {
  db.run(
    `CREATE TABLE IF NOT EXISTS ${TABLE} (layer TEXT NOT NULL, depth TEXT NOT NULL, statistic TEXT NOT NULL, file TEXT NOT NULL, band TEXT NOT NULL, sha256 TEXT NOT NULL, crs TEXT NOT NULL, ` +
      "origin_lon REAL NOT NULL, origin_lat REAL NOT NULL, cell_w REAL NOT NULL, cell_h REAL NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL, nodata INTEGER NOT NULL, cells BLOB NOT NULL, " +
      "dataset TEXT NOT NULL, sample TEXT NOT NULL, window TEXT, PRIMARY KEY (layer, depth, statistic))",
  );
  createTileTable(db);
}

/** The cells the clip's row holds: all of a small clip's; none of one read in place or stored by tile (its tiles are written here). */
function rowCells(db: Database, c: Clip): Uint8Array {
  db.query(`DELETE FROM ${TILE_TABLE} WHERE layer = ? AND depth = ? AND statistic = ?`).run(c.layer, c.depth, c.statistic);
  if (c.window) return new Uint8Array(0);
  if (!storedByTile(c.width, c.height)) return new Uint8Array(c.values.buffer, c.values.byteOffset, c.values.byteLength);
  storeTiles(db, c);
  return new Uint8Array(0);
}

/** Store the clips (each replaces the clip of its layer, depth and statistic held), as part of dataset `dataset`. */
async function storeClips(db: Database, paths: readonly string[], dataset: string, log: (line: string) => void): Promise<Box[]> {
  const boxes: Box[] = [];
  const insert = db.query(`INSERT OR REPLACE INTO ${TABLE} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const path of paths) {
    const file = basename(path);
    const { clip: c, sha256 } = await readClip(path, file, FILE_NAME.exec(file)!);
    insert.run(c.layer, c.depth, c.statistic, c.file, c.band, sha256, c.crs, c.originLon, c.originLat, c.cellW, c.cellH, c.width, c.height, c.nodata, rowCells(db, c), dataset, c.values instanceof Int16Array ? "int16" : "uint16", c.window ? JSON.stringify(c.window) : null);
    log(`${SOILGRIDS_ID}: ${file} (${c.width} x ${c.height}${c.window ? `, read in place from ${c.window.path} at query time: keep it there` : ""})`);
    boxes.push(clipBox(c));
  }
  return boxes;
}

/** The datasets the clip table holds now (one per import place), replacing the ones listed before: a clip replaced by a newer one leaves no stale entry. */
function clipDatasets(db: Database): DatasetInfo[] {
  db.query("DELETE FROM snapshot_info WHERE key LIKE ?").run(`dataset:${SOILGRIDS_ID}:%`);
  const groups = new Map<string, Clip[]>();
  const rows = db.query<{ dataset: string }, []>(`SELECT dataset FROM ${TABLE} ORDER BY layer, depth, statistic`).all();
  clipsOf(db, true).forEach((clip, i) => groups.set(rows[i]!.dataset, [...(groups.get(rows[i]!.dataset) ?? []), clip]));
  const importedAt = new Date().toISOString();
  return [...groups].map(([id, clips]) => {
    const place = id === CLIP_PLACE.id ? CLIP_PLACE.name : `imported, ${id}`;
    const label = `SoilGrids 2.0 clips (${clips.length}: ${clips.map((c) => c.file.replace(/\.tif$/, "")).join(", ")}; ${place})`;
    return { kind: SOILGRIDS_ID, id, label, vintage: null, source: id === CLIP_PLACE.id ? FOLDER : "loam import", rows: { [TABLE]: clips.length }, importedAt, bbox: unionBox(clips.map(clipBox)) };
  });
}

const isClipName = (file: string) => {
  const match = FILE_NAME.exec(file);
  return match !== null && layerNamed(match[1]!) !== undefined;
};

export const SOILGRIDS_FORMATS: readonly ImportFormat[] = [
  {
    name: "SoilGrids GeoTIFF",
    description: "GeoTIFFs named <property>_<depth>_<statistic>.tif (clay_0-5cm_mean.tif) in EPSG:4326, as gdal_translate/gdalwarp make from SoilGrids' VRTs; another CRS is refused with the gdalwarp command that converts it",
  },
];

export const SOILGRIDS_SNAPSHOT: SnapshotStep = {
  // 2: the clips' dataset is named by their place and states their extent; 3: each clip names the dataset it came with.
  // 4: a clip larger than one tile is stored by tile (serving holds a bounded cache of them, not every raster).
  // 5: the blocks are stored compressed (differenced rows, zstd: ./tiles.ts).
  layout: "5",
  create: createTable,
  async import(db: Database, dataDir: string, log: (line: string) => void) {
    createTable(db);
    const folder = join(dataDir, FOLDER);
    if (!existsSync(folder)) return { datasets: [], warnings: [`${SOILGRIDS_ID}: no ${FOLDER} in the data directory; the snapshot holds no SoilGrids clip.`] };
    const files = readdirSync(folder).filter((f) => f.endsWith(".tif")).sort();
    const warnings = files.filter((f) => !isClipName(f)).map((f) => `${SOILGRIDS_ID}: ${f} is not named <layer>_<depth>_<statistic>.tif of a SoilGrids layer; skipped.`);
    await storeClips(db, files.filter(isClipName).map((f) => join(folder, f)), CLIP_PLACE.id, log);
    return { datasets: clipDatasets(db), warnings };
  },
  formats: SOILGRIDS_FORMATS,
  formatOf: (path) => (existsSync(path) && statSync(path).isFile() && isClipName(basename(path)) ? SOILGRIDS_FORMATS[0]!.name : null),
  async importFiles(db, paths, { log }) {
    createTable(db);
    // The clips of one import are one place, named by the box they cover.
    const pending = "(importing)";
    const box = unionBox(await storeClips(db, paths, pending, log))!;
    const place = `lon ${box[0].toFixed(3)} to ${box[2].toFixed(3)}, lat ${box[1].toFixed(3)} to ${box[3].toFixed(3)}`;
    db.query(`UPDATE ${TABLE} SET dataset = ? WHERE dataset = ?`).run(place, pending);
    return { datasets: clipDatasets(db), warnings: [] };
  },
};

const loaded = new WeakMap<Database, Clip[]>();

/** The clips of an opened snapshot, read once (none in a snapshot built without them). */
export function clipsOf(db: Database, fresh = false): Clip[] {
  const kept = loaded.get(db);
  if (kept && !fresh) return kept;
  const exists = db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?").get(TABLE);
  const rows = exists && exists.n > 0
    ? db.query<Record<string, unknown>, []>(`SELECT * FROM ${TABLE} ORDER BY layer, depth, statistic`).all()
    : [];
  const stored = new StoredTiles(db);
  const clips = rows.map((r) => {
    const blob = r.cells as Uint8Array;
    // A view of the row's own bytes when aligned: a copy doubled the memory while a 2-degree region loads (docs/benchmarks.md, "State and national scale").
    const aligned = blob.byteOffset % 2 === 0;
    const bytes = aligned ? blob.buffer : blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength);
    const [offset, length] = aligned ? [blob.byteOffset, blob.byteLength / 2] : [0, blob.byteLength / 2];
    const values = r.sample === "int16" ? new Int16Array(bytes, offset, length) : new Uint16Array(bytes, offset, length);
    return {
      file: String(r.file), band: String(r.band), layer: String(r.layer), depth: String(r.depth), statistic: String(r.statistic), crs: String(r.crs),
      originLon: Number(r.origin_lon), originLat: Number(r.origin_lat), cellW: Number(r.cell_w), cellH: Number(r.cell_h),
      width: Number(r.width), height: Number(r.height), nodata: Number(r.nodata), values,
      ...(typeof r.window === "string" ? { window: JSON.parse(r.window) as TileIndex } : {}),
      // An empty row of a clip not read in place: its cells are stored by tile.
      ...(typeof r.window !== "string" && blob.byteLength === 0 ? { stored } : {}),
    };
  });
  loaded.set(db, clips);
  return clips;
}


/** The clip's cell containing the point, or null outside it (a point on the east or south edge belongs to no cell). */
export function cellOf(clip: Clip, longitude: number, latitude: number): ClipCell | null {
  const column = Math.floor((longitude - clip.originLon) / clip.cellW);
  const row = Math.floor((clip.originLat - latitude) / clip.cellH);
  if (column < 0 || row < 0 || column >= clip.width || row >= clip.height) return null;
  return {
    file: clip.file, band: clip.band, layer: clip.layer, depth: clip.depth, statistic: clip.statistic, crs: clip.crs,
    origin: [clip.originLon, clip.originLat], cell_size: [clip.cellW, clip.cellH], width: clip.width, height: clip.height, nodata: clip.nodata,
    pixel: { column, row },
    cell_center: [clip.originLon + (column + 0.5) * clip.cellW, clip.originLat - (row + 0.5) * clip.cellH],
    value: clip.window ? windowCell(clip.window, column, row) : clip.stored ? clip.stored.cell(clip, column, row) : clip.values[row * clip.width + column]!,
  };
}

// ---- a national mirror: several files' clips as one file's (docs/decisions.md#national-mirror) --------------

type ClipKey = { layer: string; depth: string; statistic: string };
/** Clips in the order one file lists them: ORDER BY layer, depth, statistic (SQLite's text order); a stable sort keeps file order within a key. */
const byClip = (a: ClipKey, b: ClipKey) => sqliteTextOrder(a.layer, b.layer) || sqliteTextOrder(a.depth, b.depth) || sqliteTextOrder(a.statistic, b.statistic);

/**
 * The point's cells of every file, in one file's clip order; the clips held and their extent, of every
 * file together (what the answer's warnings name). A layer, depth and statistic held by two files (two
 * places) is listed once in `held`; a point in both (their rasters overlap) has both cells, and the
 * answer reads the later file's.
 */
export function mergeClipPoints(answers: Payload[]): Payload {
  const each = answers.map((answer) => answer.json() as ClipPayload);
  const held = each.flatMap((p) => p.held).sort(byClip).filter((h, i, all) => i === 0 || byClip(all[i - 1]!, h) !== 0);
  const extents = each.flatMap((p) => (p.extent ? [p.extent] : []));
  const payload: ClipPayload = { snapshot_clips: each.flatMap((p) => p.snapshot_clips).sort(byClip), extent: unionBox(extents), held };
  return Payload.ofJson(payload);
}

/** A clip as the grid form sends it. */
type GridPayloadClip = ClipFacts & { cells: number[] };

/**
 * Every file's clips, in one file's clip order. A layer, depth and statistic held by several files (the
 * places of several imports) is joined into one clip when their grids are one lattice (`joinedClip`);
 * else each is sent with its own grid, and the grid route draws the first file's.
 */
function mergeGrid(answers: Payload[]): Payload {
  const clips = answers.flatMap((answer) => (answer.json() as { clips: GridPayloadClip[] }).clips).sort(byClip);
  const groups: GridPayloadClip[][] = [];
  for (const clip of clips) {
    const last = groups.at(-1);
    if (last && byClip(last[0]!, clip) === 0) last.push(clip);
    else groups.push([clip]);
  }
  return Payload.ofJson({ clips: groups.flatMap(joinedClip) });
}

/**
 * Clips of one layer, depth and statistic on one lattice (the same cell size, NoData and CRS, origins a
 * whole number of cells apart) as one clip covering them all, each cell from the file that has a value
 * there (the first file's where two do; NoData where none does), when the joined grid is no larger than
 * a clip the grid form sends (one tile: a far-apart pair would make a grid of mostly NoData); else as they are.
 */
function joinedClip(clips: GridPayloadClip[]): GridPayloadClip[] {
  const first = clips[0]!;
  if (clips.length === 1) return clips;
  const [cellW, cellH] = first.cell_size;
  const west = Math.min(...clips.map((c) => c.origin[0]));
  const north = Math.max(...clips.map((c) => c.origin[1]));
  const offsets = clips.map((c) => [(c.origin[0] - west) / cellW, (north - c.origin[1]) / cellH] as const);
  const onLattice = offsets.every((o) => o.every((cells) => Math.abs(cells - Math.round(cells)) < 1e-6));
  const alike = clips.every((c) => c.cell_size[0] === cellW && c.cell_size[1] === cellH && c.nodata === first.nodata && c.crs === first.crs);
  if (!onLattice || !alike) return clips;
  const at = offsets.map(([x, y]) => [Math.round(x), Math.round(y)] as const);
  const width = Math.max(...clips.map((c, i) => at[i]![0] + c.width));
  const height = Math.max(...clips.map((c, i) => at[i]![1] + c.height));
  if (storedByTile(width, height)) return clips;
  const cells = new Array<number>(width * height).fill(first.nodata);
  clips.forEach((clip, i) => {
    const [x, y] = at[i]!;
    for (let row = 0; row < clip.height; row++) {
      for (let column = 0; column < clip.width; column++) {
        const to = (y + row) * width + x + column;
        if (cells[to] === first.nodata) cells[to] = clip.cells[row * clip.width + column]!;
      }
    }
  });
  return [{ ...first, origin: [west, north], width, height, cells }];
}

/** The point query's offline form: the cells of the asked layers' clips that hold the point. */
export function pointForm<P extends { latitude: number; longitude: number; layers: readonly SoilGridsLayer[] }>(): SnapshotForm<P> {
  return {
    prepare(snapshot) {
      const clips = clipsOf(snapshot.db);
      const extent = unionBox(clips.map(clipBox));
      const held = clips.map((c) => ({ layer: c.layer, depth: c.depth, statistic: c.statistic }));
      return (params) => {
        const names = new Set(params.layers.map((l) => l.name));
        const cells = clips.filter((c) => names.has(c.layer)).flatMap((c) => cellOf(c, params.longitude, params.latitude) ?? []);
        const payload: ClipPayload = { snapshot_clips: cells, extent, held };
        return Payload.ofJson(payload);
      };
    },
  };
}

/**
 * The grid query's offline form: every clip with its cells (a few thousand each). A raster read in place
 * or stored by tile (more than one tile's cells) is not sent as one grid: its points answer, the map draws the small clips.
 */
export const gridForm: SnapshotForm<Record<string, never>> = {
  datasets: SOILGRIDS_ID,
  merge: mergeGrid,
  prepare(snapshot) {
    const clips = clipsOf(snapshot.db).filter((c) => !c.window && !c.stored);
    return () =>
      Payload.ofJson({
        clips: clips.map((c) => ({
          file: c.file, band: c.band, layer: c.layer, depth: c.depth, statistic: c.statistic, crs: c.crs,
          origin: [c.originLon, c.originLat], cell_size: [c.cellW, c.cellH], width: c.width, height: c.height, nodata: c.nodata, cells: Array.from(c.values),
        })),
      });
  },
};
