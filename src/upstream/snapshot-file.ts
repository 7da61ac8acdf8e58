/**
 * The opened snapshot as the providers' readers see it: its own module, so that the query contract
 * (transport.ts, whose snapshot forms are handed one) and the snapshot transport (snapshot.ts, which
 * opens it and implements the contract) each import it without importing each other.
 */
import type { Database } from "bun:sqlite";
import { tableColumns } from "./snapshot-schema";

/** The opened snapshot as readers see it. */
export class SnapshotFile {
  constructor(readonly db: Database) {}

  /** Does the snapshot hold this table (and column)? Exports differ in what they carry. */
  has(table: string, column?: string): boolean {
    const columns = tableColumns(this.db, table);
    return column === undefined ? columns.length > 0 : columns.includes(column);
  }
}
