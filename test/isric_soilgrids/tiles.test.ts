/**
 * A raster larger than one tile is stored by tile and read block by block (src/providers/isric_soilgrids/tiles.ts):
 * what serving keeps of it never exceeds the cache's byte bound, and every cell read back equals the
 * imported GeoTIFF's, read by the test's own reader (the geotiff library), edge blocks included. The
 * rasters are the scale bench's (bench/scale/soilgrids.ts: the real clips of datasets/ repeated).
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importDownloads } from "../../src/snapshot/import";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { cellOf, clipsOf } from "../../src/providers/isric_soilgrids/snapshot";
import { createTileTable, PART_SIDE, StoredTiles, storeTiles, TILE_SIDE } from "../../src/providers/isric_soilgrids/tiles";
import { CELL, REGION_ORIGIN, cellValue, readSourceClips } from "../../bench/scale/soilgrids";
import { writeGeoTiff } from "../../bench/scale/tiff-write";
import { DATA_DIR, startLoam, type RunningLoam } from "../support/server";

// Not multiples of the tile side: the last column and row of blocks are cut short.
const [WIDTH, HEIGHT] = [2 * TILE_SIDE + 44, TILE_SIDE + 72];
const FILES = ["clay_0-5cm_mean.tif", "sand_0-5cm_mean.tif"];

let dir: string;
let loam: RunningLoam;
/** Each file's cells as the geotiff library reads the written file. */
const expected = new Map<string, Uint16Array>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "loam-tiles-"));
  const clips = await readSourceClips(DATA_DIR);
  mkdirSync(join(dir, "raster"));
  const { fromArrayBuffer } = await import("geotiff");
  for (const file of FILES) {
    const values = new Uint16Array(WIDTH * HEIGHT);
    for (let r = 0; r < HEIGHT; r++) for (let c = 0; c < WIDTH; c++) values[r * WIDTH + c] = cellValue(clips, file.split("_")[0]!, 0, r, c);
    writeGeoTiff(join(dir, "raster", file), { width: WIDTH, height: HEIGHT, origin: REGION_ORIGIN, cell: CELL, nodata: 65535, description: file, values });
    const bytes = readFileSync(join(dir, "raster", file));
    const image = await (await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))).getImage();
    expected.set(file, ((await image.readRasters()) as unknown as Uint16Array[])[0]!);
  }
  const provider = DEFAULT_PROVIDERS.find((p) => p.id === "isric_soilgrids")!;
  await importDownloads({ provider, paths: FILES.map((f) => join(dir, "raster", f)), snapshotPath: join(dir, "snapshot.sqlite"), dataDir: DATA_DIR });
  loam = await startLoam({ source: new SnapshotTransport(join(dir, "snapshot.sqlite")), env: { CACHE_TTL_SECONDS: "0" } });
}, 60_000);

