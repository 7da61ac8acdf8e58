import { runQuery } from "../support/queries";
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { zipSync } from "fflate";
import { buildSnapshot, tableCounts, type SnapshotReport } from "../../src/snapshot/build";
import { importDownloads } from "../../src/snapshot/import";
import { usdaSsurgo } from "../../src/providers/usda_ssurgo";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { rowRecords } from "../../src/upstream/sda/rows";

const DATA = resolve(process.env.LOAM_DATA_DIR ?? "datasets");

// datasets/ssurgo/README.md §1.2 (per survey area) and datasets/kssl/README.md §2.1 (KSSL Kansas).
const AREAS: Record<string, { legend: number; mapunit: number; component: number; chorizon: number; muaggatt: number; chtexturegrp: number; mupolygon: number }> = {
  IA073: { legend: 1, mapunit: 5, component: 17, chorizon: 67, muaggatt: 5, chtexturegrp: 162, mupolygon: 13 },
  IA015: { legend: 1, mapunit: 4, component: 10, chorizon: 39, muaggatt: 4, chtexturegrp: 87, mupolygon: 4 },
  IA183: { legend: 1, mapunit: 3, component: 7, chorizon: 49, muaggatt: 3, chtexturegrp: 83, mupolygon: 9 },
  MH936: { legend: 1, mapunit: 9, component: 34, chorizon: 58, muaggatt: 9, chtexturegrp: 79, mupolygon: 67 },
};

let dir: string;
let outPath: string;
let report: SnapshotReport;
let db: Database;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "loam-build-"));
  outPath = join(dir, "out", "snapshot.sqlite");
  report = await buildSnapshot({ dataDir: DATA, outPath });
  db = new Database(outPath, { readonly: true });
}, 60_000);

