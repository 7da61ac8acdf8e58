/**
 * The served /openapi.json under two independent linters, as a client author would run them:
 * Redocly's `recommended` rules and Spectral's `spectral:oas`; 0 errors and 0 warnings. Plus the
 * document properties generators rely on (every component used, short operation ids, patterns).
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { useLoam } from "../support/server";
import { parseBbox } from "../../src/domain/bbox";
import { parsePedonKey } from "../../src/domain/pedon-key";
import { checkMapUnitKey } from "../../src/providers/usda_ssurgo/mapunit";

const { loam } = useLoam();
const BIN = resolve(import.meta.dir, "../../node_modules/.bin");
// No telemetry, no update check: the tests make no call beyond loopback.
const QUIET_ENV = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_UPDATE_NOTIFIER: "1" };

async function servedDocument(): Promise<{ dir: string; file: string; doc: any }> {
  const text = await (await loam.get("/openapi.json")).text();
  const dir = mkdtempSync(join(tmpdir(), "loam-openapi-lint-"));
  const file = join(dir, "openapi.json");
  writeFileSync(file, text);
  return { dir, file, doc: JSON.parse(text) };
}

async function run(cmd: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = Bun.spawn(cmd, { cwd, env: QUIET_ENV, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}

describe("the served OpenAPI document under linters", () => {
  test("Redocly recommended: 0 errors, 0 warnings", async () => {
    const { dir, file } = await servedDocument();
    const { stdout, stderr } = await run([join(BIN, "redocly"), "lint", "--extends=recommended", "--format=json", file], dir);
    const report = JSON.parse(stdout.slice(stdout.indexOf("{")));
    const problems = (report.problems ?? []).map((p: any) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`);
    expect({ totals: report.totals, problems }, stderr).toEqual({ totals: { errors: 0, warnings: 0, ignored: 0 }, problems: [] });
  }, 60_000);

  test("Spectral spectral:oas: no results at any severity", async () => {
    const { dir, file } = await servedDocument();
    writeFileSync(join(dir, ".spectral.yaml"), 'extends: ["spectral:oas"]\n');
    const { stdout, stderr } = await run([join(BIN, "spectral"), "lint", "--ruleset", join(dir, ".spectral.yaml"), "--format", "json", "--fail-severity", "hint", file], dir);
    const results = JSON.parse(stdout.slice(stdout.indexOf("["), stdout.lastIndexOf("]") + 1));
    expect(results.map((r: any) => `${r.severity} ${r.code}: ${r.message} at ${r.path.join(".")}`), stderr).toEqual([]);
  }, 60_000);

  test("the linters can fail: the document as the plugin made it (examples as arrays, no servers) is refused", async () => {
    const { dir, file, doc } = await servedDocument();
    delete doc.servers;
    doc.paths["/v1/soil/location"].get.parameters[0].examples = [41.9];
    writeFileSync(file, JSON.stringify(doc));
    const { stdout } = await run([join(BIN, "redocly"), "lint", "--extends=recommended", "--format=json", file], dir);
    expect(JSON.parse(stdout.slice(stdout.indexOf("{"))).totals.errors).toBeGreaterThanOrEqual(2);
  }, 60_000);
});

describe("what generated clients rely on", () => {
  test("every component is referenced, and nested models are $refs, not copies", async () => {
    const { doc } = await servedDocument();
    const text = JSON.stringify(doc);
    for (const name of Object.keys(doc.components.schemas)) expect(text).toContain(`"#/components/schemas/${name}"`);
    // Each route names the one kind of observation it answers with (docs/decisions.md#typed-observations):
    // the point query's providers are mapped surveys, so the spec's SoilObservation; the modeled route's a grid cell's.
    expect(doc.components.schemas.LocationResponse.properties.observations.items).toEqual({ $ref: "#/components/schemas/SoilObservation" });
    expect(doc.components.schemas.ModeledResponse.properties.observations.items).toEqual({ $ref: "#/components/schemas/GridObservation" });
    // The evidence route's survey and model entries carry those routes' observations, so they name the same kinds.
    expect(doc.components.schemas.SurveyEvidence.properties.observations.items).toEqual({ $ref: "#/components/schemas/SoilObservation" });
    expect(doc.components.schemas.ModelEvidence.properties.observations.items).toEqual({ $ref: "#/components/schemas/GridObservation" });
    expect(doc.components.schemas.SoilObservation.required).toContain("survey_context");
    expect(doc.components.schemas.GridObservation.required).toContain("grid_context");
    expect(doc.components.schemas.PedonResponse.properties.layers.items).toEqual({ $ref: "#/components/schemas/LabLayer" });
  });

  test("each operation has its short id from the table; HEAD and 405 are documented", async () => {
    const { doc } = await servedDocument();
    const ids: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        // Each route declares its own short id (detail.operationId), never the plugin's long form.
        expect(operation.operationId).toMatch(/^(get|list)[A-Z][A-Za-z]+$/);
        expect(operation.operationId).not.toMatch(/By[A-Z]|^getV1/);
        ids.push(operation.operationId);
        expect(operation.description).toContain("Also answers HEAD");
        expect(operation.responses["405"].headers.Allow).toBeDefined();
      }
    }
    expect(ids).toEqual(
      expect.arrayContaining([
        "getHealth", "getApiMetadata", "listProviders", "listProperties", "getSoilLocation", "getSoilSummary", "listMapUnits", "getMapUnit",
        "getRawLocation", "listPedons", "getPedon", "getRawPedon", "getSeries", "getMetrics",
      ]),
    );
    expect(doc.paths["/v1/pedons/{pedon_key}"].get.operationId).toBe("getPedon");
    expect(doc.paths["/v1/soil/mapunits"].get.operationId).toBe("listMapUnits");
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths["/metrics"].get.responses["200"].content["text/plain"]).toBeDefined();
    expect(doc.security).toEqual([]);
    expect(doc.servers[0].url).toBe("/");
    expect(doc.info.license.url).toMatch(/^https:\/\//);
    // HEAD really answers as documented.
    const head = await loam.get("/v1/pedons/02N0245", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  test("the bbox, pedon_key and map_unit_key patterns the routes declare agree with the route parsers", async () => {
    const { doc } = await servedDocument();
    const pattern = (path: string, name: string): string => doc.paths[path].get.parameters.find((p: any) => p.name === name).schema.pattern;
    // Both bbox routes declare the one pattern.
    expect(pattern("/v1/soil/mapunits", "bbox")).toBe(pattern("/v1/pedons", "bbox"));
    expect(pattern("/v1/providers/{provider_id}/raw/pedons/{pedon_key}", "pedon_key")).toBe(pattern("/v1/pedons/{pedon_key}", "pedon_key"));
    const bbox = new RegExp(pattern("/v1/pedons", "bbox"));
    for (const ok of ["-96.5,38.5,-95,39.5", " -96.5 , 38.5,-95 ,39.5 ", "1e1,2,3.,.5"]) {
      expect(bbox.test(ok)).toBe(true);
    }
    for (const bad of ["-96.5,38.5,-95", "a,b,c,d", "-96.5,38.5,-95,39.5,1", "1,,2,3", "0x10,1,2,3"]) {
      expect(bbox.test(bad)).toBe(false);
      expect(() => parseBbox(bad)).toThrow();
    }
    const key = new RegExp(pattern("/v1/pedons/{pedon_key}", "pedon_key"));
    for (const raw of ["02N0245", "02n0245", "1", "2147483647", "99999999999", "abc", "02N024", "0", "02N0245x"]) {
      if (parsePedonKey(raw) !== null) expect(key.test(raw)).toBe(true);
      if (!key.test(raw)) expect(parsePedonKey(raw)).toBeNull();
    }
    expect(key.test("abc")).toBe(false);
    // map_unit_key: whatever the pattern refuses, the route refuses too (it also caps the value at an SQL int).
    const mukey = new RegExp(pattern("/v1/soil/mapunits/{map_unit_key}", "map_unit_key"));
    for (const raw of ["2765528", "465586", "0", "0123", "12a", "99999999999", "3000000000", "-5", ""]) {
      const accepted = (() => {
        try {
          checkMapUnitKey(raw);
          return true;
        } catch {
          return false;
        }
      })();
      if (accepted) expect(mukey.test(raw)).toBe(true);
      if (!mukey.test(raw)) expect(accepted).toBe(false);
    }
  });
});
