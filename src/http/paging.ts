/**
 * Where the next page of a cursor-paged collection is (docs/decisions.md#cursors): the request's own
 * URL with its `cursor` replaced, and the RFC 8288 Link header that names it. The cursor itself is
 * made by src/domain/cursor.ts.
 *
 * The link is the query in one canonical spelling: each parameter once (its first value; a repeat
 * with another value was refused before the route), in the order first given, with commas written
 * as commas. GDAL and QGIS append their connection URL's query to every page they ask for, so a link
 * that kept every repeat, or spelt `,` as `%2C` (not equal as text to the client's `,`), grew by the
 * connection's query on every page until the URI bound refused it (docs/decisions.md#ogc-api-features).
 */
import { parsedQuery } from "./query";
import { requestOrigin, requestPath } from "./request-path";

/** One parameter as a canonical query writes it: percent-encoded, but a comma (a list separator) literal. */
function canonicalPair(name: string, value: string): string {
  return `${encodeURIComponent(name)}=${encodeURIComponent(value).replaceAll("%2C", ",")}`;
}

/** The request's query in its canonical spelling, with `cursor` set (or dropped when null). */
export function canonicalQuery(request: Request, cursor: string | null): string {
  const pairs = [...parsedQuery(request.url).values].filter(([name]) => name !== "cursor").map(([name, value]) => canonicalPair(name, value));
  if (cursor !== null) pairs.push(canonicalPair("cursor", cursor));
  return pairs.join("&");
}

/** The request's path and query with `cursor` set: a relative reference, so it holds behind any proxy. */
export function nextPageHref(request: Request, cursor: string): string {
  return `${requestPath(request.url)}?${canonicalQuery(request, cursor)}`;
}

/** The same, absolute when the request's URL is (OGC API links: GDAL and OWSLib follow them as given). */
export function absoluteNextPage(request: Request, cursor: string): string {
  return `${requestOrigin(request)}${nextPageHref(request, cursor)}`;
}

/** Sets `Link: <href>; rel="next"` when there is a next page. */
export function setNextLink(headers: Record<string, unknown>, href: string | null): void {
  if (href !== null) headers["link"] = `<${href}>; rel="next"`;
}
