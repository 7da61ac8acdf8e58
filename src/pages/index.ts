/**
 * The HTML pages and their assets: not rate limited. Each file is read once and handed to the
 * response pipeline (tag, 304, lifetime, compression once per encoding). HTML pages get a
 * Content-Security-Policy that allows only Loam's own origin for scripts, styles, images and
 * connections, and forbids framing.
 */
import { Elysia } from "elysia";
import type { ResponsePipeline, StaticFile } from "../http/response";
import { staticFile } from "../http/response";
import { assets, type Asset } from "./assets";

export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const PAGE_HEADERS = { "content-security-policy": PAGE_CSP, "x-frame-options": "DENY" };

export function pages(sendFile: ResponsePipeline["sendFile"]) {
  const loaded = new Map<string, Promise<StaticFile>>();
  const load = (url: string, asset: Asset) => {
    let entry = loaded.get(url);
    if (!entry) {
      const html = asset.type.startsWith("text/html");
      entry = Bun.file(asset.path)
        .bytes()
        .then((bytes) => staticFile(bytes as Uint8Array<ArrayBuffer>, asset.type, url, html ? "no-cache" : "public, max-age=3600", html ? PAGE_HEADERS : undefined));
      loaded.set(url, entry);
    }
    return entry;
  };

  const app = new Elysia({ name: "loam.pages" });
  for (const [url, asset] of Object.entries(assets())) {
    app.get(url, async ({ request, set }) => sendFile(await load(url, asset), request, set), { detail: { hide: true } });
  }
  return app;
}
