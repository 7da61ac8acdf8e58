/**
 * The drizzle-kit migrations, imported as text so `bun build --compile` embeds them: the single
 * executable has no migrations folder beside it. Add a line here when drizzle-kit writes a new file.
 */
import journal from "./migrations/meta/_journal.json";
import init from "./migrations/0000_init.sql" with { type: "text" };
import cacheBytesIndex from "./migrations/0001_cache_bytes_index.sql" with { type: "text" };

const SQL_BY_TAG: Record<string, string> = {
  "0000_init": init,
  "0001_cache_bytes_index": cacheBytesIndex,
};

export interface MigrationMeta {
  sql: string[];
  bps: boolean;
  folderMillis: number;
  hash: string;
}

/** The same records drizzle's `readMigrationFiles` builds from a folder. */
export function embeddedMigrations(): MigrationMeta[] {
  return journal.entries.map((entry) => {
    const query = SQL_BY_TAG[entry.tag];
    if (query === undefined) throw new Error(`migration ${entry.tag} is in the journal but not embedded in db/migrations.ts`);
    return {
      sql: query.split("--> statement-breakpoint"),
      bps: entry.breakpoints,
      folderMillis: entry.when,
      hash: new Bun.CryptoHasher("sha256").update(query).digest("hex"),
    };
  });
}
