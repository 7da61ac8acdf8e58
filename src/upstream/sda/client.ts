/**
 * USDA Soil Data Access as a transport: T-SQL over HTTP POST, answered as JSON+COLUMNNAME+METADATA.
 * Every failure becomes one of the typed upstream errors; the deadline covers the whole exchange,
 * headers and body, so a slow drip cannot outlive it. The payload is handed back as SDA sent it;
 * the provider's query decodes it.
 */
import { LoamError, UpstreamError, UpstreamTimeoutError, UpstreamUnreachableError } from "../../errors";
import { Payload, type QueryKind, type SourceDescription, type Transport } from "../transport";
import { commentFree } from "./sql";

/** SDA's own JSON serialization limit per query (soilDB docs: "32Mb"). */
export const SDA_MAX_BODY_BYTES = 32 * 1024 * 1024;
export const SDA_FORMAT = "JSON+COLUMNNAME+METADATA";

export interface SdaTransportOptions {
  url: string;
  timeoutMs: number;
  maxBodyBytes?: number;
  fetch?: typeof fetch;
}

interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
}

const SERVICE = "Soil Data Access";

export class SdaTransport implements Transport {
  readonly kind = "sda" as const;
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: SdaTransportOptions) {
    this.url = options.url;
    this.timeoutMs = options.timeoutMs;
    this.maxBodyBytes = options.maxBodyBytes ?? SDA_MAX_BODY_BYTES;
    this.fetchImpl = options.fetch ?? fetch;
  }

  describe(): SourceDescription {
    return { kind: "sda", location: this.url };
  }

  async fetch<P>(query: QueryKind<P, unknown>, params: P): Promise<Payload> {
    const form = query.forms.sda;
    if (!form) throw new UpstreamError(`The ${query.kind} query has no Soil Data Access form.`);
    return this.query(form(params));
  }

  /** Send one T-SQL text and return SDA's JSON answer as sent, or throw a typed error. */
  async query(sql: string): Promise<Payload> {
    const answer = await this.post(commentFree(sql));
    return interpret(answer);
  }

  /** POST one query and read the complete answer, or throw a typed error. */
  private async post(sql: string): Promise<RawAnswer> {
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
    }, this.timeoutMs);
    try {
      const response = await Promise.race([
        this.fetchImpl(this.url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ query: sql, format: SDA_FORMAT }),
          signal: controller.signal,
        }),
        deadline,
      ]);
      const bytes = await readCapped(response, this.maxBodyBytes, deadline);
      return {
        status: response.status,
        contentType: response.headers.get("content-type") ?? "",
        text: new TextDecoder().decode(bytes),
      };
    } catch (error) {
      if (timedOut) {
        throw new UpstreamTimeoutError(`${SERVICE} did not send a complete answer within ${this.timeoutMs} ms.`);
      }
      if (error instanceof LoamError) throw error;
      throw new UpstreamUnreachableError(`${SERVICE} (${hostOf(this.url)}) could not be reached: ${networkCause(error)}.`);
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  }
}

/** Read the body chunk by chunk, giving up as soon as it passes the cap. */
async function readCapped(response: Response, maxBytes: number, deadline: Promise<never>): Promise<Uint8Array> {
  const tooLarge = () =>
    new UpstreamError(`${SERVICE} sent an answer larger than ${maxBytes} bytes, the most Loam reads for one query.`);
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

/** Turn a complete HTTP answer into the parsed JSON payload, or say why it is not one. */
function interpret({ status, contentType, text }: RawAnswer): Payload {
  // SDA goes down every night and answers 200 with an HTML notice instead of a ServiceException.
  if (/under daily maintenance/i.test(text)) {
    throw new UpstreamError(
      `${SERVICE} is in its nightly maintenance window (12:30 to 12:45 AM Central time); try again after 12:45 AM CST.`,
    );
  }
  if (status < 200 || status > 299) {
    const detail = serviceException(text);
    throw new UpstreamError(`${SERVICE} answered HTTP ${status}${detail ? `: ${detail}` : "."}`);
  }
  if (!isJsonType(contentType)) {
    throw new UpstreamError(
      `${SERVICE} answered with content type '${printable(contentType) || "none"}' instead of JSON; the service may be unavailable.`,
    );
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw new UpstreamError(`${SERVICE} sent a body that is not valid JSON (truncated or malformed).`);
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    throw new UpstreamError(`${SERVICE} sent JSON that is not an object of result tables.`);
  }
  return Payload.parsed(text, payload);
}

function isJsonType(contentType: string): boolean {
  const mime = contentType.split(";")[0]!.trim().toLowerCase();
  return mime === "application/json" || mime === "text/json" || mime.endsWith("+json");
}

/** The text of SDA's `<ServiceException>` error element (entities unescaped), capped for a message. */
export function serviceException(body: string, maxLength = 300): string | null {
  const match = /<ServiceException(?:\s[^>]*)?>([\s\S]*?)<\/ServiceException>/i.exec(body);
  if (!match) return null;
  const text = printable(unescapeXml(match[1]!));
  if (!text) return null;
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

function unescapeXml(text: string): string {
  return text
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1")
    .replace(/&#x([0-9a-f]{1,6});|&#([0-9]{1,7});|&(lt|gt|quot|apos|amp);/gi, (entity, hex, dec, name) => {
      if (name) return { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" }[String(name).toLowerCase()] ?? entity;
      const code = hex ? parseInt(hex, 16) : parseInt(dec, 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    });
}

/** Collapse whitespace and drop control characters, so upstream text cannot break a message. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s+/g, " ").trim().slice(0, 1000);
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
