/**
 * A national mirror answers every query of the lab pedons, SoilGrids, SCAN, DS 801 geochemistry and
 * series descriptions as one snapshot file holding all its datasets would (docs/decisions.md#national-mirror).
 *
 * - Each source of one dataset (series descriptions, geochemistry, SCAN, SoilGrids) is put in a file of its
 *   own, apart from the SSURGO and lab file: every route of theirs answers the body the one-file test
 *   snapshot answers, but for what names the source (the time it was built or imported, the identity).
 * - SoilGrids rasters cut into east and west halves in two files: points and grids answer the whole
 *   rasters' values.
 * - Two lab collections in two files: Kansas, and two copies of it written by the scale bench's generator
 *   (renumbered pedons 99Z…, the values Kansas's; the first copy at Kansas's coordinates, so every box
 *   holds pedons of both files and the nearest tie, the second 7.7 degrees east), against one file holding
 *   both: boxes paged to their end, a pedon of each file, the collection's extent and counts, and the
 *   nearest pedons (the evidence route, and the query itself), with the mirror's files in either order.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { buildMirror, masked, withoutCoverage } from "../support/mirror";
import { DATA_DIR, startLoam, testSnapshot, type RunningLoam } from "../support/server";
import { openSnapshots } from "../../src/upstream/snapshot-mirror";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { nearestQuery } from "../../src/providers/usda_kssl/queries";
import { pedonNumber, writeLabTables } from "../../bench/scale/kssl";

const temp = (name: string) => mkdtempSync(join(tmpdir(), `loam-mirror-${name}-`));
/** A generated download's path as buildMirror reads its paths: under DATA_DIR. */
const fromData = (path: string) => relative(resolve(DATA_DIR), path);

/** The mirror's answer must be the one file's: its status, and its body but for the port, the clock and the request id (`masked`) and the cache member, then `adjust`ed. */
function expectSameAnswer(path: string, a: { status: number; body: unknown }, b: { status: number; body: unknown }, adjust = (body: unknown) => body): void {
  expect({ path, status: b.status }).toEqual({ path, status: a.status });
  // The cache member says whether this server was asked the path before (the one-file server is asked once per mirror).
  const own = (body: unknown) => adjust(JSON.parse(masked(JSON.stringify(body)), (key, value) => (key === "cache" ? undefined : value)));
  expect(own(b.body)).toEqual(own(a.body));
}

/** Ask both servers the same path; returns the one file's body. */
async function expectSame(one: RunningLoam, mirror: RunningLoam, path: string, adjust?: (body: unknown) => unknown): Promise<any> {
  const [a, b] = await Promise.all([one.json(path), mirror.json(path)]);
  expectSameAnswer(path, a, b, adjust);
  return a.body;
}

/** The next page's path of an answer (its Link header's rel="next", or a `next` member), or null on the last page. */
function nextOf(answer: { headers: Headers; body: any }, base: string): string | null {
  const link = /<([^>]+)>;\s*rel="next"/.exec(answer.headers.get("link") ?? "")?.[1];
  const next = link ?? answer.body?.next ?? answer.body?.links?.find?.((l: any) => l.rel === "next")?.href;
  return typeof next === "string" ? next.replace(base, "") : null;
}

