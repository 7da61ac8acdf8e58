/**
 * Configuration from the environment (docs/decisions.md#config), validated once at start. A bad value stops the
 * process with one line naming the variable; nothing else in Loam reads `process.env`.
 */
import { publicUrl } from "./upstream/public-url";


/**
 * How long a connection may stay silent (used by http/idle-timeout.ts). Bun closes a connection that
 * sends and receives nothing for `idleTimeout` seconds, also while its request is still being
 * answered; the idle timeout covers UPSTREAM_TIMEOUT_MS plus a margin and Bun accepts at most 255 s,
 * which bounds UPSTREAM_TIMEOUT_MS. Kept here so configuration depends on nothing above it.
 */
export const MAX_IDLE_TIMEOUT_SECONDS = 255;
export const IDLE_MARGIN_SECONDS = 10;
export const MAX_UPSTREAM_TIMEOUT_MS = (MAX_IDLE_TIMEOUT_SECONDS - IDLE_MARGIN_SECONDS) * 1000;

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
  upstreamTimeoutMs: number;
  cacheTtlSeconds: number;
  /** Most rows of one CSV answer: past it a 422 (docs/decisions.md#csv-whole). */
  csvMaxRows: number;
  /** Bytes of upstream answers LOAM_DB keeps at most; the oldest entries are evicted first. */
  cacheMaxBytes: number;
  rateLimitPerMinute: number;
  trustProxy: boolean;
  logLevel: "silent" | "error" | "info" | "debug";
  /** Server processes on one port (LOAM_WORKERS; `auto` = the machine's cores); 1 runs no supervisor. */
  workers: number;
  /** Redis for the rate counters, the cache and the single-flight lock, shared by instances; null keeps SQLite. */
  redisUrl: string | null;
  /** Every Redis command answers within this or counts as a failure (and the request goes on without it). */
  redisTimeoutMs: number;
  /** When set, GET /metrics answers only requests bearing it (`Authorization: Bearer <token>`); null leaves it open. */
  metricsToken: string | null;
  /**
   * The providers' own variables (e.g. a <PROVIDER>_URL), by name, as checked against their declarations
   * (docs/architecture.md#providers); read with `settingOf`. A variable not declared to `loadConfig` is absent.
   */
  settings: Readonly<Record<string, string | number>>;
}

/**
 * A configuration variable a provider declares of itself (docs/architecture.md#providers): the one config
 * reader checks it at start and `loam --help` lists it with its default.
 */
export type SettingDeclaration =
  | { readonly name: string; readonly kind: "url"; readonly default: string; readonly help: string }
  /** A URL with placeholders (`{name}`): `check` says why a value cannot serve, or null; its words are the error's. */
  | { readonly name: string; readonly kind: "url-pattern"; readonly default: string; readonly check: (pattern: string) => string | null; readonly help: string }
  | { readonly name: string; readonly kind: "integer"; readonly default: number; readonly min: number; readonly max: number; readonly help: string };

/** What a declared setting holds: any string or any number, not just its (literal) default. */
type SettingValue<D extends SettingDeclaration> = D["default"] extends string ? string : D["default"] extends number ? number : string | number;

/** The value of a declared setting: as configured, else its default. */
export function settingOf<D extends SettingDeclaration>(config: Config, declaration: D): SettingValue<D> {
  const value = config.settings?.[declaration.name];
  return (value ?? declaration.default) as SettingValue<D>;
}

/** Read and check one declared setting from the environment. */
function declared(env: Env, declaration: SettingDeclaration): string | number {
  switch (declaration.kind) {
    case "url":
      return url(env, declaration.name, declaration.default);
    case "url-pattern":
      return urlPattern(env, declaration.name, declaration.default, declaration.check);
    case "integer":
      return integer(env, declaration.name, declaration.default, declaration.min, declaration.max);
  }
}

/** The most LOAM_WORKERS accepts: beyond a few per core they only compete for the same CPU. */
export const MAX_WORKERS = 64;

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
    throw new ConfigError(name, `expected an http(s) URL, got '${publicUrl(raw)}'`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new ConfigError(name, `expected an http(s) URL, got '${publicUrl(raw)}'`);
  return raw;
}

