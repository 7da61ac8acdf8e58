/**
 * `loam import` (docs/decisions.md#import): a failed import (a truncated zip, a GeoTIFF in another CRS, a
 * CSV missing a column) or a refused one (a file in no declared format) leaves the snapshot byte for byte
 * as it was; the same file twice changes nothing; a newer release replaces the older; the Lab Data Mart's
 * SQLite download answers as its CSV tables do. Expected values come from the files, read here.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { zipSync } from "fflate";
import { fromArrayBuffer } from "geotiff";
import { importDownloads, ImportRefused } from "../../src/snapshot/import";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import type { Provider } from "../../src/providers/provider";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { parseRfc4180 } from "../support/csv";
import { DATA_DIR, startLoam } from "../support/server";
import { tool } from "../support/tools";

const ROOT = join(import.meta.dir, "../..");
const provider = (id: string) => DEFAULT_PROVIDERS.find((p) => p.id === id) as Provider;
const KS = join(DATA_DIR, "kssl/KS");

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "loam-import-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A snapshot holding the KSSL CSV tables, to import into. */
async function baseSnapshot(name: string): Promise<string> {
  const path = join(dir, `${name}.sqlite`);
  await importDownloads({ provider: provider("usda_kssl"), paths: [KS], snapshotPath: path, dataDir: DATA_DIR });
  return path;
}

/** A folder's files in a zip, under one top folder as WSS writes them. */
function zipOf(folder: string, top: string): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files[`${top}/${relative(folder, p)}`] = readFileSync(p);
    }
  };
  walk(folder);
  return zipSync(files);
}

/** The CSV rows of a file as header + cells. */
function csvCells(path: string): { header: string[]; rows: string[][] } {
  const [header, ...rows] = parseRfc4180(readFileSync(path, "utf8").replace(/\r?\n/g, "\r\n")); // LF-ended files; no cell holds a line break
  return { header: header!, rows };
}

/** The import must fail (or be refused) and leave the snapshot's bytes and folder as they were. */
async function expectUnchanged(snapshot: string, run: () => Promise<unknown>, message: RegExp): Promise<void> {
  const before = readFileSync(snapshot);
  const files = readdirSync(dir).sort();
  await expect(run()).rejects.toThrow(message);
  expect(readFileSync(snapshot).equals(before)).toBe(true);
  expect(readdirSync(dir).sort()).toEqual(files);
}

