/**
 * Live transport of usda_osd: one SoilKnowledgeBase OSD JSON file over HTTPS, by series key.
 * Every failure becomes one of the typed upstream errors, as for Soil Data Access; the deadline
 * covers the whole exchange, headers and body. A series the repository has no file for is a 404
 * from GitHub, and a `not_found` here.
 */
import { LoamError, NotFoundError, UpstreamError, UpstreamTimeoutError, UpstreamUnreachableError } from "../../errors";

/**
 * Where SoilKnowledgeBase keeps the parsed OSDs: `inst/extdata/OSD/<first letter>/<NAME>.json`,
 * name upper-cased with spaces as `_` (CLARION, CABO_ROJO). raw.githubusercontent.com serves
 * them as text/plain, so the content type is not checked.
 */
export const DEFAULT_OSD_URL = "https://raw.githubusercontent.com/ncss-tech/SoilKnowledgeBase/main/inst/extdata/OSD/{letter}/{name}.json";

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

/** Null when `pattern` can serve as OSD_URL, else why not (for the configuration check at start). */
export function osdUrlProblem(pattern: string): string | null {
  if (!pattern.includes("{name}")) return "must contain {name} (and usually {letter}), e.g. " + DEFAULT_OSD_URL;
  let parsed: URL;
  try {
    parsed = new URL(osdUrl(pattern, "CLARION"));
  } catch {
    return `expected an http(s) URL pattern, got '${pattern}'`;
  }
  return parsed.protocol === "http:" || parsed.protocol === "https:" ? null : `expected an http(s) URL pattern, got '${pattern}'`;
}

/** The file URL of a series key (already reduced to letters and `_` by `seriesKey`). */
export function osdUrl(pattern: string, key: string): string {
  return pattern.replaceAll("{letter}", encodeURIComponent(key.charAt(0))).replaceAll("{name}", encodeURIComponent(key));
}

/** Fetch one OSD file and check it is a JSON object, or throw a typed error naming usda_osd. */
export async function fetchOsd(key: string, options: OsdFetchOptions): Promise<FetchedOsd> {
  const url = osdUrl(options.urlPattern, key);
  const fetchImpl = options.fetch ?? fetch;
  const maxBytes = options.maxBodyBytes ?? OSD_MAX_BODY_BYTES;
  const controller = new AbortController();
  let timedOut = false;
  // Racing every await against the deadline bounds the call even if a fetch ignores its signal.
  const deadline = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason));
  });
  deadline.catch(() => {});
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error("deadline"));
  }, options.timeoutMs);
  let status: number;
  let body: Uint8Array;
  try {
    const response = await Promise.race([fetchImpl(url, { headers: { accept: "application/json, text/plain" }, signal: controller.signal }), deadline]);
    status = response.status;
    if (status === 404) {
      response.body?.cancel().catch(() => {});
      throw new NotFoundError(`No Official Series Description named '${key.replaceAll("_", " ")}' (the SoilKnowledgeBase repository has no file for it).`, PROVIDER);
    }
    body = await readCapped(response, maxBytes, deadline);
  } catch (error) {
    if (timedOut) throw new UpstreamTimeoutError(`${SERVICE} did not send a complete answer within ${options.timeoutMs} ms.`, PROVIDER);
    if (error instanceof LoamError) throw error;
    throw new UpstreamUnreachableError(`${SERVICE} (${hostOf(url)}) could not be reached: ${networkCause(error)}.`, PROVIDER);
  } finally {
    clearTimeout(timer);
    controller.abort();
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

async function readCapped(response: Response, maxBytes: number, deadline: Promise<never>): Promise<Uint8Array> {
  const tooLarge = () => new UpstreamError(`${SERVICE} sent an answer larger than ${maxBytes} bytes, more than any series description.`, PROVIDER);
  const declared = Number(response.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await Promise.race([reader.read(), deadline]);
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "its configured address";
  }
}

/** A plain-words cause of a network failure; never the raw error text. */
function networkCause(error: unknown): string {
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  if (/ECONNREFUSED|ConnectionRefused/i.test(code)) return "connection refused";
  if (/ENOTFOUND|EAI_AGAIN|DNS/i.test(code)) return "the host name could not be resolved";
  if (/ECONNRESET|ConnectionClosed|EPIPE/i.test(code)) return "the connection was closed before a complete answer arrived";
  if (/CERT|TLS|SSL/i.test(code)) return "the secure connection could not be established";
  return /^[A-Za-z_]{1,40}$/.test(code) ? `network error ${code}` : "network error";
}
