/**
 * A national mirror answers every query of the lab pedons, SoilGrids, SCAN, DS 801 geochemistry and
 * series descriptions as one snapshot file holding all its datasets would (docs/decisions.md#national-mirror).
 *
 * - Each source of one dataset (series descriptions, geochemistry, SCAN, SoilGrids) is put in a file of its
 *   own, apart from the SSURGO and lab file: every route of theirs answers the body the one-file test
 *   snapshot answers, but for what names the source (the time it was built or imported, the identity).
 * - Two lab collections in two files: Kansas, and a copy of it written by the scale bench's generator
 *   (renumbered pedons 99Z…, the same coordinates and values, so every box holds pedons of both and the
 *   nearest tie), against one file holding both: boxes paged to their end, a pedon of each file, the
 *   collection's extent and counts, and the nearest pedons.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildMirror } from "../support/mirror";
import { DATA_DIR, startLoam, testSnapshot, type RunningLoam } from "../support/server";
import { openSnapshots } from "../../src/upstream/snapshot-mirror";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { nearestQuery } from "../../src/providers/usda_kssl/queries";
import { writeLabTables } from "../../bench/scale/kssl";

const temp = (name: string) => mkdtempSync(join(tmpdir(), `loam-mirror-${name}-`));

/** Members that name the source or the request rather than the data: when it was built or imported, when the answer was stored, the request's id. */
const SOURCE_KEYS = new Set(["retrieved_at", "cache", "request_id"]);
/** The warning naming the snapshot's build and coverage (its datasets listed file by file, each with its import's label). */
const COVERAGE = "Served from Loam's offline snapshot";

/** A body with the members naming the source left out. */
function withoutSource(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => !(typeof v === "string" && v.startsWith(COVERAGE))).map(withoutSource);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).filter(([key]) => !SOURCE_KEYS.has(key)).map(([key, v]) => [key, withoutSource(v)]));
  return value;
}

/** Ask both servers; the mirror's status and body must be the one file's. */
async function expectSame(one: RunningLoam, mirror: RunningLoam, path: string): Promise<any> {
  const [a, b] = await Promise.all([one.json(path), mirror.json(path)]);
  expect({ path, status: b.status }).toEqual({ path, status: a.status });
  expect(withoutSource(b.body)).toEqual(withoutSource(a.body));
  return a.body;
}

/** The next page's path of a body (its `next` link), or null on the last page. */
function nextOf(body: any, base: string): string | null {
  const next = body?.next ?? body?.links?.next ?? body?.links?.find?.((l: any) => l.rel === "next")?.href;
  return typeof next === "string" ? next.replace(base, "") : null;
}

