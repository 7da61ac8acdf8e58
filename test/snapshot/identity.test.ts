/**
 * Start-up does not grow with the snapshot (docs/decisions.md#snapshot-identity): the source identity
 * is the row the build wrote, and opening a snapshot, building the app and answering /health read a
 * bounded number of bytes however large the file's tables are.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { importDownloads } from "../../src/snapshot/import";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { startLoam } from "../support/server";
import { DATA_DIR, testSnapshot } from "../support/server";

/** Bytes this process has read through read(2)/pread(2) so far (Linux: /proc/self/io). */
const bytesRead = () => Number(/^rchar: (\d+)$/m.exec(readFileSync("/proc/self/io", "utf8"))![1]);

const storedIdentity = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return db.query<{ value: string }, []>("SELECT value FROM snapshot_info WHERE key = 'identity'").get()?.value;
  } finally {
    db.close();
  }
};

const FILLER_BYTES = 48 * 1024 * 1024;
let dir: string;
let large: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "loam-identity-"));
  large = join(dir, "large.sqlite");
  copyFileSync(await testSnapshot(), large);
  // A table far larger than everything start-up may read (a state's polygons stand in for it).
  const db = new Database(large);
  db.run("CREATE TABLE filler (b BLOB)");
  db.run(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${FILLER_BYTES / 65536}) INSERT INTO filler SELECT randomblob(65536) FROM n`);
  db.close();
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("snapshot identity", () => {
  test("the build stores it, and the source's identity is that stored row", async () => {
    const stored = storedIdentity(await testSnapshot());
    expect(stored).toMatch(/^[0-9a-f]{16}$/);
    const source = new SnapshotTransport(await testSnapshot());
    expect(source.describe().identity).toBe(`snapshot:${stored}`);
    source.close();
    // Another row, another identity: it is read, not recomputed from the file's bytes.
    const edited = join(dir, "edited.sqlite");
    copyFileSync(await testSnapshot(), edited);
    const db = new Database(edited);
    db.run("UPDATE snapshot_info SET value = '00000000deadbeef' WHERE key = 'identity'");
    db.close();
    const other = new SnapshotTransport(edited);
    expect(other.describe().identity).toBe("snapshot:00000000deadbeef");
    other.close();
  });

  test("copies share it (replicas share cache entries and tags); an import gives the file a new one", async () => {
    const copy = join(dir, "copy.sqlite");
    copyFileSync(await testSnapshot(), copy);
    expect(storedIdentity(copy)).toBe(storedIdentity(await testSnapshot()));
    const ssurgo = DEFAULT_PROVIDERS.find((p) => p.id === "usda_ssurgo")!;
    await importDownloads({ provider: ssurgo, paths: [join(DATA_DIR, "ssurgo", "IA015-aoi")], snapshotPath: copy, dataDir: DATA_DIR });
    expect(storedIdentity(copy)).toMatch(/^[0-9a-f]{16}$/);
    expect(storedIdentity(copy)).not.toBe(storedIdentity(await testSnapshot()));
  }, 60_000);
});

describe("start-up reads a bounded part of the snapshot", () => {
  test(`opening a ${FILLER_BYTES / 1024 / 1024} MB larger snapshot, building the app and answering /health read far less than the file`, async () => {
    expect(statSync(large).size).toBeGreaterThan(FILLER_BYTES);
    const before = bytesRead();
    const loam = await startLoam({ source: new SnapshotTransport(large) });
    try {
      const health = await loam.json("/health");
      expect(health.status).toBe(200);
      const read = bytesRead() - before;
      // Hashing or scanning the file would read all of it; start-up reads its schema and info rows.
      expect(read).toBeLessThan(FILLER_BYTES / 8);
      const identity = loam.source.describe().identity;
      expect(identity).toBe(`snapshot:${storedIdentity(large)}`);
    } finally {
      await loam.stop();
      loam.source.close?.();
    }
  }, 60_000);
});
