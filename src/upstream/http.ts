/**
 * What every HTTP transport shares: one deadline over the whole exchange, a body read with a size
 * cap, and failures told in plain words. The SDA transport and a provider's own HTTPS reader (the
 * OSD files) use these, so a slow drip, an endless body or a network error ends the same way for both.
 */

/** One exchange's time limit. Every await of the exchange is raced against `expired`. */
import { Decompress } from "fflate";
import { LoamBusyError, LoamError, UpstreamError, UpstreamTimeoutError, UpstreamUnreachableError } from "../errors";

export interface Deadline {
  /** Aborts the fetch when the time is up (and when the exchange ends). */
  readonly signal: AbortSignal;
  /** Rejects when the time is up or the exchange has ended: racing against it bounds the call even if a fetch ignores its signal. */
  readonly expired: Promise<never>;
  /** True once the time ran out (as opposed to any other failure). */
  readonly passed: boolean;
  /** Milliseconds left. */
  left(): number;
  /** How long Loam's own event loop was held up between the start and the moment the time ran out. */
  readonly ownStallMs: number;
  /** The time ran out while Loam itself was held up for at least OWN_STALL_SHARE of it. */
  readonly loamWasBusy: boolean;
  /** Stop the timer and abort whatever is still in flight; call it in a `finally`. */
  end(): void;
}

/**
 * How long Loam's own event loop has been held up (docs/decisions.md#deadlines): a timer that should
 * tick every TICK_MS adds up how late it ran. A deadline compares the total at its start and end, so a
 * deadline missed because Loam itself was busy is not reported as the upstream's silence.
 */
const TICK_MS = 50;
/** A tick later than this counts as a stall (timers are never exact on a busy machine). */
const STALL_SLACK_MS = 20;
let stalledTotal = 0;
let lastTick = performance.now();
let monitor: ReturnType<typeof setInterval> | undefined;
let watching = 0;

function tick(): void {
  const now = performance.now();
  const late = now - lastTick - TICK_MS;
  if (late > STALL_SLACK_MS) stalledTotal += late;
  lastTick = now;
}

/** Milliseconds the event loop has been held up so far (the current hold-up included). */
function stalledSoFar(): number {
  const late = performance.now() - lastTick - TICK_MS;
  return stalledTotal + (late > STALL_SLACK_MS ? late : 0);
}

/** The monitor runs only while some deadline is open. */
function watch(): void {
  if (watching++ === 0) {
    lastTick = performance.now();
    monitor = setInterval(tick, TICK_MS);
    (monitor as { unref?: () => void }).unref?.();
  }
}

function unwatch(): void {
  if (--watching === 0 && monitor) {
    clearInterval(monitor);
    monitor = undefined;
  }
}

/**
 * A deadline missed while Loam's own event loop was held up for at least this share of it, and at
 * least OWN_STALL_MIN_MS, is Loam's fault: the upstream had less than half the time it was promised.
 */
export const OWN_STALL_SHARE = 0.5;
const OWN_STALL_MIN_MS = 500;

export function startDeadline(ms: number): Deadline {
  const controller = new AbortController();
  const startedAt = performance.now();
  watch();
  const stalledAtStart = stalledSoFar();
  let ownStall = 0;
  let ended = false;
  let passed = false;
  const expired = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason));
  });
  expired.catch(() => {});
  const timer = setTimeout(() => {
    passed = true;
    ownStall = stalledSoFar() - stalledAtStart;
    controller.abort(new Error("deadline"));
  }, ms);
  return {
    signal: controller.signal,
    expired,
    get passed() {
      return passed;
    },
    get ownStallMs() {
      return ownStall;
    },
    get loamWasBusy() {
      return passed && ownStall >= Math.max(ms * OWN_STALL_SHARE, OWN_STALL_MIN_MS);
    },
    left: () => ms - (performance.now() - startedAt),
    end() {
      clearTimeout(timer);
      controller.abort();
      if (!ended) {
        ended = true;
        unwatch();
      }
    },
  };
}

/**
 * The error for a deadline that passed: the upstream's silence (504 upstream_timeout), or, when Loam's
 * own event loop was held up for much of it, Loam's own fault (503, naming Loam, not the upstream).
 */
