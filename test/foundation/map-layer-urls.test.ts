/**
 * The map page writes no layer's URL (docs/decisions.md#map-layers): every path GET /v1/layers can give
 * a layer (each kind's endpoint and detail endpoint in LAYER_KINDS) is read from the layer's entry, never
 * written in the page's code, so a provider other than its role's default, whose entry asks
 * `?provider=<id>`, draws and opens its own data. Comments may name the routes (Bun's transpiler drops them).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { LAYER_KINDS } from "../../src/meta/layers";

const PAGE = resolve(import.meta.dir, "../../public/map/js");
const JS = new Bun.Transpiler({ loader: "js" });

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".js") ? [join(dir, e.name)] : []));
}

/** A declared path up to its first parameter: "/v1/stations/{station_triplet}" → "/v1/stations/". */
const fixedPart = (path: string) => path.split("{")[0]!;
const LAYER_PATHS = [...new Set(Object.values(LAYER_KINDS).flatMap((kind) => [kind.endpoint, ...(kind.detail === null ? [] : [kind.detail])].map(fixedPart)))];

describe("the map page's layer URLs", () => {
  test("no page module writes a path of a layer's endpoint or detail endpoint: each is the layer entry's", () => {
    expect(LAYER_PATHS).toContain("/v1/stations");
    const modules = files(PAGE);
    expect(modules.length).toBeGreaterThan(30);
    const written = modules.flatMap((file) => {
      const code = JS.transformSync(readFileSync(file, "utf8"));
      return LAYER_PATHS.filter((path) => code.includes(path)).map((path) => `${relative(PAGE, file)}: ${path}`);
    });
    expect(written).toEqual([]);
  });
});
