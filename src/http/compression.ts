/**
 * gzip or brotli for JSON and HTML bodies over 1 KB when the client accepts it (issue: production).
 * Each encoding is its own representation: its ETag gets a suffix, and `Vary: Accept-Encoding`
 * tells caches the body depends on that header.
 */
import { Elysia } from "elysia";
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from "node:zlib";
import { promisify } from "node:util";

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

type HeaderBag = Record<string, unknown>;

function toHeaders(bag: HeaderBag): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(bag)) if (value !== undefined && value !== null) headers.set(name, String(value));
  return headers;
}

/**
 * Encoded bodies of tagged answers (catalog, metadata): the same tag is the same bytes, so each is
 * compressed once, not per request. Data answers keep their own copies (data-answer.ts).
 */
const ENCODED_BY_TAG_MAX = 64;
const encodedByTag = new Map<string, Uint8Array<ArrayBuffer>>();

function encodeOnce(body: string, encoding: Encoding, etag: unknown): Uint8Array<ArrayBuffer> {
  if (typeof etag !== "string") return compress(body, encoding) as Uint8Array<ArrayBuffer>;
  const key = `${etag}|${encoding}`;
  let encoded = encodedByTag.get(key);
  if (!encoded) {
    encoded = compress(body, encoding) as Uint8Array<ArrayBuffer>;
    if (encodedByTag.size >= ENCODED_BY_TAG_MAX) encodedByTag.delete(encodedByTag.keys().next().value as string);
    encodedByTag.set(key, encoded);
  }
  return encoded;
}

/** JSON bodies returned by routes and by the error handler, encoded when worth it. */
export const compression = new Elysia({ name: "loam.compression" }).mapResponse({ as: "global" }, ({ request, response, set }) => {
  if (response instanceof Response || response instanceof Blob || response === null || response === undefined) return;
  if (typeof response !== "object") return;
  const body = JSON.stringify(response);
  const headers = set.headers as HeaderBag;
  headers["content-type"] = "application/json; charset=utf-8";
  headers["vary"] = "Accept-Encoding";
  const status = typeof set.status === "number" ? set.status : 200;
  const encoding = body.length > COMPRESS_MIN_BYTES ? chooseEncoding(request.headers.get("accept-encoding")) : null;
  if (!encoding) return new Response(body, { status, headers: toHeaders(headers) });
  headers["content-encoding"] = encoding;
  const etag = headers["etag"];
  const encoded = encodeOnce(body, encoding, etag);
  if (typeof etag === "string") headers["etag"] = encodedTag(etag, encoding);
  return new Response(encoded, { status, headers: toHeaders(headers) });
});
