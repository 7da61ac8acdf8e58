/**
 * The areas tests' own reference: reference.py (pyshp, shapely, pyproj.Geod under Debian's
 * /usr/bin/python3) reads the WSS shapefiles in datasets/, cuts the map-unit polygons to an area and
 * measures them on WGS84. Nothing of Loam's code is involved.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { DATA_DIR } from "../support/server";

const PYTHON = "/usr/bin/python3";
const SCRIPT = join(import.meta.dir, "reference.py");

/** Whether the reference can run; in CI (LOAM_REQUIRE_TOOLS=1) a missing Python is a failure. */
export function referenceAvailable(): boolean {
  if (existsSync(PYTHON)) return true;
  if (process.env.LOAM_REQUIRE_TOOLS === "1") throw new Error(`${PYTHON} is required (LOAM_REQUIRE_TOOLS=1): apt-get install -y python3-shapely python3-pyproj python3-pyshp`);
  console.warn(`note: ${PYTHON} is not installed, so the areas tests that compare with the shapefiles are skipped.`);
  return false;
}

function ask<T>(request: Record<string, unknown>): T {
  const run = Bun.spawnSync([PYTHON, SCRIPT], { stdin: Buffer.from(JSON.stringify({ data_dir: resolve(DATA_DIR), ...request })) });
  if (run.exitCode !== 0) throw new Error(`reference.py failed: ${run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString()) as T;
}

export interface ReferenceCut {
  /** The area's geodesic area, m². */
  aoi_m2: number;
  /** Each map unit's area inside it, m². */
  by_mukey: Record<string, number>;
}

export interface ReferenceAoi extends ReferenceCut {
  export: string;
  /** The export's AOI boundary (spatial/aoi_a_aoi.shp) as WKT. */
  wkt: string;
}

export interface ReferencePoint {
  mukey: string;
  area_symbol: string;
  latitude: number;
  longitude: number;
}

/** The AOI of each Iowa export, and the map units' areas inside it. */
export const referenceAois = () => ask<ReferenceAoi[]>({ ask: "aois" });
/** The map units' areas inside any area given as WKT. */
export const referenceCut = (wkt: string) => ask<ReferenceCut>({ ask: "clip", wkt });
/** One point inside each map unit of datasets/ (its largest polygon's representative point). */
export const referencePoints = () => ask<ReferencePoint[]>({ ask: "points" });

/** |a - b| within `relative` of b. */
export const within = (a: number, b: number, relative: number) => Math.abs(a - b) <= relative * Math.abs(b);
