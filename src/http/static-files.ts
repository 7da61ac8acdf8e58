/**
 * Pages and assets as the pipeline serves them: their bytes, type, tag and lifetime; a 304 for a
 * client that holds them; each encoding compressed once per file, off the event loop (compression.ts).
 */
import { COMPRESS_MIN_BYTES, chooseEncoding, compressStatic, encodedTag, type Encoding } from "./compression";
import { entityTag, matchingTag } from "./conditional";
import { toHeaders, type SetLike } from "./headers";

/** A static file as the pipeline serves it: its bytes, type, tag and lifetime, encodings made once. */
export interface StaticFile {
  bytes: Uint8Array<ArrayBuffer>;
  type: string;
  etag: string;
  cacheControl: string;
  /** Extra headers (e.g. a page's Content-Security-Policy). */
  headers?: Record<string, string>;
  encoded: Partial<Record<Encoding, Promise<Uint8Array<ArrayBuffer>>>>;
}

export function staticFile(bytes: Uint8Array<ArrayBuffer>, type: string, tagSeed: string, cacheControl: string, headers?: Record<string, string>): StaticFile {
  return { bytes, type, etag: entityTag(tagSeed, Bun.hash(bytes).toString(36)), cacheControl, headers, encoded: {} };
}

const compressible = (type: string) => /^(text\/|application\/(json|geo\+json))/.test(type);

/** Send a page or asset: tag, 304, lifetime, and an encoding compressed once per file. */
export async function sendFile(file: StaticFile, request: Request, set: SetLike): Promise<Response> {
  const headers = set.headers;
  headers["content-type"] = file.type;
  headers["cache-control"] = file.cacheControl;
  if (file.headers) Object.assign(headers, file.headers);
  const canEncode = compressible(file.type);
  const encoding = canEncode && file.bytes.length > COMPRESS_MIN_BYTES ? chooseEncoding(request.headers.get("accept-encoding")) : null;
  if (canEncode) headers["vary"] = "Accept-Encoding";
  headers["etag"] = encoding ? encodedTag(file.etag, encoding) : file.etag;
  const matched = matchingTag(request, file.etag);
  if (matched) return new Response(null, { status: 304, headers: toHeaders({ ...headers, etag: matched }) });
  if (!encoding) return new Response(file.bytes, { headers: toHeaders(headers) });
  headers["content-encoding"] = encoding;
  const body = await (file.encoded[encoding] ??= compressStatic(file.bytes, encoding));
  return new Response(body, { headers: toHeaders(headers) });
}
