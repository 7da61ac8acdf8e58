import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import * as schema from "./schema";
import { embeddedMigrations } from "./migrations";

export type LoamDatabase = BunSQLiteDatabase<typeof schema> & { $client: Database };

/**
 * Open (creating if needed) Loam's state database in WAL mode and apply pending migrations.
 * WAL keeps readers and the single writer out of each other's way; synchronous=NORMAL is durable
 * across a process crash (kill -9), which is the failure this service has to survive.
 */
export function openDatabase(path: string): LoamDatabase {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  const db = drizzle(sqlite, { schema }) as LoamDatabase;
  migrate(db);
  return db;
}

function migrate(db: LoamDatabase): void {
  // drizzle's migrator reads a folder; the compiled executable has none, so hand it the embedded records.
  const dialect = (db as unknown as { dialect: { migrate(m: unknown, s: unknown, c: unknown): void } }).dialect;
  const session = (db as unknown as { session: unknown }).session;
  dialect.migrate(embeddedMigrations(), session, {});
}
