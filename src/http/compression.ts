/**
 * gzip or brotli for JSON and text bodies over 1 KB when the client accepts it. Each encoding is its
 * own representation: its ETag gets a suffix, and `Vary: Accept-Encoding` tells caches the body
 * depends on that header (docs/decisions.md#http-caching). Used only by the response pipeline.
 *
 * A body sent again is compressed once: `EncodedBodies` is the one bounded cache of encoded bytes, by
 * the name of the bytes (a tag, and for a data answer its stored_at and age). Static files keep their
 * two encodings on the file itself (a fixed set, compressed off the event loop).
 */
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from "node:zlib";
import { promisify } from "node:util";
import { Lru } from "../lru";

export const COMPRESS_MIN_BYTES = 1024;
export type Encoding = "br" | "gzip";

/** The encoding to use for this Accept-Encoding, brotli first; null for identity. */
export function chooseEncoding(acceptEncoding: string | null): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    accepted.set(name!.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: Encoding) => accepted.get(name) ?? (accepted.has("*") ? accepted.get("*")! : 0);
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return null;
}

/** Small dynamic bodies: fast settings, on the spot. */
export function compress(bytes: Uint8Array | string, encoding: Encoding): Uint8Array {
  if (encoding === "gzip") return gzipSync(bytes, { level: 6 });
  return brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Bodies longer than this (characters) are compressed off the event loop (docs/decisions.md#polygon-budget). */
export const LARGE_BODY_CHARS = 1_000_000;

/** A large dynamic body: the same fast settings as `compress`, in zlib's thread pool, so /health is not held up. */
export async function compressLarge(bytes: Uint8Array | string, encoding: Encoding): Promise<Uint8Array<ArrayBuffer>> {
  const out =
    encoding === "gzip"
      ? await gzipAsync(bytes, { level: 6 })
      : await brotliAsync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  return new Uint8Array(out);
}

/** Static files, compressed once: stronger settings, off the event loop (a 1.4 MB bundle must not stall /health). */
export async function compressStatic(bytes: Uint8Array, encoding: Encoding): Promise<Uint8Array<ArrayBuffer>> {
  const out =
    encoding === "gzip"
      ? await gzipAsync(bytes, { level: 9 })
      : await brotliAsync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  return new Uint8Array(out);
}

/** `"abc"` → `"abc-br"`: a distinct strong tag per encoding. */
export function encodedTag(etag: string, encoding: Encoding): string {
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-${encoding}"` : etag;
}

/** Encoded bodies kept: at most this many, and this many bytes. */
const ENCODED_ENTRIES = 256;
/** Holds the largest answer (a 32 MiB polygon page) in both encodings (docs/decisions.md#polygon-budget). */
const ENCODED_BYTES = 96_000_000;

/**
 * Encoded bytes by the name of the plain bytes they encode: the same name must always name the same
 * bytes. Least recently used first out, bounded in entries and bytes. Kept as Blobs: Bun sends a Blob
 * body without copying it.
 */
export class EncodedBodies {
  private readonly bodies = new Lru<string, Blob>(ENCODED_ENTRIES, ENCODED_BYTES);

  /** `plain` encoded, compressed now only when `name` was not encoded before. */
  of(name: string, encoding: Encoding, plain: () => Uint8Array | string): Blob {
    const key = `${name}|${encoding}`;
    let encoded = this.bodies.get(key);
    if (!encoded) {
      encoded = new Blob([compress(plain(), encoding) as Uint8Array<ArrayBuffer>]);
      this.bodies.set(key, encoded, encoded.size);
    }
    return encoded;
  }

  /** As `of`, for a large body: compressed off the event loop (zlib's thread pool), once. */
  async ofLarge(name: string, encoding: Encoding, plain: () => Uint8Array | string): Promise<Blob> {
    const key = `${name}|${encoding}`;
    let encoded = this.bodies.get(key);
    if (!encoded) {
      encoded = new Blob([await compressLarge(plain(), encoding)]);
      this.bodies.set(key, encoded, encoded.size);
    }
    return encoded;
  }

  /** Drop both encodings of `name` (bytes that will not be sent again). */
  forget(name: string): void {
    this.bodies.delete(`${name}|br`);
    this.bodies.delete(`${name}|gzip`);
  }
}
