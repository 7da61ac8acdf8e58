/**
 * Every curl example of the README and the guides in docs/ runs against a Loam on the snapshot, as a
 * reader would paste it: a GET that answers 200 with the representation the example asks for and a body
 * that parses. The examples that state a value are checked by value in the tests of their feature; this
 * test keeps every line of the guides true to the routes, parameters and formats.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { useLoam } from "../support/server";

const ROOT = resolve(import.meta.dir, "../..");
/** The documents a user reads (architecture and decisions are for developers and quote no runnable example). */
const GUIDES = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md") && !["architecture.md", "decisions.md"].includes(f)).map((f) => `docs/${f}`)];

interface Example {
  where: string;
  line: string;
  path: string;
}

/** A shell line's words, with '...' quoting (all the guides use). */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|([^\s'`]+)/g)].map((m) => m[1] ?? m[2]!);
}

/** The request of one curl line: its URL plus, with -G, its -d / --data-urlencode parameters. */
function requestOf(line: string): string | null {
  const args = words(line.slice(line.indexOf("curl")));
  const url = args.find((a) => a.startsWith("http://localhost:3000"));
  if (!url) return null;
  const target = new URL(url.replace(/[,.;]+$/, ""));
  if (args.includes("-G")) {
    args.forEach((arg, i) => {
      if (arg !== "-d" && arg !== "--data-urlencode") return;
      const pair = args[i + 1] ?? "";
      target.searchParams.append(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    });
  }
  return target.pathname + target.search;
}

function examples(): Example[] {
  const found: Example[] = [];
  for (const where of GUIDES) {
    for (const line of readFileSync(join(ROOT, where), "utf8").split("\n")) {
      const trimmed = line.trim().replace(/^`|`$/g, "");
      if (!/\bcurl\b/.test(trimmed) || !trimmed.includes("http://localhost:3000")) continue;
      // A conditional request needs a tag from an earlier answer; metrics may need a token.
      if (/If-None-Match|Authorization|METRICS_TOKEN/.test(trimmed)) continue;
      const path = requestOf(trimmed);
      if (path) found.push({ where, line: trimmed, path });
    }
  }
  return found;
}

const { loam } = useLoam();
const ALL = examples();

describe("the guides' curl examples", () => {
  test("the guides hold examples for every family of routes", () => {
    const paths = ALL.map((e) => e.path);
    for (const family of ["/v1/soil/location", "/v1/soil/aoi", "/v1/pedons", "/v1/geochem/sites", "/v1/series/", "/ogc/"]) {
      expect(paths.some((p) => p.startsWith(family)), family).toBe(true);
    }
  });

  for (const example of ALL) {
    test(`${example.where}: ${example.path.slice(0, 120)}`, async () => {
      const response = await loam.get(example.path);
      const text = await response.text();
      expect(response.status, text.slice(0, 300)).toBe(200);
      const format = new URLSearchParams(example.path.split("?")[1] ?? "").get("format") ?? "json";
      const type = response.headers.get("content-type") ?? "";
      if (format === "csv") {
        expect(type).toContain("text/csv");
        expect(text.split("\n").length).toBeGreaterThan(1);
      } else if (example.path === "/metrics") {
        expect(type).toContain("text/plain");
      } else {
        expect(type).toMatch(/application\/(geo\+)?json/);
        expect(() => JSON.parse(text)).not.toThrow();
      }
    });
  }
});
