/**
 * The single executable as an operator deploys it: built by `bun run build`, copied alone into an
 * empty directory, started there with no repository, no node_modules and no source exports
 * (LOAM_DATA_DIR names a directory that does not exist). It must serve the same answers as Loam run
 * from source over the same snapshot, run its subcommands, and stop cleanly on SIGTERM.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { BuildResult } from "../../scripts/build";
import { assets } from "../../src/pages/assets";

const ASSETS = assets();
import { buildSnapshot } from "../../src/snapshot/build";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { VERSION } from "../../src/version";
import { DATA_DIR, startLoam, type RunningLoam } from "../support/server";
import { buildOnce, REPO, spawnLoam, type LoamProcess } from "./support";

/** The release under test, read from package.json (one version everywhere, docs/decisions.md#version). */
const PACKAGE_VERSION: string = JSON.parse(require("node:fs").readFileSync(`${REPO}/package.json`, "utf8")).version;

const LOCATION = "/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph,organic_matter,clay";
const RAW_LOCATION = "/v1/providers/usda_ssurgo/raw/location?latitude=41.944131&longitude=-94.359608";
const PEDONS_BBOX = "/v1/pedons?bbox=-96,38.5,-95,39.5";
const PEDON = "/v1/pedons/02N0245?properties=ph,clay";
const HAS_PEDONS = existsSync(join(REPO, "src/pedons"));

let build: BuildResult;
let dir: string;
let exe: string;
let dbPath: string;
let loam: LoamProcess;
let reference: RunningLoam;
let referenceSource: SnapshotTransport;

beforeAll(async () => {
  build = await buildOnce();
  dir = scratchDir("loam-alone-");
  exe = join(dir, "loam");
  copyFileSync(build.outfile, exe);
  dbPath = join(dir, "state", "loam.sqlite");
  loam = await spawnLoam({
    cmd: [exe],
    cwd: dir,
    env: { LOAM_DB: dbPath, LOAM_DATA_DIR: join(dir, "no-such-data"), RATE_LIMIT_PER_MINUTE: "100000" },
  });
  // Loam from source over the very snapshot the executable embeds: the answers must be the same.
  referenceSource = new SnapshotTransport(build.snapshot.file);
  reference = await startLoam({ source: referenceSource });
}, 120_000);

const scratch: string[] = [];
/** A temporary directory removed after the tests. */
function scratchDir(prefix: string): string {
  const path = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(path);
  return path;
}

afterAll(async () => {
  if (loam?.proc.exitCode === null) {
    loam.proc.kill("SIGKILL");
    await loam.proc.exited;
  }
  await reference?.stop();
  referenceSource?.close();
  for (const path of scratch) rmSync(path, { recursive: true, force: true });
});

/** A body with the parts that differ between two servers (their address, cache timing) taken out. */
function comparable(text: string, base: string): unknown {
  const body = JSON.parse(text.replaceAll(base, "<base>"));
  if (body && typeof body === "object") {
    delete body.cache;
    if ("upstream_response" in body) delete body.retrieved_at; // the raw endpoint: when it was fetched
  }
  return body;
}

async function both(path: string) {
  const [a, b] = await Promise.all([loam.get(path), reference.get(path, { headers: { connection: "close" } })]);
  const [textA, textB] = await Promise.all([a.text(), b.text()]);
  return { exe: { status: a.status, headers: a.headers, text: textA }, src: { status: b.status, headers: b.headers, text: textB } };
}

/**
 * Status, type and body (less address and cache timing) equal to Loam from source; returns the
 * executable's body. (Data ETags include when the answer was cached, so they differ by design.)
 */
async function sameAsSource(path: string): Promise<any> {
  const { exe: a, src: b } = await both(path);
  expect(a.status).toBe(b.status);
  expect(a.headers.get("content-type")).toBe(b.headers.get("content-type"));
  expect(comparable(a.text, loam.base)).toEqual(comparable(b.text, reference.base));
  return JSON.parse(a.text);
}

