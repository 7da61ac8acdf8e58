import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config";

describe("configuration", () => {
  test("defaults are those of docs/decisions.md#config", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: "0.0.0.0",
      dbPath: "data/loam.sqlite",
      upstream: "snapshot",
      snapshotPath: null,
      dataDir: "../shared/data",
      upstreamTimeoutMs: 15000,
      cacheTtlSeconds: 604800,
      rateLimitPerMinute: 120,
      trustProxy: false,
    });
    expect(config.sdaUrl).toMatch(/^https:\/\/sdmdataaccess\..*post\.rest$/i);
    expect(config.osdUrl).toBe("https://raw.githubusercontent.com/ncss-tech/SoilKnowledgeBase/main/inst/extdata/OSD/{letter}/{name}.json");
  });

  test("OSD_URL: a URL pattern with {name} (and usually {letter})", () => {
    expect(loadConfig({ OSD_URL: "http://127.0.0.1:8080/osd/{letter}/{name}.json" }).osdUrl).toBe("http://127.0.0.1:8080/osd/{letter}/{name}.json");
    expect(loadConfig({ OSD_URL: "https://mirror.example.org/{name}.json" }).osdUrl).toBe("https://mirror.example.org/{name}.json");
  });

  const bad: [string, string][] = [
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["PORT", "-1"],
    ["RATE_LIMIT_PER_MINUTE", "-1"],
    ["RATE_LIMIT_PER_MINUTE", "0"],
    ["UPSTREAM_TIMEOUT_MS", "1.5"],
    ["CACHE_TTL_SECONDS", "week"],
    ["LOAM_UPSTREAM", "postgres"],
    ["TRUST_PROXY", "yes"],
    ["SDA_URL", "ftp://example.org"],
    ["HOST", " "],
    ["OSD_URL", "https://example.org/osd/CLARION.json"],
    ["OSD_URL", "ftp://example.org/{letter}/{name}.json"],
    ["OSD_URL", "not a url {name}"],
  ];
  for (const [name, value] of bad) {
    test(`${name}=${JSON.stringify(value)} is refused naming the variable`, () => {
      expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
      try {
        loadConfig({ [name]: value });
      } catch (error) {
        expect((error as ConfigError).variable).toBe(name);
        expect((error as Error).message.startsWith(`${name}:`)).toBe(true);
      }
    });
  }

  test("a bad value stops the process with one line naming the variable", async () => {
    for (const [name, value] of [["PORT", "abc"], ["RATE_LIMIT_PER_MINUTE", "-1"]] as const) {
      const child = Bun.spawn([process.execPath, "src/cli.ts", "serve"], { env: { ...process.env, [name]: value }, stdout: "pipe", stderr: "pipe" });
      const code = await child.exited;
      const stderr = (await new Response(child.stderr).text()).trim();
      expect(code).toBe(2);
      expect(stderr.split("\n")).toHaveLength(1);
      expect(stderr).toContain(name);
      expect(stderr).toContain(value);
    }
  });
});