export function deadlineError(deadline: Deadline, service: string, timeoutMs: number, provider: string | null = null): LoamError {
  if (deadline.loamWasBusy) {
    return new LoamBusyError(
      `Loam was too busy to finish reading ${service}'s answer within ${timeoutMs} ms: its own work held it up for ${Math.round(deadline.ownStallMs)} ms of that time, so ${service} is not known to be at fault. Retry.`,
      { detail: `deadline ${timeoutMs} ms passed; Loam's event loop was held up ${Math.round(deadline.ownStallMs)} ms meanwhile` },
    );
  }
  return new UpstreamTimeoutError(`${service} did not send a complete answer within ${timeoutMs} ms.`, provider);
}

/** Content codings Loam asks for and decodes itself (docs/decisions.md#decompression). */
export const ACCEPTED_ENCODINGS = "gzip, deflate";
/**
 * Compressed bytes inflated at a time: deflate expands at most about 1032 to 1, so one slice never
 * makes more than about 4 MB before the cap is checked again.
 */
const INFLATE_SLICE_BYTES = 4096;

/** Redirects followed at most for one exchange (docs/decisions.md#redirects). */
export const MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface UpstreamRequest {
  fetch: typeof fetch;
  /** The exchange's deadline: every hop is raced against it and aborted by it. */
  deadline: Deadline;
  /** The provider's error for a refused redirect; `why` names the configured host, never the target. */
  refused: (why: string) => LoamError;
}

/**
 * The shared HTTP reader's request (docs/decisions.md#redirects): `url` fetched with redirects
 * followed only within its own origin (scheme, host and port), at most MAX_REDIRECTS. A redirect
 * elsewhere (a metadata address, another service) is never requested, and its target, which may hold
 * credentials of its own, never reaches a message: the error names the configured host only.
 * 301/302 of a POST and every 303 continue as a GET without a body, as fetch itself does; 307/308 repeat
 * the request. A 3xx without a Location is handed back as an answer (the caller's status check refuses it).
 */
export async function fetchWithinOrigin(url: string, init: RequestInit, request: UpstreamRequest): Promise<Response> {
  const origin = new URL(url).origin;
  let current = url;
  const headers = new Headers(init.headers);
  if (!headers.has("accept-encoding")) headers.set("accept-encoding", ACCEPTED_ENCODINGS);
  // Bun's fetch would inflate the body itself, ahead of the reader: readCapped inflates it under the cap instead.
  let currentInit: RequestInit & { decompress?: boolean } = { ...init, headers, redirect: "manual", signal: request.deadline.signal, decompress: false };
  for (let followed = 0; ; followed += 1) {
    const response = await Promise.race([request.fetch(current, currentInit), request.deadline.expired]);
    const location = REDIRECTS.has(response.status) ? response.headers.get("location") : null;
    if (location === null) return response;
    response.body?.cancel().catch(() => {});
    let next: URL | null;
    try {
      next = new URL(location, current);
    } catch {
      next = null;
    }
    if (next === null || next.origin !== origin) throw request.refused(`(${hostOf(url)}) answered HTTP ${response.status} with a redirect to another host; Loam follows redirects only within the configured origin`);
    if (followed >= MAX_REDIRECTS) throw request.refused(`(${hostOf(url)}) answered with more than ${MAX_REDIRECTS} redirects; Loam follows at most ${MAX_REDIRECTS}`);
    const method = (currentInit.method ?? "GET").toUpperCase();
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
      const { body: _body, ...rest } = currentInit;
      currentInit = { ...rest, method: method === "HEAD" ? "HEAD" : "GET" };
    }
    current = next.href;
  }
}

/**
 * Read the body chunk by chunk, giving up (with `tooLarge()`) as soon as it passes the cap. A gzip or
 * deflate body (fetchWithinOrigin asks for them and turns fetch's own decoding off) is inflated here a
 * slice at a time and the cap counts inflated bytes, so an answer that inflates to gigabytes (a
 * "decompression bomb") is stopped at the cap, not after (docs/decisions.md#decompression). Any other
 * coding, or a body that does not inflate, is refused through `refused`.
 */
