/**
 * `bun run sda:smoke` against the fake SDA (SDA_URL): it prints its report and writes the raw answers
 * as captures, byte for byte what the service sent, with the SQL that asked for them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { labPedonSql } from "../../src/providers/usda_kssl/queries";
import { ssurgoPointSql } from "../../src/providers/usda_ssurgo/queries";
import { parseSdaPayload } from "../../src/upstream/sda/payload";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { readCapture, startFakeSda, type FakeSda } from "../support/fake-sda";
import { runQuery } from "../support/queries";
import { testSnapshot } from "../support/server";

let fake: FakeSda;
let snapshot: SnapshotTransport;

beforeAll(async () => {
  snapshot = new SnapshotTransport(await testSnapshot());
  fake = startFakeSda({ answerer: snapshot });
}, 120_000);

afterAll(() => {
  fake?.close();
  snapshot?.close();
});

async function runSmoke(outDir: string) {
  const child = Bun.spawn([process.execPath, "run", "sda:smoke", "--out", outDir], {
    cwd: join(import.meta.dir, "../.."),
    env: { ...process.env, SDA_URL: fake.url, UPSTREAM_TIMEOUT_MS: "10000" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, code };
}

describe("bun run sda:smoke", () => {
  test("runs the three known queries, reports rows and timings, and saves each answer with its SQL", async () => {
    const out = mkdtempSync(join(tmpdir(), "loam-sda-smoke-"));
    const before = fake.calls;
    const { stdout, code } = await runSmoke(out);
    expect(code).toBe(0);
    expect(fake.calls - before).toBe(3);
    expect(stdout).toContain(fake.url);
    expect(stdout).toMatch(/ssurgo_point_ia073 +\d+ ms {2}HTTP 200 application\/json; charset=utf-8, \d+ bytes {2}\d+ rows, \d+ columns; map unit 2765528 as known/);
    expect(stdout).toMatch(/kssl_bbox_02n0245 .*pedon 02N0245 as known/);
    expect(stdout).toMatch(/kssl_pedon_02n0245 .*8 layers \(8 known\)/);
    expect(stdout).toContain("3 of 3 queries answered");

    expect(readdirSync(out).sort()).toEqual([
      "index.json",
      "kssl_bbox_02n0245.json",
      "kssl_bbox_02n0245.sql",
      "kssl_pedon_02n0245.json",
      "kssl_pedon_02n0245.sql",
      "ssurgo_point_ia073.json",
      "ssurgo_point_ia073.sql",
    ]);
    // The capture is what the service answered: the same table the snapshot gives for that query.
    const point = JSON.parse(readFileSync(join(out, "ssurgo_point_ia073.json"), "utf8"));
    const direct = await runQuery(snapshot, { kind: "ssurgo_point", latitude: 41.944131, longitude: -94.359608 });
    expect(parseSdaPayload(point)).toEqual(direct.table);
    expect(readFileSync(join(out, "ssurgo_point_ia073.sql"), "utf8")).toBe(`${ssurgoPointSql({ latitude: 41.944131, longitude: -94.359608 })}\n`);
    expect(readFileSync(join(out, "kssl_pedon_02n0245.sql"), "utf8")).toBe(`${labPedonSql({ pedonKey: { form: "pedlabsampnum", value: "02N0245" } })}\n`);

    const index = JSON.parse(readFileSync(join(out, "index.json"), "utf8"));
    expect(index.sda_url).toBe(fake.url);
    expect(index.queries.map((q: any) => [q.name, q.outcome, q.http_status, q.attempts])).toEqual([
      ["ssurgo_point_ia073", "ok", 200, 1],
      ["kssl_bbox_02n0245", "ok", 200, 1],
      ["kssl_pedon_02n0245", "ok", 200, 1],
    ]);
    expect(index.queries[0].rows).toBe(direct.table.rows.length);
  }, 60_000);

  test("a refused query exits 1, reports its error class and keeps SDA's report as the capture", async () => {
    const out = mkdtempSync(join(tmpdir(), "loam-sda-smoke-"));
    fake.setFault("invalid-query");
    try {
      const { stdout, code } = await runSmoke(out);
      expect(code).toBe(1);
      expect(stdout).toMatch(/ssurgo_point_ia073 .*HTTP 400 text\/xml.*FAILED upstream_error: .*Invalid column name 'nosuchcolumn'/);
      expect(stdout).toContain("0 of 3 queries answered");
      // Byte for byte what was sent.
      expect(new Uint8Array(readFileSync(join(out, "ssurgo_point_ia073.xml")))).toEqual(readCapture("invalid_column_400.xml"));
      const index = JSON.parse(readFileSync(join(out, "index.json"), "utf8"));
      expect(index.queries[0]).toMatchObject({ outcome: "upstream_error", http_status: 400, content_type: "text/xml", error: { status: 502 } });
    } finally {
      fake.setFault(null);
    }
  }, 60_000);
});
