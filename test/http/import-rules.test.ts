/**
 * The boundaries of docs/architecture.md#rooms, checked on the source: services and providers know
 * nothing of HTTP; the HTTP layer never touches the cache; the transports never know a provider.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../../src");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

/** Every relative import of a file, as a path relative to src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)].map((m) => m[1]!);
  return specifiers.map((s) => relative(SRC, resolve(dirname(file), s)));
}

const all = files(SRC).map((file) => ({ file: relative(SRC, file), imports: importsOf(file) }));

function violations(inRoom: (file: string) => boolean, forbidden: (target: string) => boolean): string[] {
  return all.filter(({ file }) => inRoom(file)).flatMap(({ file, imports }) => imports.filter(forbidden).map((target) => `${file} -> ${target}`));
}

describe("import rules", () => {
  test("the rule reader sees the imports (a known edge exists)", () => {
    expect(all.find((f) => f.file === "location/service.ts")!.imports).toContain("answer");
  });

  test("services, providers and the answer room never import from http/", () => {
    const isService = (file: string) => /^(location|pedons|summaries|series|areas)\/service\.ts$/.test(file) || /^(providers|answer|upstream)\//.test(file);
    expect(violations(isService, (target) => target.startsWith("http/") || target === "http")).toEqual([]);
  });

  test("http/ never imports the cache or a concrete transport (only the transport contract, to count calls)", () => {
    const forbidden = (target: string) => target.startsWith("upstream/") && target !== "upstream/transport";
    expect(violations((file) => file.startsWith("http/"), forbidden)).toEqual([]);
  });

  test("transports never import a provider or a feature", () => {
    const forbidden = (target: string) => /^(providers|location|pedons|summaries|catalog|http)\//.test(target);
    expect(violations((file) => file.startsWith("upstream/"), forbidden)).toEqual([]);
  });

  test("tables read bodies only: their own files, models, and the pipeline's CsvTable type", () => {
    const allowed = (target: string) => target.startsWith("tables/") || /(^|\/)model$/.test(target) || target === "http/response";
    expect(violations((file) => file.startsWith("tables/"), (target) => !allowed(target))).toEqual([]);
  });

  test("features never name a provider folder", () => {
    const isFeature = (file: string) => /^(location|pedons|summaries|series|areas)\//.test(file);
    expect(violations(isFeature, (target) => /^providers\/usda/.test(target))).toEqual([]);
  });
});
