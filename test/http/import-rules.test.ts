/**
 * The boundaries of docs/architecture.md#rooms, checked on the source. Every rule is derived from one
 * table (ROOMS), row for row the table of docs/architecture.md: each folder of src/ belongs to a room
 * (each provider folder is a room of its own, and so is the registry), and each room lists what it may
 * import: a room, one module of it, or a module's types only. An import the table does not allow fails,
 * and so does a circle of any length, between rooms or between the files of one room (type imports
 * included: a circle of types is still two files that cannot be read one after the other). Static,
 * dynamic (`import()`) and `require()` imports are read. The checker is also fed imports that break the
 * rules, through the same reader, to show that it sees each kind of break.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../../src");

interface Import {
  /** The imported module, relative to src/ without extension, e.g. "answer/index". */
  target: string;
  /** Only types are imported (`import type`, `export type`, or every named binding marked `type`): erased at run time. */
  typeOnly: boolean;
}

interface SourceFile {
  /** Path relative to src/, e.g. "location/service.ts". */
  file: string;
  imports: Import[];
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

/** Block comments and whole-line comments removed, so an import written in prose is not read as one. */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");

/** Are the named bindings of `{ type A, type B }` all types? */
const allTypes = (bindings: string) => {
  const names = bindings.replace(/[{}]/g, "").split(",").map((s) => s.trim()).filter(Boolean);
  return names.length > 0 && names.every((name) => name.startsWith("type "));
};

/** The relative imports of a file's text: static imports and re-exports, `import()` and `require()`. */
function importsOf(file: string, text: string): Import[] {
  const code = withoutComments(text);
  const at = (specifier: string) => relative(SRC, resolve(dirname(join(SRC, file)), specifier)).replace(/\.ts$/, "");
  const found: Import[] = [];
  // import x from "./a"; import type { X } from "./a"; export { y } from "./a"; import "./a";
  for (const m of code.matchAll(/(?:^|[;}\n])\s*(?:import|export)\s+(type\s+)?([^;"'`=]*?)\s*from\s*["'](\.[^"']+)["']/g)) {
    const bindings = m[2]!.trim();
    found.push({ target: at(m[3]!), typeOnly: m[1] !== undefined || (/^\{[\s\S]*\}$/.test(bindings) && allTypes(bindings)) });
  }
  for (const m of code.matchAll(/(?:^|[;}\n])\s*import\s*["'](\.[^"']+)["']/g)) found.push({ target: at(m[1]!), typeOnly: false });
  // await import("./a"), require("./a"): read at run time.
  for (const m of code.matchAll(/\b(?:import|require)\s*\(\s*["'`](\.[^"'`]+)["'`]\s*\)/g)) found.push({ target: at(m[1]!), typeOnly: false });
  return found;
}

const SOURCE: SourceFile[] = files(SRC).map((path) => {
  const file = relative(SRC, path);
  return { file, imports: importsOf(file, readFileSync(path, "utf8")) };
});

const foldersOf = (dir: string) => readdirSync(join(SRC, dir), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `${dir}/${e.name}`);
/** The generic features, one folder per data shape (docs/architecture.md#shapes). */
const SHAPES = foldersOf("shapes");
/** One room per provider folder: a provider reads the contract below it, never another provider or the registry. */
const PROVIDER_FOLDERS = foldersOf("providers");

/**
 * A path's room: a provider's folder (providers/usda_scan), the registry (providers/registry: the one file
 * that imports the provider folders), a shape's folder (shapes/point_values), else its top folder under
 * src/, or a top-level file's own name (app, config, errors, ...).
 */
function roomOf(path: string): string {
  const parts = path.replace(/\.ts$/, "").replace(/\.d$/, "").split("/");
  if ((parts[0] === "shapes" || parts[0] === "providers") && parts.length > 2) return parts.slice(0, 2).join("/");
  if (parts[0] === "providers" && parts[1] === "registry") return "providers/registry";
  return parts[0]!;
}

/**
 * What a room may import: a room name allows the room, a path (room/file) only that module; `types(m)`
 * only its types; `fromFiles(m, files, why)` that module from some files of the room only.
 */
type Allow = string | { module: string; typesOnly?: true; files?: RegExp; why?: string };
const types = (module: string): Allow => ({ module, typesOnly: true });
const fromFiles = (module: string, files: RegExp, why: string): Allow => ({ module, files, why });

/** What any room may read (geometry: rings, WKT, clipping and geodesics, docs/architecture.md#rooms). */
const LEAVES = ["errors", "version", "lru", "decimal", "request-scope", "assets", "geometry"];
/**
 * What the features share below them (docs/architecture.md#rooms, the features' row): the rooms, and only
 * the contracts of providers/ and upstream/, as types. The registry's value (`defaultProviderId`: the
 * documented default of a `provider` parameter) only from a model.ts; `http/` is kept from services by a
 * file rule.
 */
const FEATURE_READS: readonly Allow[] = [
  ...LEAVES, "answer", "aggregation", "domain", "catalog", "tables", "http", "shapes/sites",
  types("providers/provider"), types("providers/registry"), types("upstream/transport"), types("upstream/cache"),
  fromFiles("providers/registry", /\/model\.ts$/, "a model documents its provider parameter's default (defaultProviderId)"),
];

/** What a provider folder may import: the contract (providers/: provider.ts, connect.ts, usda.ts) and the rooms below. */
const PROVIDER_READS: readonly Allow[] = [...LEAVES, "config", "catalog", "domain", "upstream", "providers"];

/**
 * Every room of src/ and what it may import. A new folder must be placed here and in
 * docs/architecture.md#rooms (a provider folder and a shape's folder are placed by their kind).
 */
const ROOMS: Record<string, { kind: string; may: readonly Allow[] | "anything" }> = {
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
  ...Object.fromEntries(SHAPES.filter((s) => s !== "shapes/sites").map((shape) => [shape, { kind: "feature", may: FEATURE_READS }])),
  // The `sites` shape's generic service, which the features of located collections (pedons, geochem, stations) call.
  "shapes/sites": { kind: "shared", may: [...LEAVES, "answer", "domain", types("providers/provider"), types("upstream/transport"), types("upstream/cache")] },
  // A composite serves several features' data through one protocol (OGC API - Features).
  collections: { kind: "composite", may: [...FEATURE_READS, "geochem", "mapunits", "pedons", "shapes/site_series"] },
  // A composite that sets every source's answer at a point side by side, each through its own feature's service (docs/decisions.md#evidence).
  evidence: { kind: "composite", may: [...FEATURE_READS, "location", "summaries", "pedons", "geochem", "shapes/point_values", "shapes/site_series"] },
  // What features share.
  http: { kind: "shared", may: [...LEAVES, "config", "answer", "domain", "redis/client", types("upstream/transport")] },
  answer: {
    kind: "shared",
    may: [
      ...LEAVES, "domain", "catalog", types("providers/provider"), types("providers/registry"), types("providers/connect"), types("upstream/transport"), types("upstream/cache"),
      fromFiles("providers/registry", /^answer\/providers\.ts$/, "a refusal names the provider the full list would use (defaultProviderId)"),
    ],
  },
  // aggregation/model: the summary's model, from which the summary tables derive their columns (docs/decisions.md#csv-columns).
  tables: { kind: "shared", may: [...LEAVES, "domain", "catalog", "aggregation/model", "http/response", "http/rendered-bodies"] },
  aggregation: { kind: "shared", may: [...LEAVES, "answer", "domain", "catalog", types("providers/provider"), types("upstream/transport"), types("upstream/cache")] },
  // The shapes features and providers share, and the vocabulary as data.
  domain: { kind: "domain", may: [...LEAVES, "catalog"] },
  catalog: { kind: "domain", may: LEAVES },
  // The provider contract (provider.ts, connect.ts, planned.ts, usda.ts), each provider folder, and the one registration list.
  providers: { kind: "providers", may: [...LEAVES, "config", "catalog", "domain", "upstream"] },
  ...Object.fromEntries(PROVIDER_FOLDERS.map((folder) => [folder, { kind: "provider", may: PROVIDER_READS }])),
  "providers/registry": { kind: "registry", may: [...LEAVES, types("config"), "providers", ...PROVIDER_FOLDERS] },
  // Transports, the cache, Redis, the snapshot build.
  upstream: { kind: "below", may: [...LEAVES, "config"] },
  redis: { kind: "below", may: [...LEAVES, "config", "upstream"] },
  snapshot: { kind: "below", may: [...LEAVES, "config", "upstream", "providers", "providers/registry", ...PROVIDER_FOLDERS] },
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

/** Does an entry of a room's list allow this import from this file? */
function allows(may: readonly Allow[] | "anything", file: string, { target, typeOnly }: Import): boolean {
  if (may === "anything") return true;
  return may.some((entry) => {
    const allow = typeof entry === "string" ? { module: entry } : entry;
    const names = roomOf(target) === allow.module || target === allow.module || (allow.module === target.replace(/\/index$/, ""));
    return names && (!allow.typesOnly || typeOnly) && (!allow.files || allow.files.test(file));
  });
}

/** Every import the table or the file rules refuse, as "file -> target (why)". */
function brokenImports(source: readonly SourceFile[]): string[] {
  const broken: string[] = [];
  for (const { file, imports } of source) {
    const room = roomOf(file);
    for (const imported of imports) {
      const { target, typeOnly } = imported;
      if (target.startsWith("..")) continue; // outside src/ (db/, assets): the top rooms and state-db
      const other = roomOf(target);
      if (other !== room && !allows(ROOMS[room]?.may ?? [], file, imported)) broken.push(`${file} -> ${target} (${room} may not import ${other}${typeOnly ? "" : " as a value"})`);
      for (const { rule, breaks } of FILE_RULES) if (breaks(file, target)) broken.push(`${file} -> ${target} (${rule})`);
    }
  }
  return broken;
}

/** The strongly connected components of more than one node of a graph (Tarjan's algorithm): its circles of any length. */
function circles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return components;
}

/** The graph of imports with each end named by `name` (a room, or a file), less the edges from a node to itself. */
function graphOf(source: readonly SourceFile[], name: (path: string) => string): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const { file, imports } of source) {
    for (const { target } of imports) {
      if (target.startsWith("..")) continue;
      const [from, to] = [name(file), name(target)];
      if (from !== to) (edges.get(from) ?? edges.set(from, new Set()).get(from)!).add(to);
    }
  }
  return edges;
}

/** Modules by their path without extension; a folder's import names its index. */
const known = new Set(SOURCE.map(({ file }) => file.replace(/\.ts$/, "")));
const moduleOf = (path: string) => {
  const bare = path.replace(/\.ts$/, "");
  return known.has(bare) || !known.has(`${bare}/index`) ? bare : `${bare}/index`;
};

/** Circles between rooms, and circles between the files of the program (inside one room, or across rooms). */
const roomCycles = (source: readonly SourceFile[]) => circles(graphOf(source, roomOf));
const fileCycles = (source: readonly SourceFile[]) => circles(graphOf(source, moduleOf));

/** docs/architecture.md's rooms table: each row's rooms (its first cell's backticked names) and what it says they may import. */
function documentedRooms(): { rooms: string[]; may: string }[] {
  const doc = readFileSync(resolve(import.meta.dir, "../../docs/architecture.md"), "utf8");
  const table = doc.slice(doc.indexOf("## Rooms")).split("\n\n")[1]!;
  return table
    .split("\n")
    .slice(2)
    .map((row) => row.split(" | "))
    .map(([first, , may]) => ({ rooms: [...first!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, "").replace(/\.ts$/, "")), may: may ?? "" }));
}

/** The row of docs/architecture.md that documents a room (a shape's or a provider's folder by its pattern). */
function rowOf(rows: { rooms: string[]; may: string }[], room: string) {
  const name = room.startsWith("shapes/") && room !== "shapes/sites" ? "shapes/<shape>" : PROVIDER_FOLDERS.includes(room) ? "providers/<id>" : room;
  return rows.find((row) => row.rooms.includes(name));
}

describe("import rules (one room table)", () => {
  test("the rule reader sees the imports (known edges exist, value and type)", () => {
    expect(SOURCE.find((f) => f.file === "location/service.ts")!.imports).toContainEqual({ target: "answer", typeOnly: false });
    expect(SOURCE.find((f) => f.file === "meta/layers.ts")!.imports).toContainEqual({ target: "providers/registry", typeOnly: true });
    expect(SOURCE.find((f) => f.file === "compiled.ts")!.imports.map((i) => i.target)).toContain("cli");
  });

  test("every folder and top-level file of src/ belongs to a room of the table", () => {
    const unknown = [...new Set(SOURCE.map(({ file }) => roomOf(file)))].filter((room) => !(room in ROOMS));
    expect(unknown).toEqual([]);
  });

  test("every room of the table has its row in docs/architecture.md (a shape's and a provider's folder by their pattern)", () => {
    const rows = documentedRooms();
    const undocumented = Object.entries(ROOMS).filter(([room, { kind }]) => kind !== "top" && kind !== "leaf" && rowOf(rows, room) === undefined).map(([room]) => room);
    expect(undocumented).toEqual([]);
  });

  test("every single module a room's row of the table allows (a module of another room, or its types) is named in its row of docs/architecture.md", () => {
    const rows = documentedRooms();
    const unnamed: string[] = [];
    for (const [room, { may }] of Object.entries(ROOMS)) {
      const row = rowOf(rows, room);
      if (row === undefined || may === "anything") continue;
      for (const entry of may) {
        const module = typeof entry === "string" ? entry : entry.module;
        // A whole room is named as a room (`answer/`); a composite says "what features may import", a provider folder "what the contract may".
        if (!module.includes("/") || PROVIDER_FOLDERS.includes(module) || SHAPES.includes(module)) continue;
        if (FEATURE_READS.includes(entry) && ROOMS[room]!.kind !== "feature") continue;
        if (!row.may.includes(module)) unnamed.push(`${room}: ${module}`);
      }
    }
    expect(unnamed).toEqual([]);
  });

  test("every import is one the table allows", () => {
    expect(brokenImports(SOURCE)).toEqual([]);
  });

  test("no circle of any length between rooms", () => {
    expect(roomCycles(SOURCE)).toEqual([]);
  });

  test("no circle of any length between files, inside a room or across rooms", () => {
    expect(fileCycles(SOURCE)).toEqual([]);
  });

  describe("the checker sees each kind of break (planted as source text, read by the same reader)", () => {
    const planted = (file: string, text: string): SourceFile[] => [...SOURCE, { file, imports: importsOf(file, text) }];
    const caught = (file: string, text: string, target: string) => brokenImports(planted(file, text)).some((b) => b.startsWith(`${file} -> ${target} `));
    const cases: [string, string, string, string][] = [
      ["a service importing http/", "location/service.ts", `import { strictQuery } from "../http/query";`, "http/query"],
      ["a feature importing a provider folder", "geochem/service.ts", `import { usgsGeochem } from "../providers/usgs_geochem";`, "providers/usgs_geochem"],
      ["a feature importing another feature", "location/index.ts", `import { pedonPage } from "../pedons/service";`, "pedons/service"],
      ["a shape importing another shape", "shapes/point_values/index.ts", `import { station } from "../site_series/service";`, "shapes/site_series/service"],
      ["a feature importing a concrete transport", "pedons/service.ts", `import { SdaTransport } from "../upstream/sda/client";`, "upstream/sda/client"],
      ["http/ importing the cache", "http/response.ts", `import type { CachedAnswer } from "../upstream/cache";`, "upstream/cache"],
      ["a transport importing a provider", "upstream/http.ts", `import type { Provider } from "../providers/provider";`, "providers/provider"],
      ["a transport importing a feature", "upstream/cache.ts", `import { LocationResponse } from "../location/model";`, "location/model"],
      ["the domain importing the answer room", "domain/bbox.ts", `import type { DataAnswer } from "../answer/index";`, "answer/index"],
      ["the catalog importing the domain", "catalog/properties.ts", `import { roundDerived } from "../domain/precision";`, "domain/precision"],
      ["a provider importing a feature", "providers/usda_kssl/detail.ts", `import { PedonResponse } from "../../pedons/model";`, "pedons/model"],
      ["a provider importing http/", "providers/connect.ts", `import { recordUpstream } from "../http/metrics";`, "http/metrics"],
      ["tables importing a service", "tables/flatten.ts", `import { location } from "../location/service";`, "location/service"],
      ["a leaf importing a room", "errors.ts", `import type { Bbox } from "./domain/bbox";`, "domain/bbox"],
      // The kinds the 0.5.0 review found the checker missed (issue 48).
      ["a provider importing another provider", "providers/usda_kssl/detail.ts", `import { SSURGO_COLUMNS } from "../usda_ssurgo/columns";`, "providers/usda_ssurgo/columns"],
      ["a provider importing the registry (a run-time circle)", "providers/usda_scan/index.ts", `import { DEFAULT_PROVIDERS } from "../registry";`, "providers/registry"],
      ["a feature service importing the cache's value", "geochem/service.ts", `import { UpstreamCache } from "../upstream/cache";`, "upstream/cache"],
      ["a feature importing the registry's value outside its model", "meta/layers.ts", `import { createRegistry, type Registry } from "../providers/registry";`, "providers/registry"],
      ["a feature importing config", "summaries/service.ts", `import { loadConfig } from "../config";`, "config"],
      ["a require() across the rules", "location/service.ts", `const { pedonPage } = require("../pedons/service");`, "pedons/service"],
      ["a dynamic import() across the rules", "series/service.ts", `const pedons = await import("../pedons/service");`, "pedons/service"],
    ];
    for (const [what, file, text, target] of cases) test(what, () => expect(caught(file, text, target)).toBe(true));

    test("a type-only import is told apart: the registry's types are allowed where its value is not", () => {
      expect(caught("meta/layers.ts", `import type { Registry } from "../providers/registry";`, "providers/registry")).toBe(false);
      expect(caught("meta/layers.ts", `import { type Registry, type Registries } from "../providers/registry";`, "providers/registry")).toBe(false);
      expect(caught("meta/layers.ts", `import { createRegistry, type Registry } from "../providers/registry";`, "providers/registry")).toBe(true);
    });

    test("an import written in a comment is not read", () => {
      expect(caught("location/service.ts", `/** as in: import { pedonPage } from "../pedons/service"; */\n// require("../pedons/service")`, "pedons/service")).toBe(false);
    });

    test("a circle of three rooms (no two importing each other) is a circle", () => {
      const circle: SourceFile[] = [
        { file: "upstream/x.ts", imports: importsOf("upstream/x.ts", `import { redis } from "../redis/client";`) },
        { file: "redis/x.ts", imports: importsOf("redis/x.ts", `import { build } from "../snapshot/build";`) },
        { file: "snapshot/x.ts", imports: importsOf("snapshot/x.ts", `import type { Transport } from "../upstream/transport";`) },
      ];
      const found = roomCycles([...SOURCE, ...circle]);
      expect(found.some((rooms) => ["redis", "snapshot", "upstream"].every((room) => rooms.includes(room)))).toBe(true);
    });

    test("a circle of three files inside one room is a circle (types included)", () => {
      const circle: SourceFile[] = [
        { file: "aggregation/a.ts", imports: importsOf("aggregation/a.ts", `import { b } from "./b";`) },
        { file: "aggregation/b.ts", imports: importsOf("aggregation/b.ts", `import { c } from "./c";`) },
        { file: "aggregation/c.ts", imports: importsOf("aggregation/c.ts", `import type { A } from "./a";`) },
      ];
      expect(roomCycles([...SOURCE, ...circle])).toEqual([]);
      expect(fileCycles([...SOURCE, ...circle])).toContainEqual(["aggregation/a", "aggregation/b", "aggregation/c"]);
    });

    test("two files of one room importing each other (as aggregate and explain did) is a circle", () => {
      const file = "upstream/transport.ts";
      const source = SOURCE.map((f) => (f.file === file ? { file, imports: [...f.imports, ...importsOf(file, `type F = import("./snapshot").SnapshotFile;`)] } : f));
      expect(fileCycles(source).some((c) => c.includes("upstream/snapshot") && c.includes("upstream/transport"))).toBe(true);
    });
  });
});
