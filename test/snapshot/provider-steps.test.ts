/**
 * A provider's own snapshot tables (docs/architecture.md#providers): the build runs every registered
 * provider's step, records its layout, and a snapshot whose provider layout differs is stale.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSnapshot, layoutKey, staleLayout } from "../../src/snapshot/build";
import { readSnapshotInfo } from "../../src/upstream/snapshot-schema";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import type { Provider } from "../../src/providers/provider";
import { fixtureProvider } from "../fixtures/fixture_points";
import { DATA_DIR } from "../support/server";

/** The fixture provider with a snapshot step of its own: one table named from its id. */
function withStep(layout: string): Provider {
  return {
    ...fixtureProvider,
    snapshot: {
      layout,
      import(db, dataDir) {
        db.run("CREATE TABLE fixture_points_sites (id TEXT PRIMARY KEY, data_dir TEXT)");
        db.query("INSERT INTO fixture_points_sites VALUES (?, ?)").run("clarion-1", dataDir);
        return {
          datasets: [{ kind: "fixture_points", id: "sites", label: "Fixture points (1)", vintage: null, source: dataDir, rows: { fixture_points_sites: 1 }, importedAt: new Date().toISOString() }],
          warnings: ["fixture: one warning"],
        };
      },
    },
  } as Provider;
}

describe("provider snapshot steps", () => {
  test("the build runs a registered provider's step, lists its dataset and records its layout", async () => {
    const providers = [...DEFAULT_PROVIDERS, withStep("1")];
    const outPath = join(mkdtempSync(join(tmpdir(), "loam-steps-")), "snapshot.sqlite");
    const report = await buildSnapshot({ dataDir: DATA_DIR, outPath, providers });
    expect(report.tables.fixture_points_sites).toBe(1);
    expect(report.warnings).toContain("fixture: one warning");
    expect(report.datasets.map((d) => d.label)).toContain("Fixture points (1)");
    const db = new Database(outPath, { readonly: true });
    const { values } = readSnapshotInfo(db);
    db.close();
    expect(values.get(layoutKey("fixture_points"))).toBe("1");
    expect(staleLayout(values, providers)).toBeNull();
    // Another layout of the same provider's tables makes the file stale, naming whose tables.
    expect(staleLayout(values, [...DEFAULT_PROVIDERS, withStep("2")])).toBe("fixture_points tables of layout 1, now 2");
  }, 120_000);
});
