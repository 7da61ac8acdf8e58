/**
 * Import KSSL lab data with NCSS Lab Data Mart (LDM / SDA) table and column names, from either form the
 * Lab Data Mart gives: a folder of `<ldm_table>.csv` (RFC 4180, one header row, empty field = NULL), or
 * its SQLite / GeoPackage download (the same table names, any number of pedons).
 *
 * Every value is stored as TEXT exactly as written: lab results carry their reported precision
 * (clay_total 35.154017), and re-rendering a double could change the string a user cites. A source is
 * staged in temporary tables first, then replaces the snapshot's rows of the same pedons: a newer
 * release of a pedon never sits beside the older one (docs/decisions.md#import).
 */
import type { Database, SQLQueryBindings } from "bun:sqlite";
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { createBaseSchema, ensureIndexes, ensureTable, quoteIdent, tableColumns, tableExists } from "../../upstream/snapshot-schema";
import { decodeText } from "../decode";

/** LDM tables the snapshot reads, plus the source's extra pedon fields when present. */
export const KSSL_TABLES = [
  "lab_combine_nasis_ncss",
  "lab_layer",
  "lab_chemical_properties",
  "lab_physical_properties",
  "extra_source_fields_pedon",
] as const;

const REQUIRED = new Set<string>(["lab_combine_nasis_ncss", "lab_layer"]);

/** The key columns each table must have: what joins pedons, layers and results (a source without one is refused). */
const KEY_COLUMNS: Record<string, readonly string[]> = {
  lab_combine_nasis_ncss: ["pedlabsampnum"],
  lab_layer: ["labsampnum", "pedlabsampnum"],
  lab_chemical_properties: ["labsampnum"],
  lab_physical_properties: ["labsampnum"],
  extra_source_fields_pedon: ["pedlabsampnum"],
};

export interface KsslFolderReport {
  /** The CSV folder or the SQLite file. */
  folder: string;
  /** Folder name (KS) or file name without extension: the dataset's id. */
  collection: string;
  rows: Record<string, number>;
  warnings: string[];
}

/** RFC 4180 records (quotes, doubled quotes, separators and line breaks inside quotes; LF or CRLF). */
export function* iterateCsvRecords(text: string): Generator<Array<string | null>> {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < n) {
    if (text.charCodeAt(i) === 10 || (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10)) {
      i += text.charCodeAt(i) === 13 ? 2 : 1;
      continue;
    }
    const fields: Array<string | null> = [];
    for (;;) {
      let value: string;
      if (text.charCodeAt(i) === 34) {
        value = "";
        let start = i + 1;
        for (;;) {
          const q = text.indexOf('"', start);
          if (q < 0) throw new Error(`CSV: unterminated quoted field in record ${fields.length > 0 ? "starting " + JSON.stringify(fields[0]) : ""}`);
          if (text.charCodeAt(q + 1) === 34) {
            value += text.slice(start, q + 1);
            start = q + 2;
          } else {
            value += text.slice(start, q);
            i = q + 1;
            break;
          }
        }
      } else {
        let j = i;
        while (j < n) {
          const c = text.charCodeAt(j);
          if (c === 44 || c === 10 || (c === 13 && text.charCodeAt(j + 1) === 10)) break;
          j++;
        }
        value = text.slice(i, j);
        i = j;
      }
      // LDM exports write NULL as an empty field; a quoted empty field means the same here.
      fields.push(value === "" ? null : value);
      const c = text.charCodeAt(i);
      if (c === 44) {
        i++;
        continue;
      }
      if (i >= n) break;
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) === 10)) {
        i += c === 13 ? 2 : 1;
        break;
      }
      throw new Error(`CSV: unexpected character after a quoted field (record starting ${JSON.stringify(fields[0])})`);
    }
    yield fields;
  }
}

const stage = (table: string) => `temp.${quoteIdent(`stage_${table}`)}`;

/** One source table: where it is (for errors), its column names, and how to copy its rows into a staging table. */
interface SourceTable {
  /** The CSV file, or the database file and table. */
  where: string;
  columns: string[];
  /** Copy every row into `target` (TEXT columns in `columns` order); the number of rows. */
  fill(db: Database, target: string): number;
}

/** Copy one source table into its staging table, checking its header and key columns first. */
function stageTable(db: Database, table: string, source: SourceTable): number {
  const { where, columns } = source;
  if (columns.length === 0 || columns.some((c) => !c)) throw new Error(`${where}: missing or empty header row`);
  const missing = (KEY_COLUMNS[table] ?? []).filter((k) => !columns.includes(k));
  if (missing.length > 0) throw new Error(`${where}: no column ${missing.join(", ")}; a Lab Data Mart ${table} table has it`);
  db.run(`DROP TABLE IF EXISTS ${stage(table)}`);
  db.run(`CREATE TABLE ${stage(table)} (${columns.map((c) => `${quoteIdent(c)} TEXT`).join(", ")})`);
  return source.fill(db, stage(table));
}

function csvTable(path: string): SourceTable {
  const records = iterateCsvRecords(decodeText(readFileSync(path)));
  const header = records.next();
  const columns = header.done ? [] : header.value.map((h) => h ?? "");
  return {
    where: path,
    columns,
    fill(db, target) {
      const insert = db.prepare(`INSERT INTO ${target} VALUES (${columns.map(() => "?").join(", ")})`);
      let count = 0;
      db.transaction(() => {
        for (const record of records) {
          if (record.length !== columns.length) throw new Error(`${path}: data row ${count + 1} has ${record.length} fields, the header has ${columns.length}`);
          insert.run(...(record as SQLQueryBindings[]));
          count++;
        }
      })();
      insert.finalize();
      return count;
    },
  };
}

