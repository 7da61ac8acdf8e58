/**
 * SSURGO on a national mirror (docs/decisions.md#national-mirror), through HTTP: the repository's survey
 * areas split across two files (IA073, IA183, MH936 and every other dataset in one; IA015 in the other)
 * answer every SSURGO route with the body the one-file test snapshot gives, byte for byte but for the
 * port and the clock; a query across the files' border answers from both; a polygon key of the second file
 * is the second file's polygon, and no key is in both files; keys do not depend on the import order; a
 * survey area in two files stops the start. Expected areas and keys are read from the files themselves.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { openSnapshots } from "../../src/upstream/snapshot-mirror";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { buildMirror, buildWithout, masked } from "../support/mirror";
import { startLoam, testSnapshot, type RunningLoam } from "../support/server";
import { pointQuery } from "../../src/providers/usda_ssurgo/queries";
import { mapUnitsAtPointQuery } from "../../src/providers/usda_ssurgo/mapunit";
import { knownPoints } from "../location/known-answers";

let dir: string;
let mirrorDir: string;
let one: RunningLoam;
let mirror: RunningLoam;

/**
 * File 1 holds the repository's data but IA015 (as `loam snapshot build` writes it), file 2 IA015: the
 * files' order is not their keys' order (IA015's come first), so a merge must order what it joins.
 */
const FIRST = "a-rest.sqlite";
const SSURGO = DEFAULT_PROVIDERS.filter((p) => p.id === "usda_ssurgo");
const SECOND = "b-ia015.sqlite";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "loam-mirror-ssurgo-"));
  mirrorDir = await buildMirror(join(dir, "mirror"), [{ name: SECOND, imports: [["usda_ssurgo", ["ssurgo/IA015-aoi"]]] }]);
  await buildWithout(mirrorDir, FIRST, ["ssurgo/IA015-aoi"]);
  // Both serve SSURGO alone: what another provider's queries answer from a mirror is that provider's merge.
  one = await startLoam({ providers: SSURGO }); // the suite's one-file snapshot of the same exports (testSnapshot())
  mirror = await startLoam({ source: openSnapshots(mirrorDir), providers: SSURGO });
}, 180_000);

afterAll(async () => {
  await one?.stop();
  await mirror?.stop();
  mirror?.source.close?.();
  rmSync(dir, { recursive: true, force: true });
});

/** A file's rows, read with bun:sqlite. */
function rowsOf<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.query<T, []>(sql).all();
  } finally {
    db.close();
  }
}

/** The survey areas' boxes a file holds (its snapshot_info), by symbol. */
function areaBoxes(file: string): Map<string, number[]> {
  const rows = rowsOf<{ value: string }>(file, "SELECT value FROM snapshot_info WHERE key LIKE 'dataset:ssurgo:%'");
  return new Map(rows.map((r) => JSON.parse(r.value) as { id: string; bbox: number[] }).map((d) => [d.id, d.bbox]));
}


async function bodyOf(loam: RunningLoam, path: string): Promise<{ status: number; text: string }> {
  const response = await loam.get(path);
  return { status: response.status, text: masked(await response.text()) };
}

/** The mirror's answer to `path`, checked equal to the one-file snapshot's; its parsed body. */
async function same(path: string): Promise<any> {
  const [expected, got] = [await bodyOf(one, path), await bodyOf(mirror, path)];
  expect({ path, status: got.status }).toEqual({ path, status: expected.status });
  expect(got.text).toEqual(expected.text);
  return expected.text.startsWith("{") ? JSON.parse(got.text) : got.text;
}

const box = (b: number[], pad = 0.001) => [b[0]! - pad, b[1]! - pad, b[2]! + pad, b[3]! + pad].map((v) => v.toFixed(6)).join(",");
const around = (...boxes: number[][]) => box([Math.min(...boxes.map((b) => b[0]!)), Math.min(...boxes.map((b) => b[1]!)), Math.max(...boxes.map((b) => b[2]!)), Math.max(...boxes.map((b) => b[3]!))]);

/**
 * An area of interest holding two survey areas' boxes (`west` the one further west and south) joined by a
 * corridor 0.0002 degrees wide (an area of a few hundred hectares, under the route's 10,000), as WKT.
 */
function corridor(west: number[], east: number[]): string {
  const [w1, s1, e1, n1] = west.map((v, i) => v + (i < 2 ? -0.001 : 0.001));
  const [w2, s2, e2, n2] = east.map((v, i) => v + (i < 2 ? -0.001 : 0.001));
  const d = 0.0002;
  const ring = [[w1, s1], [e1, s1], [e1, n1! - d], [w2! + d, n1! - d], [w2! + d, s2], [e2, s2], [e2, n2], [w2, n2], [w2, n1], [w1, n1], [w1, s1]];
  return `POLYGON((${ring.map(([x, y]) => `${x!.toFixed(6)} ${y!.toFixed(6)}`).join(", ")}))`;
}

