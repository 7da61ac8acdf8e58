/**
 * The snapshot's packed rings (docs/decisions.md#ring-encoding) against the real Web Soil Survey
 * exports: every coordinate of every ring of every survey area reads back as the shapefile's own double,
 * bit for bit (the shapefiles read here with pyshp, the tests' own reader, each double as its 8 bytes),
 * in at most 60 % of raw float64 pairs' bytes; an older snapshot's raw rings are refused, never misread.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { flatRings } from "../../../src/geometry/rings";
import { layoutKey, staleLayout } from "../../../src/snapshot/build";
import { decodeRings } from "../../../src/upstream/snapshot-geometry";
import { SnapshotTransport } from "../../../src/upstream/snapshot";
import { DATA_DIR, startLoam, testSnapshot } from "../../support/server";
import { SURVEY_SHAPEFILES } from "../../support/survey-shapefiles";

/** Each record with a geometry, in record order: its rings, each coordinate as the hex of its little-endian double. */
async function ringsOf(path: string): Promise<string[][][][]> {
  const script = [
    "import shapefile,json,struct",
    `r=shapefile.Reader(${JSON.stringify(path)})`,
    "h=lambda v: struct.pack('<d', v).hex()",
    "out=[]",
    "for s in r.shapes():",
    "  if not s.points: continue",
    "  ends=list(s.parts[1:])+[len(s.points)]",
    "  out.append([[[h(p[0]),h(p[1])] for p in s.points[a:b]] for a,b in zip(s.parts,ends)])",
    "print(json.dumps(out))",
  ].join("\n");
  const child = Bun.spawn(["/usr/bin/python3", "-c", script], { stdout: "pipe" });
  return JSON.parse(await new Response(child.stdout).text());
}

const hex = (v: number) => Buffer.from(new Float64Array([v]).buffer).toString("hex");

const SHAPEFILES = SURVEY_SHAPEFILES;

describe("packed rings of the real survey areas", () => {
  test("every coordinate reads back as the shapefile's double, bit for bit, in at most 60 % of raw doubles' bytes", async () => {
    const db = new Database(await testSnapshot(), { readonly: true });
    try {
      for (const [area, shapefile] of SHAPEFILES) {
        const expected = await ringsOf(join(DATA_DIR, "ssurgo", shapefile));
        expect(expected.length).toBeGreaterThan(0);
        const rows = db.query("SELECT rings FROM mupolygon WHERE areasymbol = ? ORDER BY id").all(area) as { rings: Uint8Array }[];
        expect(rows.map((r) => decodeRings(r.rings).map((ring) => ring.map(([x, y]) => [hex(x!), hex(y!)])))).toEqual(expected);
        const stored = rows.reduce((sum, r) => sum + r.rings.byteLength, 0);
        const raw = expected.reduce((sum, rings) => sum + 8 + rings.reduce((s, ring) => s + 8 + 16 * ring.length, 0), 0);
        expect(stored).toBeLessThan(0.6 * raw);
      }
    } finally {
      db.close();
    }
  });

  test("a snapshot of the raw-doubles layout (2) is stale: it is rebuilt, or stops the start, before it is read", async () => {
    const db = new Database(await testSnapshot(), { readonly: true });
    const values = new Map((db.query("SELECT key, value FROM snapshot_info").all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    db.close();
    expect(staleLayout(values)).toBeNull();
    values.set(layoutKey("usda_ssurgo"), "2");
    expect(staleLayout(values)).toBe("usda_ssurgo tables of layout 2, now 3");
  });

  test("rings of raw doubles in a file that claims the packed layout are refused with the rebuild they need, never misread", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "loam-old-rings-")), "snapshot.sqlite");
    copyFileSync(await testSnapshot(), path);
    const db = new Database(path);
    const rows = db.query("SELECT id, rings FROM mupolygon").all() as { id: number; rings: Uint8Array }[];
    const update = db.query("UPDATE mupolygon SET rings = ? WHERE id = ?");
    for (const row of rows) update.run(new Uint8Array(flatRings(decodeRings(row.rings)).buffer), row.id);
    const box = db.query("SELECT min_x, min_y, max_x, max_y FROM mupolygon WHERE areasymbol = 'IA073' ORDER BY id LIMIT 1").get() as Record<string, number>;
    db.close();
    const loam = await startLoam({ source: new SnapshotTransport(path) });
    try {
      // The centre of an IA073 polygon's box: the query reads that polygon's rings.
      const [latitude, longitude] = [(box.min_y! + box.max_y!) / 2, (box.min_x! + box.max_x!) / 2];
      const { status, body } = await loam.json(`/v1/soil/location?latitude=${latitude}&longitude=${longitude}&properties=ph`);
      expect([status, body.error?.code]).toEqual([502, "upstream_error"]);
      expect(body.error.message).toContain("older layout");
    } finally {
      await loam.stop();
    }
  });
});