/** Page both servers from `first` to the last page, each following its own links: every page the same. Returns the one file's pages. */
async function expectSamePages(one: RunningLoam, mirror: RunningLoam, first: string, adjust?: (body: unknown) => unknown): Promise<any[]> {
  const pages: any[] = [];
  let paths: [string, string] | null = [first, first];
  while (paths !== null) {
    const [a, b] = await Promise.all([one.json(paths[0]), mirror.json(paths[1])]);
    expectSameAnswer(paths[0], a, b, adjust);
    expect(a.status).toBe(200);
    pages.push(a.body);
    const next: [string | null, string | null] = [nextOf(a, one.base), nextOf(b, mirror.base)];
    expect(next[1] === null).toBe(next[0] === null);
    paths = next[0] === null ? null : [next[0], next[1]!];
  }
  return pages;
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
  // The files' SoilGrids clips were read by `loam import`, which names their place by its box: the coverage warning says so.
  const same = (path: string) => expectSame(one, mirror, path, withoutCoverage);
  const samePages = (path: string) => expectSamePages(one, mirror, path, withoutCoverage);

  test("series descriptions: a series, its colours, one not held", async () => {
    for (const name of ["Clarion", "Harney", "Nicollet", "Nowhere"]) await same(`/v1/series/${name}`);
  }, 60_000);

  test("lab pedons link the series of another file", async () => {
    const pedon = await same("/v1/pedons/02N0245?properties=ph,organic_carbon,clay");
    expect(JSON.stringify(pedon)).toContain("/v1/series/");
    await same("/v1/pedons?bbox=-96.5,38.5,-95,39.5&limit=5");
    await same("/v1/providers/usda_kssl/raw/pedons/02N0245");
    // SSURGO and the nearest pedons of one file, the series of another.
    await same("/v1/soil/evidence?latitude=41.944131&longitude=-94.359608&properties=ph,organic_carbon,clay");
    await same("/v1/soil/evidence?latitude=39.05&longitude=-95.7&properties=ph,organic_carbon,clay");
  }, 60_000);

  test("geochemistry: sites in a box and their pages, nearest sites, a site, its raw row", async () => {
    const pages = await samePages("/v1/geochem/sites?bbox=-96.7,40.3,-90.1,43.6&property=arsenic&limit=20");
    expect(pages.length).toBeGreaterThan(1);
    await same("/v1/geochem/sites?near=41.94,-94.36&limit=7&property=lead");
    await same("/v1/geochem/sites/3560?properties=arsenic,selenium,lead");
    await same("/v1/geochem/sites/1");
    await same("/v1/providers/usgs_geochem/raw/sites/3560");
  }, 60_000);

  test("SCAN: stations in a box and their pages, nearest stations, a station, its series", async () => {
    expect((await samePages("/v1/stations?bbox=-125,25,-65,50&limit=20")).length).toBeGreaterThan(1);
    await same("/v1/stations?near=34.9,-86.6&limit=5");
    await same("/v1/stations/2092:KS:SCAN");
    await same("/v1/providers/usda_scan/raw/stations/2092:KS:SCAN");
    await same("/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-07-01&end=2010-07-07");
    // The stations whose ISMN series the snapshot holds: a week of hourly values each.
    const all = await same("/v1/stations?bbox=-180,-90,180,90&limit=500");
    const held = JSON.stringify(all).match(/\d+:[A-Z]{2}:SCAN/g) ?? [];
    const ismn = [];
    for (const triplet of new Set(held)) {
      const station = await same(`/v1/stations/${triplet}`);
      if (JSON.stringify(station).includes("ISMN")) ismn.push(triplet);
    }
    expect(ismn.length).toBeGreaterThan(0);
    for (const triplet of ismn) await same(`/v1/stations/${triplet}/series?element=soil_moisture&depth_cm=5.08&start=2010-07-01&end=2010-07-07`);
  }, 120_000);

  test("SoilGrids: modeled values at points of the clips and outside them, the grids", async () => {
    const { fromFile } = await import("geotiff");
    const image = await (await fromFile(join(DATA_DIR, "soilgrids/raster/clay_0-5cm_mean.tif"))).getImage();
    const [west, north] = image.getOrigin() as [number, number];
    const [cellW, cellH] = image.getResolution() as [number, number];
    const at = (column: number, row: number) => [north + (row + 0.5) * cellH, west + (column + 0.5) * cellW];
    const points = [at(0, 0), at(image.getWidth() >> 1, image.getHeight() >> 1), at(image.getWidth() - 1, image.getHeight() - 1), [41.944131, -94.359608]];
    for (const [lat, lon] of points) {
      const body = await same(`/v1/soil/modeled?latitude=${lat}&longitude=${lon}&properties=clay,silt`);
      if (lat! < 30) expect(JSON.stringify(body)).toContain("clay");
    }
    for (const property of ["clay", "silt"]) for (const depth of ["0-5cm", "5-15cm"]) await same(`/v1/soil/modeled/grid?property=${property}&depth=${depth}`);
  }, 60_000);
});

/**
 * The repository's SoilGrids rasters cut at their middle column into an east and a west half (the cells
 * read from the real files with the geotiff library, each half written with the origin, cell size and
 * NoData of the original), the halves imported into two files. One file cannot hold both halves (a
 * layer, depth and statistic is one clip in a file), so the reference is the one-file snapshot's whole rasters.
 */
