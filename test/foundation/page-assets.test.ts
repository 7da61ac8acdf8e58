/**
 * The page assets are listed once (src/pages/assets.ts): every file under public/ is served at its own
 * path (a folder's index.html at the folder), with the packages' files and two more URLs; the single
 * executable embeds the same list (test/compiled/smoke.test.ts checks its bytes). A new page module is
 * a file under public/ and nothing else.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { assets, assetsOf } from "../../src/pages/assets";
import { useLoam } from "../support/server";

const { loam } = useLoam();
const PUBLIC = resolve(import.meta.dir, "../../public");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

describe("page assets", () => {
  test("every file under public/ is served at its path, byte for byte, a folder's index.html at the folder", async () => {
    const found = files(PUBLIC);
    expect(found.length).toBeGreaterThan(40);
    for (const file of found) {
      const path = `/${relative(PUBLIC, file)}`;
      const url = path.endsWith("/index.html") ? path.slice(0, -"/index.html".length) : path;
      const response = await loam.get(url, { headers: { "accept-encoding": "identity" } });
      const served = new Uint8Array(await response.arrayBuffer());
      expect({ url, status: response.status, same: Buffer.compare(served, await Bun.file(file).bytes()) === 0 }).toEqual({ url, status: 200, same: true });
    }
  });

  test("the packages' files and the home page are served from the same list: / is the map page, /favicon.ico its icon", async () => {
    const listed = assets();
    expect(listed["/"]!.path).toBe(join(PUBLIC, "map/index.html"));
    expect(listed["/favicon.ico"]).toEqual({ path: join(PUBLIC, "map/favicon.svg"), type: "image/svg+xml" });
    expect(listed["/map/vendor/leaflet/leaflet.js"]!.path).toBe(Bun.resolveSync("leaflet/dist/leaflet.js", PUBLIC));
    for (const url of ["/", "/favicon.ico", "/docs/assets/swagger-ui-bundle.js", "/map/vendor/leaflet/images/marker-icon.png", "/map/data/us-states-10m.json"]) {
      const response = await loam.get(url, { headers: { "accept-encoding": "identity" } });
      const served = new Uint8Array(await response.arrayBuffer());
      expect({ url, status: response.status, type: response.headers.get("content-type"), same: Buffer.compare(served, await Bun.file(listed[url]!.path).bytes()) === 0 }).toEqual({
        url,
        status: 200,
        type: listed[url]!.type,
        same: true,
      });
    }
  });

  test("a new file under public/ is listed with the media type of its kind; a kind with no media type is refused naming it", () => {
    const root = mkdtempSync(join(tmpdir(), "loam-assets-"));
    mkdirSync(join(root, "public/map/js/layers"), { recursive: true });
    writeFileSync(join(root, "public/map/index.html"), "<!doctype html>");
    writeFileSync(join(root, "public/map/favicon.svg"), "<svg/>");
    writeFileSync(join(root, "public/map/js/layers/new-kind.js"), "export {};");
    const listed = assetsOf(root);
    expect(listed["/map/js/layers/new-kind.js"]).toEqual({ path: join(root, "public/map/js/layers/new-kind.js"), type: "text/javascript; charset=utf-8" });
    expect(listed["/map"]!.type).toBe("text/html; charset=utf-8");
    // A hidden file (an editor's swap file, a .DS_Store) is never listed, nor refused.
    writeFileSync(join(root, "public/map/js/.main.js.swp"), "swap");
    writeFileSync(join(root, "public/.DS_Store"), "");
    expect(Object.values(assetsOf(root)).filter((a) => a.path.includes("/.")).length).toBe(0);
    writeFileSync(join(root, "public/map/notes.md"), "# notes");
    expect(() => assetsOf(root)).toThrow(/\/map\/notes\.md \(\.md\)/);
  });
});