describe("SSURGO from a mirror of two files answers as one file holding both", () => {
  test("the files split the survey areas as meant, and no polygon key is in both", () => {
    const [first, second] = [areaBoxes(join(mirrorDir, FIRST)), areaBoxes(join(mirrorDir, SECOND))];
    expect([...first.keys()].sort()).toEqual(["IA073", "IA183", "MH936"]);
    expect([...second.keys()]).toEqual(["IA015"]);
    const keys = (file: string) => rowsOf<{ id: number }>(join(mirrorDir, file), "SELECT id FROM mupolygon").map((r) => r.id);
    const firstKeys = new Set(keys(FIRST));
    expect(firstKeys.size).toBeGreaterThan(0);
    expect(keys(SECOND).filter((k) => firstKeys.has(k))).toEqual([]);
  });

  test("points: location, raw, summary and many points, at a known point of each area", async () => {
    const points = knownPoints();
    expect(new Set(points.map((p) => p.area)).size).toBeGreaterThanOrEqual(3);
    for (const p of points) {
      const at = `latitude=${p.lat}&longitude=${p.lon}`;
      const location = await same(`/v1/soil/location?${at}&providers=usda_ssurgo`);
      expect(JSON.stringify(location)).toContain(p.mukey);
      await same(`/v1/soil/location?${at}&providers=usda_ssurgo&properties=ph,om,clay&depth_top_cm=0&depth_bottom_cm=30&format=csv`);
      await same(`/v1/providers/usda_ssurgo/raw/location?${at}`);
      const summary = await same(`/v1/soil/summary?${at}&properties=clay,ph&depth_bottom_cm=30`);
      expect(summary.map_unit.map_unit_key).toBe(p.mukey);
      await same(`/v1/soil/mapunits/${p.mukey}?properties=clay,ph,drainage_class`);
    }
    const many = await same(`/v1/soil/points?points=${points.map((p) => `${p.lat},${p.lon}`).join(";")}&properties=clay&depth_bottom_cm=30`);
    expect(JSON.stringify(many)).toContain(points[0]!.mukey);
    await same("/v1/soil/location?latitude=41.95&longitude=-94.35&providers=usda_ssurgo");
    await same("/v1/soil/mapunits/2147483647");
  }, 120_000);

  test("map units in a box, and an area of interest across the two files' border answers from both", async () => {
    const areas = new Map([...areaBoxes(join(mirrorDir, FIRST)), ...areaBoxes(join(mirrorDir, SECOND))]);
    for (const area of ["IA015", "IA073", "IA183"]) {
      const page = await same(`/v1/soil/mapunits?bbox=${box(areas.get(area)!)}&properties=clay&limit=3`);
      expect(page.features.length).toBeGreaterThan(0);
      await same(`/v1/soil/mapunits?bbox=${box(areas.get(area)!)}&format=csv`);
    }
    const across = `/v1/soil/aoi?polygon=${encodeURIComponent(corridor(areas.get("IA073")!, areas.get("IA015")!))}`;
    const aoi = await same(`${across}&format=geojson`);
    expect(new Set(aoi.features.map((f: any) => f.properties.area_symbol))).toEqual(new Set(["IA015", "IA073"]));
    const report = await same(`${across}&properties=clay,ph`);
    expect(JSON.stringify(report)).toContain("IA015");
  }, 120_000);

  test("the OGC polygons: the extent, every page of the whole world by cursor, each polygon by key", async () => {
    await same("/ogc/collections/mapunits");
    const seen: any[] = [];
    let path: string | null = "/ogc/collections/mapunits/items?limit=7";
    while (path !== null) {
      const page: any = await same(path);
      seen.push(...page.features);
      const next: string | undefined = page.links.find((l: any) => l.rel === "next")?.href;
      path = next === undefined ? null : next.slice(next.indexOf("/ogc/"));
    }
    const total = [FIRST, SECOND].reduce((n, f) => n + rowsOf<{ n: number }>(join(mirrorDir, f), "SELECT count(*) AS n FROM mupolygon")[0]!.n, 0);
    expect(seen).toHaveLength(total);
    expect(new Set(seen.map((f) => f.properties.area_symbol))).toEqual(new Set(["IA015", "IA073", "IA183", "MH936"]));
    const areas = new Map([...areaBoxes(join(mirrorDir, FIRST)), ...areaBoxes(join(mirrorDir, SECOND))]);
    const across = await same(`/ogc/collections/mapunits/items?bbox=${around(areas.get("IA015")!, areas.get("IA073")!)}&properties=clay&limit=1000`);
    expect(new Set(across.features.map((f: any) => f.properties.area_symbol))).toEqual(new Set(["IA015", "IA073"]));
    for (const feature of seen.filter((_, i) => i % 5 === 0)) await same(`/ogc/collections/mapunits/items/${feature.id}?properties=clay`);
    await same("/ogc/collections/mapunits/items/999999999");
  }, 120_000);

  test("a polygon key of the second file is the second file's polygon", async () => {
    const [row] = rowsOf<{ id: number; areasymbol: string; mukey: string }>(join(mirrorDir, SECOND), "SELECT id, areasymbol, mukey FROM mupolygon ORDER BY id DESC LIMIT 1");
    expect(rowsOf(join(mirrorDir, FIRST), `SELECT id FROM mupolygon WHERE id = ${row!.id}`)).toEqual([]);
    const { status, body } = await mirror.json(`/ogc/collections/mapunits/items/${row!.id}`);
    expect(status).toBe(200);
    expect(body.id).toBe(String(row!.id));
    expect(body.properties).toMatchObject({ area_symbol: row!.areasymbol, map_unit_key: row!.mukey });
  });
});

