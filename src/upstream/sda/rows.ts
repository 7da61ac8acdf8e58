/**
 * Typed rows of an SDA-shaped answer (docs/decisions.md#decode-once): text, numbers, dates and nulls,
 * made once per answer, the way each query declares its columns (`ColumnKind`).
 *
 * - From Soil Data Access, `sdaRows` turns SDA's strings into typed rows: the one conversion of the
 *   live path, applied by the query's decoder to the wire table (validated by `decodeSdaTable`).
 * - From the snapshot, `snapshotRows` takes SQLite's own values (numbers are numbers there; dates are
 *   read as epoch milliseconds by the snapshot SELECT) and keeps them; the SDA JSON of the raw
 *   endpoint is rendered from those cells only when a raw body is asked for (`RowAnswer.payload`).
 *
 * No snapshot row becomes SDA text to be parsed back. Every conversion goes through one of
 * `parseSdaValue`, `parseSnapshotNumber` (here), `sdaNumber` or `sdaDateTime` (sda/payload.ts), so a
 * test can count what each path converts (test/upstream/decode-once.test.ts).
 */
import { decimal } from "../../decimal";
import { UpstreamError } from "../../errors";
import { Payload } from "../transport";
import { parseSdaDateTime } from "./dates";
import { decodeSdaTable, MAX_ANSWER_ROWS, parseSdaPayload, sdaCell, sdaColumnMetadata, sdaDateTime, type SdaPayload, type SdaTable, type SqlType } from "./payload";

/**
 * What a column holds once decoded: `text` (keys too: SSURGO's and KSSL's keys stay strings),
 * `number`, `date` (a Date, UTC), or `reported` (a laboratory result kept as the string reported,
 * e.g. "<1" or "35.154017": docs/decisions.md#censored).
 */
export type ColumnKind = "text" | "number" | "date" | "reported";

export type Value = string | number | Date | null;

export interface RowTable {
  readonly columns: readonly string[];
  /** SQL Server type of each column (`DataTypeName`), as SDA reports it. */
  readonly types: readonly string[];
  readonly rows: readonly (readonly Value[])[];
}

/** A column of a typed query: its name and what it holds. */
export interface RowColumn {
  column: string;
  kind: ColumnKind;
}

/**
 * A decoded answer: typed rows for the decoders (`typed`); SDA's JSON (`payload`) and its table of
 * strings (`table`) for the raw endpoint, as received from SDA or rendered from the snapshot's cells
 * only when first asked for.
 */
export class RowAnswer {
  #payload: SdaPayload | undefined;
  #render: (() => SdaPayload) | undefined;
  #table: SdaTable | undefined;

  constructor(
    readonly typed: RowTable,
    payload: SdaPayload | (() => SdaPayload),
    table?: SdaTable,
  ) {
    if (typeof payload === "function") this.#render = payload;
    else this.#payload = payload;
    this.#table = table;
  }

  /** SDA's JSON: as received, or rendered once from the snapshot's cells when a raw body is asked for. */
  get payload(): SdaPayload {
    if (this.#payload === undefined) {
      this.#payload = this.#render!();
      this.#render = undefined;
    }
    return this.#payload;
  }

