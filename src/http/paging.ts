/**
 * Where the next page of a cursor-paged collection is (docs/decisions.md#cursors): the request's own
 * URL with its `cursor` replaced, every other parameter kept as the client wrote it, and the RFC 8288
 * Link header that names it. The cursor itself is made by src/domain/cursor.ts.
 */
import { parsedQuery } from "./query";
import { requestOrigin, requestPath } from "./request-path";

/** The request's path and query with `cursor` set: a relative reference, so it holds behind any proxy. */
export function nextPageHref(request: Request, cursor: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of parsedQuery(request.url).pairs) if (name !== "cursor") params.append(name, value);
  params.append("cursor", cursor);
  return `${requestPath(request.url)}?${params.toString()}`;
}

/** The same, absolute when the request's URL is (OGC API links: GDAL and OWSLib follow them as given). */
export function absoluteNextPage(request: Request, cursor: string): string {
  return `${requestOrigin(request)}${nextPageHref(request, cursor)}`;
}

/** Sets `Link: <href>; rel="next"` when there is a next page. */
export function setNextLink(headers: Record<string, unknown>, href: string | null): void {
  if (href !== null) headers["link"] = `<${href}>; rel="next"`;
}