afterAll(async () => {
  await loam?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("SoilGrids rasters stored by tile", () => {
  test("the clip's row holds no cells; its blocks do, one per tile, compressed to less than half the cells' bytes", () => {
    const db = new Database(join(dir, "snapshot.sqlite"), { readonly: true });
    try {
      const rows = db.query<{ file: string; n: number }, []>("SELECT file, length(cells) AS n FROM isric_soilgrids_clip ORDER BY file").all();
      expect(rows).toEqual(FILES.map((file) => ({ file, n: 0 })));
      const blocks = db.query<{ n: number; bytes: number }, []>("SELECT count(*) AS n, sum(length(cells)) AS bytes FROM isric_soilgrids_tile").get()!;
      expect(blocks.n).toBe(FILES.length * 3 * 2);
      expect(blocks.bytes).toBeGreaterThan(0);
      expect(blocks.bytes).toBeLessThan((FILES.length * WIDTH * HEIGHT * 2) / 2);
    } finally {
      db.close();
    }
  });

  test("every cell read back equals the GeoTIFF's, and the cache never holds more than its bound", () => {
    const db = new Database(join(dir, "snapshot.sqlite"), { readonly: true });
    try {
      const bound = 3 * PART_SIDE * PART_SIDE * 2;
      const tiles = new StoredTiles(db, bound);
      let most = 0;
      for (const clip of clipsOf(db)) {
        const cells = expected.get(clip.file)!;
        const read = new Uint16Array(WIDTH * HEIGHT);
        // Column-major: every row of blocks is visited again and again, more blocks than the bound holds.
        for (let c = 0; c < WIDTH; c++) {
          for (let r = 0; r < HEIGHT; r++) {
            read[r * WIDTH + c] = tiles.cell(clip, c, r);
            most = Math.max(most, tiles.bytes);
          }
        }
        expect(Array.from(read)).toEqual(Array.from(cells));
      }
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(bound);
    } finally {
      db.close();
    }
  });

  test("the served reader answers the cells of the first and the last (cut short) block", () => {
    const db = new Database(join(dir, "snapshot.sqlite"), { readonly: true });
    try {
      const [clay] = clipsOf(db);
      expect(clay!.stored).toBeDefined();
      for (const [column, row] of [[0, 0], [5, 17], [WIDTH - 1, HEIGHT - 1], [2 * TILE_SIDE + 3, TILE_SIDE + 70]] as const) {
        const lon = REGION_ORIGIN[0] + (column + 0.5) * CELL;
        const lat = REGION_ORIGIN[1] - (row + 0.5) * CELL;
        expect(cellOf(clay!, lon, lat)!.value).toBe(expected.get(clay!.file)![row * WIDTH + column]!);
      }
    } finally {
      db.close();
    }
  });

  test("an Int16 raster (SoilGrids' own VRTs: negative values, NoData -32768) reads back bit for bit through the stored blocks", () => {
    // The real clay cells as Int16, every other one negated and the clip's NoData as SoilGrids' Int16 NoData.
    const clay = expected.get("clay_0-5cm_mean.tif")!;
    const values = Int16Array.from(clay, (v, i) => (v === 65535 ? -32768 : i % 2 ? -v : v));
    expect(values.includes(-32768)).toBe(true);
    const db = new Database(":memory:");
    try {
      createTileTable(db);
      const clip = { layer: "clay", depth: "0-5cm", statistic: "mean", width: WIDTH, height: HEIGHT, values };
      storeTiles(db, clip);
      const tiles = new StoredTiles(db, 2 * PART_SIDE * PART_SIDE * 2);
      const read = new Int16Array(WIDTH * HEIGHT);
      for (let r = 0; r < HEIGHT; r++) for (let c = 0; c < WIDTH; c++) read[r * WIDTH + c] = tiles.cell({ ...clip, values: new Int16Array(0) }, c, r);
      expect(Array.from(read)).toEqual(Array.from(values));
    } finally {
      db.close();
    }
  });

  test("a block of layout 4 (raw cells) is refused with the rebuild it needs, never read as cells", () => {
    const db = new Database(":memory:");
    try {
      createTileTable(db);
      // Layout 4 stored a block as its raw UInt16 cells: the real clay cells of the first block.
      const clay = expected.get("clay_0-5cm_mean.tif")!;
      const block = new Uint16Array(TILE_SIDE * TILE_SIDE);
      for (let r = 0; r < TILE_SIDE; r++) block.set(clay.subarray(r * WIDTH, r * WIDTH + TILE_SIDE), r * TILE_SIDE);
      db.query("INSERT INTO isric_soilgrids_tile VALUES ('clay', '0-5cm', 'mean', 0, ?)").run(new Uint8Array(block.buffer));
      const clip = { layer: "clay", depth: "0-5cm", statistic: "mean", width: WIDTH, height: HEIGHT, values: new Uint16Array(0) };
      expect(() => new StoredTiles(db).cell(clip, 3, 3)).toThrow("older layout");
    } finally {
      db.close();
    }
  });

  test("a modeled point over HTTP answers the stored block's cell", async () => {
    const [column, row] = [WIDTH - 2, HEIGHT - 3];
    const raw = expected.get("sand_0-5cm_mean.tif")![row * WIDTH + column]!;
    expect(raw).not.toBe(65535);
    const lat = REGION_ORIGIN[1] - (row + 0.5) * CELL;
    const lon = REGION_ORIGIN[0] + (column + 0.5) * CELL;
    const { status, body } = await loam.json(`/v1/soil/modeled?latitude=${lat}&longitude=${lon}&properties=sand&depth_bottom_cm=5`);
    expect(status).toBe(200);
    const sand = body.observations.find((o: any) => o.property.id === "sand");
    expect(sand.source.original_value).toBe(raw);
    expect(sand.value).toBeCloseTo(raw / 10, 9);
  });
});