describe("a failed or refused import changes nothing", () => {
  test("a truncated WSS zip", async () => {
    const snapshot = await baseSnapshot("truncated");
    const zip = zipOf(join(DATA_DIR, "ssurgo/IA183-aoi"), "wss_aoi_2020-06-10");
    const path = join(dir, "wss_truncated.zip");
    writeFileSync(path, zip.subarray(0, Math.floor(zip.length / 2)));
    await expectUnchanged(snapshot, () => importDownloads({ provider: provider("usda_ssurgo"), paths: [path], snapshotPath: snapshot, dataDir: DATA_DIR }), /wss_truncated\.zip: not a complete zip \(.*\); download it again/);
  });

  test("a GeoTIFF in another CRS, refused with the gdalwarp command that converts it", async () => {
    const snapshot = await baseSnapshot("crs");
    // The clip's GeoKeyDirectory says GeographicTypeGeoKey (2048) = 4326 in place; make it NAD83 (4269).
    const bytes = new Uint8Array(readFileSync(join(DATA_DIR, "soilgrids/raster/clay_0-5cm_mean.tif")));
    const key = Buffer.from(new Uint16Array([2048, 0, 1, 4326]).buffer);
    const at = Buffer.from(bytes).indexOf(key);
    expect(at).toBeGreaterThan(0);
    new DataView(bytes.buffer).setUint16(at + 6, 4269, true);
    mkdirSync(join(dir, "nad83"), { recursive: true });
    const path = join(dir, "nad83", "clay_0-5cm_mean.tif");
    writeFileSync(path, bytes);
    await expectUnchanged(
      snapshot,
      () => importDownloads({ provider: provider("isric_soilgrids"), paths: [path], snapshotPath: snapshot, dataDir: DATA_DIR }),
      /clay_0-5cm_mean\.tif is in geographic CRS 4269, not EPSG:4326; convert it first: gdalwarp -t_srs EPSG:4326 /,
    );
  });

  test("a Lab Data Mart CSV missing a key column", async () => {
    const snapshot = await baseSnapshot("column");
    const folder = join(dir, "KS-broken");
    cpSync(KS, folder, { recursive: true });
    const { header, rows } = csvCells(join(KS, "lab_layer.csv"));
    const drop = header.indexOf("labsampnum");
    const without = (cells: string[]) => cells.filter((_, i) => i !== drop).join(",");
    writeFileSync(join(folder, "lab_layer.csv"), [without(header), ...rows.map(without)].join("\n") + "\n");
    await expectUnchanged(snapshot, () => importDownloads({ provider: provider("usda_kssl"), paths: [folder], snapshotPath: snapshot, dataDir: DATA_DIR }), /KS-broken\/lab_layer\.csv: no column labsampnum; a Lab Data Mart lab_layer table has it/);
  });

  test("a file in no declared format is refused naming the formats", async () => {
    const snapshot = await baseSnapshot("format");
    const error = await importDownloads({ provider: provider("usda_ssurgo"), paths: [join(KS, "lab_layer.csv")], snapshotPath: snapshot, dataDir: DATA_DIR }).catch((e) => e);
    expect(error).toBeInstanceOf(ImportRefused);
    expect(error.message).toContain("is in no format usda_ssurgo reads; it reads WSS zip: ");
    expect(error.message).toContain("WSS folder: ");
    await expectUnchanged(snapshot, () => importDownloads({ provider: provider("usda_kssl"), paths: [join(DATA_DIR, "ssurgo")], snapshotPath: snapshot, dataDir: DATA_DIR }), /LDM CSV: .*LDM SQLite: /);
  });

  test("the command line says so and exits 2 on a refusal, 1 on a failure; --help lists every importer's formats", () => {
    const cli = (...args: string[]) => Bun.spawnSync(["bun", join(ROOT, "src/cli.ts"), ...args], { cwd: ROOT });
    const snapshot = join(dir, "cli.sqlite");
    const refused = cli("import", "usda_kssl", join(DATA_DIR, "ssurgo"), "--snapshot", snapshot);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr.toString()).toMatch(/is in no format usda_kssl reads; .*; nothing changed\n$/);
    expect(existsSync(snapshot)).toBe(false);
    const help = cli("import", "--help").stdout.toString();
    for (const p of DEFAULT_PROVIDERS) {
      const formats = "snapshot" in p ? p.snapshot?.formats ?? [] : [];
      for (const f of formats) expect(help).toContain(`    ${f.name}: ${f.description}`);
    }
    expect([...help.matchAll(/^  [a-z_]+$/gm)].map((m) => m[0])).toEqual(DEFAULT_PROVIDERS.filter((p) => "snapshot" in p && p.snapshot?.formats).map((p) => `  ${p.id}`));
  });
});

describe("a snapshot holding only what was imported", () => {
  test("serves it, and every other source answers with its coverage warning", async () => {
    const snapshot = await baseSnapshot("only-kssl");
    const source = new SnapshotTransport(snapshot);
    const loam = await startLoam({ source });
    try {
      expect(source.describe().coverage).toEqual(["KSSL Kansas lab pedons (462)"]);
      expect((await loam.json("/v1/pedons/02N0245?properties=clay")).body.layers.length).toBeGreaterThan(0);
      const survey = await loam.json("/v1/soil/location?latitude=41.944131&longitude=-94.359608");
      expect(survey.status).toBe(200);
      expect(survey.body.map_units).toEqual([]);
      expect(survey.body.warnings.join(" ")).toContain("outside this offline snapshot (areas: none)");
      const unit = await loam.json("/v1/soil/mapunits/2765528");
      expect([unit.status, unit.body.error.message]).toEqual([404, expect.stringContaining("The offline snapshot holds no survey area.")]);
      const sites = await loam.json("/v1/geochem/sites?bbox=-96,38,-95,39");
      expect([sites.status, sites.body.features]).toEqual([200, []]);
      expect(sites.body.warnings.join(" ")).toContain("holds no USGS DS 801 geochemistry sites (the file was not imported)");
      const modeled = await loam.json("/v1/soil/modeled?latitude=18.65&longitude=-71.6&properties=clay");
      expect([modeled.status, modeled.body.observations]).toEqual([200, []]);
      const stations = await loam.json("/v1/stations?bbox=-100,30,-90,40");
      expect([stations.status, stations.body.features]).toEqual([200, []]);
      const providers = (await loam.json("/v1/providers")).body.providers as any[];
      const others = providers.filter((p) => p.operational && p.id !== "usda_kssl");
      expect(others.length).toBe(DEFAULT_PROVIDERS.filter((p) => p.role !== "planned").length - 1);
      for (const p of others) expect(p.coverage).toEndWith("This instance serves an offline snapshot holding none of its data.");
    } finally {
      await loam.stop();
      source.close();
    }
  });
});

