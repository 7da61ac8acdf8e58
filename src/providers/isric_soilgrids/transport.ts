/**
 * The live transport of isric_soilgrids (docs/decisions.md#isric-soilgrids): one GET of SoilGrids' REST
 * point query per point and query, asking every needed layer, depth and statistic; at most
 * SOILGRIDS_REQUESTS_PER_MINUTE calls a minute across every worker and instance (the shared upstream
 * call budget), of which one client may spend at most its share; answers kept 30 days (the release is
 * fixed). ISRIC's own 429 is honoured: no call until its Retry-After. ISRIC's error pages and outages
 * are 502/504 naming the provider (the page's text logged masked); an answer that is not JSON, or lacks
 * a layer asked for, is a 502 naming it.
 */
import { NotFoundError, UpstreamBudgetExhaustedError, UpstreamError, UpstreamTimeoutError } from "../../errors";
import { fetchCapped, hostOf, requestUrlOf } from "../../upstream/http";
import { maskedText, publicUrl } from "../../upstream/public-url";
import { currentRequest } from "../../request-scope";
import type { CallBudget } from "../../upstream/call-budget";
import { Payload, type QueryKind, type SourceDescription, type Transport } from "../../upstream/transport";
import { SOILGRIDS_ID } from "./catalog";

export const SOILGRIDS_KEEP_SECONDS = 30 * 24 * 3600;
/** A point answer with every layer, depth and statistic is about 30 kB; anything far bigger is not one. */
const MAX_BYTES = 2 * 1024 * 1024;
const SERVICE = "ISRIC SoilGrids";

/** A query's form for this transport: the REST parameters, and the layers the answer must hold. */
export type SoilGridsForm<P> = (params: P) => { search: [string, string][]; layers: string[] };

export interface SoilGridsLiveOptions {
  url: string;
  timeoutMs: number;
  perMinute: number;
  budget?: CallBudget;
  fetch?: typeof fetch;
  /** The app's clock (ms since epoch): how long an upstream 429's Retry-After still holds. */
  now?: () => number;
}

/**
 * The most of a minute's budget one client may spend (docs/decisions.md#upstream-call-budget): half,
 * rounded up (5 a minute: 3), so one client asking point after point leaves the rest for the others.
 */
export const clientShare = (perMinute: number) => Math.ceil(perMinute / 2);

/** The longest pause an upstream 429's Retry-After can impose (an hour), and the pause of a 429 that names none (a budget window). */
const MAX_PAUSE_SECONDS = 3600;
const DEFAULT_PAUSE_SECONDS = 60;

/** Retry-After in seconds (delta-seconds or an HTTP date), within 1 s to an hour; a 429 without one waits a minute. */
export function pauseSeconds(header: string | null, nowMs: number): number {
  const text = (header ?? "").trim();
  const seconds = /^\d{1,10}$/.test(text) ? Number(text) : text ? (Date.parse(text) - nowMs) / 1000 : NaN;
  if (!Number.isFinite(seconds)) return DEFAULT_PAUSE_SECONDS;
  return Math.min(MAX_PAUSE_SECONDS, Math.max(1, Math.ceil(seconds)));
}

async function exchange(options: SoilGridsLiveOptions, url: string, before: (status: number, headers: Headers) => UpstreamBudgetExhaustedError | null): Promise<{ status: number; text: string }> {
  // The shared exchange: redirects only within the configured origin, decompression under the cap (docs/decisions.md#redirects).
  const { status, bytes } = await fetchCapped(url, { headers: { accept: "application/json" } }, {
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    maxBytes: MAX_BYTES,
    service: SERVICE,
    configured: options.url,
    provider: SOILGRIDS_ID,
    before,
    tooLarge: () => new UpstreamError(`${SERVICE}'s answer was larger than ${MAX_BYTES} bytes; it is not a point answer.`, SOILGRIDS_ID),
  });
  return { status, text: new TextDecoder().decode(bytes) };
}

