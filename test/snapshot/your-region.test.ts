/**
 * docs/your-region.md, walked through: the `loam import` lines of its "Try it with the repository's files"
 * section run as written (the command line, into a new snapshot of their own), then Loam serves that
 * snapshot and its answers are compared with the source files, read by this test's own readers (not the
 * importers'): the WSS text files split on `|`, the CSV files split on commas outside quotes, the
 * GeoTIFFs read by the geotiff library, the ISMN lines split on blanks, the DS 801 file split on tabs.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromArrayBuffer } from "geotiff";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { parseRfc4180 } from "../support/csv";
import { DATA_DIR, startLoam, type RunningLoam } from "../support/server";
import { ismn, percent } from "../site_series/reference";

const ROOT = join(import.meta.dir, "../..");
const GUIDE = readFileSync(join(ROOT, "docs/your-region.md"), "utf8");

/** The `loam import` lines of the guide's walk-through section, as written. */
function walkThrough(): string[][] {
  const section = GUIDE.slice(GUIDE.indexOf("## 3. Try it with the repository's files"), GUIDE.indexOf("## Cost"));
  return section.split("\n").filter((line) => line.startsWith("loam import ")).map((line) => line.split(/\s+/).slice(1));
}

/** A WSS table file's records, quotes removed (the data tables here hold no `|` or `"` inside values). */
function wssRecords(area: string, file: string): string[][] {
  return readFileSync(join(DATA_DIR, "ssurgo", area, "tabular", file), "latin1")
    .split(/\r?\n/)
    .filter((line) => line !== "")
    .map((line) => line.split("|").map((cell) => cell.replace(/^"|"$/g, "")));
}

/** A CSV file as {column: cell} rows. */
function csv(path: string): Record<string, string>[] {
  const [header, ...rows] = parseRfc4180(readFileSync(path, "utf8").replace(/\r?\n/g, "\r\n")); // LF-ended files; no cell holds a line break
  return rows.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i] ?? ""])));
}

let dir: string;
let snapshot: string;
let loam: RunningLoam;
let source: SnapshotTransport;
const runs: { args: string[]; code: number; stdout: string }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "loam-region-"));
  snapshot = join(dir, "region.sqlite");
  for (const line of walkThrough()) {
    const args = line.map((arg) => (arg === "region.sqlite" ? snapshot : arg));
    const run = Bun.spawnSync(["bun", join(ROOT, "src/cli.ts"), ...args], { cwd: ROOT, env: { ...process.env, LOAM_DATA_DIR: DATA_DIR } });
    runs.push({ args, code: run.exitCode, stdout: run.stdout.toString() });
  }
  source = new SnapshotTransport(snapshot);
  loam = await startLoam({ source });
}, 120_000);

