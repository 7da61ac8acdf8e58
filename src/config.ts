/**
 * Configuration from the environment (docs/decisions.md#config), validated once at start. A bad value stops the
 * process with one line naming the variable; nothing else in Loam reads `process.env`.
 */
import { DEFAULT_OSD_URL, osdUrlProblem } from "./providers/usda_osd/live";

export interface Config {
  port: number;
  host: string;
  /** SQLite file for the cache and the rate counters. */
  dbPath: string;
  upstream: "snapshot" | "sda";
  /** The built snapshot database; null means the default location (or the embedded copy). */
  snapshotPath: string | null;
  /** Source exports the snapshot is built from. */
  dataDir: string;
  sdaUrl: string;
  /** Live series descriptions: a URL pattern with `{letter}` and `{name}` (LOAM_UPSTREAM=sda). */
  osdUrl: string;
  upstreamTimeoutMs: number;
  cacheTtlSeconds: number;
  rateLimitPerMinute: number;
  trustProxy: boolean;
  logLevel: "silent" | "error" | "info" | "debug";
}

export const DEFAULT_SDA_URL = "https://sdmdataaccess.sc.egov.usda.gov/Tabular/post.rest";

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^[0-9]+$/.test(raw.trim())) throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got '${raw}'`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got '${raw}'`);
  return value;
}

function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(name, `expected one of ${allowed.join(", ")}, got '${raw}'`);
  return raw as T;
}

function text(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined) return fallback;
  if (raw.trim() === "") throw new ConfigError(name, "must not be empty");
  return raw;
}

function url(env: Env, name: string, fallback: string): string {
  const raw = text(env, name, fallback);
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `expected an http(s) URL, got '${raw}'`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new ConfigError(name, `expected an http(s) URL, got '${raw}'`);
  return raw;
}

function urlPattern(env: Env, name: string, fallback: string, problem: (pattern: string) => string | null): string {
  const raw = text(env, name, fallback);
  const why = problem(raw);
  if (why !== null) throw new ConfigError(name, why);
  return raw;
}

export function loadConfig(env: Env = process.env): Config {
  const snapshot = env.LOAM_SNAPSHOT;
  return {
    port: integer(env, "PORT", 3000, 0, 65535),
    host: text(env, "HOST", "0.0.0.0"),
    dbPath: text(env, "LOAM_DB", "data/loam.sqlite"),
    upstream: oneOf(env, "LOAM_UPSTREAM", "snapshot", ["snapshot", "sda"] as const),
    snapshotPath: snapshot === undefined || snapshot === "" ? null : snapshot,
    dataDir: text(env, "LOAM_DATA_DIR", "../shared/data"),
    sdaUrl: url(env, "SDA_URL", DEFAULT_SDA_URL),
    osdUrl: urlPattern(env, "OSD_URL", DEFAULT_OSD_URL, osdUrlProblem),
    upstreamTimeoutMs: integer(env, "UPSTREAM_TIMEOUT_MS", 15000, 100, 600_000),
    cacheTtlSeconds: integer(env, "CACHE_TTL_SECONDS", 604800, 0, 31_536_000),
    rateLimitPerMinute: integer(env, "RATE_LIMIT_PER_MINUTE", 120, 1, 1_000_000),
    trustProxy: oneOf(env, "TRUST_PROXY", "0", ["0", "1"] as const) === "1",
    logLevel: oneOf(env, "LOG_LEVEL", "info", ["silent", "error", "info", "debug"] as const),
  };
}
