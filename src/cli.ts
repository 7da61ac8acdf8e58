#!/usr/bin/env bun
/**
 * `loam` command line: serve (default), snapshot build, import-ssurgo, --version, --help.
 * A configuration error prints one line naming the variable and exits 2.
 */
import { ConfigError, loadConfig } from "./config";
import { VERSION } from "./version";
import { readSnapshotInfo, SNAPSHOT_FORMAT_VERSION } from "./upstream/snapshot-schema";

const HELP = `loam ${VERSION} - read-only soil-data API (USDA-NRCS SSURGO and KSSL)

Usage:
  loam [serve]                          serve the API (default)
  loam snapshot build [--data <dir>]    build the offline snapshot from source exports
  loam import-ssurgo <folder-or-zip>    add a Web Soil Survey download to the snapshot
  loam --version | --help

Configuration is read from the environment: PORT, HOST, LOAM_DB, LOAM_UPSTREAM, LOAM_SNAPSHOT,
LOAM_DATA_DIR, SDA_URL, UPSTREAM_TIMEOUT_MS, CACHE_TTL_SECONDS, RATE_LIMIT_PER_MINUTE, TRUST_PROXY,
LOG_LEVEL, LOAM_WORKERS, REDIS_URL, REDIS_TIMEOUT_MS (see README).`;

function fail(message: string, code = 2): never {
  process.stderr.write(`loam: ${message}\n`);
  process.exit(code);
}

/** The layout (format_version) a snapshot file states; null when it cannot be read. */
async function snapshotLayout(path: string): Promise<string | null> {
  const { Database } = await import("bun:sqlite");
  try {
    const db = new Database(path, { readonly: true });
    try {
      return readSnapshotInfo(db).values.get("format_version") ?? null;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

/** `npm install` hook: build the snapshot when it is missing or of an older layout; never fail an install for want of data. */
async function ensureSnapshot(configured: string | null, dataDir: string): Promise<void> {
  const { existsSync } = await import("node:fs");
  const { DEFAULT_SNAPSHOT_PATH } = await import("./snapshot/paths");
  const outPath = configured ?? DEFAULT_SNAPSHOT_PATH;
  if (existsSync(outPath)) {
    const layout = await snapshotLayout(outPath);
    if (layout === SNAPSHOT_FORMAT_VERSION) return void console.error(`loam: snapshot present at ${outPath}`);
    if (!existsSync(dataDir)) return void console.error(`loam: the snapshot at ${outPath} has an older layout (${layout ?? "unknown"}, now ${SNAPSHOT_FORMAT_VERSION}) and there are no source exports at ${dataDir} to rebuild it`);
    console.error(`loam: the snapshot at ${outPath} has an older layout (${layout ?? "unknown"}, now ${SNAPSHOT_FORMAT_VERSION}); rebuilding it`);
  }
  if (!existsSync(dataDir)) return void console.error(`loam: no snapshot and no source exports at ${dataDir}; set LOAM_DATA_DIR and run 'npm run snapshot:build'`);
  const { buildSnapshot } = await import("./snapshot/build");
  const report = await buildSnapshot({ dataDir, outPath, onProgress: (line: string) => process.stderr.write(`${line}\n`) });
  console.error(`loam: snapshot built at ${outPath} (${report.bytes} bytes in ${report.seconds.toFixed(2)} s)`);
}

/**
 * The single executable cannot rewrite the snapshot inside itself: an import adds to a copy on disk,
 * started from the embedded snapshot when there is none yet.
 */
async function seedFromEmbedded(snapshotPath: string): Promise<void> {
  const { existsSync } = await import("node:fs");
  const { copyEmbeddedSnapshot, embeddedSnapshot } = await import("./snapshot/embedded");
  if (existsSync(snapshotPath) || !embeddedSnapshot()) return;
  process.stderr.write(`loam: no snapshot at ${snapshotPath}; starting from the one embedded in this executable\n`);
  await copyEmbeddedSnapshot(snapshotPath);
}

/** The executable serves its embedded snapshot unless LOAM_SNAPSHOT names another: say so after writing one. */
async function hintEmbedded(configured: string | null, written: string): Promise<void> {
  const { embeddedSnapshot } = await import("./snapshot/embedded");
  if (configured || !embeddedSnapshot()) return;
  const { resolve } = await import("node:path");
  process.stderr.write(`loam: this executable serves its embedded snapshot; to serve this one: LOAM_SNAPSHOT=${resolve(written)} loam serve\n`);
}

async function main(argv: string[]): Promise<void> {
  const [command = "serve", ...rest] = argv;
  if (command === "--version" || command === "-v") return void console.log(VERSION);
  if (command === "--help" || command === "-h" || command === "help") return void console.log(HELP);
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`invalid configuration: ${error.message}`);
    throw error;
  }
  switch (command) {
    case "serve": {
      // `serve --worker <n>` is how the LOAM_WORKERS supervisor (src/workers.ts) starts each worker.
      if (rest[0] === "--worker") {
        const worker = Number(rest[1]);
        if (!Number.isInteger(worker) || worker < 1) fail("--worker needs a worker number");
        const { serve } = await import("./server");
        await serve(config, { worker });
        return;
      }
      if (config.workers > 1) {
        const { supervise } = await import("./workers");
        const { log } = await import("./server");
        await supervise(config, { log });
        return;
      }
      const { serve } = await import("./server");
      await serve(config);
      return;
    }
    case "snapshot": {
      if (rest[0] === "ensure") return ensureSnapshot(config.snapshotPath, config.dataDir);
      if (rest[0] !== "build") fail(`unknown snapshot command '${rest[0] ?? ""}'; try 'loam snapshot build'`);
      const dataFlag = rest.indexOf("--data");
      const dataDir = dataFlag >= 0 ? rest[dataFlag + 1] : config.dataDir;
      if (!dataDir) fail("--data needs a directory");
      const { buildSnapshot } = await import("./snapshot/build");
      const { DEFAULT_SNAPSHOT_PATH } = await import("./snapshot/paths");
      const outPath = config.snapshotPath ?? DEFAULT_SNAPSHOT_PATH;
      const report = await buildSnapshot({ dataDir, outPath, onProgress: (line: string) => process.stderr.write(`${line}\n`) });
      console.log(JSON.stringify(report, null, 2));
      await hintEmbedded(config.snapshotPath, outPath);
      return;
    }
    case "import-ssurgo": {
      const source = rest[0];
      if (!source) fail("import-ssurgo needs a Web Soil Survey folder or zip");
      const { importSsurgo } = await import("./snapshot/build");
      const { DEFAULT_SNAPSHOT_PATH } = await import("./snapshot/paths");
      const snapshotPath = config.snapshotPath ?? DEFAULT_SNAPSHOT_PATH;
      await seedFromEmbedded(snapshotPath);
      const report = await importSsurgo({ source, snapshotPath });
      console.log(JSON.stringify(report, null, 2));
      await hintEmbedded(config.snapshotPath, snapshotPath);
      return;
    }
    default:
      fail(`unknown command '${command}'\n\n${HELP}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Some settings can only be checked by using them (LOAM_DB's path): still a configuration error.
  if (error instanceof ConfigError) fail(`invalid configuration: ${error.message}`);
  fail(error instanceof Error ? error.message : String(error), 1);
});
