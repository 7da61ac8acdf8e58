/**
 * The HTML pages and their assets: not rate limited. Each file is read once, tagged, and compressed
 * once per encoding on first demand. HTML pages get a Content-Security-Policy that allows only Loam's
 * own origin for scripts, styles, images and connections, and forbids framing.
 */
import { Elysia } from "elysia";
import { ASSETS, type Asset } from "./assets";
import { chooseEncoding, compressStatic, COMPRESS_MIN_BYTES, encodedTag, type Encoding } from "../http/compression";
import { entityTag, matchingTag, notModified } from "../http/conditional";

export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

interface Loaded {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
  encoded: Partial<Record<Encoding, Promise<Uint8Array<ArrayBuffer>>>>;
}

function compressible(asset: Asset): boolean {
  return /^(text\/|application\/(json|geo\+json))/.test(asset.type);
}

export function pages() {
  const loaded = new Map<string, Promise<Loaded>>();
  const load = (url: string, asset: Asset) => {
    let entry = loaded.get(url);
    if (!entry) {
      entry = Bun.file(asset.path)
        .bytes()
        .then((bytes) => ({ bytes: bytes as Uint8Array<ArrayBuffer>, etag: entityTag(url, Bun.hash(bytes).toString(36)), encoded: {} }));
      loaded.set(url, entry);
    }
    return entry;
  };

  const app = new Elysia({ name: "loam.pages" });
  for (const [url, asset] of Object.entries(ASSETS)) {
    app.get(
      url,
      async ({ request, set }) => {
        const file = await load(url, asset);
        const html = asset.type.startsWith("text/html");
        const headers = set.headers as Record<string, string>;
        headers["content-type"] = asset.type;
        headers["cache-control"] = html ? "no-cache" : "public, max-age=3600";
        if (html) {
          headers["content-security-policy"] = PAGE_CSP;
          headers["x-frame-options"] = "DENY";
        }
        const encoding = compressible(asset) && file.bytes.length > COMPRESS_MIN_BYTES ? chooseEncoding(request.headers.get("accept-encoding")) : null;
        if (compressible(asset)) headers["vary"] = "Accept-Encoding";
        headers["etag"] = encoding ? encodedTag(file.etag, encoding) : file.etag;
        const matched = matchingTag(request, file.etag);
        if (matched) return notModified({ ...headers, etag: matched });
        if (!encoding) return new Response(file.bytes, { headers });
        headers["content-encoding"] = encoding;
        const body = await (file.encoded[encoding] ??= compressStatic(file.bytes, encoding));
        return new Response(body, { headers });
      },
      { detail: { hide: true } },
    );
  }
  return app;
}
