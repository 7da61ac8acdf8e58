/** Plain decimal text as numbers, for query parameters and upstream values alike. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** What `decimal()` accepts, with the surrounding blanks it trims, as JSON Schema pattern text (a parameter's `pattern`). */
export const DECIMAL_PATTERN_TEXT = String.raw`\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*`;

/** A plain decimal as a finite number; null for anything else (hex, NaN, Infinity, "1,5", ""). */
export function decimal(text: string): number | null {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}
