/**
 * The Soil Data Access JSON wire shape (`format: JSON+COLUMNNAME+METADATA`), both ways:
 * `answerAsSda` builds it (the snapshot answers exactly like SDA), `decodeSdaTable` validates and
 * parses it, checking the columns against those the query asked for. Pure functions, no I/O.
 *
 * Wire facts (docs/decisions.md#sda-wire): `{"Table": [names, metadata, ...rows]}`, every value a
 * JSON string (numbers too); an empty result set is `{}`. NULL may come as `null`, and a captured
 * live answer (KS053, `awc_r`) sends it as `""`, so the parser reads `""` in a column that is not
 * text as NULL: an empty number or date can only be a missing one.
 */
import { UpstreamError } from "../../errors";
import type { Payload } from "../transport";

export type Cell = string | null;

export interface SdaTable {
  /** Column names, row 0 of the SDA payload. */
  columns: string[];
  /** SQL Server type of each column (`DataTypeName=` of the metadata row), e.g. `int`, `varchar`, `real`. */
  types: string[];
  /** Data rows, every value a string or null, exactly as SDA sends them. */
  rows: Cell[][];
}

/** The untouched wire payload: `{}` or `{"Table": [...]}`. */
export type SdaPayload = Record<string, unknown>;

/** A decoded SDA-shaped answer: the table for normalizers, the payload for the raw endpoints. */
export interface SdaAnswer {
  table: SdaTable;
  payload: SdaPayload;
}

/** A column's SQL Server type: its DataTypeName, optionally with the declared size (varchar(30) -> 30). */
export type SqlType = string | { name: string; size?: number };

interface TypeFacts {
  size: number;
  precision: number;
  scale: number;
  provider: string;
  sqlType: string;
}

// What ADO.NET's schema table reports per SQL Server type (ColumnSize, NumericPrecision, NumericScale,
// ProviderType, ProviderSpecificDataType); 255 means "not applicable", as SDA prints it.
const TYPE_FACTS: Record<string, TypeFacts> = {
  int: { size: 4, precision: 10, scale: 255, provider: "Int", sqlType: "SqlInt32" },
  smallint: { size: 2, precision: 5, scale: 255, provider: "SmallInt", sqlType: "SqlInt16" },
  tinyint: { size: 1, precision: 3, scale: 255, provider: "TinyInt", sqlType: "SqlByte" },
  bigint: { size: 8, precision: 19, scale: 255, provider: "BigInt", sqlType: "SqlInt64" },
  bit: { size: 1, precision: 255, scale: 255, provider: "Bit", sqlType: "SqlBoolean" },
  real: { size: 4, precision: 7, scale: 255, provider: "Real", sqlType: "SqlSingle" },
  float: { size: 8, precision: 15, scale: 255, provider: "Float", sqlType: "SqlDouble" },
  datetime: { size: 8, precision: 23, scale: 3, provider: "DateTime", sqlType: "SqlDateTime" },
  varchar: { size: 8000, precision: 255, scale: 255, provider: "VarChar", sqlType: "SqlString" },
  nvarchar: { size: 4000, precision: 255, scale: 255, provider: "NVarChar", sqlType: "SqlString" },
  char: { size: 1, precision: 255, scale: 255, provider: "Char", sqlType: "SqlString" },
};

/** The metadata string SDA sends in row 1 for one column. */
export function sdaColumnMetadata(ordinal: number, type: SqlType): string {
  const name = typeof type === "string" ? type : type.name;
  const facts = TYPE_FACTS[name] ?? TYPE_FACTS.varchar!;
  const size = typeof type === "string" || type.size === undefined ? facts.size : type.size;
  const isLong = size === 2147483647 ? "True" : "False";
  return (
    `ColumnOrdinal=${ordinal},ColumnSize=${size},NumericPrecision=${facts.precision},NumericScale=${facts.scale},` +
    `ProviderType=${facts.provider},IsLong=${isLong},ProviderSpecificDataType=System.Data.SqlTypes.${facts.sqlType},DataTypeName=${name}`
  );
}

