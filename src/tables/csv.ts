/**
 * RFC 4180 text: CRLF line ends, a header row, a field quoted when it holds a comma, a double
 * quote, CR or LF, and a double quote inside a quoted field doubled. UTF-8 without a byte-order
 * mark (R's read.csv and Python's csv would read a BOM into the first column name).
 *
 * Written here rather than taken from a library: the whole rule is the 10 lines below, the bodies
 * are small and already in memory (at most 500 features, or eight properties over a pedon's or a
 * point's horizons), so a streaming writer (csv-stringify, papaparse) would add a dependency and
 * buy nothing. The tests read the output back with Python's csv module, an independent reader.
 */

/** A cell as the JSON has it; null and undefined are the empty field. */
export type Cell = string | number | boolean | null | undefined;

/** One column: its header and how to read it from a row. Tables of these are data (see flatten.ts). */
export type Column<Row> = readonly [header: string, read: (row: Row) => Cell];

const NEEDS_QUOTES = /[",\r\n]/;

/** What a spreadsheet reads as the start of a formula (or a DDE command) in a cell. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain decimal number: a spreadsheet reads it as a number, never as a formula. */
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A text cell a spreadsheet would execute, neutralised (docs/decisions.md#csv-formulas): a text that
 * starts with `=`, `+`, `-`, `@`, a tab or a CR gets a leading `'` (OWASP's rule), unless the whole
 * text is a plain decimal number such as `-3.5`, which a spreadsheet reads as that number. Number
 * cells are written as numbers: a JavaScript number cannot hold a formula.
 */
export function neutralised(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

export function csvField(cell: Cell): string {
  if (cell === null || cell === undefined) return "";
  const text = typeof cell === "string" ? neutralised(cell) : String(cell);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(csvField).join(",")}\r\n`;
}

/** The header row, then one line per row; a table with no rows is the header alone. */
export function toCsv<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string {
  let out = csvLine(columns.map(([header]) => header));
  for (const row of rows) out += csvLine(columns.map(([, read]) => read(row)));
  return out;
}
