/**
 * The scale benches' queries, each a function of the round: another place each time, within what was
 * generated, so no answer repeats (the cache is off too).
 */
import type { Generated } from "./generate";
import { copyShift, pedonNumber } from "./kssl";
import { stationTriplet } from "./scan";
import { tileShift, type GeneratedArea } from "./ssurgo";
import { CELL, REGION_ORIGIN } from "./soilgrids";

// A point of IA073's AOI on map unit 2765528 (datasets README §1.3): tiles repeat it.
export const KNOWN = { lon: -94.359608, lat: 41.944131 };

export type Path = (i: number) => string;

export interface Survey { areas: GeneratedArea[]; polygonsPerArea: number; polygonsPerTile: number }

export const pointPath = (p: { lat: number; lon: number }) => `/v1/soil/location?latitude=${p.lat}&longitude=${p.lon}&properties=clay,ph,om&depth_bottom_cm=30`;
export const mapUnitsPath = (w: number, s: number) => `/v1/soil/mapunits?bbox=${w},${s},${w + 0.25},${s + 0.25}&property=clay`;

/** The SSURGO queries over `areas` (round i in area i, cycling). */
export function surveyQueries(g: Survey): { point: Path; "AOI 10 ha": Path; "map units, 0.25° box": Path; "100 points": Path } {
  const area = (i: number) => g.areas[i % g.areas.length]!;
  const tiles = Math.floor(g.polygonsPerArea / g.polygonsPerTile);
  // k: the k-th of 100 points, in the same area (a request's points may not span a whole state).
  const at = (i: number, k = 0) => {
    const [dx, dy] = tileShift(area(i), (i * 7919 + k * 104729) % tiles);
    return { lat: KNOWN.lat + dy, lon: KNOWN.lon + dx };
  };
  return {
    point: (i) => pointPath(at(i)),
    "AOI 10 ha": (i) => {
      const p = at(i);
      const [hw, hh] = [0.00383 / 2, 0.00285 / 2];
      return `/v1/soil/aoi?bbox=${p.lon - hw},${p.lat - hh},${p.lon + hw},${p.lat + hh}&properties=clay,drainage_class&depth_bottom_cm=30`;
    },
    "map units, 0.25° box": (i) => {
      const a = area(i).offset;
      return mapUnitsPath(KNOWN.lon - 0.01 + a[0] + (i % 5) * 0.02, KNOWN.lat - 0.01 + a[1] + (i % 3) * 0.02);
    },
    "100 points": (i) => `/v1/soil/points?points=${Array.from({ length: 100 }, (_, k) => at(i, k)).map((p) => `${p.lat},${p.lon}`).join(";")}&properties=clay&depth_bottom_cm=30`,
  };
}

/** The lab queries over `pedons` generated pedons (copies of `sourcePedons`). */
export function labQueries(pedons: number, sourcePedons: number): { "box of 100 pedons": Path; pedon: Path } {
  const copies = Math.ceil(pedons / sourcePedons);
  return {
    "box of 100 pedons": (i) => {
      const [dx, dy] = copyShift(i % copies);
      return `/v1/pedons?bbox=${-96.5 + dx + (i % 7) * 0.01},${37.9 + dy},${-94.6 + dx},${40 + dy}&limit=100`;
    },
    pedon: (i) => `/v1/pedons/${pedonNumber((i * 7919) % pedons)}?properties=clay,ph,organic_carbon`,
  };
}

/** Every query of the one-state run, in the order measured. */
export function queries(g: Generated): Record<string, Path> {
  const survey = surveyQueries({ areas: g.areas, polygonsPerArea: g.sizes.polygonsPerArea, polygonsPerTile: g.polygonsPerTile });
  const lab = labQueries(g.sizes.pedons, g.kssl.sourcePedons.length);
  return {
    point: survey.point,
    "AOI 10 ha": survey["AOI 10 ha"],
    "map units, 0.25° box": survey["map units, 0.25° box"],
    ...lab,
    "a year of hourly": (i) => {
      const year = 2010 + (i % 10);
      return `/v1/stations/${stationTriplet(1 + (i % g.scan.stations))}/series?element=soil_moisture&depth_cm=5.08&interval=hourly&start=${year}-01-01&end=${year}-12-31T23:00:00Z`;
    },
    "a decade of daily": (i) => `/v1/stations/${stationTriplet(1 + (i % g.scan.stations))}/series?element=soil_moisture&depth_cm=5.08&interval=daily&start=2010-01-01&end=2019-12-${31 - (i % 5)}`,
    "modeled point (24 layers)": (i) => {
      const [r, c] = g.dataCells[i % g.dataCells.length]!;
      return `/v1/soil/modeled?latitude=${REGION_ORIGIN[1] - (r + 0.5) * CELL}&longitude=${REGION_ORIGIN[0] + (c + 0.5) * CELL}&properties=clay,silt,sand,ph&depth_bottom_cm=200`;
    },
    "100 points": survey["100 points"],
  };
}