describe("what the command line says", () => {
  test("off a terminal: a progress line as each download starts and ends on stderr, one summary line per dataset on stdout", () => {
    const snapshot = join(dir, "lines.sqlite");
    const areas = ["IA073-aoi", "MH936"].map((a) => join(DATA_DIR, "ssurgo", a));
    const run = Bun.spawnSync(["bun", join(ROOT, "src/cli.ts"), "import", "usda_ssurgo", ...areas, "--snapshot", snapshot], { cwd: ROOT });
    expect(run.exitCode).toBe(0);
    const progress = run.stderr.toString().split("\n").filter((l) => l.startsWith("usda_ssurgo: "));
    expect(progress.map((l) => l.replace(/ \(1 dataset\(s\), [0-9.]+ s\)$/, ""))).toEqual(areas.flatMap((a) => [`usda_ssurgo: importing ${a} (WSS folder)`, `usda_ssurgo: ${a} imported`]));
    const out = run.stdout.toString().trim().split("\n");
    expect(out.map((l) => l.split(" (")[0])).toEqual(["usda_ssurgo: SSURGO IA073 Greene County, Iowa", "usda_ssurgo: SSURGO MH936 Islands of Airik, Arno, Majuro, Mili and Taroa, Republic of the Marshall Islands", `snapshot created: ${snapshot}`]);
  });
});

describe("npm install keeps what was imported", () => {
  test("a snapshot of an older layout holding imports is kept, byte for byte, with a sentence saying what to do", async () => {
    const snapshot = await baseSnapshot("older");
    const db = new Database(snapshot);
    db.run("UPDATE snapshot_info SET value = '0' WHERE key = 'layout:usda_kssl'");
    db.close();
    const before = readFileSync(snapshot);
    const ensure = Bun.spawnSync(["bun", join(ROOT, "src/cli.ts"), "snapshot", "ensure"], { cwd: ROOT, env: { ...process.env, LOAM_SNAPSHOT: snapshot } });
    expect(ensure.exitCode).toBe(0);
    expect(ensure.stderr.toString()).toContain("holds 1 imported download(s); it is kept: import them again into a new snapshot");
    expect(readFileSync(snapshot).equals(before)).toBe(true);
  });
});

describe("an interrupted import", () => {
  test("killed while it writes its copy: the snapshot is byte for byte as it was, and the next import clears the copy", async () => {
    const snapshot = await baseSnapshot("killed");
    const before = readFileSync(snapshot);
    const child = Bun.spawn(["bun", join(ROOT, "src/cli.ts"), "import", "usda_scan", join(DATA_DIR, "scan/ismn/Data_header_values.zip"), "--snapshot", snapshot], { cwd: ROOT, stdout: "ignore", stderr: "ignore" });
    const tmp = `${snapshot}.tmp-${child.pid}`;
    // Poll until the import is writing its copy (bounded generously), then kill it there.
    const deadline = Date.now() + 60_000;
    while (!existsSync(tmp) && child.exitCode === null && Date.now() < deadline) await Bun.sleep(5);
    expect(existsSync(tmp)).toBe(true);
    child.kill("SIGKILL");
    await child.exited;
    expect(readFileSync(snapshot).equals(before)).toBe(true);
    // The next import (another process) removes the dead one's copy and its lock.
    await importDownloads({ provider: provider("usda_ssurgo"), paths: [join(DATA_DIR, "ssurgo/IA183-aoi")], snapshotPath: snapshot, dataDir: DATA_DIR });
    expect(readdirSync(dir).filter((f) => f.startsWith("killed.sqlite"))).toEqual(["killed.sqlite"]);
  }, 120_000);
});

