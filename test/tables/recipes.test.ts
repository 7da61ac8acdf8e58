/**
 * The recipes of docs/clients.md ("Use from R, Python and QGIS"), run as written against a running Loam: the
 * Python block with python3, the ogrinfo line with GDAL. Skipped only where the tool is missing
 * (CI installs gdal-bin). R is not installed here, so its recipe is not run.
 */
import { python, tool } from "../support/tools";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { useLoam } from "../support/server";
import { knownPedons } from "../pedons/known-answers";
import { knownPoints } from "../location/known-answers";

const { loam } = useLoam();
const GUIDE = readFileSync(resolve(import.meta.dir, "../../docs/clients.md"), "utf8");
const SECTION = GUIDE.slice(GUIDE.indexOf("## Use from R, Python and QGIS"), GUIDE.indexOf("## Use from QGIS and GDAL"));
const PYTHON = python("csv", "json");
const OGRINFO = tool("ogrinfo", "gdal-bin");

function block(language: string): string {
  const match = new RegExp("```" + language + "\\n([\\s\\S]*?)```").exec(SECTION);
  if (!match) throw new Error(`the guide's section has no ${language} block`);
  return match[1]!;
}

async function run(cmd: string[], env: Record<string, string> = {}): Promise<string> {
  // No proxy: the only server is on loopback.
  const child = Bun.spawn(cmd, { env: { ...process.env, ...env, http_proxy: "", HTTP_PROXY: "", no_proxy: "*" }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`${cmd[0]} exited ${code}: ${stderr}`);
  return stdout;
}

describe("docs/clients.md recipes", () => {
  test.skipIf(!PYTHON)("the Python recipe prints the Clarion Ap clay and 02N0245's layer count", async () => {
    const out = await run([PYTHON!, "-c", block("python")], { LOAM_BASE: loam.base });
    const point = knownPoints().find((p) => p.area === "IA073-aoi" && p.component === "Clarion")!;
    const kimo = knownPedons().find((p) => p.pedlabsampnum === "02N0245")!;
    expect(out).toBe(`clay Clarion Ap ${point.clay} %\nlayers 02N0245 ${kimo.layerCount}\n`);
  });

  /** The recipe's ogrinfo line for a route, its URL pointed at the test server. */
  function ogrinfoLine(route: string): { flags: string[]; url: string } {
    const line = block("sh").split("\n").find((l) => l.startsWith("ogrinfo") && l.includes(`localhost:3000${route}?`))!;
    expect(line).toBeDefined();
    const url = /'([^']+)'/.exec(line)![1]!.replace("http://localhost:3000", loam.base);
    return { flags: line.slice("ogrinfo".length, line.indexOf("'")).trim().split(/\s+/), url };
  }

  test.skipIf(!OGRINFO)("ogrinfo reads /v1/pedons as a point layer with the same features as the JSON", async () => {
    const { flags, url } = ogrinfoLine("/v1/pedons");
    const out = await run([OGRINFO!, ...flags, url]);
    const json = await (await loam.get(url.slice(loam.base.length))).json();
    expect(json.features.length).toBeGreaterThan(1);
    expect(out).toContain(`Feature Count: ${json.features.length}`);
    expect(out).toMatch(/Geometry: Point/);
    for (const field of ["pedon_key", "pedlabsampnum", "layer_count"]) expect(out).toContain(`${field}:`);
  });

  test.skipIf(!OGRINFO)("ogrinfo reads the map-unit polygons in WGS 84 with the JSON's feature count and the summary fields", async () => {
    const { flags, url } = ogrinfoLine("/v1/soil/mapunits");
    const out = await run([OGRINFO!, ...flags, url]);
    const json = await (await loam.get(url.slice(loam.base.length))).json();
    const point = knownPoints().find((p) => p.area === "IA073-aoi" && p.component === "Clarion")!;
    expect(json.features.length).toBeGreaterThan(1);
    // The box of the recipe holds the known point's map unit (L138B).
    expect(json.features.some((f: any) => f.properties.map_unit_key === point.mukey)).toBe(true);
    expect(out).toContain(`Feature Count: ${json.features.length}`);
    expect(out).toMatch(/Geometry: (Multi )?Polygon/);
    expect(out).toMatch(/WGS 84/);
    // The summary object arrives as one JSON field (GDAL keeps nested objects as JSON strings).
    for (const field of ["map_unit_key", "map_unit_name", "area_symbol", "summary"]) expect(out).toMatch(new RegExp(`^${field}: String`, "m"));
  });

  test("the R recipe asks for URLs that answer CSV", async () => {
    const urls = [...block("r").matchAll(/"(\/v1\/[^"]+)"/g)].map((m) => m[1]!);
    expect(urls.length).toBe(3);
    for (const path of urls) {
      const response = await loam.get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toStartWith("text/csv");
      expect((await response.text()).split("\r\n").length).toBeGreaterThan(2);
    }
    // The columns the recipe's subsetting names exist in the tables it reads.
    const header = async (path: string) => (await (await loam.get(path)).text()).split("\r\n")[0]!.split(",");
    expect(await header(urls[0]!)).toEqual(expect.arrayContaining(["property_id", "horizon_name", "component_name", "value", "unit"]));
    expect(await header(urls[2]!)).toEqual(expect.arrayContaining(["map_unit_name", "property_id", "method", "value", "category", "unit"]));
  });
});