/** Shortest decimal without exponent, as SQL Server renders numbers in SDA JSON: 6.2, 21, 0.05. */
export function sdaNumber(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`SDA has no representation for ${value}`);
  const text = String(value);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, lead, frac = "", exp] = m;
  const digits = lead! + frac;
  const point = 1 + Number(exp);
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** `2020-06-10T02:56:26` as SQL Server datetime text in SDA JSON (en-US): `6/10/2020 2:56:26 AM`. */
export function sdaDateTime(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(iso);
  if (!m) return iso;
  const hour = Number(m[4] ?? 0);
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${Number(m[2])}/${Number(m[3])}/${m[1]} ${h12}:${m[5] ?? "00"}:${m[6] ?? "00"} ${hour < 12 ? "AM" : "PM"}`;
}

/** One value as SDA sends it: a string, or null for SQL NULL. */
export function sdaCell(value: unknown, typeName = "varchar"): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return sdaNumber(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") return typeName === "datetime" ? sdaDateTime(value) : value;
  throw new Error(`cannot render ${Object.prototype.toString.call(value)} as an SDA value`);
}

/** Build the SDA payload and its parsed table from columns, types and string rows. */
export function answerAsSda(columns: readonly string[], types: readonly SqlType[], rows: Cell[][]): SdaAnswer {
  if (types.length !== columns.length) throw new Error(`answerAsSda: ${columns.length} columns but ${types.length} types`);
  if (rows.length === 0) return { table: { columns: [], types: [], rows: [] }, payload: {} };
  const typeNames = types.map((t) => (typeof t === "string" ? t : t.name));
  const payload: SdaPayload = {
    Table: [[...columns], types.map((t, i) => sdaColumnMetadata(i, t)), ...rows.map((r) => [...r])],
  };
  return { table: { columns: [...columns], types: typeNames, rows: rows.map((r) => [...r]) }, payload };
}

/** SQL Server types whose empty string is a value; in any other column `""` is NULL. */
const TEXT_TYPES = new Set(["varchar", "nvarchar", "char", "nchar", "text", "ntext"]);

/**
 * Rows one upstream answer may hold. The largest legitimate answers hold at most a few thousand rows (a page of 5,000
 * map-unit polygons plus one; a page of 500 pedons; a map unit's components times their horizons). A
 * point answer of 6,000 rows would already normalize to about 30 MB of JSON.
 */
export const MAX_ANSWER_ROWS = 6000;

function fail(message: string, provider: string | null): never {
  throw new UpstreamError(`Soil Data Access answered with an unexpected payload: ${message}.`, provider);
}

/**
 * Validate and parse an SDA JSON+COLUMNNAME+METADATA payload. `{}` is the empty result set.
 * Throws UpstreamError naming what is wrong; never returns a partial table.
 */
export function parseSdaPayload(json: unknown, provider: string | null = null): SdaTable {
  if (json === null || typeof json !== "object" || Array.isArray(json)) fail("expected a JSON object", provider);
  const object = json as Record<string, unknown>;
  if (Object.keys(object).length === 0) return { columns: [], types: [], rows: [] };
  const table = object.Table;
  if (table === undefined) fail(`no "Table" member (keys: ${Object.keys(object).slice(0, 5).join(", ")})`, provider);
  if (!Array.isArray(table)) fail('"Table" is not an array', provider);
  if (table.length < 2) fail('"Table" lacks its column-name and metadata rows (was the format JSON+COLUMNNAME+METADATA?)', provider);
  const [names, metadata, ...data] = table as unknown[];
  // Normalizing multiplies an answer many times over (one observation per horizon and property):
  // past the bound it is refused before any of that work, and never cached (docs/decisions.md#limits).
  if (data.length > MAX_ANSWER_ROWS) {
    throw new UpstreamError(`The upstream answered with ${data.length} rows; Loam serves at most ${MAX_ANSWER_ROWS} rows from one query, so the answer was refused.`, provider);
  }
  if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === "string")) {
    fail("row 0 is not a list of column names", provider);
  }
  const columns = names as string[];
  if (!Array.isArray(metadata) || metadata.length !== columns.length) {
    fail(`row 1 has ${Array.isArray(metadata) ? metadata.length : "no"} metadata entries for ${columns.length} columns`, provider);
  }
  const types = (metadata as unknown[]).map((m, i) => {
    const type = typeof m === "string" ? /(?:^|,)DataTypeName=([^,]+)/.exec(m)?.[1] : undefined;
    if (!type) fail(`metadata of column ${i} (${columns[i]}) has no DataTypeName`, provider);
    return type;
  });
  const rows = data.map((row, r) => {
    if (!Array.isArray(row) || row.length !== columns.length) {
      fail(`data row ${r} has ${Array.isArray(row) ? row.length : "no"} values for ${columns.length} columns`, provider);
    }
    for (const v of row) if (v !== null && typeof v !== "string") fail(`data row ${r} holds a ${typeof v}, not a string or null`, provider);
    return (row as Cell[]).map((v, i) => (v === "" && !TEXT_TYPES.has(types[i]!) ? null : v));
  });
  return { columns, types, rows };
}

/**
 * An SDA-shaped payload as the answer to a query that asked for `expected` columns, in that order.
 * Any other names row is refused, naming what is missing and what is extra: a renamed or absent
 * upstream column must be an error, never a 200 full of nulls (docs/decisions.md#column-check).
 */
export function decodeSdaTable(payload: Payload, expected: readonly string[]): SdaAnswer {
  let json: unknown;
  try {
    json = payload.json();
  } catch {
    throw new UpstreamError("Soil Data Access sent a body that is not valid JSON (truncated or malformed).");
  }
  const table = parseSdaPayload(json);
  if (table.columns.length > 0) checkColumns(table.columns, expected);
  return { table, payload: json as SdaPayload };
}

export function checkColumns(actual: readonly string[], expected: readonly string[]): void {
  if (actual.length === expected.length && actual.every((name, i) => name === expected[i])) return;
  const given = new Set(actual);
  const asked = new Set(expected);
  const missing = expected.filter((name) => !given.has(name));
  const extra = actual.filter((name) => !asked.has(name));
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`missing ${missing.join(", ")}`);
  if (extra.length > 0) parts.push(`unexpected ${extra.join(", ")}`);
  if (parts.length === 0) parts.push("the columns come in another order");
  throw new UpstreamError(`Soil Data Access answered with other columns than the query asked for: ${parts.join("; ")}.`);
}