describe("one writer at a time", () => {
  test("a live process's lock refuses the import, changing nothing; a dead one's lock and temporary copy are cleared", async () => {
    const snapshot = await baseSnapshot("locked");
    const lock = `${snapshot}.lock`;
    writeFileSync(lock, String(process.ppid));
    await expectUnchanged(snapshot, () => importDownloads({ provider: provider("usda_ssurgo"), paths: [join(DATA_DIR, "ssurgo/IA183-aoi")], snapshotPath: snapshot, dataDir: DATA_DIR }), new RegExp(`another import \\(process ${process.ppid}\\) is writing`));
    // A process that has exited: its lock and its half-written copy are left over from a kill.
    const dead = Bun.spawnSync(["true"]).pid;
    writeFileSync(lock, String(dead));
    writeFileSync(`${snapshot}.tmp-${dead}`, "half a copy");
    const report = await importDownloads({ provider: provider("usda_ssurgo"), paths: [join(DATA_DIR, "ssurgo/IA183-aoi")], snapshotPath: snapshot, dataDir: DATA_DIR });
    expect(report.paths.flatMap((p) => p.datasets.map((d) => d.id))).toEqual(["IA183"]);
    expect(readdirSync(dir).filter((f) => f.startsWith("locked.sqlite"))).toEqual(["locked.sqlite"]);
  });
});

