/**
 * An upstream URL as it may be shown (docs/decisions.md#url-secrets): without userinfo (`user:pass@`),
 * query string or fragment, where operators put credentials (`?token=`). Every URL Loam serves
 * (`source_url`, /metrics) or logs (the start line, configuration errors) goes through it; the
 * transports keep the full URL to send their requests. Works on URL patterns too (OSD_URL's
 * `{letter}` and `{name}` stay as written: a URL parser would percent-encode them).
 */
export function publicUrl(url: string): string {
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/, "$1").replace(/[?#][\s\S]*$/, "");
}
