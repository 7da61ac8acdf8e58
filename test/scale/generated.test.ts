/**
 * The scale bench's path at 1 % (bench/scale/): inputs generated from datasets/ in the real download
 * formats, built into a snapshot through the importers, served over HTTP: what is read back equals
 * what was generated (each source imported as `loam import` does). The generated values are the real rows' values under renumbered keys and
 * shifted coordinates, so each answer is compared with the real source's answer at the unshifted
 * place (the test snapshot), or with the generated file read by the test's own reader. No timing.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importDownloads } from "../../src/snapshot/import";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { generate, type Generated } from "../../bench/scale/generate";
import { copyShift, pedonNumber } from "../../bench/scale/kssl";
import { tileShift } from "../../bench/scale/ssurgo";
import { SERIES_START, stationTriplet } from "../../bench/scale/scan";
import { decodeBlock } from "../../src/providers/usda_scan/blocks";
import { CELL, REGION_ORIGIN } from "../../bench/scale/soilgrids";
import { DATA_DIR, startLoam, type RunningLoam } from "../support/server";

// data README §1.3: a point of IA073's AOI on map unit 2765528 (L138B, Clarion loam).
const KNOWN = { lon: -94.359608, lat: 41.944131 };

let dir: string;
let generated: Generated;
let synthetic: RunningLoam;
let real: RunningLoam;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "loam-scale-"));
  generated = await generate(DATA_DIR, join(dir, "data"), 1);
  // Each source through `loam import`'s path, as the bench imports them; the generated folder is the data folder (SCAN's station metadata).
  const data = generated.dataDir;
  const downloads: [string, string[]][] = [
    ["usda_ssurgo", [join(data, "ssurgo")]],
    ["usda_kssl", [join(data, "kssl", "ZZ")]],
    ["usda_scan", [join(data, "scan", "ismn")]],
    ["isric_soilgrids", generated.rasters.map((f) => join(data, "soilgrids", "raster", f))],
  ];
  for (const [id, paths] of downloads) {
    await importDownloads({ provider: DEFAULT_PROVIDERS.find((p) => p.id === id)!, paths, snapshotPath: join(dir, "snapshot.sqlite"), dataDir: data });
  }
  synthetic = await startLoam({ source: new SnapshotTransport(join(dir, "snapshot.sqlite")), env: { CACHE_TTL_SECONDS: "0" } });
  real = await startLoam({ env: { CACHE_TTL_SECONDS: "0" } });
}, 120_000);

afterAll(async () => {
  await synthetic?.stop();
  await real?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("bench:scale at 1 %: what is generated is what is served", () => {
  test("the snapshot holds every generated polygon, pedon, layer, hourly value and raster", () => {
    const db = new Database(join(dir, "snapshot.sqlite"), { readonly: true });
    const count = (sql: string) => db.query<{ n: number }, []>(sql).get()!.n;
    try {
      const { sizes, kssl, scan } = generated;
      expect(count("SELECT count(*) AS n FROM mupolygon")).toBe(sizes.areas * sizes.polygonsPerArea);
      expect(count("SELECT count(*) AS n FROM lab_combine_nasis_ncss")).toBe(sizes.pedons);
      expect(count("SELECT count(*) AS n FROM lab_layer")).toBe(kssl.layers);
      // A block per station and month of the ten years, holding every hourly value.
      expect(count("SELECT count(*) AS n FROM usda_scan_block")).toBe(scan.stations * 120);
      const blocks = db.query<{ cells: Uint8Array }, []>("SELECT cells FROM usda_scan_block").all();
      expect(blocks.reduce((n, b) => n + decodeBlock(b.cells).length, 0)).toBe(scan.stations * scan.valuesPerStation);
      expect(count("SELECT count(*) AS n FROM isric_soilgrids_clip")).toBe(generated.rasters.length);
      expect(count(`SELECT count(*) AS n FROM isric_soilgrids_clip WHERE width = ${sizes.rasterSide} AND height = ${sizes.rasterSide}`)).toBe(72);
    } finally {
      db.close();
    }
  });

  test("a point in a shifted tile answers IA073's map unit there, under its renumbered keys, with the same values", async () => {
    const area = generated.areas[0]!;
    const [dx, dy] = tileShift(area, 37);
    const ask = "properties=clay,ph,om&depth_bottom_cm=30";
    const source = await real.json(`/v1/soil/location?latitude=${KNOWN.lat}&longitude=${KNOWN.lon}&${ask}`);
    const answer = await synthetic.json(`/v1/soil/location?latitude=${KNOWN.lat + dy}&longitude=${KNOWN.lon + dx}&${ask}`);
    expect(answer.status).toBe(200);
    const values = (b: any) => b.observations.map((o: any) => [o.property.id, o.value, o.depth.top_cm, o.depth.bottom_cm]);
    expect(values(answer.body)).toEqual(values(source.body));
    expect(answer.body.observations.length).toBeGreaterThan(0);
    const ids = (b: any) => b.observations.map((o: any) => Number(o.source.record_id));
    expect(ids(answer.body)).toEqual(ids(source.body).map((k: number) => k + area.keyOffset));
  });

  test("a pedon of the second copy is its Kansas source pedon, renumbered, its place shifted", async () => {
    const { kssl } = generated;
    const index = 5;
    const copied = pedonNumber(kssl.sourcePedons.length + index);
    const [dx, dy] = copyShift(1);
    const source = await real.json(`/v1/pedons/${kssl.sourcePedons[index]}?properties=clay,ph,organic_carbon`);
    const answer = await synthetic.json(`/v1/pedons/${copied}?properties=clay,ph,organic_carbon`);
    expect(answer.status).toBe(200);
    expect(answer.body.pedon_key).toBe(copied);
    expect(answer.body.location.latitude).toBeCloseTo(source.body.location.latitude + dy, 9);
    expect(answer.body.location.longitude).toBeCloseTo(source.body.location.longitude + dx, 9);
    const layers = (b: any) => b.layers.map((l: any) => [l.depth, l.horizon_designation, l.observations.map((o: any) => [o.property.id, o.value, o.unit])]);
    expect(layers(answer.body).length).toBeGreaterThan(0);
    expect(layers(answer.body)).toEqual(layers(source.body));
    // Layers renumbered: none keeps its Kansas key.
    const keys = (b: any) => b.layers.map((l: any) => l.layer_key);
    expect(keys(answer.body).filter((k: string) => keys(source.body).includes(k))).toEqual([]);
  });

  test("a year of hourly values is the generated file's, line by line", async () => {
    const ismn = join(generated.dataDir, "scan", "ismn");
    const file = readdirSync(ismn).find((f) => f.includes("SYNTH-2_"))!;
    const lines = readFileSync(join(ismn, file), "latin1").split("\r").slice(1).filter(Boolean);
    const answer = await synthetic.json(`/v1/stations/${stationTriplet(2)}/series?element=soil_moisture&depth_cm=5.08&interval=hourly&start=2015-01-01&end=2015-12-31T23:00:00Z`);
    expect(answer.status).toBe(200);
    const from = (Date.UTC(2015, 0, 1) - SERIES_START) / 3_600_000;
    const expected = lines.slice(from, from + 365 * 24).map((line) => {
      const [date, time, value, ...flags] = line.trim().split(/\s+/);
      return { time: `${date!.replaceAll("/", "-")}T${time}:00Z`, value: Math.round(Number(value) * 100 * 1e6) / 1e6, flags: flags.join(" ") };
    });
    expect(answer.body.values.map((v: any) => ({ time: v.time, value: Math.round(v.value * 1e6) / 1e6, flags: v.flags.join(" ") }))).toEqual(expected);
  });

  test("a modeled point reads the generated GeoTIFF's cell", async () => {
    const { fromArrayBuffer } = await import("geotiff");
    const bytes = readFileSync(join(generated.dataDir, "soilgrids", "raster", "sand_5-15cm_Q0.95.tif"));
    const image = await (await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))).getImage();
    const [row, column] = [41, 77];
    const [cells] = (await image.readRasters({ window: [column, row, column + 1, row + 1] })) as unknown as Uint16Array[];
    const lat = REGION_ORIGIN[1] - (row + 0.5) * CELL;
    const lon = REGION_ORIGIN[0] + (column + 0.5) * CELL;
    const answer = await synthetic.json(`/v1/soil/modeled?latitude=${lat}&longitude=${lon}&properties=sand&depth_top_cm=5&depth_bottom_cm=15`);
    expect(answer.status).toBe(200);
    const sand = answer.body.observations.find((o: any) => o.depth.top_cm === 5);
    expect(sand.source.original_property_name).toBe("sand_5-15cm_mean");
    expect(sand.uncertainty.upper).toBeCloseTo(cells![0]! / 10, 9);
  });
});
