/**
 * Loam's one Redis connection (REDIS_URL), through Bun's built-in client. Redis is shared state for
 * several instances, never a dependency of an answer: every command is bounded by REDIS_TIMEOUT_MS,
 * and a failure (error, timeout, connection lost) marks Redis down. While it is down no command is
 * sent at all: callers get `RedisUnavailable` at once and carry on without it (rate limits fail open,
 * the cache answers uncached), so a dead or frozen Redis costs each request nothing, not a timeout.
 * A probe reconnects in the background with back-off; the outage is logged once when it starts and
 * once when it ends, and counted for /metrics.
 */
import { RedisClient } from "bun";

export class RedisUnavailable extends Error {
  constructor(readonly reason: string) {
    super(`redis unavailable: ${reason}`);
    this.name = "RedisUnavailable";
  }
}

export interface RedisStats {
  /** 1 while commands are being sent, 0 during an outage. */
  up: boolean;
  /** Commands that failed, timed out, or were not sent because Redis was down. */
  failures: number;
  /** Outages since start (transitions from up to down, the first failed connection included). */
  outages: number;
}

export interface RedisOptions {
  url: string;
  /** Bound on every command (and on a reconnect attempt's PING). */
  timeoutMs: number;
  log?: (line: Record<string, unknown>) => void;
  /** Delay between reconnect attempts: from `probeMinMs`, doubling up to `probeMaxMs`. */
  probeMinMs?: number;
  probeMaxMs?: number;
}

/** The URL without its password, for logs. */
function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "redis";
  }
}

/**
 * `promise`, or RedisUnavailable after `ms`. A timer that fires much later than asked means Loam's own
 * event loop was held up (a large answer being decoded), not that Redis was slow: the command then
 * gets `ms` once more, counted from that moment, so Loam's stall never declares Redis down
 * (docs/decisions.md#redis-values).
 */