/** The answer's JSON, checked to hold every layer asked for; else a 502 naming what is wrong. */
function checked(status: number, text: string, layers: string[], host: string): Payload {
  if (status === 504 || status === 408) throw new UpstreamTimeoutError(`${SERVICE} (${host}) answered HTTP ${status}: it gave no answer in time.`, SOILGRIDS_ID);
  if (status < 200 || status > 299) throw new UpstreamError(`${SERVICE} (${host}) answered HTTP ${status}.`, SOILGRIDS_ID, { detail: maskedText(text) });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UpstreamError(`${SERVICE} (${host}) answered with something that is not JSON (an error page?).`, SOILGRIDS_ID, { detail: maskedText(text) });
  }
  const held = (json as { properties?: { layers?: { name?: unknown }[] } } | null)?.properties?.layers;
  if (!Array.isArray(held)) throw new UpstreamError(`${SERVICE} (${host}) answered JSON without properties.layers.`, SOILGRIDS_ID);
  const names = new Set(held.map((l) => l?.name));
  const lacking = layers.filter((name) => !names.has(name));
  if (lacking.length > 0) throw new UpstreamError(`${SERVICE} (${host}) answered without the layer${lacking.length > 1 ? "s" : ""} asked for: ${lacking.join(", ")}.`, SOILGRIDS_ID);
  return Payload.parsed(text, json);
}

/** Spend one call: the client's share first (a refused client spends nothing of the others' budget), then the shared budget. */
async function spendBudget(budget: CallBudget, perMinute: number, shown: string): Promise<void> {
  const refused = (retryAfter: number, why: string) =>
    new UpstreamBudgetExhaustedError(
      `Loam sends ${SERVICE} at most ${perMinute} requests a minute (ISRIC's fair use), ${why}; retry after ${retryAfter} s. Points asked before are answered from the cache.`,
      retryAfter,
      SOILGRIDS_ID,
    );
  const client = currentRequest()?.client;
  const share = clientShare(perMinute);
  if (client !== undefined) {
    const own = await budget.spend(`${shown}|client:${client}`, share);
    if (!own.allowed) throw refused(own.retryAfterSeconds, `and one client may spend at most ${share} of them: yours for this minute are spent`);
  }
  const verdict = await budget.spend(shown, perMinute);
  if (!verdict.allowed) throw refused(verdict.retryAfterSeconds, "and this minute's are spent");
}

export function soilGridsLiveTransport(options: SoilGridsLiveOptions): Transport {
  // Served (source_url), logged and in cache keys: never the credentials an operator put in the URL.
  const shown = publicUrl(options.url);
  const description: SourceDescription = { kind: "soilgrids", location: shown };
  const now = options.now ?? Date.now;
  /** Until when ISRIC asked (HTTP 429) not to be called; this process's, learnt from its own call. */
  let pausedUntil = 0;
  const waitSeconds = () => Math.max(1, Math.ceil((pausedUntil - now()) / 1000));
  const paused = (why: string) =>
    new UpstreamBudgetExhaustedError(`${why}; Loam sends it nothing until then: retry after ${waitSeconds()} s. Points asked before are answered from the cache.`, waitSeconds(), SOILGRIDS_ID);
  const onTooMany = (status: number, headers: Headers) => {
    if (status !== 429) return null;
    const header = headers.get("retry-after");
    pausedUntil = now() + pauseSeconds(header, now()) * 1000;
    // Logged once, for the operator: ISRIC's own refusal is worth knowing about; the paused requests after it are not.
    return paused(`${SERVICE} (${hostOf(options.url)}) answered HTTP 429 Too Many Requests`).withDetail(`HTTP 429, Retry-After: ${header === null ? "none" : maskedText(header, 60)}`);
  };
  return {
    kind: "soilgrids",
    ttlSeconds: SOILGRIDS_KEEP_SECONDS,
    async fetch<P>(query: QueryKind<P, unknown>, params: P): Promise<Payload> {
      const form = query.forms.soilgrids as SoilGridsForm<P> | undefined;
      if (!form) throw new NotFoundError(`${SERVICE}'s REST API has no ${query.kind}: it is served from the offline snapshot's clips only (LOAM_UPSTREAM=snapshot).`, SOILGRIDS_ID);
      const { search, layers } = form(params);
      if (now() < pausedUntil) throw paused(`${SERVICE} asked Loam (HTTP 429) to wait before calling again`);
      if (options.budget) await spendBudget(options.budget, options.perMinute, shown);
      const { status, text } = await exchange(options, requestUrlOf(options.url, search), onTooMany);
      return checked(status, text, layers, hostOf(options.url));
    },
    describe: () => description,
  };
}