/** The schema name the Lab Data Mart's database is attached under while it is read. */
const LDM = "ldm";

/**
 * A table of the attached Lab Data Mart SQLite / GeoPackage, copied inside SQLite (a national file never
 * passes through memory), every value as SQLite renders it as text (REAL 35.154017 -> "35.154017").
 */
function attachedTable(db: Database, path: string, table: string): SourceTable | null {
  const columns = db.query<{ name: string }, []>(`PRAGMA ${LDM}.table_info(${quoteIdent(table)})`).all().map((c) => c.name);
  if (columns.length === 0) return null;
  return {
    where: `${path} table ${table}`,
    columns,
    fill: (db, target) => db.run(`INSERT INTO ${target} SELECT ${columns.map((c) => `CAST(${quoteIdent(c)} AS TEXT)`).join(", ")} FROM ${LDM}.${quoteIdent(table)}`).changes,
  };
}

/** Replace the snapshot's rows of the staged pedons (and of their layers, old and new) by the staged rows. */
function mergeStaged(db: Database, staged: readonly string[]): void {
  const pedons = `SELECT pedlabsampnum FROM ${stage("lab_combine_nasis_ncss")}`;
  const layers = `SELECT labsampnum FROM ${stage("lab_layer")} UNION SELECT labsampnum FROM main.lab_layer WHERE pedlabsampnum IN (${pedons})`;
  const remove = (table: string, key: string, keys: string) => {
    if (tableColumns(db, table).includes(key)) db.run(`DELETE FROM main.${quoteIdent(table)} WHERE ${quoteIdent(key)} IN (${keys})`);
  };
  db.transaction(() => {
    // Results first: they are found through the layers the snapshot holds before those go.
    if (tableExists(db, "lab_layer")) for (const table of ["lab_chemical_properties", "lab_physical_properties"]) remove(table, "labsampnum", layers);
    for (const table of ["lab_layer", "extra_source_fields_pedon", "lab_combine_nasis_ncss"]) remove(table, "pedlabsampnum", pedons);
    for (const table of staged) {
      const columns = db.query<{ name: string }, []>(`PRAGMA temp.table_info(${quoteIdent(`stage_${table}`)})`).all().map((c) => c.name);
      ensureTable(db, table, columns.map((name) => ({ name, affinity: "TEXT" })));
      const names = columns.map(quoteIdent).join(", ");
      db.run(`INSERT INTO main.${quoteIdent(table)} (${names}) SELECT ${names} FROM ${stage(table)}`);
      db.run(`DROP TABLE ${stage(table)}`);
    }
  })();
}

/** Stage every table a source has (a folder of CSV files or a SQLite file), merge, and index. */
function importSource(db: Database, where: string, collection: string, read: (table: string) => SourceTable | null, log: (line: string) => void): KsslFolderReport {
  createBaseSchema(db);
  const rows: Record<string, number> = {};
  const warnings: string[] = [];
  log(`KSSL ${collection}`);
  for (const table of KSSL_TABLES) {
    const source = read(table);
    if (!source) {
      if (REQUIRED.has(table)) throw new Error(`${where}: no ${table} table; is this a Lab Data Mart export?`);
      if (table !== "extra_source_fields_pedon") warnings.push(`${collection}: no ${table} table; its properties will be null`);
      continue;
    }
    rows[table] = stageTable(db, table, source);
    log(`  ${table}: ${rows[table]} row(s)`);
  }
  mergeStaged(db, Object.keys(rows));
  ensureIndexes(db);
  // Bounding-box queries compare numbers; the stored text stays exact, the index holds the number.
  const pedonColumns = tableColumns(db, "lab_combine_nasis_ncss");
  if (pedonColumns.includes("longitude_decimal_degrees") && pedonColumns.includes("latitude_decimal_degrees")) {
    db.run(`CREATE INDEX IF NOT EXISTS lab_combine_nasis_ncss_lon_lat ON lab_combine_nasis_ncss
      (CAST(longitude_decimal_degrees AS REAL), CAST(latitude_decimal_degrees AS REAL))`);
  } else {
    warnings.push(`${collection}: lab_combine_nasis_ncss has no latitude/longitude_decimal_degrees; no pedon can be found by bbox`);
  }
  return { folder: where, collection, rows, warnings };
}

/** Import the LDM-named CSV files of one folder (one state or collection). */
export function importKsslFolder(db: Database, folder: string, log: (line: string) => void = () => {}): KsslFolderReport {
  return importSource(db, folder, basename(folder), (table) => {
    const path = join(folder, `${table}.csv`);
    return existsSync(path) ? csvTable(path) : null;
  }, log);
}

/** Import the Lab Data Mart's SQLite or GeoPackage download (attached while read; never written). */
export function importKsslDatabase(db: Database, path: string, log: (line: string) => void = () => {}): KsslFolderReport {
  db.query(`ATTACH DATABASE ? AS ${LDM}`).run(path);
  try {
    return importSource(db, path, basename(path).replace(/\.[^.]*$/, ""), (table) => attachedTable(db, path, table), log);
  } finally {
    db.run(`DETACH DATABASE ${LDM}`);
  }
}