export async function readCapped(response: Response, maxBytes: number, expired: Promise<never>, tooLarge: () => Error, refused: (why: string) => Error): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const encoding = (response.headers.get("content-encoding") ?? "").trim().toLowerCase();
  if (!["", "identity", "gzip", "x-gzip", "deflate"].includes(encoding)) {
    response.body?.cancel().catch(() => {});
    throw refused(`sent an answer in the content coding '${encoding.slice(0, 40).replace(/[^\x21-\x7e ]/g, "?")}', which Loam did not ask for`);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const keep = (chunk: Uint8Array) => {
    size += chunk.byteLength;
    if (size <= maxBytes) chunks.push(chunk);
  };
  const inflater = encoding === "" || encoding === "identity" ? null : new Decompress(keep);
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), expired]);
      if (inflater) inflate(inflater, done ? null : value, () => size > maxBytes, refused);
      else if (!done) keep(value);
      if (size > maxBytes) throw tooLarge();
      if (done) break;
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Push one network chunk (null: the end) through the inflater a slice at a time, stopping once `full()`. */
function inflate(inflater: Decompress, chunk: Uint8Array | null, full: () => boolean, refused: (why: string) => Error): void {
  try {
    if (chunk === null) inflater.push(new Uint8Array(0), true);
    else for (let at = 0; at < chunk.byteLength && !full(); at += INFLATE_SLICE_BYTES) inflater.push(chunk.subarray(at, at + INFLATE_SLICE_BYTES));
  } catch {
    // fflate's own words name its internals: the client hears what happened, not how.
    throw refused("sent a compressed answer that does not decompress (damaged or cut short)");
  }
}

export interface CappedExchange {
  fetch?: typeof fetch;
  /** The deadline of the whole exchange: redirects, headers and body. */
  timeoutMs: number;
  maxBytes: number;
  /** The party named in every message ("The NRCS AWDB REST API"); its configured host follows it. */
  service: string;
  /** The configured URL: its host is the only address a message names (docs/decisions.md#redirects). */
  configured: string;
  provider: string | null;
  /** The provider's words for a body over `maxBytes`. */
  tooLarge: () => LoamError;
  /** A status answered without reading the body (OSD's 404 is `not_found`, a 429 with its Retry-After); null reads on. */
  before?: (status: number, headers: Headers) => LoamError | null;
}

/**
 * One GET or POST to a provider's upstream, the way every HTTP transport makes it: one deadline over
 * the exchange, redirects within the configured origin, the body read under its cap; the time running
 * out is `deadlineError`, a network failure `upstream_unreachable` in plain words, both naming the
 * provider. The status is handed back unchecked: what it means is the provider's to say.
 */
export async function fetchCapped(url: string, init: RequestInit, exchange: CappedExchange): Promise<{ status: number; bytes: Uint8Array }> {
  const { service, provider } = exchange;
  const host = hostOf(exchange.configured);
  const deadline = startDeadline(exchange.timeoutMs);
  try {
    const refused = (why: string) => new UpstreamError(`${service} ${why}.`, provider);
    const response = await fetchWithinOrigin(url, init, { fetch: exchange.fetch ?? fetch, deadline, refused });
    const early = exchange.before?.(response.status, response.headers) ?? null;
    if (early) {
      response.body?.cancel().catch(() => {});
      throw early;
    }
    const bytes = await readCapped(response, exchange.maxBytes, deadline.expired, exchange.tooLarge, refused);
    return { status: response.status, bytes };
  } catch (error) {
    if (deadline.passed) throw deadlineError(deadline, `${service} (${host})`, exchange.timeoutMs, provider);
    if (error instanceof LoamError) throw error;
    throw new UpstreamUnreachableError(`${service} (${host}) could not be reached: ${networkCause(error)}.`, provider);
  } finally {
    deadline.end();
  }
}

/** The host of an upstream URL for a message; never the path or query. */
/**
 * A request URL from a configured one: `path` appended to its path, `params` after its own query (an
 * operator's key is kept), the fragment dropped; never text-appended after a query or a fragment.
 */
export function requestUrlOf(configured: string, params: Iterable<[string, string]>, path = ""): string {
  const target = new URL(configured);
  if (path !== "") target.pathname = target.pathname.replace(/\/+$/, "") + path;
  target.hash = "";
  for (const [name, value] of params) target.searchParams.append(name, value);
  return target.href;
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "its configured address";
  }
}

/** The cause `networkCause` gives for a connection closed mid-answer (the one a retry may cure). */
export const CONNECTION_CLOSED = "the connection was closed before a complete answer arrived";

/** A plain-words cause of a network failure; never the raw error text. */
export function networkCause(error: unknown): string {
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  if (/ECONNREFUSED|ConnectionRefused/i.test(code)) return "connection refused";
  if (/ENOTFOUND|EAI_AGAIN|DNS/i.test(code)) return "the host name could not be resolved";
  if (/ECONNRESET|ConnectionClosed|EPIPE/i.test(code)) return CONNECTION_CLOSED;
  if (/CERT|TLS|SSL/i.test(code)) return "the secure connection could not be established";
  return /^[A-Za-z_]{1,40}$/.test(code) ? `network error ${code}` : "network error";
}
