/**
 * A real generated client: openapi-typescript turns the served /openapi.json into types, tsc 5
 * (the version the generator supports; the project's own TypeScript 7 has no JS API) type-checks a
 * script written against them with openapi-fetch, and the script calls a running Loam. The packages
 * are pinned in test/clients/typescript/package-lock.json and installed with `npm ci` into a
 * scratch directory once per lockfile (the npm registry must be reachable the first time).
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { useLoam } from "../support/server";
import { knownPoints } from "../location/known-answers";
import { knownPedons } from "../pedons/known-answers";
import { sourceMapUnits } from "../summaries/source-files";

const { loam } = useLoam();
const PACKAGE = resolve(import.meta.dir, "typescript");

async function run(cmd: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  const child = Bun.spawn(cmd, { cwd, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}\n${stdout}\n${stderr}`);
  return stdout;
}

/** The scratch copy with its node_modules, installed once per lockfile content. */
async function scratch(): Promise<string> {
  const lock = readFileSync(join(PACKAGE, "package-lock.json"));
  const dir = join(tmpdir(), `loam-client-typescript-${Bun.hash(lock).toString(36)}`);
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, "node_modules/.bin/openapi-typescript")) || !existsSync(join(dir, "node_modules/.bin/tsc"))) {
    copyFileSync(join(PACKAGE, "package.json"), join(dir, "package.json"));
    writeFileSync(join(dir, "package-lock.json"), lock);
    await run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"], dir);
  }
  for (const file of ["client.ts", "env.d.ts", "tsconfig.json"]) copyFileSync(join(PACKAGE, file), join(dir, file));
  writeFileSync(join(dir, "schema.json"), await (await loam.get("/openapi.json")).text());
  await run([join(dir, "node_modules/.bin/openapi-typescript"), "schema.json", "-o", "schema.d.ts"], dir);
  return dir;
}

describe("a client generated with openapi-typescript + openapi-fetch", () => {
  test("type-checks under tsc 5 --strict and reads the known answers from a running Loam", async () => {
    const dir = await scratch();
    const generated = readFileSync(join(dir, "schema.d.ts"), "utf8");
    // Named models survive generation as named types, referenced rather than copied.
    expect(generated).toMatch(/SoilObservation: \{/);
    // Each route's observations are the one kind it answers with: the point query's the spec's SoilObservation, the modeled route's GridObservation.
    expect(generated).toMatch(/observations: components\["schemas"\]\["SoilObservation"\]\[\];/);
    expect(generated).toMatch(/observations: components\["schemas"\]\["GridObservation"\]\[\];/);
    expect(generated).toMatch(/getPedon: \{/);
    // The 200's one media type is JSON (the model), so createClient<paths>() types every body without naming one;
    // the CSV is told in the 200's description and read with parseAs "text" (docs/decisions.md#typed-clients).
    expect(generated).toMatch(/content: \{\s*"application\/json": components\["schemas"\]\["LayerTable"\];\s*\};/);
    expect(generated).not.toContain('"text/csv"');
    expect(generated).toContain("With format=csv: text/csv; charset=utf-8; header=present");
    await run([join(dir, "node_modules/.bin/tsc"), "-p", "tsconfig.json"], dir);

    const point = knownPoints().find((p) => p.area === "IA073-aoi" && p.component === "Clarion")!;
    const grid = { lat: 18.65, lon: -71.6 };
    const out = JSON.parse(await run([process.execPath, "client.ts"], dir, { LOAM_BASE: loam.base, POINT_LAT: String(point.lat), POINT_LON: String(point.lon), GRID_LAT: String(grid.lat), GRID_LON: String(grid.lon) }));
    // data.observations[0].survey_context.map_unit_key and grid_context.resolution_m, read as written.
    expect(out.mapUnitKey).toBe(point.mukey);
    const modeled = (await loam.json(`/v1/soil/modeled?latitude=${grid.lat}&longitude=${grid.lon}&properties=clay`)).body;
    expect(out.resolution).toBe(modeled.observations[0].grid_context.resolution_m);
    expect(out.resolution).toBeGreaterThan(0);
    // The next link's cursor parameter and the whole next link page alike: the page after the first.
    expect(out.paging.next).toStartWith("/v1/geochem/sites?");
    expect(out.paging.byToken).toHaveLength(50);
    expect(out.paging.byLink).toEqual(out.paging.byToken);
    expect(out.paging.byToken[0]).toBeGreaterThan(out.paging.first.at(-1));
    expect(out.clay).toContainEqual({ component: "Clarion", horizon: "Ap", value: point.clay, unit: "%", provider: "usda_ssurgo" });
    expect(point.clay).toBe(21);

    const kimo = knownPedons().find((p) => p.pedlabsampnum === "02N0245")!;
    expect(out.pedons.keys).toContain("02N0245");
    expect(out.pedons.count).toBeGreaterThan(1);
    expect(out.pedons.firstCoordinates).toHaveLength(2);
    expect(out.pedon).toEqual({ key: "02N0245", layerCount: kimo.layerCount, topHorizon: kimo.hzn_desgn, topClay: kimo.clay, topClayReported: String(kimo.clay) });
    expect(out.pedon.layerCount).toBe(8);

    // The summary of the map unit at the point, as NRCS's own map-unit aggregates give it (muaggatt).
    const unit = sourceMapUnits().find((u) => u.mukey === point.mukey)!;
    expect(out.summary).toMatchObject({ mapUnitKey: point.mukey, componentCount: unit.components.length, awsUnit: "cm", drainage: unit.muaggatt.drclassdcd, clayMethod: "weighted_average" });
    expect(out.summary.aws.toFixed(2)).toBe(Number(unit.muaggatt.aws0100wta).toFixed(2));
    expect(out.summary.clayContributors).toContain(point.component);

    // One client: the layer table's JSON typed with data_kind and transformations, its CSV read as text.
    expect(out.layers.kind).toBe("mixed");
    expect(out.layers.derived).toBeGreaterThan(0);
    expect(out.layers.derivedOperations).toEqual(["derive_organic_matter_from_organic_carbon"]);
    expect(out.layers.csvType).toStartWith("text/csv");
    expect(out.layers.csvLines).toBe(out.layers.rows + 1);

    expect(out.notFound.status).toBe(404);
    expect(out.notFound.code).toBe("not_found");
    expect(out.notFound.requestId).toBe(out.notFound.requestIdHeader);
    expect(out.invalid).toMatchObject({ status: 422, code: "validation_error" });
    expect(out.invalid.message).toContain("latitude");
  }, 240_000);

  test("the type check can fail: a script that misreads a field is refused", async () => {
    const dir = await scratch();
    writeFileSync(
      join(dir, "bad.ts"),
      'import type { components } from "./schema";\nexport const wrong: string = ({} as components["schemas"]["SoilObservation"]).value;\n',
    );
    writeFileSync(join(dir, "tsconfig.bad.json"), JSON.stringify({ extends: "./tsconfig.json", files: ["bad.ts", "env.d.ts"] }));
    await expect(run([join(dir, "node_modules/.bin/tsc"), "-p", "tsconfig.bad.json"], dir)).rejects.toThrow(/TS2322/);
  }, 240_000);
});
