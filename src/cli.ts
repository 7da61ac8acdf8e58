#!/usr/bin/env bun
/**
 * `loam` command line: serve (default), snapshot build, import (and its alias import-ssurgo), --version, --help.
 * A configuration error prints one line naming the variable and exits 2.
 */
import { CONFIG_VARIABLES, ConfigError, loadConfig, type Config } from "./config";
import { VERSION } from "./version";
import { readSnapshotInfo } from "./upstream/snapshot-schema";
import { defaultProviderId, DEFAULT_PROVIDERS, providerSettings } from "./providers/registry";

/** Usage, then every configuration variable with its default: Loam's own and each provider's. */
function help(): string {
  const variables = [...CONFIG_VARIABLES, ...providerSettings().map((s) => ({ name: s.name, default: String(s.default), help: s.help }))];
  const width = Math.max(...variables.map((v) => v.name.length));
  return `loam ${VERSION} - read-only soil-data API: soil survey, laboratory, geochemistry, modeled and sensor data, with provenance on every value

Usage:
  loam [serve] [--port <n>]             serve the API (default; --port sets PORT)
  loam snapshot build [--data <dir>]    build the offline snapshot from the data folder
  loam import <provider> <path>... [--snapshot <file>]
                                        add downloads to the snapshot (created when missing);
                                        'loam import --help' lists each provider's formats
  loam --version | --help

Configuration, from the environment (default in brackets):
${variables.map((v) => `  ${v.name.padEnd(width)}  ${v.help} [${v.default}]`).join("\n")}
`;
}

function fail(message: string, code = 2): never {
  process.stderr.write(`loam: ${message}\n`);
  process.exit(code);
}

