/**
 * The path of a request as the rate limit and the metrics see it. Bun hands over `request.url` as
 * an absolute URL only when the `Host` header is a valid host; with an odd Host (`a/b`, `a b`, `a@b`)
 * or none (HTTP/1.0) it is the bare request target (`/v1/...?...`). Cutting the path at "the slash
 * after the scheme" then misses it, and the request escaped the count. Both forms are read here, and
 * a trailing slash is dropped so that `/health/` and `/health` are one route for counting.
 */

/**
 * An absolute URL whose path holds only characters the URL parser keeps as they are (no dot
 * segment, percent escape or backslash to normalize): its path is the text itself, read without
 * building a URL per request. Anything else goes through `new URL`.
 */
const PLAIN_ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\\]*(\/[A-Za-z0-9_/-]*)(?:[?#]|$)/;

/** The path of an absolute URL or a bare request target, without query or fragment. */
export function requestPath(url: string): string {
  const plain = PLAIN_ABSOLUTE.exec(url);
  if (plain) return plain[1] as string;
  let path: string;
  if (url.startsWith("/")) {
    // A bare target: never parsed as a URL, since `//host/x` would read as a host.
    path = url;
  } else {
    try {
      path = new URL(url).pathname;
    } catch {
      return "/";
    }
  }
  const end = path.search(/[?#]/);
  if (end !== -1) path = path.slice(0, end);
  return path === "" ? "/" : path;
}

/** The path with trailing slashes dropped (`/health/` → `/health`; `/` stays `/`). */
export function routePath(url: string): string {
  const path = requestPath(url).replace(/\/+$/, "");
  return path === "" ? "/" : path;
}

/**
 * Whether a path holds a percent-escape no decoder accepts (docs/decisions.md#malformed-escapes): a
 * '%' without two hex digits after it, or escapes whose bytes are not UTF-8. The router hands such a
 * path parameter to its route as null, so the boundary refuses the request before any route sees it.
 */
export function hasMalformedEscape(path: string): boolean {
  if (!path.includes("%")) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/** The query string after `?`, or "" (fragment dropped), for absolute URLs and bare targets alike. */
export function requestQuery(url: string): string {
  const start = url.indexOf("?");
  if (start === -1) return "";
  const end = url.indexOf("#", start);
  return url.slice(start + 1, end === -1 ? undefined : end);
}

/**
 * Elysia finds a request's path at the first `/` after a fixed offset of its URL (ElysiaConfig
 * `handler.standardHostname`): after `http://` in this app (createApp), so a one-letter Host such as
 * `Host: a` (`http://a/health`) is routed; Elysia's default offset, 11, assumed a host of four
 * characters or more and every route answered 404. A bare request target (`/v1/...`: an odd Host, or
 * HTTP/1.0 without one) has no such prefix: the front door routes it as a copy with an absolute URL
 * on a placeholder host, marked here so that its links stay relative as its own URL's would, and no
 * answer is remembered under the placeholder (docs/decisions.md#host-header).
 */
const BARE_TARGET_ORIGIN = "http://bare-target.invalid";
const rebuilt = new WeakSet<Request>();

/** The request Elysia can route: itself, or for a bare target a copy with an absolute URL. */
export function routableRequest(request: Request): Request {
  if (request.url.charCodeAt(0) !== 47 /* "/" */) return request;
  const routable = new Request(BARE_TARGET_ORIGIN + request.url, request);
  rebuilt.add(routable);
  return routable;
}

/** A copy made by routableRequest: its URL's origin is a placeholder, not the client's. */
export function isBareTarget(request: Request): boolean {
  return rebuilt.has(request);
}

/** The origin for links in a body: the request's own when its URL is absolute, else "" (links stay relative). */
export function requestOrigin(request: Request): string {
  if (rebuilt.has(request)) return "";
  try {
    return new URL(request.url).origin;
  } catch {
    return "";
  }
}
