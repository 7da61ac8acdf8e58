/** The pedon key path segment: an SDA integer pedon_key or a KSSL pedlabsampnum (docs/decisions.md#pedon-keys). */
/** A pedon key in one of its two forms (docs/decisions.md#pedon-keys). */
export type PedonKey = { form: "pedon_key"; value: number } | { form: "pedlabsampnum"; value: string };

/** `pedlabsampnum` as KSSL writes it: two-digit year, a letter, four digits or letters (e.g. 02N0245, 12N7611). */
export const PEDLABSAMPNUM_PATTERN = /^[0-9]{2}[A-Z][0-9A-Z]{4}$/;

/** Either form as a JSON Schema `pattern` (the path parameter's; parsePedonKey also bounds the integer). */
export const PEDON_KEY_PATTERN = "^(?:[1-9][0-9]{0,9}|[0-9]{2}[A-Za-z][0-9A-Za-z]{4})$";

/** Parse a pedon key path segment; null when it is neither form. */
export function parsePedonKey(raw: string): PedonKey | null {
  if (/^[1-9][0-9]{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647) return { form: "pedon_key", value: Number(raw) };
  const upper = raw.toUpperCase();
  if (PEDLABSAMPNUM_PATTERN.test(upper)) return { form: "pedlabsampnum", value: upper };
  return null;
}
