/**
 * The offline SoilGrids clips (docs/decisions.md#isric-soilgrids): the snapshot step reads every
 * `soilgrids/raster/<layer>_<depth>_<statistic>.tif` of the data directory with the geotiff library
 * (UInt16, DEFLATE with PREDICTOR=2, EPSG:4326) into `isric_soilgrids_clip`, one row per file with its
 * grid and its cells as a blob; the readers answer a point (the cell containing it, per clip) and
 * the whole grid of each clip. Only validated numbers reach SQL.
 */
import type { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SnapshotStep } from "../provider";
import { Payload, type SnapshotForm } from "../../upstream/transport";
import type { ClipCell, ClipPayload } from "./answer";
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
  values: Uint16Array;
}

async function readClip(path: string, file: string, match: RegExpExecArray): Promise<{ clip: Clip; sha256: string }> {
  const bytes = readFileSync(path);
  // Loaded by the snapshot build only: serving reads the stored cells, and the library costs ~20 ms at every start.
  const { fromArrayBuffer } = await import("geotiff");
  const tiff = await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const image = await tiff.getImage();
  const [originLon, originLat] = image.getOrigin() as [number, number];
  const [cellW, cellH] = image.getResolution() as [number, number];
  const epsg = image.getGeoKeys()?.GeographicTypeGeoKey;
  if (epsg !== 4326) throw new Error(`${file}: not EPSG:4326 (GeographicTypeGeoKey ${String(epsg)})`);
  const [band] = (await image.readRasters()) as unknown as Uint16Array[];
  if (!(band instanceof Uint16Array)) throw new Error(`${file}: not a UInt16 band`);
  const nodata = image.getGDALNoData();
  const description = (image.fileDirectory as { ImageDescription?: string }).ImageDescription;
  return {
    sha256: createHash("sha256").update(bytes).digest("hex"),
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
      nodata: nodata ?? 65535,
      values: band,
    },
  };
}

export const SOILGRIDS_SNAPSHOT: SnapshotStep = {
  // 2: the clips' dataset is named by their place and states their extent.
  layout: "2",
  async import(db: Database, dataDir: string, log: (line: string) => void) {
    db.run(
      `CREATE TABLE ${TABLE} (layer TEXT NOT NULL, depth TEXT NOT NULL, statistic TEXT NOT NULL, file TEXT NOT NULL, band TEXT NOT NULL, sha256 TEXT NOT NULL, crs TEXT NOT NULL, ` +
        "origin_lon REAL NOT NULL, origin_lat REAL NOT NULL, cell_w REAL NOT NULL, cell_h REAL NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL, nodata INTEGER NOT NULL, cells BLOB NOT NULL, PRIMARY KEY (layer, depth, statistic))",
    );
    const folder = join(dataDir, FOLDER);
    if (!existsSync(folder)) return { datasets: [], warnings: [`${SOILGRIDS_ID}: no ${FOLDER} in the data directory; the snapshot holds no SoilGrids clip.`] };
    const insert = db.query(`INSERT INTO ${TABLE} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const files = readdirSync(folder).filter((f) => f.endsWith(".tif")).sort();
    const warnings: string[] = [];
    let rows = 0;
    const boxes: Box[] = [];
    for (const file of files) {
      const match = FILE_NAME.exec(file);
      if (!match || !layerNamed(match[1]!)) {
        warnings.push(`${SOILGRIDS_ID}: ${file} is not named <layer>_<depth>_<statistic>.tif of a SoilGrids layer; skipped.`);
        continue;
      }
      const { clip, sha256 } = await readClip(join(folder, file), file, match);
      const c = clip;
      insert.run(c.layer, c.depth, c.statistic, c.file, c.band, sha256, c.crs, c.originLon, c.originLat, c.cellW, c.cellH, c.width, c.height, c.nodata, new Uint8Array(c.values.buffer, c.values.byteOffset, c.values.byteLength));
      rows += 1;
      boxes.push(clipBox(c));
      log(`${SOILGRIDS_ID}: ${file} (${c.width} x ${c.height})`);
    }
    const importedAt = new Date().toISOString();
    const names = files.filter((f) => FILE_NAME.test(f)).map((f) => f.replace(/\.tif$/, ""));
    const label = `SoilGrids 2.0 clips (${rows}: ${names.join(", ")}; ${CLIP_PLACE.name})`;
    const datasets = rows === 0 ? [] : [{ kind: SOILGRIDS_ID, id: CLIP_PLACE.id, label, vintage: null, source: FOLDER, rows: { [TABLE]: rows }, importedAt, bbox: unionBox(boxes) }];
    return { datasets, warnings };
  },
};

const loaded = new WeakMap<Database, Clip[]>();

/** The clips of an opened snapshot, read once (none in a snapshot built without them). */
export function clipsOf(db: Database): Clip[] {
  const kept = loaded.get(db);
  if (kept) return kept;
  const exists = db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?").get(TABLE);
  const rows = exists && exists.n > 0
    ? db.query<Record<string, unknown>, []>(`SELECT * FROM ${TABLE} ORDER BY layer, depth, statistic`).all()
    : [];
  const clips = rows.map((r) => {
    const blob = r.cells as Uint8Array;
    // A view of the row's own bytes when they are aligned: a copy would double the memory of a large region while loading (docs/benchmarks.md, "State and national scale").
    const values = blob.byteOffset % 2 === 0 ? new Uint16Array(blob.buffer, blob.byteOffset, blob.byteLength / 2) : new Uint16Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
    return {
      file: String(r.file), band: String(r.band), layer: String(r.layer), depth: String(r.depth), statistic: String(r.statistic), crs: String(r.crs),
      originLon: Number(r.origin_lon), originLat: Number(r.origin_lat), cellW: Number(r.cell_w), cellH: Number(r.cell_h),
      width: Number(r.width), height: Number(r.height), nodata: Number(r.nodata), values,
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
    value: clip.values[row * clip.width + column]!,
  };
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

/** The grid query's offline form: every clip with its cells (a few thousand each). */
export const gridForm: SnapshotForm<Record<string, never>> = {
  prepare(snapshot) {
    const clips = clipsOf(snapshot.db);
    return () =>
      Payload.ofJson({
        clips: clips.map((c) => ({
          file: c.file, band: c.band, layer: c.layer, depth: c.depth, statistic: c.statistic, crs: c.crs,
          origin: [c.originLon, c.originLat], cell_size: [c.cellW, c.cellH], width: c.width, height: c.height, nodata: c.nodata, cells: Array.from(c.values),
        })),
      });
  },
};
