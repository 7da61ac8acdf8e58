/**
 * The tests' own reference for distances: pyproj's `Geod(ellps="WGS84").inv` (PROJ's implementation
 * of Karney's geodesics) under Debian's /usr/bin/python3, one process per batch. Nothing of Loam's code
 * (nor its geographiclib package) is involved.
 */
import { python } from "./tools";

const SCRIPT = `
import json, sys
from pyproj import Geod
request = json.load(sys.stdin)
lat, lon = request["from"]
to = request["to"]
geod = Geod(ellps="WGS84")
_, _, metres = geod.inv([lon] * len(to), [lat] * len(to), [p[1] for p in to], [p[0] for p in to])
json.dump([m / 1000 for m in metres], sys.stdout)
`;

/** Whether pyproj can run (a test without it is skipped, with a line naming the package; under LOAM_REQUIRE_TOOLS=1 an error). */
export const pyprojAvailable = () => python("pyproj") !== null;

/** Geodesic distances on WGS84 from `from` to each of `to` ([lat, lon] each), km, by pyproj. */
export function pyprojDistancesKm(from: readonly [number, number], to: readonly (readonly [number, number])[]): number[] {
  const interpreter = python("pyproj");
  if (!interpreter) throw new Error("pyproj is not available");
  const run = Bun.spawnSync([interpreter, "-c", SCRIPT], { stdin: Buffer.from(JSON.stringify({ from, to })) });
  if (run.exitCode !== 0) throw new Error(`pyproj failed: ${run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString()) as number[];
}
