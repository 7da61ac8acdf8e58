/**
 * A provider is one folder plus one registry line (docs/architecture.md#providers): nothing under src/
 * outside `src/providers/<id>/` names a registered provider, except src/providers/registry.ts, where its
 * import and its entry are its one line. Route defaults come from the registry (`defaultProviderId`).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";

const ROOT = resolve(import.meta.dir, "../..");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : /\.(ts|js|html|css)$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

const SOURCES = files(join(ROOT, "src")).map((file) => ({ file: relative(ROOT, file), text: readFileSync(file, "utf8") }));
const OPERATIONAL = DEFAULT_PROVIDERS.filter((p) => p.role !== "planned");

/** The files of `sources` outside the provider's folder and the registry that name it. */
function namingOutside(id: string, sources: readonly { file: string; text: string }[]): string[] {
  const own = `src/providers/${id}/`;
  return sources.filter(({ file, text }) => !file.startsWith(own) && file !== "src/providers/registry.ts" && text.includes(id)).map((s) => s.file);
}

describe("a provider is one folder and one registry line", () => {
  test("the registry holds every operational provider once", () => {
    expect(new Set(OPERATIONAL.map((p) => p.id)).size).toBe(OPERATIONAL.length);
    expect(OPERATIONAL.length).toBeGreaterThanOrEqual(4);
  });

  for (const provider of OPERATIONAL) {
    test(`${provider.id} is named nowhere in src/ outside its folder and the registry`, () => {
      expect(namingOutside(provider.id, SOURCES)).toEqual([]);
    });
  }

  test("the check can fail: a feature that names a provider is found", () => {
    const id = OPERATIONAL[0]!.id;
    const planted = [...SOURCES, { file: "src/location/planted.ts", text: `default: "${id}"` }];
    expect(namingOutside(id, planted)).toEqual(["src/location/planted.ts"]);
  });
});
