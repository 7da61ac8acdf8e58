/**
 * Explicit cursors for paged collections (docs/decisions.md#cursors): opaque, URL-safe, bound to the
 * query that made them, a keyset position on the collection's own order.
 *
 * A cursor is base64url(JSON [version, after, binding hash, check]). `after` is the last key of the
 * page it continues (the collection compares it in its own order); the binding hash names the query
 * (collection, provider, bbox, properties: whatever changes which features the walk visits, never
 * `limit`), so a cursor replayed with another query is a 422; the check makes an edited cursor a 422.
 * It carries no secret and grants nothing: any valid cursor is only a position in a public list.
 */
import { createHash } from "node:crypto";
import { ValidationError } from "../errors";
import { Memo } from "../lru";

const VERSION = 1;
/** A cursor longer than this is not one of ours (keys are short). */
const MAX_CURSOR_LENGTH = 512;

const digest = (text: string, length: number) => createHash("sha256").update(text).digest("base64url").slice(0, length);

/** Bindings already hashed: a paged route computes one on every request, a cached one too (docs/decisions.md#hot-path). */
const bindings = new Memo<string, string>(1024);

/** The binding of a query: a stable text of what it selects (the caller lists the members, limit excluded). */
export function cursorBinding(members: Record<string, unknown>): string {
  return bindings.of(JSON.stringify(Object.keys(members).sort().map((name) => [name, members[name]])), (text) => digest(text, 16));
}

/** A cursor continuing after `after` in the walk of the query bound to `binding`. */
export function encodeCursor(binding: string, after: string): string {
  const check = digest(`${VERSION}|${after}|${binding}`, 10);
  return Buffer.from(JSON.stringify([VERSION, after, binding, check])).toString("base64url");
}

/**
 * The position a cursor continues after; a 422 naming `parameter` when it is malformed, edited, or
 * was made by another query (another box, provider, properties or collection).
 */
export function decodeCursor(cursor: string, binding: string, parameter = "cursor"): string {
  const read = readCursor(cursorToken(cursor));
  const refuse = (why: string) =>
    new ValidationError(`Query parameter '${parameter}' ${why}; start again without it, then follow the 'next' link (or the Link header) of each page.`);
  if (read === "malformed") throw refuse("is not a cursor Loam made");
  if (read === "altered") throw refuse("was altered");
  if (read.boundTo !== binding) throw refuse("belongs to another query (another bbox, provider, properties or collection)");
  return read.after;
}

/**
 * The token of what a client gave as `cursor`: the token itself, or a whole `next` link (a path or URL
 * whose own `cursor` parameter is the token), which clients pass when the docs say "the next link's cursor".
 */
export function cursorToken(given: string): string {
  const query = given.indexOf("?");
  if (query === -1 && !given.includes("cursor=")) return given;
  return new URLSearchParams(query === -1 ? given : given.slice(query + 1)).get("cursor") ?? given;
}

/** A cursor's position and binding, or why it is none of ours. */
function readCursor(cursor: string): { after: string; boundTo: string } | "malformed" | "altered" {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return "malformed";
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return "malformed";
  }
  if (!Array.isArray(parsed) || parsed.length !== 4 || parsed[0] !== VERSION || typeof parsed[1] !== "string" || typeof parsed[2] !== "string" || typeof parsed[3] !== "string") {
    return "malformed";
  }
  const [, after, boundTo, check] = parsed as [number, string, string, string];
  if (digest(`${VERSION}|${after}|${boundTo}`, 10) !== check) return "altered";
  return { after, boundTo };
}

/**
 * Whether `cursor` is one Loam made (well formed, its check intact), whatever query it belongs to: the
 * rate limit's test for a walk's follow-up page (src/http/budgets.ts); the route checks its binding.
 */
export function isLoamCursor(cursor: string): boolean {
  return typeof readCursor(cursorToken(cursor)) === "object";
}
