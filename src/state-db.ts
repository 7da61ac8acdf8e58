/**
 * Opening LOAM_DB (cache and rate counters) at start. Its content is disposable (answers can be
 * fetched again, counters restart a minute later), so damage to it must not keep Loam down:
 *
 * - a path that can never hold the database (a directory, a device such as /dev/null, a read-only
 *   file or mount) is a configuration error naming LOAM_DB (exit 2), not SQLite's text;
 * - a database that fails `PRAGMA quick_check`, or is not an SQLite file at all, is renamed to
 *   `<path>.corrupt-<timestamp>` (kept for inspection, logged) and a fresh one is created.
 */
import { accessSync, constants, existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { openDatabase, type LoamDatabase } from "../db/client";
import { ConfigError } from "./config";

type Log = (line: Record<string, unknown>) => void;

/** SQLite result codes that mean the file's content is damaged, not that it cannot be reached. */
const DAMAGED = new Set(["SQLITE_CORRUPT", "SQLITE_NOTADB"]);

function codeOf(error: unknown): string {
  return String((error as { code?: unknown }).code ?? "");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Refuse, as LOAM_DB's fault, a path SQLite could never keep its database and WAL at. */
export function checkStatePath(path: string): void {
  if (path === ":memory:") return;
  const fail = (why: string) => {
    throw new ConfigError("LOAM_DB", `${path} ${why}`);
  };
  if (existsSync(path)) {
    const stat = statSync(path);
    if (stat.isDirectory()) fail("is a directory; expected an SQLite database file");
    if (!stat.isFile()) fail("is not a regular file; expected an SQLite database file");
    try {
      accessSync(path, constants.R_OK | constants.W_OK);
    } catch {
      fail("is not readable and writable by this process");
    }
  }
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    fail(`cannot be created: its directory ${dir} cannot be made (${codeOf(error) || messageOf(error)})`);
  }
  try {
    // SQLite writes its -wal and -shm files beside the database; a read-only mount fails here.
    accessSync(dir, constants.W_OK);
  } catch {
    fail(`cannot be written: its directory ${dir} is read-only for this process`);
  }
}

/** ok, or what `PRAGMA quick_check` (or the open itself) found wrong. */
function damage(db: LoamDatabase): string | null {
  const rows = db.$client.query<{ quick_check: string }, []>("PRAGMA quick_check").all();
  const report = rows.map((row) => row.quick_check).join("; ");
  return report === "ok" ? null : report;
}

function moveAside(path: string, now: Date): string {
  const aside = `${path}.corrupt-${now.toISOString().replace(/[:.]/g, "-")}`;
  renameSync(path, aside);
  // The WAL belongs to the damaged file; the shared-memory index is rebuilt from it.
  for (const suffix of ["-wal", "-shm"]) {
    if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
  }
  return aside;
}

/**
 * Open LOAM_DB checked: ConfigError (LOAM_DB) when the path cannot hold it; a damaged database
 * moved aside and recreated.
 */
export function openStateDatabase(path: string, log: Log, now: () => Date = () => new Date()): LoamDatabase {
  checkStatePath(path);
  let found: string;
  let db: LoamDatabase | undefined;
  try {
    db = openDatabase(path);
    const report = damage(db);
    if (report === null) return db;
    found = report;
  } catch (error) {
    if (!DAMAGED.has(codeOf(error))) throw new ConfigError("LOAM_DB", `${path} cannot be opened: ${messageOf(error)}`);
    found = messageOf(error);
  }
  try {
    db?.$client.close();
  } catch {
    // a damaged file may refuse a clean close; it is moved aside regardless
  }
  const aside = moveAside(path, now());
  log({ level: "warn", msg: `LOAM_DB ${path} is damaged; moved it aside to ${aside} and started a new one (the cache and rate counters start empty)`, damage: found.slice(0, 500) });
  return openDatabase(path);
}
