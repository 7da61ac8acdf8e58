/**
 * What the point and map-unit snapshot forms share: a SELECT list over the snapshot's SSURGO tables
 * (a column the export lacks reads as NULL), and an answer shaped as SDA would send it, each column
 * typed as the survey's own metadata (`ssurgo_columns`, from mstabcol) declares it.
 */
import { quoteIdent } from "../../upstream/snapshot-schema";
import { answerAsSda, sdaCell, type Cell, type SqlType } from "../../upstream/sda/payload";
import { Payload } from "../../upstream/transport";
import type { SnapshotFile } from "../../upstream/snapshot";

type Row = Record<string, unknown>;

export function snapshotSelect<A extends string>(
  file: SnapshotFile,
  columns: readonly { column: string; alias: A }[],
  tables: Readonly<Record<A, string>>,
): { select: string[]; answer: (rows: Row[]) => Payload } {
  const typeOf = file.db.query<{ sqltype: string; sqlsize: number }, [string, string]>(
    "SELECT sqltype, sqlsize FROM ssurgo_columns WHERE tabphyname = ? AND colphyname = ?",
  );
  const types: SqlType[] = [];
  const select = columns.map(({ column, alias }) => {
    const table = tables[alias];
    const t = typeOf.get(table, column);
    types.push(t ? { name: t.sqltype, size: t.sqlsize } : { name: "varchar", size: 8000 });
    return file.has(table, column) ? `${alias}.${quoteIdent(column)} AS ${quoteIdent(column)}` : `NULL AS ${quoteIdent(column)}`;
  });
  const names = columns.map((c) => c.column);
  const typeNames = types.map((t) => (typeof t === "string" ? t : t.name));
  const answer = (rows: Row[]): Payload => {
    const cells: Cell[][] = rows.map((row) => names.map((c, i) => sdaCell(row[c], typeNames[i])));
    return Payload.ofJson(answerAsSda(names, types, cells).payload);
  };
  return { select, answer };
}