async function writeHalves(): Promise<{ east: string[]; west: string[]; columns: number; rows: number; origin: [number, number]; cell: [number, number] }> {
  const { fromFile, writeArrayBuffer } = await import("geotiff");
  const folders = { east: temp("soilgrids-east"), west: temp("soilgrids-west") };
  const written = { east: [] as string[], west: [] as string[] };
  let facts = { columns: 0, rows: 0, origin: [0, 0] as [number, number], cell: [0, 0] as [number, number] };
  for (const name of ["clay_0-5cm_mean", "clay_5-15cm_mean", "silt_0-5cm_mean", "silt_5-15cm_mean"]) {
    const image = await (await fromFile(join(DATA_DIR, "soilgrids/raster", `${name}.tif`))).getImage();
    const [west, north] = image.getOrigin() as [number, number];
    const [cellW, cellH] = image.getResolution() as [number, number];
    const [band] = (await image.readRasters()) as unknown as Uint16Array[];
    const [width, height] = [image.getWidth(), image.getHeight()];
    const half = width >> 1;
    facts = { columns: width, rows: height, origin: [west, north], cell: [cellW, -cellH] };
    for (const [side, from, to] of [["west", 0, half], ["east", half, width]] as const) {
      const cells = new Uint16Array((to - from) * height);
      for (let row = 0; row < height; row++) cells.set(band!.subarray(row * width + from, row * width + to), row * (to - from));
      const tiff = writeArrayBuffer(cells, {
        width: to - from, height, ModelPixelScale: [cellW, -cellH, 0], ModelTiepoint: [0, 0, 0, west + from * cellW, north, 0],
        GDAL_NODATA: String(image.getGDALNoData()), GeographicTypeGeoKey: 4326, GTModelTypeGeoKey: 2, GTRasterTypeGeoKey: 1, GeogCitationGeoKey: "WGS 84",
      } as never);
      const path = join(folders[side], `${name}.tif`);
      writeFileSync(path, Buffer.from(tiff));
      written[side].push(fromData(path));
    }
  }
  return { ...written, ...facts };
}

/**
 * Cell centres to 1e-9 degrees (0.1 mm): the east half's origin is the whole raster's plus its first
 * column's cells, a double rounded once, so its centres may differ from the whole's in the last digit.
 */
function centresRounded(value: unknown, key = ""): unknown {
  if (typeof value === "number" && key === "centre") return Math.round(value * 1e9) / 1e9;
  if (Array.isArray(value)) return value.map((v) => centresRounded(v, key));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, centresRounded(v, k === "cell_center" || key === "centre" ? "centre" : k)]));
  return value;
}

describe("SoilGrids rasters split by area into two files", () => {
  let one: RunningLoam;
  let mirror: RunningLoam;
  let raster: Awaited<ReturnType<typeof writeHalves>>;
  beforeAll(async () => {
    raster = await writeHalves();
    const dir = await buildMirror(temp("soilgrids"), [
      { name: "a-east.sqlite", imports: [["isric_soilgrids", raster.east]] },
      { name: "b-west.sqlite", imports: [["isric_soilgrids", raster.west]] },
    ]);
    one = await startLoam({ source: new SnapshotTransport(await testSnapshot()) });
    mirror = await startLoam({ source: openSnapshots(dir) });
  }, 300_000);
  afterAll(async () => {
    await one?.stop();
    await mirror?.stop();
  });

  test("a point of either half, and on each side of the cut, answers the whole raster's values", async () => {
    const { columns, rows, origin, cell } = raster;
    const half = columns >> 1;
    const at = (column: number, row: number) => [origin[1] - (row + 0.5) * cell[1], origin[0] + (column + 0.5) * cell[0]];
    for (const [lat, lon] of [at(0, 0), at(half - 1, rows >> 1), at(half, rows >> 1), at(columns - 1, rows - 1), at(half + 7, 3), [41.944131, -94.359608]]) {
      const body = await expectSame(one, mirror, `/v1/soil/modeled?latitude=${lat}&longitude=${lon}&properties=clay,silt`, (body) => centresRounded(withoutCoverage(body)));
      if (lat! < 30) expect(JSON.stringify(body)).toContain("clay");
    }
  }, 60_000);

  test("each grid is the whole raster's, its cells from the half that has them", async () => {
    for (const property of ["clay", "silt"]) {
      for (const depth of ["0-5cm", "5-15cm"]) {
        const grid = await expectSame(one, mirror, `/v1/soil/modeled/grid?property=${property}&depth=${depth}`, withoutCoverage);
        expect(JSON.stringify(grid)).toContain(`${raster.columns}`);
      }
    }
  }, 60_000);
});

