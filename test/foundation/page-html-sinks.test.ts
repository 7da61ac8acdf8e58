/**
 * Pages never insert a data value as HTML (docs/decisions.md#pages-text; issue 37, item 5). The map,
 * series and docs pages build their DOM with el()/svg() (textContent and text nodes); this audit of
 * every script under public/ keeps it so: no innerHTML, outerHTML, insertAdjacentHTML or
 * document.write, and every Leaflet call that inserts a string as HTML (bindTooltip, bindPopup,
 * setContent, divIcon's html) is given a node (el(...)) or a function returning one, never a string.
 * The hostile-file browser test (test/browser/geochem-hostile.test.ts) checks the result in Chromium.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const PUBLIC = resolve(import.meta.dir, "../../public");

function scripts(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return scripts(path);
    return path.endsWith(".js") || path.endsWith(".html") ? [path] : [];
  });
}

test("no script of public/ writes HTML from a string", () => {
  const found: string[] = [];
  for (const path of scripts(PUBLIC)) {
    const source = readFileSync(path, "utf8");
    source.split("\n").forEach((line, i) => {
      const at = `${relative(PUBLIC, path)}:${i + 1}`;
      if (/\.(innerHTML|outerHTML)\s*[+]?=|insertAdjacentHTML\s*\(|document\.write\s*\(/.test(line)) found.push(`${at} writes HTML: ${line.trim()}`);
      for (const call of line.matchAll(/\.(bindTooltip|bindPopup|setContent)\(\s*(.{0,8})/g)) {
        if (!/^(el\(|svg\(|\(\)\s*=>)/.test(call[2]!)) found.push(`${at} ${call[1]} is given a string: ${line.trim()}`);
      }
      for (const call of line.matchAll(/html:\s*([^,}]*)/g)) {
        if (!/^(el\(|svg\()/.test(call[1]!)) found.push(`${at} html is given a string: ${line.trim()}`);
      }
    });
  }
  expect(found).toEqual([]);
});