function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    const arm = (startedAt: number, again: boolean) => {
      timer = setTimeout(() => {
        const late = performance.now() - startedAt - ms;
        if (again && late > ms / 2 + 20) arm(performance.now(), false);
        else reject(new RedisUnavailable(`${what} took longer than ${ms} ms`));
      }, ms);
    };
    arm(performance.now(), true);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class LoamRedis {
  private readonly client: RedisClient;
  private readonly log: (line: Record<string, unknown>) => void;
  private readonly probeMinMs: number;
  private readonly probeMaxMs: number;
  private state: "up" | "down" = "down";
  private failures = 0;
  private outages = 0;
  private downSince = 0;
  private failuresAtDown = 0;
  private everConnected = false;
  /** The current outage has been logged (once per outage, never per request). */
  private outageLogged = false;
  private probing: ReturnType<typeof setTimeout> | undefined;
  private probeDelay: number;
  private closed = false;
  private readonly scripts = new Map<string, string>();

  constructor(private readonly options: RedisOptions) {
    this.log = options.log ?? (() => {});
    this.probeMinMs = options.probeMinMs ?? 100;
    this.probeMaxMs = options.probeMaxMs ?? 2000;
    this.probeDelay = this.probeMinMs;
    // Reconnecting is ours (the probe): Bun's own retries give up after maxRetries, and an offline
    // queue would hold requests hostage to a Redis that may not come back.
    this.client = new RedisClient(options.url, {
      autoReconnect: false,
      enableOfflineQueue: false,
      connectionTimeout: Math.max(options.timeoutMs, 1000),
    });
    this.client.onclose = (error) => this.markDown(error?.message ?? "connection closed");
    this.downSince = Date.now();
    this.schedule(0);
  }

  get up(): boolean {
    return this.state === "up";
  }

  stats(): RedisStats {
    return { up: this.state === "up", failures: this.failures, outages: this.outages };
  }

  /**
   * One raw command, bounded; throws RedisUnavailable (counted) when Redis is down, slow or failing.
   * A command that moves a value (`bulk`: a cache entry, docs/decisions.md#redis-values) gets
   * `extraMs` more time, and its timeout is a failure of that command, not an outage: slow is not down.
   * A lost connection or a small command that times out (a frozen Redis) marks Redis down.
   */
  async send(command: string, args: string[], options: { bulk?: boolean; extraMs?: number } = {}): Promise<unknown> {
    if (this.state !== "up") {
      this.failures++;
      throw new RedisUnavailable("down");
    }
    try {
      return await withTimeout(this.client.send(command, args), this.options.timeoutMs + (options.extraMs ?? 0), command);
    } catch (error) {
      this.failures++;
      // A script the server lost (restart, SCRIPT FLUSH) is not an outage; eval() resends it.
      if (isServerReply(error)) throw error;
      if (options.bulk && error instanceof RedisUnavailable && this.client.connected) throw error;
      this.markDown(error instanceof Error ? error.message : String(error));
      throw error instanceof RedisUnavailable ? error : new RedisUnavailable(error instanceof Error ? error.message : String(error));
    }
  }

  /** A Lua script by its SHA1 (EVALSHA), loaded again with EVAL when the server does not know it. */
  async eval(script: string, keys: string[], args: string[]): Promise<unknown> {
    let sha = this.scripts.get(script);
    if (!sha) {
      sha = new Bun.CryptoHasher("sha1").update(script).digest("hex");
      this.scripts.set(script, sha);
    }
    try {
      return await this.send("EVALSHA", [sha, String(keys.length), ...keys, ...args]);
    } catch (error) {
      if (!(isServerReply(error) && /NOSCRIPT/.test(String((error as Error).message)))) throw error;
      this.failures--; // not a failure: the server only had to be told the script
      return this.send("EVAL", [script, String(keys.length), ...keys, ...args]);
    }
  }

  close(): void {
    this.closed = true;
    if (this.probing) clearTimeout(this.probing);
    this.probing = undefined;
    this.state = "down";
    try {
      this.client.close();
    } catch {
      // already closed
    }
  }

  private markDown(reason: string): void {
    if (this.closed || this.state === "down") return;
    this.state = "down";
    this.outages++;
    this.downSince = Date.now();
    this.failuresAtDown = this.failures;
    this.outageLogged = true;
    this.log({ level: "error", msg: "redis unavailable: rate limits fail open and answers go uncached until it is back", redis: redacted(this.options.url), reason });
    this.probeDelay = this.probeMinMs;
    this.schedule(this.probeDelay);
  }

  private schedule(delay: number): void {
    if (this.closed || this.probing) return;
    this.probing = setTimeout(() => {
      this.probing = undefined;
      void this.probe();
    }, delay);
    // A probe never keeps a stopping process alive.
    (this.probing as { unref?: () => void }).unref?.();
  }

  private async probe(): Promise<void> {
    if (this.closed || this.state === "up") return;
    try {
      if (!this.client.connected) await withTimeout(this.client.connect(), Math.max(this.options.timeoutMs, 1000), "connect");
      await withTimeout(this.client.send("PING", []), this.options.timeoutMs, "PING");
      if (this.closed) return;
      this.state = "up";
      this.probeDelay = this.probeMinMs;
      if (!this.everConnected && !this.outageLogged) this.log({ level: "info", msg: "redis connected", redis: redacted(this.options.url) });
      else this.log({ level: "info", msg: "redis reachable again", redis: redacted(this.options.url), down_ms: Date.now() - this.downSince, failed_commands: this.failures - this.failuresAtDown });
      this.everConnected = true;
      this.outageLogged = false;
    } catch (error) {
      if (this.closed) return;
      // A connection that will not answer PING may be half-open: the next attempt starts a new one.
      if (this.client.connected) {
        try {
          this.client.close();
        } catch {
          // already closed
        }
      }
      if (!this.outageLogged) {
        // Unreachable from the start: an outage like any other, logged once.
        this.outages++;
        this.failuresAtDown = this.failures;
        this.outageLogged = true;
        this.log({ level: "error", msg: "redis unreachable: rate limits fail open and answers go uncached until it is reachable", redis: redacted(this.options.url), reason: error instanceof Error ? error.message : String(error) });
      }
      this.probeDelay = Math.min(this.probeMaxMs, this.probeDelay * 2);
      this.schedule(this.probeDelay);
    }
  }
}

/** An error reply from the server (the command reached Redis and was refused), as opposed to a lost or slow connection. */
function isServerReply(error: unknown): boolean {
  return (error as { code?: string })?.code === "ERR_REDIS_SERVER_ERROR";
}

/** Resolves once Redis answers (or after `ms`), for a start that prefers to begin connected. */
export async function waitUntilUp(redis: LoamRedis, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!redis.up && Date.now() < deadline) await Bun.sleep(10);
  return redis.up;
}
