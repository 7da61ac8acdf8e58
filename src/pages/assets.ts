/**
 * Every static file Loam serves, listed once: the files under public/ at their own paths (a folder's
 * index.html at the folder: public/map/js/main.js is /map/js/main.js, public/docs/index.html is /docs),
 * the packages' files the pages load, and two more URLs of files already served. Nothing is fetched
 * from a CDN: the pages render with no network.
 *
 * Run from source, the files are read where they are. The single executable embeds the same list:
 * scripts/build.ts imports each file `with { type: "file" }` in the entry it generates, which hands
 * their embedded paths to `registerEmbeddedAssets` (src/compiled.ts) before the app starts. A new page
 * module is a file under public/, and nothing else.
 */
import { readdirSync } from "node:fs";
import { extname, join, relative, resolve } from "node:path";

export interface Asset {
  path: string;
  type: string;
}

const ROOT = resolve(import.meta.dir, "../..");
const PUBLIC = "public";

/** The media type of each kind of file served; a file of another kind under public/ is an error at start. */
const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

/** The packages' files the pages load (module specifiers), by URL. */
const PACKAGE_FILES: Readonly<Record<string, string>> = {
  // The docs page (Swagger UI).
  "/docs/assets/swagger-ui-bundle.js": "swagger-ui-dist/swagger-ui-bundle.js",
  "/docs/assets/swagger-ui.css": "swagger-ui-dist/swagger-ui.css",
  // The map page (docs/map.md): Leaflet (leaflet.css refers to images/*.png relative to itself) and topojson-client.
  "/map/vendor/leaflet/leaflet.js": "leaflet/dist/leaflet.js",
  "/map/vendor/leaflet/leaflet.css": "leaflet/dist/leaflet.css",
  "/map/vendor/leaflet/images/layers.png": "leaflet/dist/images/layers.png",
  "/map/vendor/leaflet/images/layers-2x.png": "leaflet/dist/images/layers-2x.png",
  "/map/vendor/leaflet/images/marker-icon.png": "leaflet/dist/images/marker-icon.png",
  "/map/vendor/leaflet/images/marker-icon-2x.png": "leaflet/dist/images/marker-icon-2x.png",
  "/map/vendor/leaflet/images/marker-shadow.png": "leaflet/dist/images/marker-shadow.png",
  "/map/vendor/topojson-client.min.js": "topojson-client/dist/topojson-client.min.js",
  // Natural Earth 1:50m countries and land (world-atlas); US Census states and counties (us-atlas).
  "/map/data/countries-50m.json": "world-atlas/countries-50m.json",
  "/map/data/us-states-10m.json": "us-atlas/states-10m.json",
  "/map/data/us-counties-10m.json": "us-atlas/counties-10m.json",
};

/**
 * Another URL of a file already served: the map is the home page, and browsers ask for /favicon.ico
 * when a page (e.g. /docs) names no icon (answered with Loam's icon, not a 404).
 */
const ALIASES: Readonly<Record<string, string>> = { "/": "/map", "/favicon.ico": "/map/favicon.svg" };

/** The files under a folder, hidden ones left out (an editor's swap file, a .DS_Store: never served). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith("."))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]))
    .sort();
}

/** A file's URL: its path under public/, a folder's index.html at the folder. */
function urlOf(root: string, file: string): string {
  const path = `/${relative(join(root, PUBLIC), file).split("\\").join("/")}`;
  return path.endsWith("/index.html") ? path.slice(0, -"/index.html".length) : path;
}

/** URL → the file on disk, from the checkout at `root` and Loam's installed packages: what the build embeds. */
function assetSources(root: string): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const file of filesUnder(join(root, PUBLIC))) sources[urlOf(root, file)] = file;
  for (const [url, specifier] of Object.entries(PACKAGE_FILES)) sources[url] = Bun.resolveSync(specifier, ROOT);
  for (const [url, target] of Object.entries(ALIASES)) {
    const file = sources[target];
    if (!file) throw new Error(`${url} is another URL of ${target}, which no file under ${PUBLIC}/ gives.`);
    sources[url] = file;
  }
  return sources;
}

let embedded: Record<string, Asset> | null = null;

/** The executable's copies of the files, by URL (the entry scripts/build.ts generates makes the call). */
export function registerEmbeddedAssets(copies: Record<string, Asset>): void {
  embedded = copies;
}

/** URL → file and media type: the embedded copies in the executable, else the files where they are. */
export function assets(): Record<string, Asset> {
  return embedded ?? assetsOf(ROOT);
}

/** URL → file and media type of the checkout at `root`; a file of a kind with no media type is refused. */
export function assetsOf(root: string): Record<string, Asset> {
  return Object.fromEntries(
    Object.entries(assetSources(root)).map(([url, path]) => {
      const type = TYPES[extname(path).toLowerCase()];
      if (!type) throw new Error(`No media type for ${url} (${extname(path) || "no extension"}): serve only ${Object.keys(TYPES).join(", ")} files.`);
      return [url, { path, type }];
    }),
  );
}
