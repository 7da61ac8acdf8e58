/**
 * Live transport of usda_osd: one SoilKnowledgeBase OSD JSON file over HTTPS, by series key.
 * Every failure becomes one of the typed upstream errors, as for Soil Data Access and through the
 * same HTTP helpers (src/upstream/http.ts); the deadline covers the whole exchange, headers and body.
 * A series the repository has no file for is a 404 from GitHub, and a `not_found` here.
 */
import { NotFoundError, UpstreamError } from "../../errors";
import { fetchCapped } from "../../upstream/http";
import { osdUrl } from "./url";

// raw.githubusercontent.com serves the OSD files as text/plain, so the content type is not checked.

/** The largest parsed OSD is far below this; anything bigger is not one. */
export const OSD_MAX_BODY_BYTES = 4 * 1024 * 1024;

const SERVICE = "The SoilKnowledgeBase OSD repository";
const PROVIDER = "usda_osd";

export interface OsdFetchOptions {
  /** URL pattern with `{letter}` and `{name}` (OSD_URL). */
  urlPattern: string;
  timeoutMs: number;
  maxBodyBytes?: number;
  fetch?: typeof fetch;
}

export interface FetchedOsd {
  url: string;
  /** The file's text as sent (what the cache stores and the parser reads). */
  text: string;
}

/** Fetch one OSD file and check it is a JSON object, or throw a typed error naming usda_osd. */
export async function fetchOsd(key: string, options: OsdFetchOptions): Promise<FetchedOsd> {
  const url = osdUrl(options.urlPattern, key);
  const maxBytes = options.maxBodyBytes ?? OSD_MAX_BODY_BYTES;
  const { status, bytes: body } = await fetchCapped(url, { headers: { accept: "application/json, text/plain" } }, {
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    maxBytes,
    service: SERVICE,
    configured: url,
    provider: PROVIDER,
    tooLarge: () => new UpstreamError(`${SERVICE} sent an answer larger than ${maxBytes} bytes, more than any series description.`, PROVIDER),
    // GitHub's 404 is the repository having no file for the series: not_found, its page unread.
    before: (code) => (code === 404 ? new NotFoundError(`No Official Series Description named '${key.replaceAll("_", " ")}' (the SoilKnowledgeBase repository has no file for it).`, PROVIDER) : null),
  });
  if (status < 200 || status > 299) throw new UpstreamError(`${SERVICE} answered HTTP ${status}.`, PROVIDER);
  const text = new TextDecoder().decode(body);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UpstreamError(`${SERVICE} sent a body that is not valid JSON (truncated or malformed).`, PROVIDER);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json) || typeof (json as { SERIES?: unknown }).SERIES !== "string") {
    throw new UpstreamError(`${SERVICE} sent JSON that is not a parsed series description.`, PROVIDER);
  }
  return { url, text };
}
