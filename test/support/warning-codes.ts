/**
 * The CSV warning codes as docs/decisions.md#csv-warning-codes documents them, read from the document
 * (not from Loam's code), and the check every table test applies to a row's `warnings` cell.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect } from "bun:test";

const DECISIONS = readFileSync(resolve(import.meta.dir, "../../docs/decisions.md"), "utf8");
const SECTION = DECISIONS.slice(DECISIONS.indexOf("## csv-warning-codes"));

export const DOCUMENTED_CODES: ReadonlySet<string> = new Set([...SECTION.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]!));

/** A row's warnings cell holds one documented code per distinct kind of its own warnings, and nothing when it has none. */
export function expectRowCodes(cell: string, own: readonly string[], answer: readonly string[]): string[] {
  const mine = own.filter((w) => !answer.includes(w));
  const codes = cell === "" ? [] : cell.split(" | ");
  for (const code of codes) expect({ code, documented: DOCUMENTED_CODES.has(code) }).toEqual({ code, documented: true });
  expect(codes.length).toBeLessThanOrEqual(mine.length);
  expect(codes.length > 0).toBe(mine.length > 0);
  return codes;
}
