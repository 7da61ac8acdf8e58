/**
 * Import KSSL lab data exported with NCSS Lab Data Mart (LDM / SDA) table and column names:
 * `kssl/<STATE>/<ldm_table>.csv`, RFC 4180, one header row, empty field = NULL.
 *
 * Every value is stored as TEXT exactly as written: lab results carry their reported precision
 * (clay_total 35.154017), and re-rendering a double could change the string a user cites.
 */
import type { Database, SQLQueryBindings } from "bun:sqlite";
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { createBaseSchema, ensureIndexes, ensureTable, quoteIdent, tableColumns } from "../upstream/snapshot-schema";
import { decodeWssBytes } from "./wss-text";

/** LDM tables the snapshot reads, plus the source's extra pedon fields when present. */
export const KSSL_TABLES = [
  "lab_combine_nasis_ncss",
  "lab_layer",
  "lab_chemical_properties",
  "lab_physical_properties",
  "extra_source_fields_pedon",
] as const;

const REQUIRED = new Set<string>(["lab_combine_nasis_ncss", "lab_layer"]);

export interface KsslFolderReport {
  folder: string;
  /** Folder name, e.g. KS. */
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

function importCsv(db: Database, table: string, path: string): number {
  const records = iterateCsvRecords(decodeWssBytes(readFileSync(path)));
  const header = records.next();
  if (header.done || header.value.some((h) => !h)) throw new Error(`${path}: missing or empty header row`);
  const columns = header.value as string[];
  ensureTable(db, table, columns.map((name) => ({ name, affinity: "TEXT" })));
  const insert = db.prepare(
    `INSERT INTO ${quoteIdent(table)} (${columns.map(quoteIdent).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  let count = 0;
  db.transaction(() => {
    for (const record of records) {
      if (record.length !== columns.length) {
        throw new Error(`${path}: data row ${count + 1} has ${record.length} fields, the header has ${columns.length}`);
      }
      insert.run(...(record as SQLQueryBindings[]));
      count++;
    }
  })();
  insert.finalize();
  return count;
}

/** Import the LDM-named CSV files of one folder (one state or collection). */
export function importKsslFolder(db: Database, folder: string, log: (line: string) => void = () => {}): KsslFolderReport {
  createBaseSchema(db);
  const rows: Record<string, number> = {};
  const warnings: string[] = [];
  const collection = basename(folder);
  log(`KSSL ${collection}`);
  for (const table of KSSL_TABLES) {
    const path = join(folder, `${table}.csv`);
    if (!existsSync(path)) {
      if (REQUIRED.has(table)) throw new Error(`${folder}: ${table}.csv is missing; is this a Lab Data Mart-named KSSL export?`);
      if (table !== "extra_source_fields_pedon") warnings.push(`${collection}: ${table}.csv missing; its properties will be null`);
      continue;
    }
    rows[table] = importCsv(db, table, path);
    log(`  ${table}: ${rows[table]} row(s)`);
  }
  ensureIndexes(db);
  // Bounding-box queries compare numbers; the stored text stays exact, the index holds the number.
  const pedonColumns = tableColumns(db, "lab_combine_nasis_ncss");
  if (pedonColumns.includes("longitude_decimal_degrees") && pedonColumns.includes("latitude_decimal_degrees")) {
    db.run(`CREATE INDEX IF NOT EXISTS lab_combine_nasis_ncss_lon_lat ON lab_combine_nasis_ncss
      (CAST(longitude_decimal_degrees AS REAL), CAST(latitude_decimal_degrees AS REAL))`);
  } else {
    warnings.push(`${collection}: lab_combine_nasis_ncss has no latitude/longitude_decimal_degrees; no pedon can be found by bbox`);
  }
  return { folder, collection, rows, warnings };
}
