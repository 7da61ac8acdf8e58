/**
 * What a client may read of a failure. SQLite's own error text (`database disk image is malformed`,
 * `database or disk is full`, ...) describes Loam's storage, not the request: an error whose message
 * carries it is answered with a fixed message for its class, and the original goes to the log.
 */
import { LoamError, type ErrorCode } from "../errors";

/** SQLite's result-code texts (sqlite3_errstr) and schema errors, as they appear inside messages. */
const SQLITE_TEXTS = [
  "SQLITE_",
  "SQL logic error",
  "database is locked",
  "database table is locked",
  "attempt to write a readonly database",
  "disk I/O error",
  "database disk image is malformed",
  "database or disk is full",
  "unable to open database file",
  "file is not a database",
  "locking protocol",
  "bad parameter or other API misuse",
  "column index out of range",
  "no such table",
  "no such column",
];

const FIXED_MESSAGES: Partial<Record<ErrorCode, string>> = {
  upstream_error: "The data source failed to answer this query. The failure was logged; please retry later or report it with the request id.",
  upstream_timeout: "The data source did not answer in time. Please retry later.",
  upstream_unreachable: "The data source could not be reached. Please retry later.",
};
const FALLBACK_MESSAGE = "Loam failed to answer this request. The failure was logged; please retry later or report it with the request id.";

export function carriesStorageText(message: string): boolean {
  return SQLITE_TEXTS.some((text) => message.includes(text));
}

/** `error` itself, or a copy (same class, status, code and provider) whose message is fixed. */
export function clientFacing(error: LoamError): LoamError {
  if (!carriesStorageText(error.message)) return error;
  const copy = Object.create(Object.getPrototypeOf(error)) as LoamError;
  Object.assign(copy, error);
  Object.defineProperty(copy, "message", { value: FIXED_MESSAGES[error.code] ?? FALLBACK_MESSAGE });
  return copy;
}
