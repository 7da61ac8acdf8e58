/**
 * JSON of a very large body without holding the event loop (docs/decisions.md#polygon-budget): a
 * 32 MB polygon page serialized in one call blocks every other request, /health included, for
 * seconds. Long top-level arrays are serialized a slice at a time, the event loop given back whenever
 * a slice took SLICE_MS. The text is exactly `JSON.stringify`'s.
 */

/** Arrays longer than this are serialized in slices. */
const SLICED_ARRAY_LENGTH = 512;
const SLICE_LENGTH = 128;
const SLICE_MS = 20;
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** Does `body` hold a top-level array long enough to serialize in slices? */
export function isLarge(body: unknown): boolean {
  if (!isPlainObject(body)) return false;
  for (const name in body) {
    const value = body[name];
    if (Array.isArray(value) && value.length > SLICED_ARRAY_LENGTH) return true;
  }
  return false;
}

/** `JSON.stringify(value)`, the same text, each long top-level array serialized in slices. */
export async function stringifyInSlices(value: Record<string, unknown>): Promise<string> {
  let text = "{";
  let first = true;
  let started = performance.now();
  for (const [name, member] of Object.entries(value)) {
    let json: string | undefined;
    if (Array.isArray(member) && member.length > SLICED_ARRAY_LENGTH) {
      const parts: string[] = [];
      for (let i = 0; i < member.length; i += SLICE_LENGTH) {
        parts.push(JSON.stringify(member.slice(i, i + SLICE_LENGTH)).slice(1, -1));
        if (performance.now() - started > SLICE_MS) {
          await pause();
          started = performance.now();
        }
      }
      json = `[${parts.filter((part) => part !== "").join(",")}]`;
    } else json = JSON.stringify(member) as string | undefined;
    if (json === undefined) continue;
    text += `${first ? "" : ","}${JSON.stringify(name)}:${json}`;
    first = false;
  }
  return `${text}}`;
}

/** The JSON of `body` cut around the value of its top-level `key` (as rendered-bodies' splitAround), serialized in slices. */
export async function splitAroundInSlices(body: Record<string, unknown>, key: string): Promise<[head: string, tail: string] | null> {
  if (!(key in body)) return null;
  const marker = `\u0000${crypto.randomUUID()}\u0000`;
  const text = await stringifyInSlices({ ...body, [key]: marker });
  const at = text.indexOf(JSON.stringify(marker));
  if (at < 0) return null;
  return [text.slice(0, at), text.slice(at + JSON.stringify(marker).length)];
}
