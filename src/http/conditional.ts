/**
 * HTTP validators (DESIGN §3): an ETag on every successful JSON answer and 304 for a matching
 * If-None-Match. Data routes derive their tag from what determines the body (query, upstream
 * answer, version) so a cached answer keeps its tag while its age grows; other routes hash the body.
 */
import { Elysia } from "elysia";
import { VERSION } from "../version";

export function entityTag(...parts: (string | number)[]): string {
  return `"${Bun.hash(`${VERSION}|${parts.join("|")}`).toString(36)}"`;
}

/** The client's tag that matches `etag` (its own representation's variant), or null. */
export function matchingTag(request: Request, etag: string): string | null {
  const header = request.headers.get("if-none-match");
  if (header === null) return null;
  if (header.trim() === "*") return etag;
  // A client holding the gzip or brotli representation sends that variant's tag (see compression.ts).
  for (const candidate of header.split(",")) {
    const tag = candidate.trim().replace(/^W\//, "");
    if (tag.replace(/-(?:br|gzip)"$/, '"') === etag) return tag;
  }
  return null;
}


export type Headers = Record<string, string | number | undefined | null> & Record<string, unknown>;

/** A 304 that keeps the headers already set (request id, rate limit, ETag, Cache-Control). */
export function notModified(headers: Headers): Response {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && value !== null) out.set(name, String(value));
  return new Response(null, { status: 304, headers: out });
}

/** Routes that did not set an ETag get one from their JSON body. */
export const bodyEntityTags = new Elysia({ name: "loam.body-etags" }).onAfterHandle({ as: "global" }, ({ request, response, set }) => {
  if (set.headers["etag"] || response instanceof Response || response === null || typeof response !== "object") return;
  if (set.status !== undefined && set.status !== 200) return;
  if (request.method !== "GET" && request.method !== "HEAD") return;
  const etag = entityTag(JSON.stringify(response));
  set.headers["etag"] = etag;
  const matched = matchingTag(request, etag);
  if (matched) return notModified({ ...(set.headers as Headers), etag: matched });
});