describe("sources of one dataset, each in its own file", () => {
  let one: RunningLoam;
  let mirror: RunningLoam;
  beforeAll(async () => {
    const dir = await buildMirror(temp("sources"), [
      { name: "a-ssurgo-lab.sqlite", imports: [["usda_ssurgo", ["ssurgo/IA015-aoi", "ssurgo/IA073-aoi", "ssurgo/IA183-aoi", "ssurgo/MH936"]], ["usda_kssl", ["kssl/KS"]]] },
      { name: "b-series.sqlite", imports: [["usda_osd", ["osd"]]] },
      { name: "c-geochem.sqlite", imports: [["usgs_geochem", ["geochem/Appendix_2b_Top5_18Sept2013.txt"]]] },
      { name: "d-scan.sqlite", imports: [["usda_scan", ["scan/ismn/Data_header_values.zip"]]] },
      { name: "e-soilgrids.sqlite", imports: [["isric_soilgrids", ["clay_0-5cm_mean", "clay_5-15cm_mean", "silt_0-5cm_mean", "silt_5-15cm_mean"].map((f) => `soilgrids/raster/${f}.tif`)]] },
    ]);
    one = await startLoam({ source: new SnapshotTransport(await testSnapshot()) });
    mirror = await startLoam({ source: openSnapshots(dir) });
  }, 300_000);
  afterAll(async () => {
    await one?.stop();
    await mirror?.stop();
  });

  test("series descriptions: a series, its colours, one not held", async () => {
    for (const name of ["Clarion", "Harney", "Nicollet", "Nowhere"]) await expectSame(one, mirror, `/v1/series/${name}`);
  }, 60_000);

  test("lab pedons link the series of another file", async () => {
    const pedon = await expectSame(one, mirror, "/v1/pedons/02N0245?properties=ph,organic_carbon,clay");
    expect(JSON.stringify(pedon)).toContain("/v1/series/");
    await expectSame(one, mirror, "/v1/pedons?bbox=-96.5,38.5,-95,39.5&limit=5");
    await expectSame(one, mirror, "/v1/providers/usda_kssl/raw/pedons/02N0245");
  }, 60_000);

  test("geochemistry: sites in a box and their pages, nearest sites, a site, its raw row", async () => {
    const box = await expectSame(one, mirror, "/v1/geochem/sites?bbox=-96.7,40.3,-90.1,43.6&property=arsenic&limit=50");
    expect(box.features?.length ?? box.rows?.length).toBeGreaterThan(0);
    const next = nextOf(box, one.base);
    expect(next).not.toBeNull();
    await expectSame(one, mirror, next!);
    await expectSame(one, mirror, "/v1/geochem/sites?near=41.94,-94.36&limit=7&property=lead");
    await expectSame(one, mirror, "/v1/geochem/sites/3560?properties=arsenic,selenium,lead");
    await expectSame(one, mirror, "/v1/geochem/sites/1");
    await expectSame(one, mirror, "/v1/providers/usgs_geochem/raw/sites/3560");
  }, 60_000);

  test("SCAN: stations in a box and their pages, nearest stations, a station, its series", async () => {
    const box = await expectSame(one, mirror, "/v1/stations?bbox=-125,25,-65,50&limit=20");
    const next = nextOf(box, one.base);
    expect(next).not.toBeNull();
    await expectSame(one, mirror, next!);
    await expectSame(one, mirror, "/v1/stations?near=34.9,-86.6&limit=5");
    await expectSame(one, mirror, "/v1/stations/2092:KS:SCAN");
    await expectSame(one, mirror, "/v1/providers/usda_scan/raw/stations/2092:KS:SCAN");
    await expectSame(one, mirror, "/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-07-01&end=2010-07-07");
    // The stations whose ISMN series the snapshot holds: a week of hourly values each.
    const all = await expectSame(one, mirror, "/v1/stations?bbox=-180,-90,180,90&limit=500");
    const held = JSON.stringify(all).match(/\d+:[A-Z]{2}:SCAN/g) ?? [];
    const ismn = [];
    for (const triplet of new Set(held)) {
      const station = await expectSame(one, mirror, `/v1/stations/${triplet}`);
      if (JSON.stringify(station).includes("ISMN")) ismn.push(triplet);
    }
    expect(ismn.length).toBeGreaterThan(0);
    for (const triplet of ismn) await expectSame(one, mirror, `/v1/stations/${triplet}/series?element=soil_moisture&depth_cm=5.08&start=2010-07-01&end=2010-07-07`);
  }, 120_000);

  test("SoilGrids: modeled values at points of the clips and outside them, the grids", async () => {
    const { fromFile } = await import("geotiff");
    const image = await (await fromFile(join(DATA_DIR, "soilgrids/raster/clay_0-5cm_mean.tif"))).getImage();
    const [west, north] = image.getOrigin() as [number, number];
    const [cellW, cellH] = image.getResolution() as [number, number];
    const at = (column: number, row: number) => [north + (row + 0.5) * cellH, west + (column + 0.5) * cellW];
    const points = [at(0, 0), at(image.getWidth() >> 1, image.getHeight() >> 1), at(image.getWidth() - 1, image.getHeight() - 1), [41.944131, -94.359608]];
    for (const [lat, lon] of points) {
      const body = await expectSame(one, mirror, `/v1/soil/modeled?latitude=${lat}&longitude=${lon}&properties=clay,silt`);
      if (lat! < 30) expect(JSON.stringify(body)).toContain("clay");
    }
    for (const property of ["clay", "silt"]) for (const depth of ["0-5cm", "5-15cm"]) await expectSame(one, mirror, `/v1/soil/modeled/grid?property=${property}&depth=${depth}`);
  }, 60_000);
});
