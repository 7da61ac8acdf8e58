/** A box around the first polygon of an MH936 map unit, read from the shapefile with pyshp (the tests' own reader), 0.001 degrees wider. */
import { join } from "node:path";
import { DATA_DIR } from "./server";

export async function boxOf(mukey: string): Promise<string> {
  const script = `import shapefile,json; r=shapefile.Reader(${JSON.stringify(join(DATA_DIR, "ssurgo/MH936/spatial/soilmu_a_mh936"))})\nprint(json.dumps(next(list(r.shape(i).bbox) for i,rec in enumerate(r.records()) if rec['MUKEY']=='${mukey}')))`;
  const child = Bun.spawn(["/usr/bin/python3", "-c", script], { stdout: "pipe" });
  const box: number[] = JSON.parse(await new Response(child.stdout).text());
  return [box[0]! - 0.001, box[1]! - 0.001, box[2]! + 0.001, box[3]! + 0.001].map((v) => v.toFixed(6)).join(",");
}