afterAll(() => {
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const count = (sql: string, ...params: string[]) => db.query<{ n: number }, string[]>(sql).get(...params)?.n;

describe("buildSnapshot from the real exports", () => {
  for (const [area, expected] of Object.entries(AREAS)) {
    test(`${area}: row counts of every SSURGO table equal the data README`, () => {
      const info = report.datasets.find((d) => d.kind === "ssurgo" && d.id === area);
      expect(info?.rows).toEqual(expected);
    });
  }

  test("tables are named as in SSURGO and LDM and hold the totals", () => {
    const sum = (k: keyof (typeof AREAS)[string]) => Object.values(AREAS).reduce((s, a) => s + a[k], 0);
    for (const table of ["legend", "mapunit", "component", "chorizon", "muaggatt", "chtexturegrp", "mupolygon"] as const) {
      expect(report.tables[table]).toBe(sum(table));
    }
    expect(report.tables.sacatalog).toBe(4);
    expect(report.tables.lab_combine_nasis_ncss).toBe(462);
    expect(report.tables.lab_layer).toBe(2746);
    expect(report.tables.lab_chemical_properties).toBe(2746);
    expect(report.tables.lab_physical_properties).toBe(2671);
    expect(report.tables.extra_source_fields_pedon).toBe(462);
  });

  test("every mstabcol column exists (component 109, chorizon 171, ...) with its SDA type recorded", () => {
    const columns = (t: string) => db.query<{ name: string }, []>(`PRAGMA table_info(${t})`).all().length;
    expect([columns("legend"), columns("mapunit"), columns("component"), columns("chorizon"), columns("muaggatt"), columns("chtexturegrp")]).toEqual([14, 24, 109, 171, 40, 6]);
    const type = (t: string, c: string) => db.query<{ sqltype: string }, [string, string]>("SELECT sqltype FROM ssurgo_columns WHERE tabphyname = ? AND colphyname = ?").get(t, c)?.sqltype;
    expect([type("component", "comppct_r"), type("chorizon", "om_r"), type("mapunit", "mukey"), type("component", "majcompflag"), type("legend", "cordate")]).toEqual(["int", "real", "varchar", "varchar", "datetime"]);
  });

  test("NULL and the empty string stay distinct (component.foragesuitgrpid is \"\" in Iowa)", () => {
    expect(count("SELECT count(*) AS n FROM component WHERE foragesuitgrpid = ''")).toBeGreaterThan(0);
    expect(count("SELECT count(*) AS n FROM component c JOIN mapunit m ON m.mukey = c.mukey JOIN legend l ON l.lkey = m.lkey WHERE l.areasymbol = 'MH936' AND foragesuitgrpid = ''")).toBe(0);
    expect(count("SELECT count(*) AS n FROM component WHERE majcompflag = 'No '")).toBeGreaterThan(0);
  });

  test("sacatalog carries the version facts read from each area's metadata", () => {
    const rows = db.query<{ areasymbol: string; saversion: number | null; saverest: string | null }, []>("SELECT areasymbol, saversion, saverest FROM sacatalog ORDER BY areasymbol").all();
    expect(rows).toEqual([
      { areasymbol: "IA015", saversion: 28, saverest: "2020-06-10T02:33:39" },
      { areasymbol: "IA073", saversion: 26, saverest: "2020-06-10T02:56:26" },
      { areasymbol: "IA183", saversion: 27, saverest: "2020-06-10T13:58:39" },
      // soil_metadata_mh936.xml dates the version (2025-09-09) but states no version number.
      { areasymbol: "MH936", saversion: null, saverest: "2025-09-09T00:00:00" },
    ]);
    expect(report.warnings.some((w) => w.startsWith("MH936: survey area version not stated"))).toBe(true);
  });

  test("snapshot_info records the build time and each dataset with its rows and vintage", () => {
    const builtAt = db.query<{ value: string }, []>("SELECT value FROM snapshot_info WHERE key = 'built_at'").get()?.value;
    expect(builtAt).toBe(report.builtAt);
    const kssl = report.datasets.find((d) => d.kind === "kssl");
    expect(kssl?.label).toBe("KSSL Kansas lab pedons (462)");
    expect(kssl?.vintage).toBe("FY2001-FY2021");
    expect(report.datasets.find((d) => d.id === "IA073")?.label).toBe("SSURGO IA073 Greene County, Iowa (survey version 26, 2020-06-10; area-of-interest extract only)");
  });

  test("the real exports have no orphan keys", () => {
    expect(report.warnings.filter((w) => w.startsWith("orphan"))).toEqual([]);
  });
});

/** A data dir whose ssurgo/ and kssl/ entries are symlinks to (a subset of) the real exports. */
function dataDirWith(root: string, ssurgo: string[], kssl: string[]): string {
  for (const [kind, names] of [["ssurgo", ssurgo], ["kssl", kssl]] as const) {
    mkdirSync(join(root, kind), { recursive: true });
    for (const name of names) symlinkSync(join(DATA, kind, name), join(root, kind, name));
  }
  return root;
}

describe("integrity and atomic replacement", () => {
  test("orphan rows are kept and reported, never dropped", async () => {
    const data = dataDirWith(join(dir, "orphans"), [], []);
    const area = join(data, "ssurgo", "IA183-copy");
    cpSync(join(DATA, "ssurgo", "IA183-aoi"), area, { recursive: true });
    const comp = join(area, "tabular", "comp.txt");
    const lines = readFileSync(comp, "latin1").trimEnd().split("\n");
    const orphan = lines[0]!.replace(/"412\d{3}"\|"(\d+)"$/, '"999999"|"77777777"');
    writeFileSync(comp, [...lines, orphan].join("\n") + "\n");
    const out = join(dir, "orphans.sqlite");
    const result = await buildSnapshot({ dataDir: data, outPath: out });
    expect(result.tables.component).toBe(8);
    expect(result.warnings.some((w) => /orphan: 1 component row\(s\) whose mukey is not in mapunit\.mukey \(1 key\(s\): 999999\)/.test(w))).toBe(true);
  });

  test("a build that fails midway leaves the previous snapshot intact and no temporary file", async () => {
    const data = dataDirWith(join(dir, "broken"), ["IA073-aoi"], ["KS"]);
    const bad = join(data, "ssurgo", "ZZ999-broken");
    cpSync(join(DATA, "ssurgo", "IA015-aoi"), bad, { recursive: true });
    writeFileSync(join(bad, "tabular", "chorizon.txt"), '"only"|"three"|"fields"\n');
    const target = join(dir, "atomic", "snapshot.sqlite");
    await buildSnapshot({ dataDir: dataDirWith(join(dir, "good"), ["MH936"], []), outPath: target });
    const before = readFileSync(target);
    await expect(buildSnapshot({ dataDir: data, outPath: target })).rejects.toThrow(/chorizon\.txt: record 1 has 3 fields, mstabcol\.txt defines 171/);
    expect(readFileSync(target).equals(before)).toBe(true);
    expect(readdirSync(join(dir, "atomic"))).toEqual(["snapshot.sqlite"]);
  });
});

describe("loam import of a user's Web Soil Survey download", () => {
  test("a WSS-style zip adds its survey area to an existing snapshot; a second import replaces it", async () => {
    const base = join(dir, "import", "snapshot.sqlite");
    await buildSnapshot({ dataDir: dataDirWith(join(dir, "base"), ["MH936"], ["KS"]), outPath: base });
    // WSS zips wrap the area in one folder (wss_aoi_<date>/); build one from the IA183 export.
    const folder = join(DATA, "ssurgo", "IA183-aoi");
    const files: Record<string, Uint8Array> = {};
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else files[`wss_aoi_2020-06-10_14-00-00/${relative(folder, p)}`] = readFileSync(p);
      }
    };
    walk(folder);
    const zipPath = join(dir, "wss_aoi_2020-06-10_14-00-00.zip");
    writeFileSync(zipPath, zipSync(files));

    const tables = () => {
      const db = new Database(base, { readonly: true });
      try {
        return tableCounts(db);
      } finally {
        db.close();
      }
    };
    const first = await importDownloads({ provider: usdaSsurgo, paths: [zipPath], snapshotPath: base, dataDir: DATA });
    expect(first.paths.flatMap((p) => p.datasets).map((d) => [d.id, d.rows])).toEqual([["IA183", AREAS.IA183!]]);
    const afterFirst = tables();
    expect(afterFirst.mapunit).toBe(AREAS.MH936!.mapunit + AREAS.IA183!.mapunit);
    const second = await importDownloads({ provider: usdaSsurgo, paths: [zipPath], snapshotPath: base, dataDir: DATA });
    expect(second.paths.map((p) => p.unchanged)).toEqual([true]);
    expect(tables()).toEqual(afterFirst);
    expect(existsSync(`${base}.tmp-${process.pid}`)).toBe(false);

    const source = new SnapshotTransport(base);
    try {
      const answer = await runQuery(source, { kind: "ssurgo_point", longitude: -91.814651, latitude: 41.30306 });
      expect(rowRecords(answer.table)[0]).toMatchObject({ mukey: "412032", musym: "279", compname: "Taintor" });
      expect(source.describe().coverage).toEqual([
        "SSURGO IA183 Washington County, Iowa (survey version 27, 2020-06-10; area-of-interest extract only)",
        "SSURGO MH936 Islands of Airik, Arno, Majuro, Mili and Taroa, Republic of the Marshall Islands (2025-09-09)",
        "KSSL Kansas lab pedons (462)",
      ]);
    } finally {
      source.close();
    }
  }, 60_000);

});