describe("idempotent, and a newer release replaces the older", () => {
  test("the same folder twice: the second import is skipped and the file not rewritten", async () => {
    const snapshot = await baseSnapshot("twice");
    const before = readFileSync(snapshot);
    const again = await importDownloads({ provider: provider("usda_kssl"), paths: [KS], snapshotPath: snapshot, dataDir: DATA_DIR });
    expect(again.paths.map((p) => p.unchanged)).toEqual([true]);
    expect(readFileSync(snapshot).equals(before)).toBe(true);
  });

  test("a WSS zip then the same area as a folder: one copy of each row, the dataset listed once", async () => {
    const snapshot = join(dir, "wss.sqlite");
    const zip = join(dir, "wss_SSA_IA183.zip");
    writeFileSync(zip, zipOf(join(DATA_DIR, "ssurgo/IA183-aoi"), "IA183"));
    await importDownloads({ provider: provider("usda_ssurgo"), paths: [zip], snapshotPath: snapshot, dataDir: DATA_DIR });
    await importDownloads({ provider: provider("usda_ssurgo"), paths: [join(DATA_DIR, "ssurgo/IA183-aoi")], snapshotPath: snapshot, dataDir: DATA_DIR });
    const db = new Database(snapshot, { readonly: true });
    const lines = (file: string) => readFileSync(join(DATA_DIR, "ssurgo/IA183-aoi/tabular", file), "latin1").split(/\r?\n/).filter((l) => l !== "").length;
    expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM mapunit").get()!.n).toBe(lines("mapunit.txt"));
    expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM chorizon").get()!.n).toBe(lines("chorizon.txt"));
    expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM snapshot_info WHERE key LIKE 'dataset:%'").get()!.n).toBe(1);
    db.close();
  });

  test("a folder of many survey areas (as a state's download unpacks) is one path: each area its dataset", async () => {
    const snapshot = join(dir, "many.sqlite");
    const report = await importDownloads({ provider: provider("usda_ssurgo"), paths: [join(DATA_DIR, "ssurgo")], snapshotPath: snapshot, dataDir: DATA_DIR });
    const folders = readdirSync(join(DATA_DIR, "ssurgo"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name.slice(0, 5).toUpperCase()).sort();
    expect(report.paths[0]!.datasets.map((d) => d.id).sort()).toEqual(folders);
  });

  test("a newer release of a pedon replaces its rows: same counts, the new value served", async () => {
    const snapshot = await baseSnapshot("newer");
    // The "newer release": the KS tables with one layer's clay changed.
    const folder = join(dir, "newer", "KS");
    cpSync(KS, folder, { recursive: true });
    const { header, rows } = csvCells(join(KS, "lab_physical_properties.csv"));
    const clay = header.indexOf("clay_total");
    const target = rows.findIndex((r) => r[header.indexOf("labsampnum")] === "02N01100");
    const changed = rows.map((r, i) => (i === target ? r.map((c, j) => (j === clay ? "40.5" : c)) : r));
    // Only numbers and keys in this table: no cell needs quotes.
    writeFileSync(join(folder, "lab_physical_properties.csv"), [header, ...changed].map((r) => r.join(",")).join("\n") + "\n");
    const report = await importDownloads({ provider: provider("usda_kssl"), paths: [folder], snapshotPath: snapshot, dataDir: DATA_DIR });
    expect(report.paths[0]!.unchanged).toBe(false);
    const db = new Database(snapshot, { readonly: true });
    const count = (table: string) => db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;
    expect([count("lab_combine_nasis_ncss"), count("lab_physical_properties")]).toEqual([csvCells(join(KS, "lab_combine_nasis_ncss.csv")).rows.length, rows.length]);
    expect(db.query<{ c: string }, []>("SELECT clay_total AS c FROM lab_physical_properties WHERE labsampnum = '02N01100'").all()).toEqual([{ c: "40.5" }]);
    db.close();
  });
});

describe("the Lab Data Mart's SQLite download", () => {
  test("answers as its CSV tables do: numbers stored as REAL come back as the same text", async () => {
    // A database with the LDM table names, numeric cells stored as REAL as the Lab Data Mart's file holds them.
    const ldm = join(dir, "ldm.sqlite");
    const db = new Database(ldm, { create: true });
    for (const table of ["lab_combine_nasis_ncss", "lab_layer", "lab_chemical_properties", "lab_physical_properties"]) {
      const { header, rows } = csvCells(join(KS, `${table}.csv`));
      db.run(`CREATE TABLE ${table} (${header.map((h) => `"${h}"`).join(", ")})`);
      const insert = db.prepare(`INSERT INTO ${table} VALUES (${header.map(() => "?").join(", ")})`);
      db.transaction(() => {
        for (const row of rows) insert.run(...row.map((c) => (c === "" ? null : /^-?\d+(\.\d+)?$/.test(c) && !/^0\d/.test(c) ? Number(c) : c)));
      })();
    }
    db.close();
    const snapshot = join(dir, "from-sqlite.sqlite");
    const report = await importDownloads({ provider: provider("usda_kssl"), paths: [ldm], snapshotPath: snapshot, dataDir: DATA_DIR });
    expect(report.paths[0]!.format).toBe("LDM SQLite");
    const source = new SnapshotTransport(snapshot);
    const loam = await startLoam({ source });
    try {
      const { header, rows } = csvCells(join(KS, "lab_physical_properties.csv"));
      const layers = csvCells(join(KS, "lab_layer.csv"));
      const layersOf = (pedon: string) => layers.rows.filter((r) => r[layers.header.indexOf("pedlabsampnum")] === pedon).map((r) => r[layers.header.indexOf("labsampnum")]!);
      for (const pedon of ["02N0245", "12N7611", "21N0261"]) {
        const { status, body } = await loam.json(`/v1/pedons/${pedon}?properties=clay`);
        expect(status).toBe(200);
        const expected = layersOf(pedon).map((key) => [key, rows.find((r) => r[header.indexOf("labsampnum")] === key)?.[header.indexOf("clay_total")] || null]).sort();
        const seen = body.layers.map((l: any) => [l.lab_sample_key, l.observations.find((o: any) => o.property.id === "clay")?.reported_value ?? null]).sort();
        expect(seen).toEqual(expected);
      }
    } finally {
      await loam.stop();
      source.close();
    }
  });
});

const gdalwarp = tool("gdalwarp", "gdal-bin");

describe.skipIf(!gdalwarp)("SoilGrids' own data type", () => {
  test("an Int16 GeoTIFF with NoData -32768 (as cut from SoilGrids' VRTs) answers its cells and its NoData", async () => {
    const clip = join(DATA_DIR, "soilgrids/raster/clay_0-5cm_mean.tif");
    mkdirSync(join(dir, "int16"), { recursive: true });
    const path = join(dir, "int16", "clay_0-5cm_mean.tif");
    const run = Bun.spawnSync([gdalwarp!, "-q", "-ot", "Int16", "-srcnodata", "65535", "-dstnodata", "-32768", "-co", "TILED=YES", "-co", "COMPRESS=DEFLATE", clip, path]);
    expect(run.exitCode).toBe(0);
    const snapshot = join(dir, "int16.sqlite");
    await importDownloads({ provider: provider("isric_soilgrids"), paths: [path], snapshotPath: snapshot, dataDir: DATA_DIR });
    const source = new SnapshotTransport(snapshot);
    const loam = await startLoam({ source });
    try {
      // The same cells as the UInt16 original (GDAL's reading of it), NoData now -32768.
      const value = (file: string, lon: number, lat: number) => Number(Bun.spawnSync(["gdallocationinfo", "-valonly", "-wgs84", file, String(lon), String(lat)]).stdout.toString().trim());
      const cell = (await loam.json("/v1/providers/isric_soilgrids/raw/location?latitude=18.65&longitude=-71.6&properties=clay")).body.upstream_response.snapshot_clips[0];
      expect([cell.value, cell.nodata]).toEqual([value(clip, -71.6, 18.65), -32768]);
      expect(cell.value).toBe(value(path, -71.6, 18.65));
      const empty = await loam.json("/v1/soil/modeled?latitude=18.697297&longitude=-71.829129&properties=clay&depth_bottom_cm=5");
      expect(value(path, -71.829129, 18.697297)).toBe(-32768);
      expect(empty.body.observations).toEqual([]);
      expect(empty.body.warnings.some((w: string) => w.includes("NoData (-32768)"))).toBe(true);
    } finally {
      await loam.stop();
      source.close();
    }
  });
});

describe.skipIf(!gdalwarp)("a large tiled raster, read window by window", () => {
  test("is stored by reference (the snapshot does not hold its cells) and answers GDAL's cell at every point asked", async () => {
    mkdirSync(join(dir, "large"), { recursive: true });
    const path = join(dir, "large", "clay_0-5cm_mean.tif");
    // 4560 x 1060 cells (above the in-place threshold), 256 x 256 DEFLATE tiles with the horizontal predictor, Int16 as SoilGrids' own.
    const run = Bun.spawnSync([gdalwarp!, "-q", "-ts", "4560", "1060", "-r", "near", "-ot", "Int16", "-srcnodata", "65535", "-dstnodata", "-32768", "-co", "TILED=YES", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2", join(DATA_DIR, "soilgrids/raster/clay_0-5cm_mean.tif"), path]);
    expect(run.exitCode).toBe(0);
    const snapshot = join(dir, "large.sqlite");
    await importDownloads({ provider: provider("isric_soilgrids"), paths: [path], snapshotPath: snapshot, dataDir: DATA_DIR });
    expect(statSync(snapshot).size).toBeLessThan(4560 * 1060 * 2);
    const bytes = readFileSync(path);
    const image = await (await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))).getImage();
    const [west, north] = image.getOrigin() as [number, number];
    const [dx, dy] = image.getResolution() as [number, number];
    // Pixels spread over the raster (several tiles, tile edges included), asked at their centres.
    const pixels = [[0, 0], [255, 255], [256, 256], [1000, 500], [2280, 530], [4559, 1059], [3071, 767], [3072, 768], [1800, 420], [2100, 300]] as const;
    const gdal = Bun.spawnSync(["gdallocationinfo", "-valonly", path], { stdin: new TextEncoder().encode(pixels.map(([c, r]) => `${c} ${r}`).join("\n") + "\n") });
    const expected = gdal.stdout.toString().trim().split("\n").map(Number);
    expect(expected).toHaveLength(pixels.length);
    expect(new Set(expected).size).toBeGreaterThan(2);
    const source = new SnapshotTransport(snapshot);
    const loam = await startLoam({ source });
    try {
      const seen: number[] = [];
      for (const [column, row] of pixels) {
        const lon = west + (column + 0.5) * dx;
        const lat = north + (row + 0.5) * dy;
        const { body } = await loam.json(`/v1/providers/isric_soilgrids/raw/location?latitude=${lat}&longitude=${lon}&properties=clay`);
        const cell = body.upstream_response.snapshot_clips[0];
        expect(cell.pixel).toEqual({ column, row });
        seen.push(cell.value);
      }
      expect(seen).toEqual(expected);
    } finally {
      await loam.stop();
      source.close();
    }
  });
});
