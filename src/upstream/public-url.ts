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
