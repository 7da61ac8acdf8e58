/**
 * Generated Web Soil Survey areas for the scale bench: each area is IA073's area-of-interest export
 * (datasets/ssurgo/IA073-aoi) tiled at a real state's density. Its tables are IA073's rows with every
 * key renumbered (+ the area's number across all states x 10^6) and the area renamed `ZZnnn` (a
 * state of the national mirror's: `ZAnnn`, `ZBnnn`...) "Synthetic ..."; its polygons are IA073's 13
 * polygons repeated on a grid of tiles, coordinates shifted. Clearly synthetic.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as shapefile from "shapefile";
import { decodeText } from "../../src/providers/decode";
import { iterateWssRecords, readColumnDictionary, readTableFileNames, sqliteAffinity, type WssValue } from "../../src/providers/usda_ssurgo/wss-text";
import { writePolygonShapefile, type Ring } from "./shapefile-write";

export const SOURCE_AREA = "IA073";
/** Polygons of one generated area (a state of 1,000,000 polygons in 100 areas). */
export const POLYGONS_PER_AREA = 10_000;
/**
 * Distance between tile origins, degrees: 13 polygons per tile at Iowa's density (about 1,000,000
 * polygons over 21 square degrees, 47,600 a square degree) need 2.7e-4 square degrees each.
 */
export const TILE_STEP = 0.0165;
/**
 * Keys of area n are IA073's + n x 10^6: IA073's keys of one kind span at most 156,497 (map unit keys
 * 2,765,528 to 2,922,024), so no two areas share a key, and its largest (a chtgkey, 1.2 x 10^8) stays
 * under 2^31 (a map unit key is an int; the route checks it) for 11 states of 100 areas.
 */
const KEY_STEP = 1_000_000;
/** Areas a state holds at most (DESIGN's 100): area numbers of state s start at s x this. */
const AREAS_PER_STATE = 100;

export interface GeneratedArea {
  areasymbol: string;
  areaname: string;
  polygons: number;
  /** Origin shift of the area's first tile (degrees), and the tiles per side. */
  offset: [number, number];
  tilesPerSide: number;
  keyOffset: number;
}

export interface SourceArea {
  folder: string;
  polygons: { rings: Ring[]; props: Record<string, unknown> }[];
  box: [number, number, number, number];
}

export async function readSourceArea(datasets: string): Promise<SourceArea> {
  const folder = join(datasets, "ssurgo", `${SOURCE_AREA}-aoi`);
  const source = await shapefile.open(join(folder, "spatial", "soilmu_a_aoi.shp"), undefined, { encoding: "windows-1252" });
  const polygons: SourceArea["polygons"] = [];
  for (;;) {
    const next = await source.read();
    if (next.done) break;
    const g = next.value.geometry as { type: string; coordinates: unknown };
    const rings = g.type === "Polygon" ? (g.coordinates as Ring[]) : (g.coordinates as Ring[][]).flat();
    polygons.push({ rings, props: next.value.properties ?? {} });
  }
  return { folder, polygons, box: source.bbox as [number, number, number, number] };
}

/** A state of generated areas: its area symbols' two letters, its number (keys) and the shift of its first tile. */
export interface StatePlan {
  prefix: string;
  number: number;
  origin: [number, number];
}

/** The one state of `npm run bench:scale -- <percent>`. */
export const ONE_STATE: StatePlan = { prefix: "ZZ", number: 0, origin: [0, 0] };

export const areaSymbol = (n: number, prefix = ONE_STATE.prefix) => `${prefix}${String(n).padStart(3, "0")}`;
export const renumber = (key: string, offset: number) => String(Number(key) + offset);

export const tilesPerSideOf = (polygonsPerArea: number, polygonsPerTile: number) => Math.ceil(Math.sqrt(Math.ceil(polygonsPerArea / polygonsPerTile)));

/** The areas of a state: `count` areas on a square grid of areas, each a square grid of tiles, from the state's origin. */
export function planAreas(count: number, polygonsPerArea: number, polygonsPerTile: number, state: StatePlan = ONE_STATE): GeneratedArea[] {
  const tilesPerSide = tilesPerSideOf(polygonsPerArea, polygonsPerTile);
  const areasPerSide = Math.ceil(Math.sqrt(count));
  const [x0, y0] = state.origin;
  return Array.from({ length: count }, (_, i) => ({
    areasymbol: areaSymbol(i + 1, state.prefix),
    areaname: `Synthetic area ${areaSymbol(i + 1, state.prefix)} (IA073 Greene County, Iowa, tiled; not survey data)`,
    polygons: polygonsPerArea,
    offset: [x0 + (i % areasPerSide) * tilesPerSide * TILE_STEP, y0 + Math.floor(i / areasPerSide) * tilesPerSide * TILE_STEP] as [number, number],
    tilesPerSide,
    keyOffset: (state.number * AREAS_PER_STATE + i + 1) * KEY_STEP,
  }));
}

