/**
 * Snapshot database layout shared by the importers, the build and the snapshot source.
 *
 * Source tables keep their upstream names and columns (SSURGO `legend`, `mapunit`, ...; LDM
 * `lab_layer`, ...) so a query reads like its Soil Data Access twin. Loam's own shared table:
 * `snapshot_info` (key/value: build time, layouts, one JSON entry per dataset, imported paths' hashes);
 * each provider creates its own (the survey provider's `ssurgo_columns` and `mupolygon`, in its folder).
 */
import type { Database } from "bun:sqlite";

/**
 * The snapshot's layout: 2 (0.4.0) adds the DS 801 geochemistry tables; 3 (0.5.0) gives each survey
 * area's dataset its box. `npm install` rebuilds a snapshot of an older layout (src/cli.ts,
 * ensureSnapshot), so an upgraded checkout serves every source.
 */
export const SNAPSHOT_FORMAT_VERSION = "3";

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** What every snapshot has: `snapshot_info`. Each provider's step creates its own tables (src/providers/<id>/snapshot.ts). */
export function createBaseSchema(db: Database): void {
  db.run("CREATE TABLE IF NOT EXISTS snapshot_info (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
}

/**
 * Series descriptions: each OSD file byte-exact (the same JSON text live mode fetches, so both go
 * through one parser), keyed by its file name (NEW_CAMBRIA); and the Munsell renotation table (x, y
 * and luminance Y: SQLite names are case-insensitive, so Y cannot be a column beside y) the
 * colours are converted with, so the single executable needs nothing beside its snapshot.
 */
export function tableExists(db: Database, table: string): boolean {
  return db.query("SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = ?").get(table) !== null;
}

export function tableColumns(db: Database, table: string): string[] {
  if (!tableExists(db, table)) return [];
  return db
    .query<{ name: string }, []>(`PRAGMA table_info(${quoteIdent(table)})`)
    .all()
    .map((c) => c.name);
}

/**
 * Create `table` with the given columns, or add the ones an older snapshot lacks (a newer SSURGO
 * model or another state's LDM export may carry extra columns; existing rows get NULL).
 */
export function ensureTable(db: Database, table: string, columns: ReadonlyArray<{ name: string; affinity: string }>): void {
  const existing = new Set(tableColumns(db, table));
  if (existing.size === 0) {
    const defs = columns.map((c) => `${quoteIdent(c.name)} ${c.affinity}`).join(", ");
    db.run(`CREATE TABLE ${quoteIdent(table)} (${defs})`);
    return;
  }
  for (const c of columns) {
    if (!existing.has(c.name)) db.run(`ALTER TABLE ${quoteIdent(table)} ADD COLUMN ${quoteIdent(c.name)} ${c.affinity}`);
  }
}

/** Key indexes for the joins of the point and pedon queries (IF NOT EXISTS: cheap to call again). */
const INDEXES: ReadonlyArray<[table: string, column: string]> = [
  ["legend", "lkey"],
  ["legend", "areasymbol"],
  ["sacatalog", "areasymbol"],
  ["mapunit", "mukey"],
  ["mapunit", "lkey"],
  ["component", "mukey"],
  ["component", "cokey"],
  ["chorizon", "cokey"],
  ["chorizon", "chkey"],
  ["chtexturegrp", "chkey"],
  ["muaggatt", "mukey"],
  ["lab_combine_nasis_ncss", "pedlabsampnum"],
  ["lab_layer", "pedlabsampnum"],
  ["lab_layer", "labsampnum"],
  ["lab_chemical_properties", "labsampnum"],
  ["lab_physical_properties", "labsampnum"],
  ["extra_source_fields_pedon", "pedlabsampnum"],
];

export function ensureIndexes(db: Database): void {
  for (const [table, column] of INDEXES) {
    if (!tableColumns(db, table).includes(column)) continue;
    db.run(`CREATE INDEX IF NOT EXISTS ${quoteIdent(`${table}_${column}`)} ON ${quoteIdent(table)} (${quoteIdent(column)})`);
  }
}

/** Child -> parent key relations whose orphans the build reports (rows are kept, never dropped). */
const RELATIONS: ReadonlyArray<[child: string, childKey: string, parent: string, parentKey: string]> = [
  ["mapunit", "lkey", "legend", "lkey"],
  ["component", "mukey", "mapunit", "mukey"],
  ["muaggatt", "mukey", "mapunit", "mukey"],
  ["chorizon", "cokey", "component", "cokey"],
  ["chtexturegrp", "chkey", "chorizon", "chkey"],
  ["mupolygon", "mukey", "mapunit", "mukey"],
  ["lab_layer", "pedlabsampnum", "lab_combine_nasis_ncss", "pedlabsampnum"],
  ["lab_chemical_properties", "labsampnum", "lab_layer", "labsampnum"],
  ["lab_physical_properties", "labsampnum", "lab_layer", "labsampnum"],
];

const UNIQUE_KEYS: ReadonlyArray<[table: string, key: string]> = [
  ["legend", "lkey"],
  ["mapunit", "mukey"],
  ["component", "cokey"],
  ["chorizon", "chkey"],
  ["lab_combine_nasis_ncss", "pedlabsampnum"],
  ["lab_layer", "labsampnum"],
];

/** Orphan keys, duplicate keys and map units without polygons, as human-readable warnings. */
export function integrityWarnings(db: Database): string[] {
  const warnings: string[] = [];
  for (const [child, ck, parent, pk] of RELATIONS) {
    if (!tableColumns(db, child).includes(ck) || !tableColumns(db, parent).includes(pk)) continue;
    const rows = db
      .query<{ k: string | null; n: number }, []>(
        `SELECT c.${quoteIdent(ck)} AS k, count(*) AS n FROM ${quoteIdent(child)} c
         WHERE c.${quoteIdent(ck)} IS NOT NULL AND NOT EXISTS
           (SELECT 1 FROM ${quoteIdent(parent)} p WHERE p.${quoteIdent(pk)} = c.${quoteIdent(ck)})
         GROUP BY c.${quoteIdent(ck)} ORDER BY c.${quoteIdent(ck)}`,
      )
      .all();
    if (rows.length === 0) continue;
    const total = rows.reduce((s, r) => s + r.n, 0);
    const sample = rows.slice(0, 5).map((r) => r.k).join(", ");
    warnings.push(`orphan: ${total} ${child} row(s) whose ${ck} is not in ${parent}.${pk} (${rows.length} key(s): ${sample}${rows.length > 5 ? ", ..." : ""}); rows kept`);
  }
  for (const [table, key] of UNIQUE_KEYS) {
    if (!tableColumns(db, table).includes(key)) continue;
    const dup = db
      .query<{ k: string; n: number }, []>(
        `SELECT ${quoteIdent(key)} AS k, count(*) AS n FROM ${quoteIdent(table)} WHERE ${quoteIdent(key)} IS NOT NULL
         GROUP BY ${quoteIdent(key)} HAVING count(*) > 1 LIMIT 6`,
      )
      .all();
    if (dup.length > 0) warnings.push(`duplicate ${table}.${key}: ${dup.slice(0, 5).map((d) => `${d.k} (${d.n}x)`).join(", ")}${dup.length > 5 ? ", ..." : ""}`);
  }
  if (tableExists(db, "mapunit")) {
    const bare = db
      .query<{ mukey: string }, []>(
        "SELECT mukey FROM mapunit m WHERE NOT EXISTS (SELECT 1 FROM mupolygon p WHERE p.mukey = m.mukey) ORDER BY mukey",
      )
      .all();
    if (bare.length > 0) warnings.push(`${bare.length} map unit(s) have no polygon, so no point query can reach them: ${bare.slice(0, 5).map((b) => b.mukey).join(", ")}${bare.length > 5 ? ", ..." : ""}`);
  }
  return warnings;
}

/** The kinds of the datasets the shared build imports (a provider's own step writes its id): a survey area, a lab collection. */
export const SURVEY_AREA_DATASETS = "ssurgo";
export const LAB_COLLECTION_DATASETS = "kssl";

/** One dataset's entry in `snapshot_info` (key `dataset:<kind>:<id>`). */
export interface DatasetInfo {
  /** "ssurgo", "kssl", or the id of the provider whose snapshot step imported it. */
  kind: string;
  id: string;
  /** Coverage line for warnings, e.g. "SSURGO IA073 Greene County, Iowa (survey version 26, 2020-06-10)". */
  label: string;
  /** Survey area version date / export vintage (ISO date), when the source states one. */
  vintage: string | null;
  source: string;
  rows: Record<string, number>;
  importedAt: string;
  /**
   * The box [w, s, e, n] of what it holds, when its importer states one (a survey area's polygons, a
   * raster clip's extent): the place's box on GET /v1/layers (docs/decisions.md#map-layers).
   */
  bbox?: [number, number, number, number] | null;
  extra?: Record<string, unknown>;
}

export function writeDatasetInfo(db: Database, info: DatasetInfo): void {
  db.query("INSERT OR REPLACE INTO snapshot_info (key, value) VALUES (?, ?)").run(`dataset:${info.kind}:${info.id}`, JSON.stringify(info));
}

export function writeInfo(db: Database, key: string, value: string): void {
  db.query("INSERT OR REPLACE INTO snapshot_info (key, value) VALUES (?, ?)").run(key, value);
}

/** The `snapshot_info` key of the file's identity (docs/decisions.md#snapshot-identity). */
export const IDENTITY_KEY = "identity";

/**
 * A snapshot's identity from what it states of itself: SHA-256 (16 hex digits) of every other
 * `snapshot_info` row, which name each dataset with its rows and import time and the build or update
 * time. Computed once when a build or import writes the file, so a start reads one row, never the file
 * (docs/decisions.md#snapshot-identity).
 */
export function infoIdentity(db: Database): string {
  const hasher = new Bun.CryptoHasher("sha256");
  for (const row of db.query<{ key: string; value: string }, [string]>("SELECT key, value FROM snapshot_info WHERE key <> ? ORDER BY key").all(IDENTITY_KEY)) {
    hasher.update(row.key).update("\0").update(row.value).update("\0");
  }
  return hasher.digest("hex").slice(0, 16);
}

/** Write the identity of what the file now holds: the last step of every build and import. */
export function writeIdentity(db: Database): void {
  writeInfo(db, IDENTITY_KEY, infoIdentity(db));
}

export function readSnapshotInfo(db: Database): { values: Map<string, string>; datasets: DatasetInfo[] } {
  const values = new Map<string, string>();
  const datasets: DatasetInfo[] = [];
  for (const row of db.query<{ key: string; value: string }, []>("SELECT key, value FROM snapshot_info ORDER BY key").all()) {
    if (row.key.startsWith("dataset:")) datasets.push(JSON.parse(row.value) as DatasetInfo);
    else values.set(row.key, row.value);
  }
  return { values, datasets };
}
