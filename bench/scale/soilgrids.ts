/**
 * Generated SoilGrids layers for the scale bench: a square region at 250 m (1/480 degree) of 4
 * properties x 6 depths x 3 statistics, each a tiled GeoTIFF in SoilGrids' naming. Cells repeat the
 * real clips of datasets/soilgrids/raster (clay and silt, 0-5 and 5-15 cm, means) tile by tile:
 * clay and silt from their own clip, sand as 1000 - clay - silt (g/kg, as SoilGrids' three add up),
 * phh2o from the clay clip (a stand-in: synthetic); depths and statistics cycle over the clips held.
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeGeoTiff } from "./tiff-write";

export const CELL = 1 / 480;
export const REGION_ORIGIN: [number, number] = [-96, 43];
export const PROPERTIES = ["clay", "silt", "sand", "phh2o"] as const;
export const DEPTHS = ["0-5cm", "5-15cm", "15-30cm", "30-60cm", "60-100cm", "100-200cm"] as const;
export const STATISTICS = ["mean", "Q0.05", "Q0.95"] as const;

export interface SourceClip {
  width: number;
  height: number;
  nodata: number;
  values: Uint16Array;
}

export async function readSourceClips(datasets: string): Promise<Map<string, SourceClip>> {
  const { fromArrayBuffer } = await import("geotiff");
  const folder = join(datasets, "soilgrids", "raster");
  const clips = new Map<string, SourceClip>();
  for (const file of readdirSync(folder).filter((f) => f.endsWith(".tif"))) {
    const bytes = readFileSync(join(folder, file));
    const image = await (await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))).getImage();
    const [band] = (await image.readRasters()) as unknown as Uint16Array[];
    clips.set(file.replace(/_mean\.tif$/, ""), { width: image.getWidth(), height: image.getHeight(), nodata: image.getGDALNoData() ?? 65535, values: band! });
  }
  return clips;
}

/** The generated value of cell (row, column) of one layer: the source clips' cell at the same place modulo their size. */
export function cellValue(clips: Map<string, SourceClip>, property: string, depthIndex: number, row: number, column: number): number {
  const depth = DEPTHS[depthIndex % 2]!;
  const at = (name: string) => {
    const c = clips.get(`${name}_${depth}`)!;
    return c.values[(row % c.height) * c.width + (column % c.width)]!;
  };
  if (property === "clay" || property === "phh2o") return at("clay");
  if (property === "silt") return at("silt");
  const clay = at("clay");
  const silt = at("silt");
  return clay === 65535 || silt === 65535 || clay + silt > 1000 ? 65535 : 1000 - clay - silt;
}

/** Write the 72 layers of a `side` x `side` region; returns their file names. */
export function writeLayers(clips: Map<string, SourceClip>, out: string, side: number): string[] {
  mkdirSync(out, { recursive: true });
  const files: string[] = [];
  PROPERTIES.forEach((property) =>
    DEPTHS.forEach((depth, d) => {
      const values = new Uint16Array(side * side);
      for (let r = 0; r < side; r++) for (let c = 0; c < side; c++) values[r * side + c] = cellValue(clips, property, d, r, c);
      for (const statistic of STATISTICS) {
        const file = `${property}_${depth}_${statistic}.tif`;
        writeGeoTiff(join(out, file), { width: side, height: side, origin: REGION_ORIGIN, cell: CELL, nodata: 65535, description: `${property}_${depth}_${statistic} (synthetic)`, values });
        files.push(file);
      }
    }),
  );
  return files;
}
