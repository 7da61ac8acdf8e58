/** Known answers of the data README (LOAM_DATA_DIR/README.md, section 2.5), read from the README itself so the test cannot drift from it. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR } from "../support/server";

export interface KnownPedon {
  pedlabsampnum: string;
  upedonid: string;
  name: string;
  latitude: number;
  longitude: number;
  labsampnum: string;
  hzn_desgn: string;
  top: number;
  bottom: number;
  ph: number;
  clay: number;
  cec: number;
  totalCarbon: number;
  estimatedOrganicCarbon: number;
  layerCount: number;
}

export function knownPedons(): KnownPedon[] {
  const readme = readFileSync(join(DATA_DIR, "kssl", "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### 2.5 Known answers"), readme.indexOf("## 4. Verification"));
  // "(02N0245 has 8 layers, 12N7611 4, 21N0261 6."
  const counts = new Map<string, number>();
  const note = /\((\w+) has (\d+) layers, (\w+) (\d+), (\w+) (\d+)\./.exec(section);
  if (note) for (let i = 1; i < note.length; i += 2) counts.set(note[i]!, Number(note[i + 1]));
  const pedons: KnownPedon[] = [];
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 13 || !/^\d{2}[A-Z]\d{4}$/.test(cells[1] ?? "")) continue;
    const [, pedlabsampnum, upedonid, named, latLon, labsampnum, hzn, depths, ph, clay, cec, tc, eoc] = cells as string[];
    const [latitude, longitude] = latLon!.split(",").map((x) => Number(x.trim()));
    const [top, bottom] = depths!.split("–").map(Number);
    pedons.push({
      pedlabsampnum: pedlabsampnum!,
      upedonid: upedonid!,
      name: named!.replace(/\s*\(.*\)$/, ""),
      latitude: latitude!,
      longitude: longitude!,
      labsampnum: labsampnum!,
      hzn_desgn: hzn!,
      top: top!,
      bottom: bottom!,
      ph: Number(ph),
      clay: Number(clay),
      cec: Number(cec),
      totalCarbon: Number(tc),
      estimatedOrganicCarbon: Number(eoc),
      layerCount: counts.get(pedlabsampnum!) ?? Number.NaN,
    });
  }
  return pedons;
}