/** What a snapshot file states of itself (its layouts among it); null when it cannot be read. */
async function snapshotInfo(path: string): Promise<Map<string, string> | null> {
  const { Database } = await import("bun:sqlite");
  try {
    const db = new Database(path, { readonly: true });
    try {
      return readSnapshotInfo(db).values;
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
  const { staleLayout } = await import("./snapshot/build");
  const { namesMirror } = await import("./upstream/snapshot-mirror");
  // A mirror's files are each written by `loam import --snapshot <file>`; nothing is built for it here.
  if (configured !== null && namesMirror(configured)) return void console.error(`loam: LOAM_SNAPSHOT names a mirror (${configured}); its files are not built by this command`);
  const outPath = configured ?? DEFAULT_SNAPSHOT_PATH;
  if (existsSync(outPath)) {
    const values = await snapshotInfo(outPath);
    const stale = values ? staleLayout(values) : "an unreadable layout";
    if (stale === null) return void console.error(`loam: snapshot present at ${outPath}`);
    // A rebuild from the data folder would drop what `loam import` added: say so instead.
    const imports = values ? [...values.keys()].filter((k) => k.startsWith("import:")).length : 0;
    if (imports > 0) return void console.error(`loam: the snapshot at ${outPath} has an older layout (${stale}) and holds ${imports} imported download(s); it is kept: import them again into a new snapshot (loam import <provider> <path>... --snapshot <new file>)`);
    if (!existsSync(dataDir)) return void console.error(`loam: the snapshot at ${outPath} has an older layout (${stale}) and there are no source exports at ${dataDir} to rebuild it`);
    console.error(`loam: the snapshot at ${outPath} has an older layout (${stale}); rebuilding it`);
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

/**
 * The environment `serve` runs with: its `--port <n>` (or `--port=<n>`) as PORT, so the one config
 * reader checks it and workers inherit it; `--worker <n>` is the supervisor's own. Anything else is
 * refused with the usage line: a flag Loam does not read must not be silently ignored.
 */
function serveEnvironment(args: string[]): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--worker") i++;
    else if (arg === "--port" || arg.startsWith("--port=")) {
      const value = arg === "--port" ? args[++i] : arg.slice("--port=".length);
      if (value === undefined || value === "") fail("--port needs a port number (0-65535)");
      env.PORT = value;
    } else fail(`serve takes --port <n> (or the PORT variable) and no other argument; got '${arg}'\n\n${help()}`);
  }
  // Workers started by the supervisor read the same port.
  if (env.PORT !== undefined) process.env.PORT = env.PORT;
  return env;
}

/** `loam import --help`: each provider that imports, with the formats it reads. */
async function importHelp(): Promise<string> {
  const { importers } = await import("./snapshot/import");
  const lines = importers().flatMap(({ id, formats }) => [`  ${id}`, ...formats.map((f) => `    ${f.name}: ${f.description}`)]);
  return `Usage: loam import <provider> <path>... [--snapshot <file>]

Adds downloads to the snapshot LOAM_SNAPSHOT names (data/snapshot.sqlite when unset; --snapshot names
another), creating it when missing. Atomic (a failure leaves the file as it was), idempotent (a path
imported before with the same content is skipped), and a newer release of a dataset replaces the older.
Guide: docs/your-region.md.

Providers and the formats they read:
${lines.join("\n")}
`;
}

/** A progress bar on a terminal (one line, rewritten, naming what is being read); a line per download otherwise. */
function progressWriter(): { write(line: string, done: number, total: number, detail: boolean): void; end(): void } {
  const tty = process.stderr.isTTY === true;
  let drawn = false;
  return {
    write(line, done, total, detail) {
      // Off a terminal (logs, CI): a line as each download starts and ends, not the importers' every table.
      if (!tty) return void (detail || process.stderr.write(`${line}\n`));
      const width = 20;
      const filled = total === 0 ? width : Math.round((done / total) * width);
      const text = `[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${done}/${total} ${line}`;
      process.stderr.write(`\r\x1b[K${text.slice(0, (process.stderr.columns ?? 100) - 1)}`);
      drawn = true;
    },
    end() {
      if (drawn) process.stderr.write("\n");
    },
  };
}

async function runImport(config: Config, args: string[]): Promise<void> {
  if (args.length === 0 || args.includes("--help") || args.includes("-h")) return void console.log(await importHelp());
  const flag = args.indexOf("--snapshot");
  if (flag >= 0 && !args[flag + 1]) fail("--snapshot needs a file");
  const snapshotFlag = flag >= 0 ? args[flag + 1]! : null;
  const [providerName, ...paths] = flag >= 0 ? [...args.slice(0, flag), ...args.slice(flag + 2)] : args;
  const provider = DEFAULT_PROVIDERS.find((p) => p.id === providerName || p.aliases.includes(providerName!));
  if (!provider) fail(`unknown provider '${providerName}'\n\n${await importHelp()}`);
  const { DEFAULT_SNAPSHOT_PATH } = await import("./snapshot/paths");
  const { importDownloads, ImportRefused, summaryLines } = await import("./snapshot/import");
  const { namesMirror } = await import("./upstream/snapshot-mirror");
  if (!snapshotFlag && config.snapshotPath !== null && namesMirror(config.snapshotPath)) {
    fail("LOAM_SNAPSHOT names a mirror of several snapshot files; name the one to import into with --snapshot <file> (docs/operations.md#a-national-mirror)");
  }
  const snapshotPath = snapshotFlag ?? config.snapshotPath ?? DEFAULT_SNAPSHOT_PATH;
  if (!snapshotFlag) await seedFromEmbedded(snapshotPath);
  const progress = progressWriter();
  try {
    const report = await importDownloads({ provider, paths, snapshotPath, dataDir: config.dataDir, onProgress: progress.write });
    progress.end();
    for (const line of summaryLines(provider.id, report)) console.log(line);
    for (const warning of report.warnings) process.stderr.write(`warning: ${warning}\n`);
    const state = report.created ? "created" : report.paths.every((p) => p.unchanged) ? "unchanged" : "updated";
    console.log(`snapshot ${state}: ${snapshotPath} (${(report.bytes / 1e6).toFixed(1)} MB, ${report.seconds.toFixed(2)} s)`);
  } catch (error) {
    progress.end();
    if (error instanceof ImportRefused) fail(`${error.message}; nothing changed`);
    fail(`import failed, the snapshot is unchanged: ${error instanceof Error ? error.message : String(error)}`, 1);
  }
  if (!snapshotFlag) await hintEmbedded(config.snapshotPath, snapshotPath);
}

async function main(argv: string[]): Promise<void> {
  const [command = "serve", ...rest] = argv;
  if (command === "--version" || command === "-v") return void console.log(VERSION);
  if (command === "--help" || command === "-h" || command === "help") return void console.log(help());
  // `serve --port 3001` is PORT=3001, read and checked by the same reader; any other argument is refused, never ignored.
  const env = command === "serve" ? serveEnvironment(rest) : process.env;
  let config;
  try {
    config = loadConfig(env, navigator.hardwareConcurrency, providerSettings());
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
    case "import":
      return runImport(config, rest);
    // The first verb, kept: the import of the default map-unit provider's downloads (Web Soil Survey).
    case "import-ssurgo":
      return runImport(config, [defaultProviderId("mapped_location"), ...rest]);
    default:
      fail(`unknown command '${command}'\n\n${help()}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Some settings can only be checked by using them (LOAM_DB's path): still a configuration error.
  if (error instanceof ConfigError) fail(`invalid configuration: ${error.message}`);
  fail(error instanceof Error ? error.message : String(error), 1);
});
