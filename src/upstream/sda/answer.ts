/**
 * What one complete Soil Data Access HTTP answer means: the JSON payload, or which typed failure it is.
 *
 * SDA reports its own errors as an OGC `ServiceExceptionReport` (XML) whatever the HTTP status: 400
 * for an invalid query, 200 for a query that ran past SDA's own time limit. So the report is read
 * first, before the status or the content type. During the nightly maintenance SDA answers 200 with
 * an HTML page.
 *
 * Upstream text is logged, not echoed: it goes to the error's `detail`, and clients get a fixed
 * message per failure class. The one exception is an `Invalid query:` report, whose first line
 * names the offending column; it is kept, with anything that looks like a server path masked.
 */
import { LoamError, UpstreamError, UpstreamTimeoutError } from "../../errors";
import { Payload } from "../transport";

export const SERVICE = "Soil Data Access";

/** One complete HTTP answer, as read off the wire. */
export interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** The most of SDA's own text an error keeps for the log. */
const DETAIL_LENGTH = 2000;

/** Turn a complete HTTP answer into the parsed JSON payload, or throw the typed error it amounts to. */
export function interpretAnswer({ status, contentType, text }: RawAnswer): Payload {
  const report = serviceExceptionText(text);
  if (report !== null) throw reportError(status, report);
  // SDA goes down every night and answers 200 with an HTML notice instead of a ServiceException.
  if (/under daily maintenance/i.test(text)) {
    throw new UpstreamError(
      `${SERVICE} is in its nightly maintenance window (12:30 to 12:45 AM Central time); try again after 12:45 AM CST.`,
      null,
      { detail: `HTTP ${status} maintenance page: ${excerpt(text)}` },
    );
  }
  if (status < 200 || status > 299) {
    throw new UpstreamError(`${SERVICE} answered HTTP ${status}.`, null, { detail: `HTTP ${status} body: ${excerpt(text)}` });
  }
  if (!isJsonType(contentType)) {
    throw new UpstreamError(
      `${SERVICE} answered with content type '${mediaType(contentType)}' instead of JSON; the service may be unavailable.`,
      null,
      { detail: `HTTP ${status} ${contentType} body: ${excerpt(text)}` },
    );
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw new UpstreamError(`${SERVICE} sent a body that is not valid JSON (truncated or malformed).`, null, {
      detail: `${text.length} characters: ${excerpt(text)}`,
    });
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    throw new UpstreamError(`${SERVICE} sent JSON that is not an object of result tables.`, null, { detail: excerpt(text) });
  }
  return Payload.parsed(text, payload);
}

/** The failure class of a ServiceExceptionReport, by its text and the HTTP status it came with. */
function reportError(status: number, report: string): LoamError {
  const first = firstLine(report);
  const detail = `HTTP ${status} ServiceException: ${printable(report).slice(0, DETAIL_LENGTH)}`;
  if (/^your query timed out/i.test(first)) {
    // SDA's own limit, not Loam's deadline; the same query would run as long again, so it is never retried.
    return new UpstreamTimeoutError(`${SERVICE} stopped the query at its own time limit before answering.`, null, { detail });
  }
  if (/^invalid query:/i.test(first)) {
    if (status === 400) {
      return new UpstreamError(
        `${SERVICE} refused Loam's query as invalid (${first}); this is a fault in Loam's query, and retrying will not help.`,
        null,
        { detail, retryable: false },
      );
    }
    return new UpstreamError(`${SERVICE} answered HTTP ${status}: ${first}`, null, { detail });
  }
  return new UpstreamError(`${SERVICE} answered HTTP ${status} with an error report instead of data.`, null, { detail });
}

/** The text of SDA's `<ServiceException>` element, entities unescaped, lines kept; null when there is none. */
export function serviceExceptionText(body: string): string | null {
  // A report is an XML document; a JSON answer (which could hold that word in its data) is never one.
  if (!/^\uFEFF?\s*</.test(body.slice(0, 100))) return null;
  const match = /<ServiceException(?:\s[^>]*)?>([\s\S]*?)<\/ServiceException>/i.exec(body);
  return match ? unescapeXml(match[1]!) : null;
}

/** The first line of SDA's `<ServiceException>` text, safe to show a client, capped; null when there is none. */
export function serviceException(body: string, maxLength = 300): string | null {
  const text = serviceExceptionText(body);
  if (text === null) return null;
  const line = firstLine(text);
  if (!line) return null;
  return line.length > maxLength ? `${line.slice(0, maxLength - 1)}…` : line;
}

// A Windows path (C:\inetpub\..., \\server\share\...): SDA runs on IIS, and a stack trace may follow.
const WINDOWS_PATH = /(?:\b[A-Za-z]:|\\\\[^\\\s]+)\\[^\s'"<>|]*/g;

/** The first non-empty line, printable, with server paths masked and at most 300 characters. */
function firstLine(text: string): string {
  const line = (text.slice(0, 5000).split(/\r?\n|\r/).find((l) => l.trim() !== "") ?? "").slice(0, 2000);
  const safe = printable(line.replace(WINDOWS_PATH, "[path]"));
  return safe.length > 300 ? `${safe.slice(0, 299)}…` : safe;
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

function isJsonType(contentType: string): boolean {
  const mime = contentType.split(";")[0]!.trim().toLowerCase();
  return mime === "application/json" || mime === "text/json" || mime.endsWith("+json");
}

/** A content type fit for a client message: the usual characters only, else a fixed word. */
function mediaType(contentType: string): string {
  const text = printable(contentType).slice(0, 100);
  if (!text) return "none";
  return /^[\w.+\-/;= ]+$/.test(text) ? text : "unrecognised";
}

/** Collapse whitespace and drop control characters, so upstream text cannot break a message or a log line. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s+/g, " ").trim();
}

function excerpt(text: string): string {
  const flat = printable(text);
  return flat.length > DETAIL_LENGTH ? `${flat.slice(0, DETAIL_LENGTH - 1)}…` : flat;
}
