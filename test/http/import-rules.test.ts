/**
 * The boundaries of docs/architecture.md#rooms, checked on the source. Every rule is derived from one
 * table (ROOMS): each folder of src/ belongs to a room, and each room lists what it may import. An import
 * the table does not allow fails, and so does a cycle of any length between rooms. The checker is also
 * fed imports that break the rules, to show that it sees each kind of break.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../../src");

interface SourceFile {
  /** Path relative to src/, e.g. "location/service.ts". */
  file: string;
  /** Its relative imports, as paths relative to src/ without extension, e.g. "answer/index". */
  imports: string[];
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)].map((m) => m[1]!);
  return specifiers.map((s) => relative(SRC, resolve(dirname(file), s)).replace(/\.ts$/, ""));
}

/** The generic features, one folder per data shape (docs/architecture.md#shapes). */
const SHAPES = readdirSync(join(SRC, "shapes"), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

const SOURCE: SourceFile[] = files(SRC).map((file) => ({ file: relative(SRC, file), imports: importsOf(file) }));

/**
 * A path's room: its top folder under src/, or a top-level file's own name (app, config, errors, ...);
 * each shape's folder under shapes/ is a feature room of its own (shapes/point_values, ...).
 */
const roomOf = (path: string) =>
  path.startsWith("shapes/") ? path.split("/").slice(0, 2).join("/") : path.includes("/") ? path.split("/")[0]! : path.replace(/\.ts$/, "").replace(/\.d$/, "");

/** What any room may read (geometry: rings, WKT, clipping and geodesics, docs/architecture.md#rooms). */
const LEAVES = ["errors", "version", "lru", "decimal", "request-scope", "assets", "geometry"];
/** What the features share below them: the rooms, and only the contract files of providers/ and upstream/. */
const FEATURE_READS = [
  ...LEAVES, "config", "answer", "aggregation", "domain", "catalog", "tables", "http",
  "providers/provider", "providers/registry", "upstream/transport", "upstream/cache", "shapes/sites",
];

/**
 * Every room of src/ and what it may import: a room name allows the whole room, a path (room/file)
 * only that module. A new folder must be placed here (docs/architecture.md#rooms).
 */
const ROOMS: Record<string, { kind: string; may: readonly string[] | "anything" }> = {
  // Composition and process entry points.
  app: { kind: "top", may: "anything" },
  server: { kind: "top", may: "anything" },
  cli: { kind: "top", may: "anything" },
  compiled: { kind: "top", may: "anything" },
  workers: { kind: "top", may: "anything" },
  models: { kind: "top", may: "anything" },
  // Features: routes of one endpoint family each (index.ts, model.ts, service.ts); never another feature.
  // GET /v1/soil/location is the point_values shape's mapped_location route: it calls the shape's service.
  location: { kind: "feature", may: [...FEATURE_READS, "shapes/point_values/service"] },
  pedons: { kind: "feature", may: FEATURE_READS },
  summaries: { kind: "feature", may: FEATURE_READS },
  mapunits: { kind: "feature", may: FEATURE_READS },
  areas: { kind: "feature", may: FEATURE_READS },
  series: { kind: "feature", may: FEATURE_READS },
  geochem: { kind: "feature", may: FEATURE_READS },
  meta: { kind: "feature", may: FEATURE_READS },
  pages: { kind: "feature", may: FEATURE_READS },
  ...Object.fromEntries(SHAPES.map((shape) => [`shapes/${shape}`, { kind: "feature", may: FEATURE_READS }])),
  // The `sites` shape's generic service, which the features of located collections (pedons, geochem, stations) call.
  "shapes/sites": { kind: "shared", may: [...LEAVES, "answer", "domain", "providers/provider", "upstream/transport", "upstream/cache"] },
  // A composite serves several features' data through one protocol (OGC API - Features).
  collections: { kind: "composite", may: [...FEATURE_READS, "geochem", "mapunits", "pedons", "shapes/site_series", "providers/connect"] },
  // A composite that sets every source's answer at a point side by side, each through its own feature's service (docs/decisions.md#evidence).
  evidence: { kind: "composite", may: [...FEATURE_READS, "location", "summaries", "pedons", "geochem", "shapes/point_values", "shapes/site_series"] },
  // What features share.
  http: { kind: "shared", may: [...LEAVES, "config", "answer", "domain", "redis/client", "upstream/transport"] },
  answer: { kind: "shared", may: [...LEAVES, "domain", "catalog", "providers/provider", "providers/registry", "providers/connect", "upstream/transport", "upstream/cache"] },
  // aggregation/model: the summary's model, from which the summary tables derive their columns (docs/decisions.md#csv-columns).
  tables: { kind: "shared", may: [...LEAVES, "domain", "catalog", "aggregation/model", "http/response", "http/rendered-bodies"] },
  aggregation: { kind: "shared", may: [...LEAVES, "answer", "domain", "catalog", "providers/provider", "upstream/transport", "upstream/cache"] },
  // The shapes features and providers share, and the vocabulary as data.
  domain: { kind: "domain", may: [...LEAVES, "catalog"] },
  catalog: { kind: "domain", may: LEAVES },
  providers: { kind: "providers", may: [...LEAVES, "config", "catalog", "domain", "upstream"] },
  // Transports, the cache, Redis, the snapshot build.
  upstream: { kind: "below", may: [...LEAVES, "config"] },
  redis: { kind: "below", may: [...LEAVES, "config", "upstream"] },
  snapshot: { kind: "below", may: [...LEAVES, "config", "upstream", "providers"] },
  // Leaves.
  config: { kind: "leaf", may: [...LEAVES, "upstream/public-url"] },
  "state-db": { kind: "leaf", may: [...LEAVES, "config"] },
  errors: { kind: "leaf", may: [] },
  version: { kind: "leaf", may: [] },
  lru: { kind: "leaf", may: [] },
  decimal: { kind: "leaf", may: [] },
  "request-scope": { kind: "leaf", may: [] },
  assets: { kind: "leaf", may: [] },
  geometry: { kind: "leaf", may: ["errors"] },
};

/** File-level rules the room table cannot say: each a predicate on (file, target) that must not hold. */
const FILE_RULES: { rule: string; breaks(file: string, target: string): boolean }[] = [
  { rule: "services know nothing of HTTP", breaks: (file, target) => /(^|\/)service$/.test(file.replace(/\.ts$/, "")) && roomOf(target) === "http" },
  { rule: "tables read a feature's models only", breaks: (file, target) => roomOf(file) === "tables" && ROOMS[roomOf(target)]?.kind === "feature" && !/\/model$/.test(target) },
];

/** Is `target` allowed by a room's list (a room name allows the room, a path allows that module)? */
function allows(may: readonly string[] | "anything", target: string): boolean {
  if (may === "anything") return true;
  // An entry is a room (`geochem`, `shapes/site_series`) or one file of a room (`providers/provider`).
  return may.some((entry) => roomOf(target) === entry || target === entry);
}

/** Every import the table or the file rules refuse, as "file -> target (why)". */
function brokenImports(source: readonly SourceFile[]): string[] {
  const broken: string[] = [];
  for (const { file, imports } of source) {
    const room = roomOf(file);
    for (const target of imports) {
      if (target.startsWith("..")) continue; // outside src/ (db/, assets): the top rooms and state-db
      const other = roomOf(target);
      if (other !== room && !allows(ROOMS[room]?.may ?? [], target)) broken.push(`${file} -> ${target} (${room} may not import ${other})`);
      for (const { rule, breaks } of FILE_RULES) if (breaks(file, target)) broken.push(`${file} -> ${target} (${rule})`);
    }
  }
  return broken;
}

/** Cycles between rooms of any length: the strongly connected components with more than one room. */
function roomCycles(source: readonly SourceFile[]): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const { file, imports } of source) {
    for (const target of imports) {
      if (target.startsWith("..")) continue;
      const [from, to] = [roomOf(file), roomOf(target)];
      if (from !== to) (edges.get(from) ?? edges.set(from, new Set()).get(from)!).add(to);
    }
  }
  // Tarjan's algorithm.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (room: string) => {
    index.set(room, next);
    low.set(room, next++);
    stack.push(room);
    onStack.add(room);
    for (const to of edges.get(room) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(room, Math.min(low.get(room)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(room, Math.min(low.get(room)!, index.get(to)!));
    }
    if (low.get(room) === index.get(room)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== room);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const room of edges.keys()) if (!index.has(room)) visit(room);
  return components;
}