describe("a point asked of both files (as one on their border is)", () => {
  test("is merged as the one-file snapshot answers it, in either file order", async () => {
    const files = [FIRST, SECOND].map((f) => new SnapshotTransport(join(mirrorDir, f)));
    const oneFile = new SnapshotTransport(await testSnapshot());
    try {
      for (const query of [pointQuery, mapUnitsAtPointQuery] as const) {
        for (const p of knownPoints()) {
          const at = { latitude: p.lat, longitude: p.lon };
          const answers = await Promise.all(files.map((f) => f.fetch(query, at)));
          const expected = (await oneFile.fetch(query, at)).stored();
          expect(expected).toContain(p.mukey);
          expect(query.forms.snapshot!.merge!(answers, at).stored()).toEqual(expected);
          expect(query.forms.snapshot!.merge!(answers.reverse(), at).stored()).toEqual(expected);
        }
      }
    } finally {
      for (const f of [...files, oneFile]) f.close();
    }
  });

  test("rows of two files' map units come by map unit key, each map unit's rows in its file's order", async () => {
    const files = [FIRST, SECOND].map((f) => new SnapshotTransport(join(mirrorDir, f)));
    const oneFile = new SnapshotTransport(await testSnapshot());
    try {
      const points = knownPoints();
      // A point of each file, the file listed first holding the larger map unit key.
      const inSecond = points.find((p) => p.area.startsWith("IA015"))!;
      const inFirst = points.find((p) => !p.area.startsWith("IA015") && Number(p.mukey) > Number(inSecond.mukey))!;
      expect(inFirst).toBeDefined();
      const at = (p: typeof inFirst) => ({ latitude: p.lat, longitude: p.lon });
      const rowsOfAnswer = (stored: string) => JSON.parse(stored.slice(stored.indexOf("{"))).rows as unknown[][];
      const merged = mapUnitsAtPointQuery.forms.snapshot!.merge!([await files[0]!.fetch(mapUnitsAtPointQuery, at(inFirst)), await files[1]!.fetch(mapUnitsAtPointQuery, at(inSecond))], at(inFirst));
      const [second, first] = [await oneFile.fetch(mapUnitsAtPointQuery, at(inSecond)), await oneFile.fetch(mapUnitsAtPointQuery, at(inFirst))];
      expect(rowsOfAnswer(merged.stored())).toEqual([...rowsOfAnswer(second.stored()), ...rowsOfAnswer(first.stored())]);
    } finally {
      for (const f of [...files, oneFile]) f.close();
    }
  });
});

describe("polygon keys", () => {
  test("are the same after a rebuild in another import order", async () => {
    const orders = [
      ["ssurgo/IA073-aoi", "ssurgo/IA183-aoi", "ssurgo/MH936"],
      ["ssurgo/MH936", "ssurgo/IA183-aoi", "ssurgo/IA073-aoi"],
    ];
    const served: string[] = [];
    for (const [i, paths] of orders.entries()) {
      const built = await buildMirror(join(dir, `order-${i}`), [{ name: "areas.sqlite", imports: [["usda_ssurgo", paths]] }]);
      const loam = await startLoam({ source: new SnapshotTransport(join(built, "areas.sqlite")) });
      try {
        const { status, body } = await loam.json("/ogc/collections/mapunits/items?limit=1000");
        expect(status).toBe(200);
        expect(body.features.length).toBeGreaterThan(80);
        served.push(masked(JSON.stringify(body.features)));
      } finally {
        await loam.stop();
        loam.source.close?.();
      }
    }
    expect(served[1]).toEqual(served[0]!);
  }, 120_000);
});

describe("a survey area in two files", () => {
  test("stops the start, naming the dataset and both files, without a stack trace", async () => {
    const twice = join(dir, "twice");
    mkdirSync(twice, { recursive: true });
    await buildMirror(twice, [
      { name: "a.sqlite", imports: [["usda_ssurgo", ["ssurgo/IA073-aoi"]]] },
      { name: "b.sqlite", imports: [["usda_ssurgo", ["ssurgo/IA015-aoi", "ssurgo/IA073-aoi"]]] },
    ]);
    const child = Bun.spawn([process.execPath, "src/cli.ts", "serve"], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOST: "127.0.0.1", PORT: "0", LOAM_DB: join(dir, "refused.sqlite"), LOAM_SNAPSHOT: twice },
      stdout: "pipe",
      stderr: "pipe",
    });
    const code = await child.exited;
    const said = (await new Response(child.stdout).text()) + (await new Response(child.stderr).text());
    expect(code).not.toBe(0);
    expect(said).toContain(`the dataset ssurgo:IA073 is in both ${join(twice, "a.sqlite")} and ${join(twice, "b.sqlite")}`);
    expect(said).not.toMatch(/\n\s+at /);
  }, 60_000);
});
