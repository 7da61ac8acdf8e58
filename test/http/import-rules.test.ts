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

/** A file's room: its top folder under src/, or the top-level file's own name (app, config, errors, ...). */
const roomOf = (path: string) => (path.includes("/") ? path.split("/")[0]! : path.replace(/\.ts$/, ""));

/**
 * Every room of src/, by kind (docs/architecture.md#rooms). A new folder must be placed here, so the
 * rules below always look at every folder.
 */
const ROOMS = {
  /** Composition and process entry points: may import anything. */
  top: ["app", "server", "cli", "compiled", "workers", "models"],
  /** Routes of one endpoint family each (index.ts routes, model.ts, service.ts). */
  features: ["location", "pedons", "summaries", "mapunits", "areas", "series", "geochem", "meta", "pages", "shapes"],
  /** Rooms that serve several features' data through one protocol (OGC API - Features): above the features they read. */
  composites: ["collections"],
  /** What features share: the boundary, the answer room, tables, the summary engine (NRCS's aggregation rules). */
  shared: ["http", "answer", "tables", "aggregation"],
  /** The shapes features and providers share, the vocabulary and catalog models as data. */
  domain: ["domain", "catalog"],
  providers: ["providers"],
  /** Transports, the cache, Redis, the snapshot build. */
  below: ["upstream", "redis", "snapshot"],
  /** Leaf modules every room may read. */
  leaves: ["config", "errors", "version", "lru", "decimal", "state-db", "request-scope", "assets.d", "compiled"],
} as const;
const FEATURES: readonly string[] = ROOMS.features;

function violations(inRoom: (file: string) => boolean, forbidden: (target: string) => boolean): string[] {
  return all.filter(({ file }) => inRoom(file)).flatMap(({ file, imports }) => imports.filter(forbidden).map((target) => `${file} -> ${target}`));
}

describe("import rules", () => {
  test("the rule reader sees the imports (a known edge exists)", () => {
    expect(all.find((f) => f.file === "location/service.ts")!.imports).toContain("answer");
  });

  test("every folder and top-level file of src/ belongs to a room the rules below know", () => {
    const known = new Set<string>(Object.values(ROOMS).flat());
    const unknown = [...new Set(all.map(({ file }) => roomOf(file)))].filter((room) => !known.has(room) && !room.endsWith(".d"));
    expect(unknown).toEqual([]);
  });

  test("no two rooms import each other (every folder of src/)", () => {
    const edges = new Set(all.flatMap(({ file, imports }) => imports.map((target) => `${roomOf(file)}>${roomOf(target)}`)));
    const pairs = [...edges]
      .map((edge) => edge.split(">") as [string, string])
      .filter(([from, to]) => from !== to && from < to && edges.has(`${to}>${from}`))
      .map(([a, b]) => `${a} <-> ${b}`);
    expect(pairs).toEqual([]);
  });

  test("features never import features (a composite reads the features it serves)", () => {
    const isFeature = (file: string) => FEATURES.includes(roomOf(file));
    const crossings = violations(isFeature, (target) => FEATURES.includes(roomOf(target))).filter((edge) => {
      const [from, to] = edge.split(" -> ") as [string, string];
      return roomOf(from) !== roomOf(to);
    });
    expect(crossings).toEqual([]);
  });

  test("shared rooms never import a feature or a composite (only a feature's models, for tables)", () => {
    const isShared = (file: string) => (ROOMS.shared as readonly string[]).includes(roomOf(file));
    const above = (target: string) => (FEATURES.includes(roomOf(target)) || (ROOMS.composites as readonly string[]).includes(roomOf(target))) && !/(^|\/)model$/.test(target);
    expect(violations(isShared, above)).toEqual([]);
  });

  test("providers never import a feature", () => {
    expect(violations((file) => file.startsWith("providers/"), (target) => FEATURES.includes(roomOf(target)))).toEqual([]);
  });

  test("the domain room imports only the domain, catalog data, shared models and leaves", () => {
    const allowed = (target: string) => ["domain", "catalog", "errors", "decimal", "lru"].includes(roomOf(target));
    expect(violations((file) => file.startsWith("domain/"), (target) => !allowed(target))).toEqual([]);
  });

  test("services, providers and the answer room never import from http/", () => {
    const isService = (file: string) => /^(location|pedons|summaries|series|areas|shapes\/[a-z_]+)\/service\.ts$/.test(file) || /^(providers|answer|upstream|aggregation)\//.test(file);
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

  test("tables read bodies only: their own files, models, the domain's shapes and the pipeline's CsvTable type", () => {
    const allowed = (target: string) => target.startsWith("tables/") || target.startsWith("domain/") || /(^|\/)model$/.test(target) || target === "http/response";
    expect(violations((file) => file.startsWith("tables/"), (target) => !allowed(target))).toEqual([]);
  });

  test("features never name a provider folder", () => {
    const isFeature = (file: string) => /^(location|pedons|summaries|series|areas|shapes)\//.test(file);
    expect(violations(isFeature, (target) => /^providers\/usda/.test(target))).toEqual([]);
  });
});
