/**
 * The one shape every upstream source hands to the providers: an SDA-style table.
 *
 * Soil Data Access answers `format: "JSON+COLUMNNAME+METADATA"` with
 * `{"Table": [[...column names], [...column metadata], ...rows]}` where every value is a string
 * (numbers too) and SQL NULL is `null`; an empty result set is `{}`. The snapshot source builds the
 * very same payload from SQLite, so normalization never knows which source answered.
 */
export type Cell = string | null;

export interface UpstreamTable {
  /** Column names, row 0 of the SDA payload. */
  columns: string[];
  /** SQL Server type of each column (`DataTypeName=` of the metadata row), e.g. `int`, `varchar`, `real`. */
  types: string[];
  /** Data rows, every value a string or null, exactly as SDA sends them. */
  rows: Cell[][];
}

/** The untouched wire payload: `{}` or `{"Table": [...]}`. */
export type SdaPayload = Record<string, unknown>;

/** One answer of an upstream source for one logical query. */
export interface UpstreamAnswer {
  /** Parsed `Table` (empty columns and rows for `{}`). */
  table: UpstreamTable;
  /** The exact JSON the upstream sent (or, for the snapshot, the same shape built locally). */
  payload: SdaPayload;
}

/** Rows as objects keyed by column name; convenient for normalizers. */
export function tableRecords(table: UpstreamTable): Record<string, Cell>[] {
  return table.rows.map((row) => {
    const record: Record<string, Cell> = {};
    table.columns.forEach((name, i) => {
      record[name] = row[i] ?? null;
    });
    return record;
  });
}
