/**
 * docs/architecture.md and the guides cite paths of the repository: every one exists, so "adding a
 * provider" can be followed file by file. Placeholders (`src/providers/<id>/`) are not paths.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
/** Folders a run makes (git ignores them): a path there is cited as where output goes. */
const GENERATED = readFileSync(join(ROOT, ".gitignore"), "utf8")
  .split("\n")
  .map((line) => line.trim().replace(/^\//, ""))
  .filter((line) => line.endsWith("/") && !line.startsWith("#"));
const DOCS = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

describe("paths the docs cite", () => {
  for (const doc of DOCS) {
    test(`${doc}: every cited src/, test/, bench/, public/, db/ or scripts/ path exists`, () => {
      const text = readFileSync(join(ROOT, doc), "utf8");
      const cited = [...text.matchAll(/`((?:src|test|bench|public|db|scripts)\/[^`\s]*)`/g)].map((m) => m[1]!.replace(/[#:].*$/, "").replace(/[.,;)]+$/, ""));
      const made = (path: string) => GENERATED.some((folder) => path.startsWith(folder));
      const missing = [...new Set(cited)].filter((path) => !path.includes("<") && !path.includes("*") && !made(path) && !existsSync(join(ROOT, path)));
      expect(missing).toEqual([]);
    });
  }

  test("the architecture guide walks a provider through with real files", () => {
    const text = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
    expect(text).toContain("Adding a provider");
    for (const path of ["src/providers/registry.ts", "src/shapes/site_series/", "src/shapes/point_values/", "src/providers/usda_scan/"]) expect(existsSync(join(ROOT, path))).toBe(true);
  });
});