/** Shift of tile `t` of an area (row-major from the area's origin). */
export function tileShift(area: GeneratedArea, t: number): [number, number] {
  return [area.offset[0] + (t % area.tilesPerSide) * TILE_STEP, area.offset[1] + Math.floor(t / area.tilesPerSide) * TILE_STEP];
}

function wssLine(values: WssValue[], types: string[]): string {
  return values
    .map((v, i) => (v === null ? "" : sqliteAffinity(types[i]!) === "TEXT" ? `"${v.replaceAll('"', '""')}"` : v))
    .join("|");
}

function writeTabular(source: string, target: string, area: GeneratedArea): void {
  mkdirSync(target, { recursive: true });
  const read = (name: string) => decodeText(readFileSync(join(source, name)));
  const dictionary = readColumnDictionary(read("mstabcol.txt"));
  const files = new Map([...readTableFileNames(read("mstab.txt"))].map(([table, file]) => [`${file}.txt`, table]));
  for (const name of readdirSync(source)) {
    const table = files.get(name);
    const columns = table ? dictionary.get(table) : undefined;
    if (!columns || ["mstab", "mstabcol", "mdstat"].some((t) => table!.startsWith(t))) {
      copyFileSync(join(source, name), join(target, name));
      continue;
    }
    const types = columns.map((c) => c.logicalType);
    const lines: string[] = [];
    for (const record of iterateWssRecords(read(name), name)) {
      columns.forEach((c, i) => {
        const v = record[i];
        if (v === null || v === undefined) return;
        if (c.name === "areasymbol") record[i] = area.areasymbol;
        else if (c.name === "areaname") record[i] = area.areaname;
        else if (c.name.endsWith("key") && /^\d+$/.test(v)) record[i] = renumber(v, area.keyOffset);
      });
      lines.push(wssLine(record, types));
    }
    writeFileSync(join(target, name), lines.length ? `${lines.join("\r\n")}\r\n` : "");
  }
}

/** One generated area folder `<out>/<areasymbol>` in the WSS layout (tabular/, spatial/, metadata). */
export function writeArea(out: string, src: SourceArea, area: GeneratedArea): string {
  const folder = join(out, area.areasymbol);
  writeTabular(join(src.folder, "tabular"), join(folder, "tabular"), area);
  const spatial = join(folder, "spatial");
  mkdirSync(spatial, { recursive: true });
  const records = [];
  const perTile = src.polygons.length;
  for (let n = 0, t = 0; n < area.polygons; t++) {
    const [dx, dy] = tileShift(area, t);
    for (let p = 0; p < perTile && n < area.polygons; p++, n++) {
      const { rings, props } = src.polygons[p]!;
      records.push({
        rings: rings.map((ring) => ring.map(([x, y]) => [x + dx, y + dy] as [number, number])),
        values: [area.areasymbol, Number(props.SPATIALVER), String(props.MUSYM), renumber(String(props.MUKEY), area.keyOffset)],
      });
    }
  }
  const fields = [
    { name: "AREASYMBOL", type: "C" as const, size: 20 },
    { name: "SPATIALVER", type: "N" as const, size: 10 },
    { name: "MUSYM", type: "C" as const, size: 6 },
    { name: "MUKEY", type: "C" as const, size: 30 },
  ];
  const prj = readFileSync(join(src.folder, "spatial", "soilmu_a_aoi.prj"), "latin1");
  writePolygonShapefile(join(spatial, `soilmu_a_${area.areasymbol.toLowerCase()}`), fields, records, prj);
  writeFileSync(join(spatial, "version.txt"), readFileSync(join(src.folder, "spatial", "version.txt")));
  for (const name of readdirSync(src.folder).filter((n) => /^soil_metadata_/i.test(n))) {
    const text = readFileSync(join(src.folder, name), "latin1").replaceAll(SOURCE_AREA, area.areasymbol).replaceAll(SOURCE_AREA.toLowerCase(), area.areasymbol.toLowerCase());
    writeFileSync(join(folder, name.replace(/ia073/i, area.areasymbol.toLowerCase())), text, "latin1");
  }
  return folder;
}
