/**
 * Generic code never writes a source's name into served text (docs/decisions.md#provider-words): the
 * string literals of src/ and public/ outside a provider's folder name no registered provider. The
 * names looked for are derived from each provider's declaration (its shortName, and the acronyms and
 * CamelCase words of its record's name), not a hand list; comments are not looked at (the transpiler
 * drops them), nor the vocabulary prose that compares methods between sources.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import type { Provider } from "../../src/providers/provider";
import { fixtureStations } from "../fixtures/fixture_stations";
import { fixtureProvider as fixturePoints } from "../fixtures/fixture_points";
import { DATA_DIR, useLoam } from "../support/server";

const ROOT = resolve(import.meta.dir, "../..");

/** Files whose words about sources are content, not naming: the vocabulary compares each source's method. */
const VOCABULARY = new Set(["src/catalog/properties.ts", "src/catalog/element-totals.ts"]);

/**
 * What remains, each name allowed in one file, with why (every entry must still be needed: the last
 * test fails on a stale one).
 */
const ALLOWED: readonly { file: string; name: string; why: string }[] = [
  // Shared by the two USDA providers: the acknowledgement USDA-NRCS asks for (a file of providers/, not a feature).
  { file: "src/providers/usda.ts", name: "SSURGO", why: "USDA acknowledgement text both USDA providers declare" },
  { file: "src/providers/usda.ts", name: "NCSS", why: "USDA acknowledgement text both USDA providers declare" },
  // A station triplet's third part is its network code: the models' example keys (2092:KS:SCAN) are data
  // values (TypeBox models are built before any registry; the routes' examples take the provider's key.example).
  { file: "src/shapes/site_series/model.ts", name: "SCAN", why: "example station triplets" },
  { file: "src/domain/station.ts", name: "SCAN", why: "example station triplet and network code" },
];

