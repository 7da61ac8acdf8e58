/**
 * The live transport of isric_soilgrids (docs/decisions.md#isric-soilgrids): one GET of SoilGrids' REST
 * point query per point and query, asking every needed layer, depth and statistic; at most
 * SOILGRIDS_REQUESTS_PER_MINUTE calls a minute across every worker and instance (the shared upstream
 * call budget), answers kept 30 days (the release is fixed). ISRIC's error pages and outages are
 * 502/504 naming the provider; an answer that is not JSON, or lacks a layer asked for, is a 502 naming it.
 */
import { NotFoundError, UpstreamBudgetExhaustedError, UpstreamError, UpstreamTimeoutError } from "../../errors";
import { fetchCapped, hostOf, requestUrlOf } from "../../upstream/http";
import { publicUrl } from "../../upstream/public-url";
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
}

async function exchange(options: SoilGridsLiveOptions, url: string): Promise<{ status: number; text: string }> {
  // The shared exchange: redirects only within the configured origin, decompression under the cap (docs/decisions.md#redirects).
  const { status, bytes } = await fetchCapped(url, { headers: { accept: "application/json" } }, {
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    maxBytes: MAX_BYTES,
    service: SERVICE,
    configured: options.url,
    provider: SOILGRIDS_ID,
    tooLarge: () => new UpstreamError(`${SERVICE}'s answer was larger than ${MAX_BYTES} bytes; it is not a point answer.`, SOILGRIDS_ID),
  });
  return { status, text: new TextDecoder().decode(bytes) };
}

/** The answer's JSON, checked to hold every layer asked for; else a 502 naming what is wrong. */
function checked(status: number, text: string, layers: string[], host: string): Payload {
  if (status === 504 || status === 408) throw new UpstreamTimeoutError(`${SERVICE} (${host}) answered HTTP ${status}: it gave no answer in time.`, SOILGRIDS_ID);
  if (status < 200 || status > 299) throw new UpstreamError(`${SERVICE} (${host}) answered HTTP ${status}.`, SOILGRIDS_ID, { detail: text.slice(0, 300) });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UpstreamError(`${SERVICE} (${host}) answered with something that is not JSON (an error page?).`, SOILGRIDS_ID, { detail: text.slice(0, 300) });
  }
  const held = (json as { properties?: { layers?: { name?: unknown }[] } } | null)?.properties?.layers;
  if (!Array.isArray(held)) throw new UpstreamError(`${SERVICE} (${host}) answered JSON without properties.layers.`, SOILGRIDS_ID);
  const names = new Set(held.map((l) => l?.name));
  const lacking = layers.filter((name) => !names.has(name));
  if (lacking.length > 0) throw new UpstreamError(`${SERVICE} (${host}) answered without the layer${lacking.length > 1 ? "s" : ""} asked for: ${lacking.join(", ")}.`, SOILGRIDS_ID);
  return Payload.parsed(text, json);
}

export function soilGridsLiveTransport(options: SoilGridsLiveOptions): Transport {
  // Served (source_url), logged and in cache keys: never the credentials an operator put in the URL.
  const shown = publicUrl(options.url);
  const description: SourceDescription = { kind: "soilgrids", location: shown };
  return {
    kind: "soilgrids",
    ttlSeconds: SOILGRIDS_KEEP_SECONDS,
    async fetch<P>(query: QueryKind<P, unknown>, params: P): Promise<Payload> {
      const form = query.forms.soilgrids as SoilGridsForm<P> | undefined;
      if (!form) throw new NotFoundError(`${SERVICE}'s REST API has no ${query.kind}: it is served from the offline snapshot's clips only (LOAM_UPSTREAM=snapshot).`, SOILGRIDS_ID);
      const { search, layers } = form(params);
      if (options.budget) {
        const verdict = await options.budget.spend(shown, options.perMinute);
        if (!verdict.allowed) {
          throw new UpstreamBudgetExhaustedError(
            `Loam sends ${SERVICE} at most ${options.perMinute} requests a minute (ISRIC's fair use), and this minute's are spent; retry after ${verdict.retryAfterSeconds} s. Points asked before are answered from the cache.`,
            verdict.retryAfterSeconds,
            SOILGRIDS_ID,
          );
        }
      }
      const { status, text } = await exchange(options, requestUrlOf(options.url, search));
      return checked(status, text, layers, hostOf(options.url));
    },
    describe: () => description,
  };
}
