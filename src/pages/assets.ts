/**
 * Every static file Loam serves, by URL. Files are imported `with { type: "file" }` so that
 * `bun build --compile` embeds them in the executable; in development the import is the file's path.
 * Nothing is fetched from a CDN: the pages render with no network.
 */
import swaggerBundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import swaggerCss from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
// An .html import would become an HTMLBundle; `type: "file"` keeps it a plain file path.
import docsHtml from "../../public/docs/index.html" with { type: "file" };
import docsInit from "../../public/docs/init.js" with { type: "file" };
import docsCss from "../../public/docs/docs.css" with { type: "file" };

export interface Asset {
  path: string;
  type: string;
}

const JS = "text/javascript; charset=utf-8";
const CSS = "text/css; charset=utf-8";
const HTML = "text/html; charset=utf-8";

/** URL path → file. Pages (HTML) and the scripts, styles and data they load. */
export const ASSETS: Record<string, Asset> = {
  "/docs": { path: docsHtml as unknown as string, type: HTML },
  "/docs/init.js": { path: docsInit, type: JS },
  "/docs/docs.css": { path: docsCss, type: CSS },
  "/docs/assets/swagger-ui-bundle.js": { path: swaggerBundle, type: JS },
  "/docs/assets/swagger-ui.css": { path: swaggerCss, type: CSS },
};

/** Register more assets (the map page adds its own). */
export function addAssets(more: Record<string, Asset>): void {
  Object.assign(ASSETS, more);
}
