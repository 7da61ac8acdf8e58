/**
 * The scale bench's inputs (DESIGN's state and national sizes, as a percentage): Web Soil Survey
 * areas, a Lab Data Mart table set, ISMN station files and tiled GeoTIFFs, each in its real download
 * format and generated from the real rows in datasets/ (./ssurgo.ts, ./kssl.ts, ./scan.ts,
 * ./soilgrids.ts say how). Written under a folder laid out as LOAM_DATA_DIR (ssurgo/, kssl/, scan/,
 * soilgrids/raster/), never into datasets/: clearly synthetic (ZZ areas, 99Z pedons, SYNTH stations).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { planAreas, readSourceArea, tileShift, writeArea, type GeneratedArea } from "./ssurgo";
import { writeLabTables, type KsslPlan } from "./kssl";
import { writeStations, type ScanPlan } from "./scan";
import { cellValue, readSourceClips, writeLayers } from "./soilgrids";

/** Full scale (100 %): DESIGN's sizes. */
export const FULL = { polygons: 1_000_000, areas: 100, pedons: 65_000, stations: 220, rasterSide: 960 } as const;

export interface ScaleSizes {
  percent: number;
  areas: number;
  polygonsPerArea: number;
  pedons: number;
  stations: number;
  rasterSide: number;
}

export function sizesAt(percent: number): ScaleSizes {
  const f = percent / 100;
  const areas = Math.max(1, Math.round(FULL.areas * f));
  return {
    percent,
    areas,
    polygonsPerArea: Math.round((FULL.polygons * f) / areas),
    pedons: Math.max(1, Math.round(FULL.pedons * f)),
    stations: Math.max(1, Math.round(FULL.stations * f)),
    // Cells scale with the percentage: the side with its square root.
    rasterSide: Math.max(16, Math.round(FULL.rasterSide * Math.sqrt(f))),
  };
}

export interface Generated {
  dataDir: string;
  sizes: ScaleSizes;
  areas: GeneratedArea[];
  /** IA073's polygons per tile, and the tile shift function's inputs (for placing queries). */
  polygonsPerTile: number;
  kssl: KsslPlan;
  scan: ScanPlan;
  rasters: string[];
  /** Cells [row, column] of the generated rasters that hold data (the source clips have NoData edges). */
  dataCells: [number, number][];
  seconds: number;
}

/** Generate every input at `percent` into `dataDir` (emptied first). */
export async function generate(datasets: string, dataDir: string, percent: number, log: (line: string) => void = () => {}): Promise<Generated> {
  const started = performance.now();
  const sizes = sizesAt(percent);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, "README.md"), `Synthetic inputs of Loam's scale bench at ${percent} % (npm run bench:scale): generated from datasets/, keys renumbered, coordinates shifted. Not survey data; never serve it as such.\n`);
  const source = await readSourceArea(datasets);
  const areas = planAreas(sizes.areas, sizes.polygonsPerArea, source.polygons.length);
  for (const area of areas) writeArea(join(dataDir, "ssurgo"), source, area);
  log(`generated ${areas.length} survey area(s) of ${sizes.polygonsPerArea} polygons`);
  const kssl = writeLabTables(datasets, join(dataDir, "kssl"), sizes.pedons);
  log(`generated ${kssl.pedons} pedons, ${kssl.layers} layers`);
  const scan = writeStations(datasets, join(dataDir, "scan"), sizes.stations);
  log(`generated ${scan.stations} station(s) x ${scan.valuesPerStation} hourly values`);
  const clips = await readSourceClips(datasets);
  const rasters = writeLayers(clips, join(dataDir, "soilgrids", "raster"), sizes.rasterSide);
  const side = sizes.rasterSide;
  const dataCells = Array.from({ length: 200 }, (_, i): [number, number] => [(i * 37) % side, (i * 91) % side]).filter(([r, c]) => cellValue(clips, "clay", 0, r, c) !== 65535);
  log(`generated ${rasters.length} GeoTIFFs of ${sizes.rasterSide} x ${sizes.rasterSide}`);
  return { dataDir, sizes, areas, polygonsPerTile: source.polygons.length, kssl, scan, rasters, dataCells, seconds: (performance.now() - started) / 1000 };
}

export { tileShift };