describe("import rules (one room table)", () => {
  test("the rule reader sees the imports (a known edge exists)", () => {
    expect(SOURCE.find((f) => f.file === "location/service.ts")!.imports).toContain("answer");
  });

  test("every folder and top-level file of src/ belongs to a room of the table", () => {
    const unknown = [...new Set(SOURCE.map(({ file }) => roomOf(file)))].filter((room) => !(room in ROOMS));
    expect(unknown).toEqual([]);
  });

  test("every import is one the table allows", () => {
    expect(brokenImports(SOURCE)).toEqual([]);
  });

  test("no cycle of any length between rooms", () => {
    expect(roomCycles(SOURCE)).toEqual([]);
  });

  describe("the checker sees each kind of break", () => {
    const withImport = (file: string, target: string): SourceFile[] => [...SOURCE, { file, imports: [target] }];
    const cases: [string, string, string][] = [
      ["a service importing http/", "location/service.ts", "http/query"],
      ["a feature importing a provider folder", "geochem/service.ts", "providers/usgs_geochem/index"],
      ["a feature importing another feature", "location/index.ts", "pedons/service"],
      ["a shape importing another shape", "shapes/point_values/index.ts", "shapes/site_series/service"],
      ["a feature importing a concrete transport", "pedons/service.ts", "upstream/sda/client"],
      ["http/ importing the cache", "http/response.ts", "upstream/cache"],
      ["a transport importing a provider", "upstream/http.ts", "providers/provider"],
      ["a transport importing a feature", "upstream/cache.ts", "location/model"],
      ["the domain importing the answer room", "domain/bbox.ts", "answer/index"],
      ["the catalog importing the domain", "catalog/properties.ts", "domain/precision"],
      ["a provider importing a feature", "providers/usda_kssl/detail.ts", "pedons/model"],
      ["a provider importing http/", "providers/connect.ts", "http/metrics"],
      ["tables importing a service", "tables/flatten.ts", "location/service"],
      ["a leaf importing a room", "errors.ts", "domain/bbox"],
    ];
    for (const [what, file, target] of cases) {
      test(what, () => expect(brokenImports(withImport(file, target)).some((b) => b.startsWith(`${file} -> ${target}`))).toBe(true));
    }
    test("a circle of three rooms (no two importing each other) is a cycle", () => {
      const circle: SourceFile[] = [
        { file: "upstream/x.ts", imports: ["redis/client"] },
        { file: "redis/x.ts", imports: ["snapshot/build"] },
        { file: "snapshot/x.ts", imports: ["upstream/transport"] },
      ];
      const cycles = roomCycles([...SOURCE, ...circle]);
      expect(cycles.some((rooms) => ["redis", "snapshot", "upstream"].every((room) => rooms.includes(room)))).toBe(true);
    });
  });
});