/** The names of a provider served text must not carry outside its folder, from what it declares. */
export function namesOf(provider: Provider): string[] {
  const names = new Set<string>([provider.shortName]);
  const words = provider.shortName.split(" ");
  // "USGS DS 801" is also written "DS 801".
  for (let i = 1; i < words.length - 1; i++) names.add(words.slice(i).join(" "));
  for (const word of `${provider.record.name} ${provider.shortName}`.split(/[\s(),:;/]+/)) {
    // Acronyms (SSURGO, NCSS, SCAN) and CamelCase product names (SoilGrids); ordinary words are not names.
    if (/^[A-Z][A-Z0-9]{2,}$/.test(word) || /^[A-Z][a-z]+[A-Z][A-Za-z]*$/.test(word)) names.add(word);
  }
  return [...names];
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : /\.(ts|js|html)$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

const TS = new Bun.Transpiler({ loader: "ts" });
const JS = new Bun.Transpiler({ loader: "js" });

/** The file's code without comments: what it can serve (string literals) and its code, never its prose to readers. */
function withoutComments(file: string, text: string): string {
  if (file.endsWith(".html")) return text.replace(/<!--[\s\S]*?-->/g, "");
  return (file.endsWith(".ts") ? TS : JS).transformSync(text);
}

const escaped = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** `name` as a whole word: SSURGO in "SSURGO map units", not in SSURGO_TABLES. */
const wordOf = (name: string) => new RegExp(`(?<![A-Za-z0-9_])${escaped(name)}(?![A-Za-z0-9_])`);

interface Source {
  file: string;
  code: string;
}

const GENERIC: Source[] = [...files(join(ROOT, "src")), ...files(join(ROOT, "public"))]
  .map((path) => ({ file: relative(ROOT, path), path }))
  .filter(({ file }) => !/^src\/providers\/[a-z0-9_]+\//.test(file) && !VOCABULARY.has(file))
  .map(({ file, path }) => ({ file, code: withoutComments(file, readFileSync(path, "utf8")) }));

/** Each (file, name) where a generic file's code names one of `providers`, less the allowed ones. */
function naming(providers: readonly Provider[], sources: readonly Source[], allowed = ALLOWED): { file: string; name: string; provider: string }[] {
  const found: { file: string; name: string; provider: string }[] = [];
  for (const { file, code } of sources) {
    for (const provider of providers) {
      for (const name of namesOf(provider)) {
        if (wordOf(name).test(code) && !allowed.some((a) => a.file === file && a.name === name)) found.push({ file, name, provider: provider.id });
      }
    }
  }
  return found;
}

const OPERATIONAL = DEFAULT_PROVIDERS.filter((p) => p.role !== "planned");

describe("generic code names no provider in served text", () => {
  test("each provider's names are derived from its declaration (short name, record name)", () => {
    const byId = Object.fromEntries(OPERATIONAL.map((p) => [p.id, namesOf(p)]));
    for (const provider of OPERATIONAL) expect(byId[provider.id]).toContain(provider.shortName);
    // The acronyms of the record names are found too, not only the short names.
    for (const provider of OPERATIONAL) {
      for (const acronym of provider.record.name.match(/\b[A-Z][A-Z0-9]{2,}\b/g) ?? []) expect(byId[provider.id]).toContain(acronym);
    }
  });

  test("no string literal of src/ or public/ outside a provider's folder names a registered provider", () => {
    expect(naming(OPERATIONAL, GENERIC)).toEqual([]);
  });

  test("the check can fail: a feature's string naming a provider is found, the same words in a comment are not", () => {
    const [first] = OPERATIONAL;
    const name = first!.shortName;
    const planted = withoutComments("src/location/planted.ts", `// ${name} is said here for a reader.\nexport const title = "${name} map units";\n`);
    expect(naming(OPERATIONAL, [{ file: "src/location/planted.ts", code: planted }])).toEqual([{ file: "src/location/planted.ts", name, provider: first!.id }]);
    const commentOnly = withoutComments("src/location/planted.ts", `/** ${name} map units, for a reader. */\nexport const title = "map units";\n`);
    expect(naming(OPERATIONAL, [{ file: "src/location/planted.ts", code: commentOnly }])).toEqual([]);
  });

  test("the check can fail on a map-page script and on a fixture provider's own name", () => {
    const page = { file: "public/map/js/planted.js", code: withoutComments("public/map/js/planted.js", `el("h2", { text: "Sites (${fixtureStations.shortName})" });`) };
    expect(naming([...OPERATIONAL, fixtureStations], [page])).toEqual([{ file: "public/map/js/planted.js", name: fixtureStations.shortName, provider: fixtureStations.id }]);
  });

  test("every allowed entry is still needed (a name no longer written there leaves the list)", () => {
    for (const entry of ALLOWED) {
      const source = GENERIC.find((s) => s.file === entry.file);
      expect({ ...entry, present: source !== undefined && wordOf(entry.name).test(source.code) }).toEqual({ ...entry, present: true });
    }
  });
});

describe("served text takes a provider's words from what it declares", () => {
  // The fixtures first: the registry's default of their roles, so the derived texts are theirs.
  const { loam } = useLoam({ providers: [fixtureStations, fixturePoints, ...DEFAULT_PROVIDERS] });
  const defaults = useLoam();

  test("the stations collection describes the registry's default site-series provider by its record name", async () => {
    const body = await (await loam.get("/ogc/collections/stations")).json();
    expect(body.description).toStartWith(`Sensor stations of the ${fixtureStations.record.name}, as points (WGS84)`);
    const usual = await (await defaults.loam.get("/ogc/collections/stations")).json();
    const scan = DEFAULT_PROVIDERS.find((p) => p.role === "site_series")!;
    expect(usual.description).toStartWith(`Sensor stations of the ${scan.record.name}, as points (WGS84)`);
  });

  test("the OpenAPI document names the registry's providers by their short names, and the soil family by its providers, the default first", async () => {
    const doc = await (await loam.get("/openapi.json")).json();
    const mappedShort = DEFAULT_PROVIDERS.find((p) => p.role === "mapped_location")!.shortName;
    expect(doc.info.description).toContain(`from ${[fixtureStations, fixturePoints, ...OPERATIONAL].map((p) => p.shortName).join(", ")} (GET /v1/providers describes each)`);
    expect(doc.info.description).toContain(`- **Mapped soil survey (${fixturePoints.shortName}, ${mappedShort}): points, map units, summaries, areas**`);
    expect(doc.paths["/v1/soil/location"].get.description).toStartWith(`${fixturePoints.shortName} map units containing the point`);
    // Route examples take the default provider's example key.
    expect(doc.paths["/v1/stations/{station_triplet}"].get.description).toContain(`Example: /v1/stations/${fixtureStations.stations.key.example}`);
    expect(doc.paths["/ogc/collections/{collection_id}/items/{feature_id}"].get.description).toContain(`/ogc/collections/stations/items/${fixtureStations.stations.key.example},`);
    const usual = await (await defaults.loam.get("/openapi.json")).json();
    const mapped = DEFAULT_PROVIDERS.find((p) => p.role === "mapped_location")!;
    const lab = DEFAULT_PROVIDERS.find((p) => p.role === "lab_pedons")!;
    expect(usual.info.description).toContain(`- **Mapped soil survey (${mapped.shortName}): points, map units, summaries, areas**`);
    expect(usual.info.description).toContain(`- **Laboratory pedons (${lab.shortName}): points in a box, layers**`);
  });

  test("the stations tag and family line name the registry's site-series providers by their short names, the default first", async () => {
    const doc = await (await loam.get("/openapi.json")).json();
    const scan = DEFAULT_PROVIDERS.find((p) => p.role === "site_series")!;
    const tagOf = (d: { tags: { name: string; description: string }[] }) => d.tags.find((t) => t.name === "stations")?.description;
    expect(tagOf(doc)).toBe(`Sensor stations (${fixtureStations.shortName}, ${scan.shortName}) and their soil moisture and soil temperature time series.`);
    expect(doc.info.description).toContain(`- **Sensor stations (${fixtureStations.shortName}, ${scan.shortName}): soil moisture and temperature time series**`);
    const usual = await (await defaults.loam.get("/openapi.json")).json();
    expect(tagOf(usual)).toBe(`Sensor stations (${scan.shortName}) and their soil moisture and soil temperature time series.`);
    expect(usual.info.description).toContain(`- **Sensor stations (${scan.shortName}): soil moisture and temperature time series**`);
  });

  test("the live coverage sentence of GET /v1 is the default mapped provider's own scope", async () => {
    // The snapshot instance names its datasets; the scope sentence is the live one, checked on the function the route uses.
    const { coverageSentence } = await import("../../src/meta/index");
    expect(coverageSentence({ kind: "sda" }, fixturePoints.point.scope)).toContain(`; ${fixturePoints.point.scope.sentence}.`);
    expect(coverageSentence({ kind: "sda" }, undefined)).toEndWith("every published US soil survey area.");
  });

  test("an area report cites its polygons as the mapped provider declares, with its record's source URL", async () => {
    const mapped = DEFAULT_PROVIDERS.find((p) => p.role === "mapped_location")!;
    // A box of IA073 (the Greene County survey of datasets) that its polygons cover.
    const { status, body } = await defaults.loam.json("/v1/soil/aoi?bbox=-94.361846,41.943158,-94.358198,41.945788&properties=clay");
    expect(status).toBe(200);
    expect(body.source.provider).toBe(mapped.id);
    expect(body.source.citation).toEndWith(` ${mapped.record.source_url}`);
    expect(body.source.citation).toBe((mapped as any).mapUnitPolygons.inArea.citation);
  });

  test("an unknown map unit's 404 names the survey areas the snapshot holds (the provider's own places), not the lab collections", async () => {
    const { status, body } = await defaults.loam.json("/v1/soil/mapunits/1");
    expect(status).toBe(404);
    const symbols = readdirSync(join(DATA_DIR, "ssurgo"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).map((d) => d.slice(0, 5).toUpperCase()).sort();
    // Every survey area, in area-symbol order (as the coverage lines list them).
    const at = symbols.map((symbol) => body.error.message.indexOf(` ${symbol} `));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(body.error.message).not.toContain("lab pedons");
  });
});
