/**
 * A national mirror's start (docs/decisions.md#national-mirror): LOAM_SNAPSHOT names a directory of
 * snapshot files or files separated by commas, and the instance serves their datasets as one source;
 * a missing file, a dataset in two files or a file of an older release stops the start; `loam import` will not guess which of a
 * mirror's files to write. Expected places are read from each file's own snapshot_info here.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildMirror } from "../support/mirror";
import { pollUntil, spawnLoam } from "../support/spawn";

let dir: string;
let mirror: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "loam-mirror-"));
  mirror = await buildMirror(join(dir, "mirror"), [
    { name: "iowa-west.sqlite", imports: [["usda_ssurgo", ["ssurgo/IA073-aoi"]], ["usda_kssl", ["kssl/KS"]]] },
    { name: "iowa-east.sqlite", imports: [["usda_ssurgo", ["ssurgo/IA015-aoi", "ssurgo/IA183-aoi"]]] },
  ]);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The survey areas a file holds, by its own snapshot_info rows. */
function areasOf(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .query<{ key: string }, []>("SELECT key FROM snapshot_info WHERE key LIKE 'dataset:ssurgo:%'")
      .all()
      .map((r) => r.key.slice("dataset:ssurgo:".length));
  } finally {
    db.close();
  }
}

/** Start Loam on `spec`, read the survey places of GET /v1/layers, stop it. */
async function servedAreas(spec: string): Promise<string[]> {
  const child = spawnLoam({ env: { LOAM_SNAPSHOT: spec, LOAM_DB: join(dir, `state-${Math.random().toString(36).slice(2)}.sqlite`) } });
  try {
    const layers = await pollUntil("the mirror answers /v1/layers", async () => {
      try {
        const response = await fetch(`${child.base}/v1/layers`);
        return response.status === 200 ? ((await response.json()) as { layers: { kind: string; coverage: { places?: { id: string }[] } }[] }) : undefined;
      } catch {
        return undefined; // not listening yet
      }
    });
    const survey = layers.layers.find((l) => l.kind === "survey_polygons");
    return (survey?.coverage.places ?? []).map((p) => p.id).sort();
  } finally {
    child.proc.kill();
    await child.proc.exited;
  }
}

/** A start that must fail: its exit code and what it wrote. */
async function refusedStart(env: Record<string, string>): Promise<{ code: number; said: string }> {
  const child = Bun.spawn([process.execPath, "src/cli.ts", "serve"], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOST: "127.0.0.1", PORT: "0", LOAM_DB: join(dir, "refused.sqlite"), ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const code = await child.exited;
  return { code, said: (await new Response(child.stdout).text()) + (await new Response(child.stderr).text()) };
}

describe("a national mirror of several snapshot files", () => {
  test("a directory and a comma list of the same files serve every file's survey areas", async () => {
    const files = readdirSync(mirror).filter((f) => f.endsWith(".sqlite")).map((f) => join(mirror, f));
    expect(files).toHaveLength(2);
    const expected = files.flatMap(areasOf).sort();
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(await servedAreas(mirror)).toEqual(expected);
    expect(await servedAreas(files.join(","))).toEqual(expected);
  }, 120_000);

  test("a missing file stops the start, naming it", async () => {
    const missing = join(dir, "no-such-state.sqlite");
    const { code, said } = await refusedStart({ LOAM_SNAPSHOT: `${join(mirror, "iowa-west.sqlite")},${missing}` });
    expect(code).not.toBe(0);
    expect(said).toContain(`no snapshot database at ${missing}`);
    expect(said).not.toMatch(/\n\s+at /); // no stack trace
  }, 60_000);

  test("a dataset in two files stops the start, naming the dataset and both files", async () => {
    const twice = join(dir, "twice");
    mkdirSync(twice, { recursive: true });
    copyFileSync(join(mirror, "iowa-west.sqlite"), join(twice, "a.sqlite"));
    copyFileSync(join(mirror, "iowa-west.sqlite"), join(twice, "b.sqlite"));
    const { code, said } = await refusedStart({ LOAM_SNAPSHOT: twice });
    expect(code).not.toBe(0);
    expect(said).toContain(`the dataset kssl:KS is in both ${join(twice, "a.sqlite")} and ${join(twice, "b.sqlite")}`);
    expect(said).not.toMatch(/\n\s+at /);
  }, 60_000);

  test("a file written by an older release stops the start, naming the file and the tables to rebuild", async () => {
    const old = join(dir, "older");
    mkdirSync(old, { recursive: true });
    copyFileSync(join(mirror, "iowa-west.sqlite"), join(old, "a.sqlite"));
    copyFileSync(join(mirror, "iowa-east.sqlite"), join(old, "b.sqlite"));
    const db = new Database(join(old, "b.sqlite"));
    const held = db.query<{ value: string }, []>("SELECT value FROM snapshot_info WHERE key = 'layout:usda_scan'").get()!.value;
    db.query("UPDATE snapshot_info SET value = ? WHERE key = 'layout:usda_scan'").run(String(Number(held) - 1));
    db.close();
    const { code, said } = await refusedStart({ LOAM_SNAPSHOT: old });
    expect(code).not.toBe(0);
    expect(said).toContain(`${join(old, "b.sqlite")} was written by an older release (usda_scan tables of layout ${Number(held) - 1}, now ${held})`);
    expect(said).not.toMatch(/\n\s+at /);
  }, 60_000);

  test("loam import refuses a LOAM_SNAPSHOT naming a mirror unless --snapshot names the file, and changes nothing", async () => {
    const before = readdirSync(mirror).map((f) => [f, statSync(join(mirror, f)).size, statSync(join(mirror, f)).mtimeMs]);
    const child = Bun.spawn([process.execPath, "src/cli.ts", "import", "usda_ssurgo", "datasets/ssurgo/MH936"], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LOAM_SNAPSHOT: mirror },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await child.exited).toBe(2);
    expect(await new Response(child.stderr).text()).toContain("name the one to import into with --snapshot <file>");
    expect(readdirSync(mirror).map((f) => [f, statSync(join(mirror, f)).size, statSync(join(mirror, f)).mtimeMs])).toEqual(before);
  }, 60_000);
});