function workers(env: Env, cores: number): number {
  const raw = env.LOAM_WORKERS;
  if (raw === undefined || raw === "") return 1;
  if (raw.trim() === "auto") return Math.max(1, Math.min(MAX_WORKERS, cores));
  if (!/^[0-9]+$/.test(raw.trim()) || Number(raw) < 1 || Number(raw) > MAX_WORKERS) {
    throw new ConfigError("LOAM_WORKERS", `expected a whole number from 1 to ${MAX_WORKERS} or 'auto', got '${raw}'`);
  }
  return Number(raw.trim());
}

/** The URL may carry a password: errors name its shape, never echo it. */
function redisUrl(env: Env): string | null {
  const raw = env.REDIS_URL;
  if (raw === undefined || raw === "") return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError("REDIS_URL", "expected redis://[user:password@]host:port[/db], got something that is not a URL");
  }
  if (!["redis:", "rediss:", "valkey:", "valkeys:"].includes(parsed.protocol) || parsed.hostname === "") {
    throw new ConfigError("REDIS_URL", `expected redis://[user:password@]host:port[/db] (or rediss://), got a '${parsed.protocol}' URL${parsed.hostname ? "" : " without a host"}`);
  }
  if (parsed.pathname !== "" && parsed.pathname !== "/" && !/^\/[0-9]{1,2}$/.test(parsed.pathname)) {
    throw new ConfigError("REDIS_URL", `the path names a database number (/0 to /99), got '${parsed.pathname}'`);
  }
  return raw;
}

/** A bearer token: 16 to 256 visible ASCII characters (RFC 6750's token68 and more), never echoed. */
function metricsToken(env: Env): string | null {
  const raw = env.METRICS_TOKEN;
  if (raw === undefined || raw === "") return null;
  if (!/^[\x21-\x7e]{16,256}$/.test(raw)) throw new ConfigError("METRICS_TOKEN", "expected 16 to 256 visible ASCII characters (no spaces)");
  return raw;
}

/** The idle timeout must outlast it, and Bun's is at most 255 s (MAX_IDLE_TIMEOUT_SECONDS above). */
function upstreamTimeout(env: Env): number {
  const raw = env.UPSTREAM_TIMEOUT_MS?.trim();
  if (raw && /^[0-9]+$/.test(raw) && Number(raw) > MAX_UPSTREAM_TIMEOUT_MS) {
    throw new ConfigError("UPSTREAM_TIMEOUT_MS", `at most ${MAX_UPSTREAM_TIMEOUT_MS} (connections are closed after ${MAX_IDLE_TIMEOUT_SECONDS} s without traffic, which must outlast the upstream timeout), got '${env.UPSTREAM_TIMEOUT_MS}'`);
  }
  return integer(env, "UPSTREAM_TIMEOUT_MS", 15000, 100, MAX_UPSTREAM_TIMEOUT_MS);
}

function urlPattern(env: Env, name: string, fallback: string, problem: (pattern: string) => string | null): string {
  const raw = text(env, name, fallback);
  const why = problem(raw);
  // The message may quote the value: never its credentials (docs/decisions.md#url-secrets).
  if (why !== null) throw new ConfigError(name, why.replaceAll(raw, publicUrl(raw)));
  return raw;
}

/**
 * Loam's own variables with their defaults, as `loam --help` lists them (the providers' own follow,
 * from their declarations). test/foundation/config.test.ts checks that every variable `loadConfig` reads is here.
 */
