/** Known answers of the data README (LOAM_DATA_DIR/README.md, section 1.3), read from the README itself so the test cannot drift from it. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR } from "../support/server";

export interface KnownPoint {
  area: string;
  lon: number;
  lat: number;
  mukey: string;
  musym: string;
  muname: string;
  component: string;
  comppct: number;
  cokey: string;
  chkey: string;
  hzname: string;
  top: number;
  bottom: number;
  ph: number;
  om: number;
  clay: number;
}

export function knownPoints(): KnownPoint[] {
  const readme = readFileSync(join(DATA_DIR, "ssurgo", "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### 1.3 Known answers"), readme.indexOf("Negative answers"));
  const points: KnownPoint[] = [];
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 14 || !/^-?\d/.test(cells[2] ?? "")) continue;
    const [, area, lon, lat, mukey, musym, muname, dominant, cokey, horizon, depths, ph, om, clay] = cells as string[];
    const [, component, pct] = /^(.*) \((\d+)\)$/.exec(dominant!)!;
    const [chkey, hzname] = horizon!.split(" / ");
    const [top, bottom] = depths!.split("–").map(Number);
    points.push({
      area: area!, lon: Number(lon), lat: Number(lat), mukey: mukey!, musym: musym!, muname: muname!,
      component: component!, comppct: Number(pct), cokey: cokey!, chkey: chkey!, hzname: hzname!,
      top: top!, bottom: bottom!, ph: Number(ph), om: Number(om), clay: Number(clay),
    });
  }
  return points;
}
