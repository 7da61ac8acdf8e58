/**
 * Live transport of usda_osd: one SoilKnowledgeBase OSD JSON file over HTTPS, by series key.
 * Every failure becomes one of the typed upstream errors, as for Soil Data Access and through the
 * same HTTP helpers (src/upstream/http.ts); the deadline covers the whole exchange, headers and body.
 * A series the repository has no file for is a 404 from GitHub, and a `not_found` here.
 */
import { LoamError, NotFoundError, UpstreamError, UpstreamUnreachableError } from "../../errors";
import { deadlineError, fetchWithinOrigin, hostOf, networkCause, readCapped, startDeadline } from "../../upstream/http";
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
  const fetchImpl = options.fetch ?? fetch;
  const maxBytes = options.maxBodyBytes ?? OSD_MAX_BODY_BYTES;
  const deadline = startDeadline(options.timeoutMs);
  let status: number;
  let body: Uint8Array;
  try {
    const refused = (why: string) => new UpstreamError(`${SERVICE} ${why}.`, PROVIDER);
    const response = await fetchWithinOrigin(url, { headers: { accept: "application/json, text/plain" } }, { fetch: fetchImpl, deadline, refused });
    status = response.status;
    if (status === 404) {
      response.body?.cancel().catch(() => {});
      throw new NotFoundError(`No Official Series Description named '${key.replaceAll("_", " ")}' (the SoilKnowledgeBase repository has no file for it).`, PROVIDER);
    }
    const tooLarge = () => new UpstreamError(`${SERVICE} sent an answer larger than ${maxBytes} bytes, more than any series description.`, PROVIDER);
    body = await readCapped(response, maxBytes, deadline.expired, tooLarge, refused);
  } catch (error) {
    if (deadline.passed) throw deadlineError(deadline, SERVICE, options.timeoutMs, PROVIDER);
    if (error instanceof LoamError) throw error;
    throw new UpstreamUnreachableError(`${SERVICE} (${hostOf(url)}) could not be reached: ${networkCause(error)}.`, PROVIDER);
  } finally {
    deadline.end();
  }
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