export const CONFIG_VARIABLES: readonly { name: string; default: string; help: string }[] = [
  { name: "PORT", default: "3000", help: "port to listen on (0: any free port)" },
  { name: "HOST", default: "0.0.0.0", help: "address to listen on" },
  { name: "LOAM_UPSTREAM", default: "snapshot", help: "snapshot (offline, embedded data) or sda (live: USDA Soil Data Access and the sources' URLs)" },
  { name: "LOAM_SNAPSHOT", default: "data/snapshot.sqlite, else the embedded copy", help: "the snapshot database to serve; several (a national mirror): a directory of *.sqlite files, or files separated by commas" },
  { name: "LOAM_DATA_DIR", default: "datasets", help: "source exports the snapshot is built from" },
  { name: "LOAM_DB", default: "data/loam.sqlite", help: "SQLite file for the cache and the rate counters" },
  { name: "SDA_URL", default: DEFAULT_SDA_URL, help: "Soil Data Access (live mode)" },
  { name: "UPSTREAM_TIMEOUT_MS", default: "15000", help: `each upstream call answers within this (100 to ${MAX_UPSTREAM_TIMEOUT_MS})` },
  { name: "CACHE_TTL_SECONDS", default: "604800", help: "how long upstream answers stay fresh (0: keep nothing)" },
  { name: "CACHE_MAX_BYTES", default: "268435456", help: "bytes of upstream answers LOAM_DB keeps at most" },
  { name: "LOAM_CSV_MAX_ROWS", default: "50000", help: "rows a format=csv answer holds at most (past it a 422 says how to narrow the query)" },
  { name: "RATE_LIMIT_PER_MINUTE", default: "120", help: "requests per client address per minute" },
  { name: "TRUST_PROXY", default: "0", help: "1: rate-limit on the first X-Forwarded-For address (only behind a trusted proxy)" },
  { name: "LOG_LEVEL", default: "info", help: "access log: info (a line per request), error (5xx only), silent; debug logs as info" },
  { name: "LOAM_WORKERS", default: "1", help: `server processes on one port, 1 to ${MAX_WORKERS} or auto (one per core)` },
  { name: "REDIS_URL", default: "unset (SQLite)", help: "redis://[user:password@]host:port[/db]: cache, counters and locks shared by instances" },
  { name: "REDIS_TIMEOUT_MS", default: "250", help: "each Redis command answers within this or is skipped" },
  { name: "METRICS_TOKEN", default: "unset (open)", help: "GET /metrics answers only 'Authorization: Bearer <token>'" },
];

/**
 * The configuration of this environment: Loam's own variables, then every variable a provider declares
 * (`declarations`, from the registry: `providerSettings` in src/providers/registry.ts).
 */
export function loadConfig(env: Env = process.env, cores: number = navigator.hardwareConcurrency, declarations: readonly SettingDeclaration[] = []): Config {
  const snapshot = env.LOAM_SNAPSHOT;
  const config: Config = {
    port: integer(env, "PORT", 3000, 0, 65535),
    host: text(env, "HOST", "0.0.0.0"),
    dbPath: text(env, "LOAM_DB", "data/loam.sqlite"),
    upstream: oneOf(env, "LOAM_UPSTREAM", "snapshot", ["snapshot", "sda"] as const),
    snapshotPath: snapshot === undefined || snapshot === "" ? null : snapshot,
    dataDir: text(env, "LOAM_DATA_DIR", "datasets"),
    sdaUrl: url(env, "SDA_URL", DEFAULT_SDA_URL),
    upstreamTimeoutMs: upstreamTimeout(env),
    cacheTtlSeconds: integer(env, "CACHE_TTL_SECONDS", 604800, 0, 31_536_000),
    csvMaxRows: integer(env, "LOAM_CSV_MAX_ROWS", 50_000, 1, 1_000_000),
    cacheMaxBytes: integer(env, "CACHE_MAX_BYTES", 268_435_456, 1_048_576, 1_099_511_627_776),
    rateLimitPerMinute: integer(env, "RATE_LIMIT_PER_MINUTE", 120, 1, 1_000_000),
    trustProxy: oneOf(env, "TRUST_PROXY", "0", ["0", "1"] as const) === "1",
    logLevel: oneOf(env, "LOG_LEVEL", "info", ["silent", "error", "info", "debug"] as const),
    workers: workers(env, cores),
    redisUrl: redisUrl(env),
    redisTimeoutMs: integer(env, "REDIS_TIMEOUT_MS", 250, 10, 60_000),
    metricsToken: metricsToken(env),
    settings: Object.fromEntries(declarations.map((d) => [d.name, declared(env, d)])),
  };
  // Workers share one port: with PORT=0 each would be given a different one.
  if (config.workers > 1 && config.port === 0) throw new ConfigError("LOAM_WORKERS", "several workers need a fixed PORT, not 0");
  return config;
}
