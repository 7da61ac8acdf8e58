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

export function etagMatches(request: Request, etag: string): boolean {
  const header = request.headers.get("if-none-match");
  if (header === null) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag);
}

type Headers = Record<string, string | number | undefined | null> & Record<string, unknown>;

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
  if (etagMatches(request, etag)) return notModified(set.headers as Headers);
});

interface PreparedAnswer<T> {
  etag: string;
  maxAgeSeconds: number;
  body: () => T;
}

/** Send a prepared data answer: validators first, the body only when the client lacks it. */
export function sendPrepared<T>(prepared: PreparedAnswer<T>, request: Request, set: { headers: Record<string, unknown> }): T {
  set.headers["etag"] = prepared.etag;
  set.headers["cache-control"] = `public, max-age=${prepared.maxAgeSeconds}`;
  // Elysia passes a Response through untouched; typed as T so the route keeps its response model.
  if (etagMatches(request, prepared.etag)) return notModified(set.headers as Headers) as unknown as T;
  return prepared.body();
}