afterAll(async () => {
  await loam?.stop();
  source?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("docs/your-region.md, with the repository's files", () => {
  test("the guide imports every format, each line succeeding with a summary line per dataset", () => {
    expect(runs.map((r) => r.args[1])).toEqual(["usda_ssurgo", "usda_kssl", "isric_soilgrids", "usda_scan", "usda_osd", "usgs_geochem"]);
    for (const run of runs) expect(run.code).toBe(0);
    expect(runs[0]!.stdout).toContain("usda_ssurgo: SSURGO IA073 Greene County, Iowa");
    expect(runs[0]!.stdout).toContain("usda_ssurgo: SSURGO MH936");
    expect(runs[1]!.stdout).toContain("usda_kssl: KSSL Kansas lab pedons (462)");
  });

  test("WSS folders: every map unit of IA073 and MH936 answers with the name and symbol its mapunit.txt gives", async () => {
    for (const area of ["IA073-aoi", "MH936"]) {
      // mapunit: musym is column 1, muname 2, mukey the last (mstabcol colsequence).
      const units = wssRecords(area, "mapunit.txt");
      expect(units.length).toBeGreaterThan(0);
      for (const unit of units) {
        const { status, body } = await loam.json(`/v1/soil/mapunits/${unit[unit.length - 1]}`);
        expect(status).toBe(200);
        expect([body.map_unit.map_unit_symbol, body.map_unit.map_unit_name]).toEqual([unit[0], unit[1]]);
      }
    }
  });

  test("Lab Data Mart CSV: the known pedons' layers carry the clay and pH their CSV rows hold, character for character", async () => {
    const layers = csv(join(DATA_DIR, "kssl/KS/lab_layer.csv"));
    const physical = new Map(csv(join(DATA_DIR, "kssl/KS/lab_physical_properties.csv")).map((r) => [r.labsampnum, r]));
    const chemical = new Map(csv(join(DATA_DIR, "kssl/KS/lab_chemical_properties.csv")).map((r) => [r.labsampnum, r]));
    for (const pedon of ["02N0245", "12N7611", "21N0261"]) {
      const { status, body } = await loam.json(`/v1/pedons/${pedon}?properties=clay,ph`);
      expect(status).toBe(200);
      const expected = layers.filter((l) => l.pedlabsampnum === pedon).map((l) => l.labsampnum).sort();
      expect(body.layers.map((l: any) => l.lab_sample_key).sort()).toEqual(expected);
      for (const layer of body.layers) {
        const seen = Object.fromEntries(layer.observations.map((o: any) => [o.property.id, o.reported_value]));
        expect(seen.clay ?? "").toBe(physical.get(layer.lab_sample_key)?.clay_total ?? "");
        expect(seen.ph ?? "").toBe(chemical.get(layer.lab_sample_key)?.ph_h2o ?? "");
      }
    }
  });

  test("SoilGrids GeoTIFFs: the raw route's cell is the file's pixel at the point", async () => {
    const bytes = readFileSync(join(DATA_DIR, "soilgrids/raster/clay_0-5cm_mean.tif"));
    const image = await (await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))).getImage();
    const [band] = (await image.readRasters()) as unknown as Uint16Array[];
    const [west, north] = image.getOrigin() as [number, number];
    const [width, height] = image.getResolution() as [number, number];
    const [lon, lat] = [-71.6, 18.65];
    const column = Math.floor((lon - west) / width);
    const row = Math.floor((north - lat) / Math.abs(height));
    const { status, body } = await loam.json(`/v1/providers/isric_soilgrids/raw/location?latitude=${lat}&longitude=${lon}&properties=clay`);
    expect(status).toBe(200);
    expect(body.upstream_response.snapshot_clips).toHaveLength(1);
    expect(body.upstream_response.snapshot_clips[0]).toMatchObject({ file: "clay_0-5cm_mean.tif", pixel: { column, row }, value: band![row * image.getWidth() + column] });
  });

  test("ISMN zip: Abrams' hourly soil moisture of a day equals its .stm lines (m3/m3 x 100)", async () => {
    const { status, body } = await loam.json("/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-07-01&end=2010-07-01");
    expect(status).toBe(200);
    const expected = ismn("Abrams").lines.filter((l) => l.time.startsWith("2010-07-01"));
    expect(expected.length).toBeGreaterThan(0);
    expect(body.values.map((v: any) => [v.time, v.value, v.flags])).toEqual(expected.map((l) => [l.time, percent(l.raw), l.flags]));
  });

  test("OSD JSON: the imported series answer with their file's name and class; another series is not held", async () => {
    for (const file of ["CLARION.json", "MAJURO.json"]) {
      const osd = JSON.parse(readFileSync(join(DATA_DIR, "osd", file), "utf8"));
      const { status, body } = await loam.json(`/v1/series/${file.replace(".json", "").toLowerCase()}`);
      expect(status).toBe(200);
      expect(body.series.name).toBe(file.replace(".json", ""));
      expect(JSON.stringify(osd)).toContain(body.series.taxonomic_class);
    }
    expect((await loam.json("/v1/series/kimo")).status).toBe(404);
  });

  test("DS 801 file: the first sites' lead is their row's Top5_Pb cell", async () => {
    const lines = readFileSync(join(DATA_DIR, "geochem/Appendix_2b_Top5_18Sept2013.txt"), "latin1").split("\n");
    const headerAt = lines.findIndex((l) => l.startsWith("Top5_LabID\t"));
    const header = lines[headerAt]!.split("\t").map((c) => c.trim());
    for (const line of lines.slice(headerAt + 2, headerAt + 7)) {
      const row = line.split("\t").map((c) => c.trim());
      const { status, body } = await loam.json(`/v1/geochem/sites/${row[header.indexOf("SiteID")]}?properties=lead`);
      expect(status).toBe(200);
      const pb = row[header.indexOf("Top5_Pb")];
      expect(body.observations.map((o: any) => o.source.original_value)).toEqual(pb ? [pb] : []);
    }
  });

  test("coverage follows what was imported: the providers' and layers' coverage name the imported datasets only", async () => {
    const providers = (await loam.json("/v1/providers")).body.providers as any[];
    const coverage = (id: string) => providers.find((p) => p.id === id).coverage as string;
    expect(coverage("usda_ssurgo")).toContain("SSURGO IA073 Greene County, Iowa");
    expect(coverage("usda_ssurgo")).not.toContain("IA015");
    expect(coverage("usda_kssl")).toContain("KSSL Kansas lab pedons (462)");
    expect(coverage("isric_soilgrids")).toContain("SoilGrids 2.0 clips (2: clay_0-5cm_mean, silt_0-5cm_mean");
    const layers = (await loam.json("/v1/layers")).body.layers as any[];
    const survey = layers.find((l) => l.id === "usda_ssurgo");
    expect(survey.coverage.places.map((p: any) => p.id)).toEqual(["IA073", "MH936"]);
    expect(survey.coverage.description).toBe(coverage("usda_ssurgo"));
    expect(readdirSync(dir).filter((f) => f.includes(".tmp-"))).toEqual([]);
  });
});
