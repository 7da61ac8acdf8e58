/**
 * What the point and map-unit snapshot forms share: a SELECT list over the snapshot's SSURGO tables
 * (a column the export lacks reads as NULL; a date is read as epoch milliseconds), and the answer as
 * typed rows (docs/decisions.md#decode-once), each column typed for the raw endpoint's SDA JSON as
 * the survey's own metadata (`ssurgo_columns`, from mstabcol) declares it.
 */
import { quoteIdent } from "../../upstream/snapshot-schema";
import type { SqlType } from "../../upstream/sda/payload";
import { snapshotRows, type ColumnKind } from "../../upstream/sda/rows";
import type { Payload } from "../../upstream/transport";
import type { SnapshotFile } from "../../upstream/snapshot";

type Row = Record<string, unknown>;

export function snapshotSelect<A extends string>(
  file: SnapshotFile,
  columns: readonly { column: string; alias: A; kind: ColumnKind }[],
  tables: Readonly<Record<A, string>>,
): { select: string[]; answer: (rows: Row[]) => Payload } {
  const typeOf = file.db.query<{ sqltype: string; sqlsize: number }, [string, string]>(
    "SELECT sqltype, sqlsize FROM ssurgo_columns WHERE tabphyname = ? AND colphyname = ?",
  );
  const types: SqlType[] = [];
  const select = columns.map(({ column, alias, kind }) => {
    const table = tables[alias];
    const t = typeOf.get(table, column);
    types.push(t ? { name: t.sqltype, size: t.sqlsize } : { name: "varchar", size: 8000 });
    if (!file.has(table, column)) return `NULL AS ${quoteIdent(column)}`;
    const value = `${alias}.${quoteIdent(column)}`;
    // SQLite converts what a column declares itself (docs/decisions.md#decode-once): the stored ISO
    // text is read as a time, and an integer read as text (saversion) is written as its digits.
    const read = kind === "date" ? `unixepoch(${value}) * 1000` : kind === "text" && t?.sqltype === "int" ? `CAST(${value} AS TEXT)` : value;
    return `${read} AS ${quoteIdent(column)}`;
  });
  return { select, answer: (rows: Row[]) => snapshotRows(columns, types, rows) };
}
