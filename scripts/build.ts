/**
 * `bun run build`: one executable, `dist/loam`, that runs with no repository, node_modules or
 * datasets/ beside it. It embeds the code, the drizzle migrations (db/migrations.ts imports them as
 * text), the pages and their assets (every file src/pages/assets.ts lists, the docs UI's swagger-ui-dist
 * files included) and the snapshot database, each imported `with { type: "file" }` by a generated entry,
 * dist/entry.ts, which hands them to src/compiled.ts.
 *
 *   bun run build [-- --snapshot <file>] [-- --outfile <path>]
 *
 * The snapshot is built afresh from LOAM_DATA_DIR (default datasets) into dist/snapshot.sqlite;
 * without source exports, data/snapshot.sqlite is embedded instead; `--snapshot` names another.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { buildSnapshot } from "../src/snapshot/build";
import { DEFAULT_SNAPSHOT_PATH } from "../src/snapshot/paths";
import { SnapshotTransport } from "../src/upstream/snapshot";
import { assets } from "../src/pages/assets";

const ROOT = resolve(import.meta.dir, "..");
const DIST = join(ROOT, "dist");

/**
 * Bun runtime flags baked into the executable (process.execArgv), the same ones package.json's
 * `start` script passes to bun: a 100 KB URL must reach Loam (414 ErrorResponse), not Bun's bare 431.
 */
export const RUNTIME_FLAGS = ["--max-http-header-size=262144"];

/**
 * Packages the bundler must resolve as the runtime does (package.json `main`, not `module`): the
 * `module` build of shapefile reads files through path-source's browser half, which fetch()es the
 * path, so `loam import-ssurgo` failed in the executable with "fetch() URL is invalid".
 */
const RESOLVE_AS_RUNTIME = /^(shapefile|path-source)$/;

const resolveAsRuntime: Bun.BunPlugin = {
  name: "resolve-as-runtime",
  setup(build) {
    build.onResolve({ filter: RESOLVE_AS_RUNTIME }, (args) => ({ path: Bun.resolveSync(args.path, dirname(args.importer)) }));
  },
};

/**
 * The page assets for the generated entry: one `with { type: "file" }` import per file (absolute paths,
 * so `bun build --compile` embeds each), and the URL → {path, type} table handed to src/compiled.ts.
 */
function embeddedAssets(): { imports: string[]; table: string } {
  const files = new Map<string, string>();
  const rows: string[] = [];
  for (const [url, { path, type }] of Object.entries(assets())) {
    let name = files.get(path);
    if (!name) {
      name = `asset${files.size}`;
      files.set(path, name);
    }
    rows.push(`  ${JSON.stringify(url)}: { path: ${name} as unknown as string, type: ${JSON.stringify(type)} },`);
  }
  return {
    imports: [...files].map(([path, name]) => `import ${name} from ${JSON.stringify(path)} with { type: "file" };`),
    table: `{\n${rows.join("\n")}\n}`,
  };
}

export interface BuildResult {
  outfile: string;
  bytes: number;
  /** `file` is the embedded snapshot's copy in the work directory. */
  snapshot: { from: string; file: string; sha256: string; bytes: number };
  seconds: number;
}

function option(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  if (at < 0) return undefined;
  const value = argv[at + 1];
  if (!value || value.startsWith("--")) throw new Error(`${name} needs a value`);
  return value;
}

/** The snapshot to embed, copied or built into dist/snapshot.sqlite; returns where it came from. */
async function prepareSnapshot(target: string, chosen: string | undefined, log: (line: string) => void): Promise<string> {
  const dataDir = process.env.LOAM_DATA_DIR || join(ROOT, "datasets");
  const fallback = join(ROOT, DEFAULT_SNAPSHOT_PATH);
  if (chosen) {
    if (!existsSync(chosen)) throw new Error(`--snapshot: no file at ${chosen}`);
    copyFileSync(chosen, target);
    return chosen;
  }
  if (existsSync(dataDir)) {
    await buildSnapshot({ dataDir, outPath: target, onProgress: (line) => log(`  ${line}`) });
    return dataDir;
  }
  if (existsSync(fallback)) {
    copyFileSync(fallback, target);
    return fallback;
  }
  throw new Error(`nothing to embed: no source exports at ${dataDir} and no snapshot at ${fallback} (set LOAM_DATA_DIR or pass --snapshot)`);
}

export interface BuildOptions {
  /** Default dist/loam. */
  outfile?: string;
  /** A snapshot file to embed instead of building one. */
  snapshot?: string;
  /** Where the snapshot and the generated entry are written; default dist/ (tests use a temporary directory). */
  workDir?: string;
  log?: (line: string) => void;
}

export async function buildExecutable(options: BuildOptions = {}): Promise<BuildResult> {
  const started = performance.now();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const outfile = resolve(options.outfile ?? join(DIST, "loam"));
  const workDir = resolve(options.workDir ?? DIST);
  mkdirSync(workDir, { recursive: true });
  mkdirSync(dirname(outfile), { recursive: true });

  const snapshotFile = join(workDir, "snapshot.sqlite");
  const from = await prepareSnapshot(snapshotFile, options.snapshot, log);
  new SnapshotTransport(snapshotFile).close(); // refuses a file that is not a Loam snapshot
  const bytes = statSync(snapshotFile).size;
  const sha256 = new Bun.CryptoHasher("sha256").update(await Bun.file(snapshotFile).bytes()).digest("hex");
  log(`snapshot: ${relative(ROOT, from) || from} (${(bytes / 1e6).toFixed(1)} MB, sha256 ${sha256.slice(0, 16)}…)`);

  const entry = join(workDir, "entry.ts");
  const compiledModule = relative(workDir, join(ROOT, "src", "compiled"));
  const { imports, table } = embeddedAssets();
  writeFileSync(
    entry,
    [
      "// Generated by scripts/build.ts: the compile entry of dist/loam. Do not edit; not committed.",
      `import snapshot from "./snapshot.sqlite" with { type: "file" };`,
      ...imports,
      `import { runCompiled } from ${JSON.stringify(compiledModule.startsWith(".") ? compiledModule : `./${compiledModule}`)};`,
      "",
      `await runCompiled({ path: snapshot, sha256: ${JSON.stringify(sha256)}, bytes: ${bytes} }, ${table});`,
      "",
    ].join("\n"),
  );

  rmSync(outfile, { force: true });
  const result = await Bun.build({
    entrypoints: [entry],
    minify: true,
    sourcemap: "linked",
    bytecode: true,
    format: "esm",
    plugins: [resolveAsRuntime],
    compile: {
      outfile,
      execArgv: RUNTIME_FLAGS,
      // A bunfig.toml where the operator happens to run it must not change the server; .env files
      // are read as `bun` reads them from source (Loam's own settings are all environment variables).
      autoloadBunfig: false,
    },
  });
  if (!result.success) throw new AggregateError(result.logs, `bun build --compile failed:\n${result.logs.join("\n")}`);
  // The source map is embedded in the executable (stack traces name src/ files); the copy beside it is not needed.
  rmSync(`${outfile}.map`, { force: true });
  const size = statSync(outfile).size;
  const seconds = (performance.now() - started) / 1000;
  log(`wrote ${relative(process.cwd(), outfile) || outfile} (${(size / 1e6).toFixed(1)} MB) in ${seconds.toFixed(1)} s`);
  return { outfile, bytes: size, snapshot: { from, file: snapshotFile, sha256, bytes }, seconds };
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  try {
    await buildExecutable({ outfile: option(argv, "--outfile"), snapshot: option(argv, "--snapshot") });
  } catch (error) {
    process.stderr.write(`build: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