describe("the single executable, alone in an empty directory", () => {
  test("is one file, and says its version and usage", () => {
    expect(readdirSync(dir).filter((name) => name !== "state")).toEqual(["loam"]);
    const version = Bun.spawnSync([exe, "--version"], { cwd: dir, env: {} });
    expect(version.exitCode).toBe(0);
    expect(version.stdout.toString().trim()).toBe(PACKAGE_VERSION);
    const help = Bun.spawnSync([exe, "--help"], { cwd: dir, env: {} });
    expect(help.exitCode).toBe(0);
    for (const usage of ["loam [serve]", "loam snapshot build [--data <dir>]", "loam import <provider> <path>... [--snapshot <file>]", "loam --version | --help"]) {
      expect(help.stdout.toString()).toContain(usage);
    }
    const bad = Bun.spawnSync([exe], { cwd: dir, env: { PORT: "abc" } });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.toString()).toContain("PORT");
  });

  test("creates LOAM_DB with its migrations, and serves the embedded snapshot from a copy beside it", async () => {
    const listening = JSON.parse(await loam.waitForLine(/loam listening/));
    expect(listening.upstream.kind).toBe("snapshot");
    expect(listening.upstream.location).toBe(join(dir, "state", `loam-snapshot-${build.snapshot.sha256.slice(0, 16)}.sqlite`));
    const db = new Database(dbPath, { readonly: true });
    try {
      const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((t) => t.name);
      expect(tables).toEqual(expect.arrayContaining(["__drizzle_migrations", "cache_entries", "rate_counters"]));
    } finally {
      db.close();
    }
  });

  test("/health", async () => {
    const response = await loam.get("/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "healthy", service: "loam", version: PACKAGE_VERSION });
  });

  test("/v1, /v1/providers and /v1/properties answer as from source", async () => {
    const meta = await sameAsSource("/v1");
    expect(meta.version).toBe(PACKAGE_VERSION);
    expect(meta.supported_providers).toContain("usda_ssurgo");
    const providers = await sameAsSource("/v1/providers");
    expect(JSON.stringify(providers)).toContain("usda_kssl");
    const properties = await sameAsSource("/v1/properties");
    expect(JSON.stringify(properties)).toContain("organic_matter");
  });

  test("/openapi.json is the same OpenAPI 3.1.0 document", async () => {
    const doc = await sameAsSource("/openapi.json");
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe(PACKAGE_VERSION);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/health", "/v1/soil/location", ...(HAS_PEDONS ? ["/v1/pedons"] : [])]));
  });

  test("every page and asset (docs UI, swagger-ui-dist, map page) is embedded byte for byte", async () => {
    expect(Object.keys(ASSETS)).toEqual(expect.arrayContaining(["/docs", "/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css"]));
    for (const [url, asset] of Object.entries(ASSETS)) {
      const response = await loam.get(url, { headers: { "accept-encoding": "identity" } });
      expect({ url, status: response.status }).toEqual({ url, status: 200 });
      expect(response.headers.get("content-type")).toBe(asset.type);
      const served = new Uint8Array(await response.arrayBuffer());
      const source = await Bun.file(asset.path).bytes();
      expect({ url, bytes: served.length, same: Buffer.compare(served, source) === 0 }).toEqual({ url, bytes: source.length, same: true });
    }
  });

  test("the map page is at / (when it exists)", async () => {
    if (!ASSETS["/"]) return;
    const response = await loam.get("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  test("a point in Paris says why it has no map unit, as from source (the country outlines are embedded)", async () => {
    const body = await sameAsSource("/v1/soil/location?latitude=48.8566&longitude=2.3522");
    expect(body.warnings.join(" ")).toContain("it lies in France, and SSURGO covers the United States and territories only");
  });

  test("/v1/soil/location at IA073: L138B, Clarion 85 %, Ap 0-23 cm, pH 6.2, OM 3.5 %, clay 21 %", async () => {
    const body = await sameAsSource(LOCATION);
    const observed = body.observations.map((o: any) => ({
      property: o.property.id,
      value: o.value,
      depth: [o.depth.top_cm, o.depth.bottom_cm],
      mukey: o.survey_context.map_unit_key,
      musym: o.survey_context.map_unit_symbol,
      component: `${o.survey_context.component_name} ${o.survey_context.component_percent}`,
      horizon: o.survey_context.horizon_name,
    }));
    const top = (property: string) => observed.find((o: any) => o.property === property && o.depth[0] === 0);
    const where = { mukey: "2765528", musym: "L138B", component: "Clarion 85", horizon: "Ap", depth: [0, 23] };
    expect(top("ph")).toEqual({ property: "ph", value: 6.2, ...where });
    expect(top("organic_matter")).toEqual({ property: "organic_matter", value: 3.5, ...where });
    expect(top("clay")).toEqual({ property: "clay", value: 21, ...where });
  });

  test("the raw location endpoint returns the same SDA-shaped table", async () => {
    const body = await sameAsSource(RAW_LOCATION);
    const [names, , ...rows] = body.upstream_response.Table as string[][];
    const mukey = names!.indexOf("mukey");
    expect(rows.some((row) => row[mukey] === "2765528")).toBe(true);
  });

  test.if(HAS_PEDONS)("/v1/pedons in a Kansas box lists 02N0245 (Kimo), as from source", async () => {
    const body = await sameAsSource(PEDONS_BBOX);
    expect(body.type).toBe("FeatureCollection");
    const kimo = body.features.find((f: any) => f.id === "02N0245");
    expect(kimo.geometry).toEqual({ type: "Point", coordinates: [-95.7708282, 39.0783539] });
  });

  test("/v1/soil/aoi over the IA073 AOI (polygon-clipping and geographiclib bundled) answers as from source", async () => {
    const body = await sameAsSource("/v1/soil/aoi?bbox=-94.361846,41.943158,-94.358198,41.945788&properties=clay&depth_bottom_cm=30");
    expect(body.map_units.length).toBe(5);
    expect(body.aoi.mapped_percent).toBeGreaterThan(99.9);
  });

  test("/v1/series/Clarion from the embedded snapshot (OSDs and the Munsell table are in it; no data directory)", async () => {
    const response = await fetch(`${loam.base}/v1/series/Clarion`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.series.taxonomic_class).toBe("Fine-loamy, mixed, superactive, mesic Typic Hapludolls");
    expect(body.horizons[0]).toMatchObject({ name: "Ap", depth: { top_cm: 0, bottom_cm: 18 } });
    expect(body.horizons[0].moist_color.srgb_hex).toMatch(/^#[0-9a-f]{6}$/);
    expect((await fetch(`${loam.base}/series?name=Clarion`)).status).toBe(200);
  });

  test.if(HAS_PEDONS)("/v1/pedons/02N0245: layer 02N01100 is Ap1 0-13 cm, pH 6.8, clay 35.154017", async () => {
    const body = await sameAsSource(PEDON);
    const layer = body.layers.find((l: any) => l.layer_key === "02N01100");
    expect(layer.horizon_designation).toBe("Ap1");
    expect(layer.depth).toEqual({ top_cm: 0, bottom_cm: 13 });
    const value = (id: string) => layer.observations.find((o: any) => o.property.id === id)?.value;
    expect(value("ph")).toBe(6.8);
    expect(value("clay")).toBe(35.154017);
  });

  test("a 100 KB URL reaches Loam: 414 ErrorResponse, not Bun's bare 431", async () => {
    const response = await loam.get(`/v1/soil/location?latitude=41.9&longitude=-94.3&junk=${"a".repeat(100_000)}`);
    expect(response.status).toBe(414);
    const body = (await response.json()) as { error: { code: string; request_id: string } };
    expect(body.error.code).toBe("uri_too_long");
    expect(body.error.request_id).toBe(response.headers.get("x-request-id")!);
  });

  test("`loam snapshot build --data` builds what the source build builds; LOAM_SNAPSHOT then replaces the embedded one", async () => {
    // One survey area only, so the served coverage shows which snapshot answers.
    const work = scratchDir("loam-alone-build-");
    const data = join(work, "data");
    mkdirSync(join(data, "ssurgo"), { recursive: true });
    cpSync(join(resolve(DATA_DIR), "ssurgo", "IA015-aoi"), join(data, "ssurgo", "IA015-aoi"), { recursive: true });
    const outPath = join(work, "only-ia015.sqlite");

    const built = Bun.spawnSync([exe, "snapshot", "build", "--data", data], { cwd: dir, env: { LOAM_SNAPSHOT: outPath } });
    expect(built.exitCode).toBe(0);
    const report = JSON.parse(built.stdout.toString());
    const expected = await buildSnapshot({ dataDir: data, outPath: join(work, "from-source.sqlite") });
    expect(report.tables).toEqual(expected.tables);
    expect(report.datasets.map((d: any) => d.id)).toEqual(["IA015"]);

    const other = await spawnLoam({ cmd: [exe], cwd: dir, env: { LOAM_SNAPSHOT: outPath, LOAM_DB: join(work, "loam.sqlite"), LOAM_DATA_DIR: join(dir, "no-such-data") } });
    try {
      expect(JSON.parse(await other.waitForLine(/loam listening/)).upstream.location).toBe(outPath);
      const response = await other.get(LOCATION);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { observations: unknown[]; warnings: string[] };
      expect(body.observations).toEqual([]); // IA073 is not in this snapshot
      expect(body.warnings.join(" ")).toContain("IA015");
      other.proc.kill("SIGTERM");
      expect(await other.proc.exited).toBe(0);
    } finally {
      if (other.proc.exitCode === null) other.proc.kill("SIGKILL");
    }
  });

  test("`loam import-ssurgo <folder>` (the alias of `loam import usda_ssurgo`) adds an area to a copy of the embedded snapshot", () => {
    const work = scratchDir("loam-alone-import-");
    const target = join(work, "snapshot.sqlite");
    const imported = Bun.spawnSync([exe, "import-ssurgo", join(resolve(DATA_DIR), "ssurgo", "IA183-aoi")], { cwd: dir, env: { LOAM_SNAPSHOT: target } });
    expect(imported.stderr.toString()).toContain("starting from the one embedded");
    expect(imported.exitCode).toBe(0);
    // One summary line per dataset, then the snapshot's.
    const lines = imported.stdout.toString().trim().split("\n");
    expect(lines[0]).toStartWith("usda_ssurgo: SSURGO IA183 Washington County, Iowa");
    expect(lines[1]).toStartWith(`snapshot updated: ${target} (`);
    const db = new Database(target, { readonly: true });
    try {
      const areas = db.query<{ areasymbol: string }, []>("SELECT areasymbol FROM legend ORDER BY areasymbol").all().map((r) => r.areasymbol);
      expect(areas).toEqual(expect.arrayContaining(["IA015", "IA073", "IA183", "MH936"]));
    } finally {
      db.close();
    }
  });

  test("SIGTERM: exits 0 and leaves LOAM_DB intact", async () => {
    loam.proc.kill("SIGTERM");
    expect(await loam.proc.exited).toBe(0);
    await loam.waitForLine(/"stopped cleanly"/);
    const db = new Database(dbPath, { readonly: true });
    try {
      expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check).toBe("ok");
      expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM cache_entries").get()!.n).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });
});