  /** SDA's table of strings, as the wire holds it (the typed rows are `typed`). */
  get table(): SdaTable {
    return (this.#table ??= parseSdaPayload(this.payload));
  }
}

/**
 * The same answer with only some of its rows (its columns, their types and the upstream payload kept):
 * a narrower answer read out of a wider one that holds it (docs/decisions.md#evidence).
 */
export function someRows(answer: RowAnswer, keep: (row: readonly Value[]) => boolean): RowAnswer {
  return new RowAnswer({ ...answer.typed, rows: answer.typed.rows.filter(keep) }, () => answer.payload);
}

const BELOW_SURROGATES = /^[\u0000-\ud7ff]*$/;

/**
 * How SQLite orders two TEXT values of the default (BINARY) collation: by their UTF-8 bytes. A mirror's
 * merge orders text keys so, as each file's ORDER BY did (JavaScript's `<` compares UTF-16 code units).
 */
export function sqliteTextOrder(a: string, b: string): number {
  if (a === b) return 0;
  // Below U+D800 the UTF-16 units order as the UTF-8 bytes do (keys are ASCII): no bytes made.
  if (BELOW_SURROGATES.test(a) && BELOW_SURROGATES.test(b)) return a < b ? -1 : 1;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** Rows as objects keyed by column name. */
export function rowRecords(table: RowTable): Record<string, Value>[] {
  return table.rows.map((row) => {
    const record: Record<string, Value> = {};
    table.columns.forEach((name, i) => {
      record[name] = row[i] ?? null;
    });
    return record;
  });
}

// Cell readers for decoders: typed rows hold the value itself, so none of them parses text
// (docs/decisions.md#decode-once).

/** A text cell; null for SQL NULL. */
export const textIn = (cell: Value | undefined): string | null => (typeof cell === "string" ? cell : null);

/** A text cell without its surrounding blanks; null for SQL NULL or a blank cell. */
export function trimmedIn(cell: Value | undefined): string | null {
  const trimmed = typeof cell === "string" ? cell.trim() : "";
  return trimmed === "" ? null : trimmed;
}

/** A number cell; null for SQL NULL or a value that is not a finite number. */
export function numberIn(cell: Value | undefined): number | null {
  return typeof cell === "number" && Number.isFinite(cell) ? cell : null;
}

/** A date cell; null for SQL NULL or an unreadable date. */
export function dateIn(cell: Value | undefined): Date | null {
  return cell instanceof Date && Number.isFinite(cell.getTime()) ? cell : null;
}

/** The typed value of one SDA string (null for SQL NULL), as its column declares. */
function fromSda(cell: string | null, kind: ColumnKind): Value {
  if (cell === null || kind === "text" || kind === "reported") return cell;
  return parseSdaValue(cell, kind);
}

/** One SDA string read as the number or date its column declares: the live path's only parse. */
export function parseSdaValue(cell: string, kind: "number" | "date"): number | Date | null {
  return kind === "number" ? decimal(cell) : parseSdaDateTime(cell);
}

/** SDA's strings as typed rows: the one conversion of the live path, driven by the declared kinds. */
function sdaRows(rows: readonly (string | null)[][], kinds: readonly ColumnKind[]): Value[][] {
  return rows.map((row) => row.map((cell, i) => fromSda(cell, kinds[i]!)));
}

/** A query's answer from an SDA payload: the wire table checked against the columns, then typed once. */
function fromSdaPayload(payload: Payload, columns: readonly RowColumn[]): RowAnswer {
  const { table, payload: json } = decodeSdaTable(
    payload,
    columns.map((c) => c.column),
  );
  if (table.columns.length === 0) return new RowAnswer({ columns: [], types: [], rows: [] }, json, table);
  return new RowAnswer({ columns: table.columns, types: table.types, rows: sdaRows(table.rows, columns.map((c) => c.kind)) }, json, table);
}

// ---- the snapshot's rows -----------------------------------------------------------------------

/** A value as SQLite returns it; a `date` column is selected as epoch milliseconds. */
type NativeCell = string | number | null;

/** What the snapshot's answer is kept as in the cache (its cells as SQLite gave them); never SDA text. */
interface StoredRows {
  columns: string[];
  types: SqlType[];
  rows: NativeCell[][];
}

/** The tag of a stored snapshot answer (Payload.ofValue); SDA's text is JSON and never starts so. */
const STORED = "loam-rows ";

/** One snapshot value as its column declares it. Empty text in a column that is not text is NULL, as on SDA. */
function fromSnapshot(cell: NativeCell, kind: ColumnKind): Value {
  if (cell === null) return null;
  if (kind === "text") return typeof cell === "string" ? cell : renderedNumber(cell);
  if (cell === "") return null;
  if (kind === "reported") return typeof cell === "string" ? cell : renderedNumber(cell);
  if (kind === "date") return typeof cell === "number" ? new Date(cell) : null;
  if (typeof cell === "number") return cell;
  return parseSnapshotNumber(cell);
}

/** A declared number the snapshot keeps as TEXT (the KSSL export writes every value so), read once. */
export function parseSnapshotNumber(cell: string): number | null {
  return decimal(cell);
}

/** A number stored where the query declares text (none in today's snapshot), as SDA would send it. */
function renderedNumber(value: number): string {
  return sdaCell(value)!;
}

/** SDA's JSON of snapshot cells, exactly as `answerAsSda` renders it (the raw endpoint's body). */
function renderSda({ columns, types, rows }: StoredRows, kinds: readonly ColumnKind[]): SdaPayload {
  if (rows.length === 0) return {};
  const typeNames = types.map((t) => (typeof t === "string" ? t : t.name));
  const render = (cell: NativeCell, i: number): string | null => {
    if (cell === null) return null;
    if (kinds[i] === "date" && typeof cell === "number") return sdaDateTime(new Date(cell).toISOString());
    return sdaCell(cell, typeNames[i]);
  };
  return { Table: [[...columns], types.map((t, i) => sdaColumnMetadata(i, t)), ...rows.map((row) => row.map(render))] };
}

function answerOfStored(stored: StoredRows, kinds: readonly ColumnKind[]): RowAnswer {
  if (stored.rows.length === 0) return new RowAnswer({ columns: [], types: [], rows: [] }, {});
  const table: RowTable = {
    columns: [...stored.columns],
    types: stored.types.map((t) => (typeof t === "string" ? t : t.name)),
    rows: stored.rows.map((row) => row.map((cell, i) => fromSnapshot(cell, kinds[i]!))),
  };
  return new RowAnswer(table, () => renderSda(stored, kinds));
}

/**
 * The snapshot's answer to a typed query, as a payload: the decoder takes its typed rows as they
 * are; the cache stores its cells as JSON (`stored`); its text is SDA's JSON, rendered only if asked
 * (a local fake SDA answering from the snapshot does).
 */
export function snapshotRows(columns: readonly RowColumn[], types: readonly SqlType[], rows: readonly Record<string, unknown>[]): Payload {
  // The same bound as an SDA answer's (docs/decisions.md#limits), checked before any row is typed.
  refuseOverRows(rows.length);
  return storedPayload(
    { columns: columns.map((c) => c.column), types: [...types], rows: rows.map((row) => columns.map(({ column }) => nativeCell(row[column]))) },
    columns.map((c) => c.kind),
  );
}

function refuseOverRows(rows: number): void {
  if (rows > MAX_ANSWER_ROWS) {
    throw new UpstreamError(`The upstream answered with ${rows} rows; Loam serves at most ${MAX_ANSWER_ROWS} rows from one query, so the answer was refused.`);
  }
}

/** The cells each snapshot answer was made of, for a mirror's merge (mergeSnapshotRows). */
const storedOf = new WeakMap<RowAnswer, StoredRows>();

function storedPayload(stored: StoredRows, kinds: readonly ColumnKind[]): Payload {
  const answer = answerOfStored(stored, kinds);
  storedOf.set(answer, stored);
  return Payload.ofValue(answer, {
    tag: STORED,
    text: () => JSON.stringify(answer.payload),
    stored: () => JSON.stringify(stored),
  });
}

/** A snapshot answer's cells (each row in its query's column order); what a mirror merges. */
export type SnapshotRow = readonly (string | number | null)[];

function storedRowsOf(payload: Payload): StoredRows {
  const value = payload.value();
  const stored = value instanceof RowAnswer ? storedOf.get(value) : undefined;
  if (stored === undefined) throw new UpstreamError("The snapshot mirror was handed an answer that is not a snapshot's rows.");
  return stored;
}

/**
 * Several snapshot files' answers to one typed query (in the mirror's file order) as the answer one
 * file holding all their datasets gives (docs/decisions.md#national-mirror): the rows together, then
 * `combine`d as the query's SQL would (ordered, cut, reduced; default: as they come), held to the same
 * MAX_ANSWER_ROWS. The column types are those of the first answer with rows (every file reads them
 * from the survey's own metadata).
 */
export function mergeSnapshotRows(answers: readonly Payload[], columns: readonly RowColumn[], combine: (rows: SnapshotRow[]) => SnapshotRow[] = (rows) => rows): Payload {
  const stored = answers.map(storedRowsOf);
  const rows = combine(stored.flatMap((s) => s.rows));
  refuseOverRows(rows.length);
  const types = (stored.find((s) => s.rows.length > 0) ?? stored[0])?.types ?? [];
  return storedPayload({ columns: columns.map((c) => c.column), types, rows: rows.map((row) => [...row]) }, columns.map((c) => c.kind));
}

/** A lookup by key across a mirror's files: the answer that has rows (a key is in one file), else the first. */
export function answerWithRows(answers: readonly Payload[]): Payload {
  return answers.find((payload) => storedRowsOf(payload).rows.length > 0) ?? answers[0]!;
}

/** Rows stably ordered by one column (each file's rows come in the query's order within it). */
export function byColumn(columns: readonly RowColumn[], column: string, compare: (a: string | number | null, b: string | number | null) => number): (rows: SnapshotRow[]) => SnapshotRow[] {
  const at = columns.findIndex((c) => c.column === column);
  if (at < 0) throw new Error(`no column ${column} to order by`);
  return (rows) => rows.sort((a, b) => compare(a[at] ?? null, b[at] ?? null));
}

function nativeCell(value: unknown): NativeCell {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "string") return value;
  if (typeof value === "bigint") return Number(value);
  throw new Error(`the snapshot answered a ${Object.prototype.toString.call(value)} where a value was expected`);
}

/** A stored snapshot answer read back from the cache; anything else there is a corrupt entry. */
function fromStored(text: string, columns: readonly RowColumn[]): RowAnswer {
  const stored = JSON.parse(text) as StoredRows;
  const names = columns.map((c) => c.column);
  const valid =
    stored !== null &&
    Array.isArray(stored.rows) &&
    Array.isArray(stored.types) &&
    stored.types.length === names.length &&
    Array.isArray(stored.columns) &&
    stored.columns.length === names.length &&
    stored.columns.every((name, i) => name === names[i]) &&
    stored.rows.every((row) => Array.isArray(row) && row.length === names.length && row.every((c) => c === null || typeof c === "string" || typeof c === "number"));
  if (!valid) throw new UpstreamError("A stored snapshot answer does not have the columns of its query.");
  return answerOfStored(stored, columns.map((c) => c.kind));
}

/**
 * The decoder of a typed query (QueryKind.decode): the snapshot's answer as it was made, a stored
 * snapshot answer read back from the cache, or SDA's JSON converted once at the edge (`sdaRows`).
 */
export function decodeRows(payload: Payload, columns: readonly RowColumn[]): RowAnswer {
  const value = payload.value();
  if (value instanceof RowAnswer) return value;
  const stored = payload.storedValue(STORED);
  if (stored !== undefined) return fromStored(stored, columns);
  return fromSdaPayload(payload, columns);
}
