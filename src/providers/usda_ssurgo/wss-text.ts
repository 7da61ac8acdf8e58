/**
 * Reader for the Web Soil Survey SSURGO export text format (`tabular/*.txt`).
 *
 * WSS writes pipe-delimited records without a header. Quoting follows the column's logical type
 * (String/Choice/Vtext quoted, numbers and Booleans bare), so "is it quoted" carries meaning:
 * an empty bare field is SQL NULL, while `""` is an empty string (both occur in the Iowa exports).
 * Booleans are char(3) in SSURGO and print as bare `Yes` / `No ` — the blank is data, never trimmed.
 * Descriptions in mstab/mstabcol contain line breaks inside quotes, so we parse records, not lines.
 */

export type WssValue = string | null;

/** Every record of a WSS text file, in file order. LF and CRLF both end a record outside quotes. */
export function* iterateWssRecords(text: string, fileLabel = "WSS text"): Generator<WssValue[]> {
  const n = text.length;
  let i = 0;
  let record = 1;
  while (i < n) {
    // A blank line is never a record: every SSURGO table has several columns.
    if (text.charCodeAt(i) === 10) {
      i++;
      continue;
    }
    if (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10) {
      i += 2;
      continue;
    }
    const fields: WssValue[] = [];
    for (;;) {
      if (text.charCodeAt(i) === 34 /* " */) {
        let value = "";
        let start = ++i;
        for (;;) {
          const q = text.indexOf('"', start);
          if (q < 0) throw new Error(`${fileLabel}: record ${record} has an unterminated quoted field`);
          if (text.charCodeAt(q + 1) === 34) {
            value += text.slice(start, q + 1);
            start = q + 2;
            continue;
          }
          value += text.slice(start, q);
          i = q + 1;
          break;
        }
        fields.push(value);
      } else {
        let j = i;
        while (j < n) {
          const c = text.charCodeAt(j);
          if (c === 124 || c === 10 || (c === 13 && text.charCodeAt(j + 1) === 10)) break;
          j++;
        }
        fields.push(j === i ? null : text.slice(i, j));
        i = j;
      }
      const c = text.charCodeAt(i);
      if (c === 124 /* | */) {
        i++;
        continue;
      }
      if (i >= n) break;
      if (c === 10) {
        i++;
        break;
      }
      if (c === 13 && text.charCodeAt(i + 1) === 10) {
        i += 2;
        break;
      }
      throw new Error(`${fileLabel}: record ${record} has text after a closing quote (field ${fields.length})`);
    }
    yield fields;
    record++;
  }
}

export function parseWssRecords(text: string, fileLabel?: string): WssValue[][] {
  return [...iterateWssRecords(text, fileLabel)];
}

export interface SsurgoColumn {
  table: string;
  sequence: number;
  name: string;
  logicalType: string;
  notNull: boolean;
  fieldSize: number | null;
  precision: number | null;
}

/** Column dictionary from `mstabcol.txt`, each table's columns in colsequence order. */
export function readColumnDictionary(mstabcolText: string): Map<string, SsurgoColumn[]> {
  const tables = new Map<string, SsurgoColumn[]>();
  for (const f of iterateWssRecords(mstabcolText, "mstabcol.txt")) {
    const [table, sequence, name, , , logicalType, notNull, fieldSize, precision] = f;
    if (!table || !sequence || !name || !logicalType) throw new Error(`mstabcol.txt: incomplete column record ${JSON.stringify(f.slice(0, 6))}`);
    const list = tables.get(table) ?? [];
    list.push({
      table,
      sequence: Number(sequence),
      name,
      logicalType,
      notNull: notNull === "Yes",
      fieldSize: fieldSize ? Number(fieldSize) : null,
      precision: precision ? Number(precision) : null,
    });
    tables.set(table, list);
  }
  for (const list of tables.values()) list.sort((a, b) => a.sequence - b.sequence);
  return tables;
}

/** Table physical name -> import/export file name (without `.txt`), from `mstab.txt` (5th field, iefilename). */
export function readTableFileNames(mstabText: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const f of iterateWssRecords(mstabText, "mstab.txt")) {
    const table = f[0];
    const file = f[4];
    if (table && file) names.set(table, file);
  }
  return names;
}

/** SQLite column affinity for a SSURGO logical type (Booleans stay text: `Yes` / `No `). */
export function sqliteAffinity(logicalType: string): "INTEGER" | "REAL" | "TEXT" {
  if (logicalType === "Integer") return "INTEGER";
  if (logicalType === "Float") return "REAL";
  return "TEXT";
}

/**
 * The SQL Server type SDA reports for a SSURGO column. Booleans are `varchar`: SDA returns
 * majcompflag as 'Yes' / 'No ', not as bit. Vtext (memo) is varchar(max).
 */
export function sqlServerType(column: Pick<SsurgoColumn, "logicalType" | "fieldSize">): { name: string; size: number } {
  switch (column.logicalType) {
    case "Integer":
      return { name: "int", size: 4 };
    case "Float":
      return { name: "real", size: 4 };
    case "Date/Time":
      return { name: "datetime", size: 8 };
    case "Boolean":
      return { name: "varchar", size: 3 };
    case "Vtext":
      return { name: "varchar", size: 2147483647 };
    default:
      return { name: "varchar", size: column.fieldSize ?? 8000 };
  }
}
