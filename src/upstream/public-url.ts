/**
 * An upstream URL as it may be shown (docs/decisions.md#url-secrets): scheme, host and path only,
 * without user info (`user:pass@`), query string or fragment, where operators put credentials
 * (`?token=`). It is the one masking function of every configured upstream URL (SDA_URL, OSD_URL,
 * GEOCHEM_URL, and any later provider's): every URL Loam serves (`source_url`, /metrics, /health),
 * logs (the start line, configuration errors) or writes into a cache key goes through it, mostly by
 * way of `remoteSource` below; the transports keep the full URL to send their requests. Works on URL
 * patterns too (OSD_URL's `{letter}` and `{name}` stay as written: the path is not re-encoded).
 */
import type { SourceDescription } from "./transport";

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const QUERY_OR_FRAGMENT = /[?#][\s\S]*$/;

export function publicUrl(url: string): string {
  const scheme = SCHEME.exec(url)?.[0] ?? "";
  const rest = url.slice(scheme.length);
  let parsed: URL | null = null;
  try {
    parsed = scheme ? new URL(url) : null;
  } catch {
    parsed = null;
  }
  if (parsed) {
    // As the URL parser reads it, the authority ends at the first '/', '\', '?' or '#'; the path after it is kept as written.
    const end = rest.search(/[/\\?#]/);
    const path = end === -1 ? "" : rest.slice(end).replace(QUERY_OR_FRAGMENT, "");
    return `${parsed.protocol}//${parsed.host}${path}`;
  }
  // Not a URL (a configuration error quotes it): all up to the last '@' before the path may be a
  // password, '?', '#' and '@' included, so all of it goes.
  const slash = rest.search(/[/\\]/);
  const at = (slash === -1 ? rest : rest.slice(0, slash)).lastIndexOf("@");
  return (scheme + rest.slice(at + 1)).replace(QUERY_OR_FRAGMENT, "");
}

/**
 * What a remote transport's `describe()` gives (its `location` is served as `source_url`, shown in
 * /metrics and written into every cache key through `sourceIdentity`): the configured URL, masked.
 * Every HTTP transport builds its description here, so none can hand out the raw URL.
 */
export function remoteSource(kind: string, configuredUrl: string): SourceDescription {
  return { kind, location: publicUrl(configuredUrl) };
}

const URL_IN_TEXT = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'<>]+/g;
/** `name=value` where the name says secret (token=, api_key=, password=, sig=...), in a query, a form or prose. */
const SECRET_PARAMETER = /\b([A-Za-z_-]*(?:token|key|secret|passw(?:or)?d|pwd|signature|sig|auth|session|credential)[A-Za-z_-]*)\s*=\s*("?)[^&\s"'<>;,]*/gi;
/** A credential after its scheme (an echoed Authorization header, a cookie). */
const CREDENTIAL = /\b(Basic|Bearer|Digest|Token|Negotiate)\s+[A-Za-z0-9+/=._~-]+/gi;
const COOKIE = /\b((?:set-)?cookie)\s*:\s*[^\r\n]*/gi;
/** A number with 3 or more decimals (a coordinate to about 100 m or better): kept to 0.1, as the access log keeps coordinates. */
const PRECISE_NUMBER = /-?\b\d{1,3}\.\d{3,}\b/g;

/**
 * Upstream text (an error page's excerpt) as it may be logged (docs/decisions.md#url-secrets): an upstream
 * that echoes the request may put the operator's credentials (a URL's user info or `?token=`, an
 * Authorization header, a cookie) and the client's exact coordinates into its page. Every URL in it is
 * masked by `publicUrl`, every secret-named parameter and credential is replaced by `[masked]`, every
 * number with 3 or more decimals is kept to one, and the rest is cut to `max` printable characters.
 */
export function maskedText(text: string, max = 300): string {
  const masked = text
    .slice(0, max * 8)
    .replace(URL_IN_TEXT, (url) => publicUrl(url))
    .replace(SECRET_PARAMETER, (_, name: string, quote: string) => `${name}=${quote}[masked]`)
    .replace(CREDENTIAL, (_, scheme: string) => `${scheme} [masked]`)
    .replace(COOKIE, (_, name: string) => `${name}: [masked]`)
    .replace(PRECISE_NUMBER, (number) => Number(number).toFixed(1))
    .replace(/[^\x20-\x7e\u00a0-\uffff]+/g, " ");
  return masked.length > max ? `${masked.slice(0, max - 1)}…` : masked;
}
