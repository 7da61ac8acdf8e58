import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { CONFIG_VARIABLES, ConfigError, loadConfig, settingOf, type SettingDeclaration } from "../../src/config";
import { providerSettings } from "../../src/providers/registry";
import { OSD_URL_SETTING } from "../../src/providers/usda_osd/url";
import { GEOCHEM_URL_SETTING } from "../../src/providers/usgs_geochem/catalog";
import { freePort, pollUntil } from "../support/spawn";
import { tempDbPath, testSnapshot } from "../support/server";

describe("configuration", () => {
  test("defaults are those of docs/decisions.md#config", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: "0.0.0.0",
      dbPath: "data/loam.sqlite",
      upstream: "snapshot",
      snapshotPath: null,
      dataDir: "datasets",
      upstreamTimeoutMs: 15000,
      cacheTtlSeconds: 604800,
      rateLimitPerMinute: 120,
      trustProxy: false,
    });
    expect(config.sdaUrl).toMatch(/^https:\/\/sdmdataaccess\..*post\.rest$/i);
  });

  test("the providers' own variables default to their sources' addresses (OSD_URL, GEOCHEM_URL)", () => {
    const config = loadConfig({}, 2, providerSettings());
    expect(config.settings.OSD_URL).toBe("https://raw.githubusercontent.com/ncss-tech/SoilKnowledgeBase/main/inst/extdata/OSD/{letter}/{name}.json");
    expect(config.settings.GEOCHEM_URL).toBe("https://pubs.usgs.gov/ds/801/downloads/Appendix_2b_Top5_18Sept2013.txt");
  });

  test("OSD_URL: a URL pattern with {name} (and usually {letter})", () => {
    const osd = (value: string) => settingOf(loadConfig({ OSD_URL: value }, 2, providerSettings()), OSD_URL_SETTING);
    expect(osd("http://127.0.0.1:8080/osd/{letter}/{name}.json")).toBe("http://127.0.0.1:8080/osd/{letter}/{name}.json");
    expect(osd("https://mirror.example.org/{name}.json")).toBe("https://mirror.example.org/{name}.json");
    expect(() => osd("https://example.org/osd/CLARION.json")).toThrow("OSD_URL: must contain {name} (and usually {letter}), e.g. https://raw.githubusercontent.com/");
    expect(() => osd("ftp://example.org/{letter}/{name}.json")).toThrow("OSD_URL: expected an http(s) URL pattern, got 'ftp://example.org/{letter}/{name}.json'");
  });

  test("GEOCHEM_URL: an http(s) URL", () => {
    const geochem = (value: string) => settingOf(loadConfig({ GEOCHEM_URL: value }, 2, providerSettings()), GEOCHEM_URL_SETTING);
    expect(geochem("http://127.0.0.1:8080/ds801.txt")).toBe("http://127.0.0.1:8080/ds801.txt");
    expect(() => geochem("ftp://example.org/ds801.txt")).toThrow("GEOCHEM_URL: expected an http(s) URL, got 'ftp://example.org/ds801.txt'");
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
    ["LOAM_WORKERS", "0"],
    ["LOAM_WORKERS", "many"],
    ["LOAM_WORKERS", "65"],
    ["REDIS_URL", "http://127.0.0.1:6379"],
    ["REDIS_URL", "redis://127.0.0.1:6379/cache"],
    ["REDIS_URL", "localhost:6379"],
    ["REDIS_TIMEOUT_MS", "5"],
    ["OSD_URL", "https://example.org/osd/CLARION.json"],
    ["OSD_URL", "ftp://example.org/{letter}/{name}.json"],
    ["OSD_URL", "not a url {name}"],
    ["GEOCHEM_URL", "ftp://example.org/ds801.txt"],
    ["GEOCHEM_URL", "not a url"],
  ];
  for (const [name, value] of bad) {
    test(`${name}=${JSON.stringify(value)} is refused naming the variable`, () => {
      // The providers' declarations are read as the command line reads them (src/cli.ts).
      expect(() => loadConfig({ [name]: value }, 2, providerSettings())).toThrow(ConfigError);
      try {
        loadConfig({ [name]: value }, 2, providerSettings());
      } catch (error) {
        expect((error as ConfigError).variable).toBe(name);
        expect((error as Error).message.startsWith(`${name}:`)).toBe(true);
      }
    });
  }

  test("LOAM_WORKERS: 1 by default, a number, or auto (the machine's cores); several need a fixed PORT", () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ LOAM_WORKERS: "3" }).workers).toBe(3);
    expect(loadConfig({ LOAM_WORKERS: "auto" }, 6).workers).toBe(6);
    expect(() => loadConfig({ LOAM_WORKERS: "2", PORT: "0" })).toThrow(/LOAM_WORKERS: several workers need a fixed PORT/);
  });

  test("REDIS_URL: unset keeps SQLite; a redis URL is taken; a refused one never echoes its password", () => {
    expect(loadConfig({}).redisUrl).toBeNull();
    expect(loadConfig({ REDIS_URL: "redis://:secret@10.0.0.5:6379/2" }).redisUrl).toBe("redis://:secret@10.0.0.5:6379/2");
    expect(loadConfig({}).redisTimeoutMs).toBe(250);
    expect(() => loadConfig({ REDIS_URL: "https://user:hunter2@example.org/" })).toThrow(ConfigError);
    try {
      loadConfig({ REDIS_URL: "https://user:hunter2@example.org/" });
    } catch (error) {
      expect((error as Error).message).not.toContain("hunter2");
    }
  });

  test("a bad value stops the process with one line naming the variable", async () => {
    for (const [name, value] of [["PORT", "abc"], ["RATE_LIMIT_PER_MINUTE", "-1"], ["GEOCHEM_URL", "ftp://example.org/ds801.txt"]] as const) {
      const child = Bun.spawn([process.execPath, "src/cli.ts", "serve"], { env: { ...process.env, [name]: value }, stdout: "pipe", stderr: "pipe" });
      const code = await child.exited;
      const stderr = (await new Response(child.stderr).text()).trim();
      expect(code).toBe(2);
      expect(stderr.split("\n")).toHaveLength(1);
      expect(stderr).toContain(name);
      expect(stderr).toContain(value);
    }
  });

  test("--help lists every variable the config reader reads, and each provider's own, with its default", () => {
    const source = readFileSync("src/config.ts", "utf8");
    const read = new Set([...source.matchAll(/env(?:\.|, ")([A-Z][A-Z_]+)/g)].map((m) => m[1]!));
    const listed = CONFIG_VARIABLES.map((v) => v.name);
    expect([...read].filter((name) => !listed.includes(name))).toEqual([]);
    // The defaults --help states are the ones the reader applies (two places: the check keeps them one).
    const applied = loadConfig({}, 2);
    const field: Record<string, unknown> = {
      PORT: applied.port, HOST: applied.host, LOAM_UPSTREAM: applied.upstream, LOAM_DATA_DIR: applied.dataDir, LOAM_DB: applied.dbPath,
      SDA_URL: applied.sdaUrl, UPSTREAM_TIMEOUT_MS: applied.upstreamTimeoutMs,
      CACHE_TTL_SECONDS: applied.cacheTtlSeconds, CACHE_MAX_BYTES: applied.cacheMaxBytes, LOAM_CSV_MAX_ROWS: applied.csvMaxRows,
      RATE_LIMIT_PER_MINUTE: applied.rateLimitPerMinute, TRUST_PROXY: applied.trustProxy ? "1" : "0", LOG_LEVEL: applied.logLevel,
      LOAM_WORKERS: applied.workers, REDIS_TIMEOUT_MS: applied.redisTimeoutMs,
    };
    for (const variable of CONFIG_VARIABLES) if (variable.name in field) expect([variable.name, variable.default]).toEqual([variable.name, String(field[variable.name])]);
    const providers = loadConfig({}, 2, providerSettings());
    for (const declared of providerSettings()) expect([declared.name, declared.default]).toEqual([declared.name, providers.settings[declared.name]!]);
    const help = Bun.spawnSync([process.execPath, "src/cli.ts", "--help"], { env: { ...process.env } }).stdout.toString();
    for (const variable of [...CONFIG_VARIABLES, ...providerSettings().map((s) => ({ name: s.name, default: String(s.default) }))]) {
      const line = help.split("\n").find((l) => l.trimStart().startsWith(`${variable.name} `));
      expect(line, variable.name).toBeDefined();
      expect(line!).toContain(`[${variable.default}]`);
    }
  });

  test("a provider's declared variable is read and checked by the one config reader", () => {
    const declarations: SettingDeclaration[] = [
      { name: "FIXTURE_URL", kind: "url", default: "https://example.org/q", help: "a fixture source" },
      { name: "FIXTURE_PER_MINUTE", kind: "integer", default: 5, min: 1, max: 60, help: "a budget" },
    ];
    const defaults = loadConfig({}, 2, declarations);
    expect(settingOf(defaults, declarations[0]!)).toBe("https://example.org/q");
    expect(settingOf(defaults, declarations[1]!)).toBe(5);
    const set = loadConfig({ FIXTURE_URL: "http://127.0.0.1:9/x", FIXTURE_PER_MINUTE: "7" }, 2, declarations);
    expect(settingOf(set, declarations[0]!)).toBe("http://127.0.0.1:9/x");
    expect(settingOf(set, declarations[1]!)).toBe(7);
    expect(() => loadConfig({ FIXTURE_PER_MINUTE: "61" }, 2, declarations)).toThrow(/FIXTURE_PER_MINUTE: expected a whole number from 1 to 60/);
    expect(() => loadConfig({ FIXTURE_URL: "ftp://x" }, 2, declarations)).toThrow(ConfigError);
  });

  test("a declared URL pattern is checked by its own check, and a refusal never echoes the value's credentials", () => {
    const pattern: SettingDeclaration = {
      name: "FIXTURE_PATTERN",
      kind: "url-pattern",
      default: "https://example.org/{id}.json",
      check: (value) => (value.includes("{id}") ? null : `must contain {id}, got '${value}'`),
      help: "a fixture pattern",
    };
    expect(settingOf(loadConfig({}, 2, [pattern]), pattern)).toBe("https://example.org/{id}.json");
    expect(settingOf(loadConfig({ FIXTURE_PATTERN: "http://127.0.0.1:9/{id}" }, 2, [pattern]), pattern)).toBe("http://127.0.0.1:9/{id}");
    expect(() => loadConfig({ FIXTURE_PATTERN: "https://user:hunter2@example.org/x?token=t0k3n" }, 2, [pattern])).toThrow(
      "FIXTURE_PATTERN: must contain {id}, got 'https://example.org/x'",
    );
    expect(() => loadConfig({ FIXTURE_PATTERN: " " }, 2, [pattern])).toThrow("FIXTURE_PATTERN: must not be empty");
  });
});

describe("serve --port", () => {
  test("is honoured as PORT (checked by the same reader), and any other argument is refused, never ignored", async () => {
    const port = freePort();
    const env = { ...process.env, PORT: "1", HOST: "127.0.0.1", LOAM_DB: tempDbPath(), LOAM_SNAPSHOT: await testSnapshot(), LOG_LEVEL: "error" };
    const child = Bun.spawn([process.execPath, "src/cli.ts", "serve", `--port=${port}`], { env, stdout: "ignore", stderr: "ignore" });
    try {
      const health = await pollUntil("loam on --port", async () => {
        const answer = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
        return answer?.status === 200 ? answer.json() : undefined;
      });
      expect(health).toMatchObject({ status: "healthy" });
    } finally {
      child.kill();
      await child.exited;
    }
    for (const [args, says] of [[["--prot", "3001"], "'--prot'"], [["--port", "abc"], "PORT"], [["--port"], "--port needs a port number"]] as const) {
      const refused = Bun.spawn([process.execPath, "src/cli.ts", "serve", ...args], { env, stdout: "pipe", stderr: "pipe" });
      expect(await refused.exited).toBe(2);
      expect(await new Response(refused.stderr).text()).toContain(says);
    }
  }, 90_000);
});
