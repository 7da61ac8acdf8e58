/** The snapshot build carries the series descriptions and the Munsell table (the single executable serves from it alone). */
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildSnapshot } from "../../src/snapshot/build";
import { readMunsellTable, readStoredOsd } from "../../src/providers/usda_osd/snapshot";

const DATA = resolve(process.env.LOAM_DATA_DIR ?? "datasets");
const dir = mkdtempSync(join(tmpdir(), "loam-osd-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("buildSnapshot stores all 145 OSD files byte-exact and the 4,995 renotation rows, and reports them", async () => {
  const outPath = join(dir, "snapshot.sqlite");
  const report = await buildSnapshot({ dataDir: DATA, outPath });
  expect([report.tables.usda_osd_series, report.tables.usda_osd_munsell_renotation]).toEqual([145, 4995]);
  const db = new Database(outPath, { readonly: true });
  try {
    expect(readStoredOsd(db, "WEBSTER")).toEqual({ json: readFileSync(join(DATA, "osd", "WEBSTER.json"), "utf8"), source_file: "osd/WEBSTER.json" });
    expect(readStoredOsd(db, "MEADE")).toBeNull();
    expect(readMunsellTable(db).rowCount).toBe(4995);
    const info = JSON.parse(db.query<{ value: string }, []>("SELECT value FROM snapshot_info WHERE key = 'osd'").get()!.value);
    expect(info).toMatchObject({ series: 145, munsell_rows: 4995 });
  } finally {
    db.close();
  }
});