describe("two lab collections in two files", () => {
  let one: RunningLoam;
  let oneFile: SnapshotTransport;
  /** The same two files served in both orders: no answer may depend on which file is asked first. */
  const mirrors: RunningLoam[] = [];
  let copied: string[];
  beforeAll(async () => {
    // Two copies: the first keeps Kansas's coordinates (every Kansas pedon has a twin in the other file),
    // the second lies 7.7 degrees east (the copy's extent is larger than Kansas's).
    const generated = temp("lab-copy");
    const plan = writeLabTables(DATA_DIR, generated, 2 * 462);
    copied = Array.from({ length: plan.pedons }, (_, i) => pedonNumber(i));
    const copy = fromData(join(generated, "ZZ"));
    const dir = await buildMirror(temp("labs"), [
      { name: "copy.sqlite", imports: [["usda_kssl", [copy]]] },
      { name: "kansas.sqlite", imports: [["usda_kssl", ["kssl/KS"]]] },
    ]);
    const single = await buildMirror(temp("labs-one"), [{ name: "both.sqlite", imports: [["usda_kssl", ["kssl/KS", copy]]] }]);
    oneFile = new SnapshotTransport(join(single, "both.sqlite"));
    one = await startLoam({ source: oneFile });
    // The copy's pedons' keys (99Z…) come after Kansas's: in either file order, file order is not the answer's order.
    for (const order of [["copy", "kansas"], ["kansas", "copy"]]) mirrors.push(await startLoam({ source: openSnapshots(order.map((f) => join(dir, `${f}.sqlite`)).join(",")) }));
  }, 300_000);
  afterAll(async () => {
    await one?.stop();
    for (const mirror of mirrors) await mirror.stop();
  });

  test("a box across both collections, paged to its end: pedons of both, in one file's order and pages", async () => {
    for (const mirror of mirrors) {
      for (const limit of [7, 100, 500]) {
        const pages = await expectSamePages(one, mirror, `/v1/pedons?bbox=-97,38,-95,40&limit=${limit}`);
        const keys: string[] = pages.flatMap((page) => page.features.map((f: any) => f.properties.pedon_key));
        expect(new Set(keys).size).toBe(keys.length);
        const twins = keys.filter((k) => k.startsWith("99Z"));
        expect(twins.length).toBeGreaterThan(0);
        expect(twins.length).toBeLessThan(keys.length);
      }
      await expectSamePages(one, mirror, "/v1/pedons/layers?bbox=-96,38.5,-95,39.5&properties=ph,organic_carbon,clay&limit=40");
    }
  }, 120_000);

  test("a pedon of each file, and one of neither", async () => {
    for (const mirror of mirrors) {
      for (const key of ["02N0245", copied[0]!, copied[copied.length - 1]!, "99Z9999"]) {
        await expectSame(one, mirror, `/v1/pedons/${key}?properties=ph,organic_carbon,clay`);
        await expectSame(one, mirror, `/v1/providers/usda_kssl/raw/pedons/${key}`);
      }
    }
  }, 60_000);

  test("the collection's extent and counts of both files", async () => {
    for (const mirror of mirrors) {
      const collection = await expectSame(one, mirror, "/ogc/collections/pedons");
      // The union: west of Kansas's west, east of the shifted copy's east.
      const [west, , east] = collection.extent.spatial.bbox[0];
      expect(east - west).toBeGreaterThan(7.7);
      for (const bbox of ["-97,38,-95,40", "-89,38,-87,40", "-90,30,-89,31"]) {
        const pages = await expectSamePages(one, mirror, `/ogc/collections/pedons/items?bbox=${bbox}&limit=100`);
        expect(typeof pages[0].numberMatched).toBe("number");
      }
    }
  }, 60_000);

  test("the evidence at a point lists the nearest pedons of both files, as one file does", async () => {
    for (const mirror of mirrors) {
      for (const [latitude, longitude] of [[39.05, -95.7], [39.3534584, -94.943222], [38.3, -90.5]] as const) {
        const body = await expectSame(one, mirror, `/v1/soil/evidence?latitude=${latitude}&longitude=${longitude}&properties=ph,organic_carbon,clay`);
        if (longitude < -94) expect(JSON.stringify(body)).toContain("99Z");
      }
    }
  }, 60_000);

  test("the nearest pedons of both files, ties between twins broken by key", async () => {
    for (const mirror of mirrors) {
      for (const [latitude, longitude, limit] of [[39.05, -95.7, 10], [38.3, -98.2, 50], [39.3534584, -94.943222, 3]] as const) {
        const params = { latitude, longitude, bbox: [longitude - 1, latitude - 1, longitude + 1, latitude + 1] as [number, number, number, number], limit };
        const expected = await nearestQuery.decode(await oneFile.fetch(nearestQuery, params));
        const merged = await nearestQuery.decode(await mirror.source.fetch(nearestQuery, params));
        expect(merged.typed).toEqual(expected.typed);
        const keys = new Set(expected.typed.rows.map((row) => String(row[0])));
        expect(keys.size).toBe(limit);
        expect([...keys].some((k) => k.startsWith("99Z"))).toBe(true);
      }
    }
  }, 60_000);
});
