/** The HTML pages and their assets: not rate limited, never cached as API data. */
import { Elysia } from "elysia";
import { ASSETS } from "./assets";

export function pages() {
  const app = new Elysia({ name: "loam.pages" });
  for (const [url, asset] of Object.entries(ASSETS)) {
    app.get(url, ({ set }) => {
      set.headers["content-type"] = asset.type;
      set.headers["cache-control"] = asset.type.startsWith("text/html") ? "no-cache" : "public, max-age=3600";
      return Bun.file(asset.path);
    }, { detail: { hide: true } });
  }
  return app;
}
