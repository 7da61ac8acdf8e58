/**
 * CSV on the data routes: `format=csv`, or an Accept header that prefers `text/csv`. A prototype that
 * sits after the JSON pipeline: it takes the finished JSON answer (ETag, Cache-Control, maybe
 * compressed), turns a 200 into the table, and leaves every other status alone, so errors stay
 * JSON ErrorResponse and a JSON 304 stays a 304. The CSV carries its own entity tag (the JSON tag
 * with a `-csv` suffix), so a cache never confuses the two representations.
 *
 * Once the response pipeline can render a body by media type, `CSV_ROUTES` is what it needs; this
 * hook (which decodes the JSON it was just handed) can then go.
 */
import { Elysia } from "elysia";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { ValidationError } from "../errors";
import { chooseEncoding, compress, COMPRESS_MIN_BYTES, encodedTag } from "../http/encoding";
import { locationCsv, pedonCollectionCsv, pedonCsv } from "./flatten";
import { seriesCsv } from "./series";

export const CSV_MEDIA_TYPE = "text/csv; charset=utf-8; header=present";

interface CsvRoute {
  render: (body: any) => string;
  /** The download's file name, from what the URL asked for. */
  fileName: (url: URL, params: Record<string, string>) => string;
}

const safe = (text: string) => text.replace(/[^0-9A-Za-z._-]+/g, "_").slice(0, 60);

/** Route pattern → its table. The summary and map-unit routes join here when they exist. */
export const CSV_ROUTES: Record<string, CsvRoute> = {
  "/v1/soil/location": {
    render: locationCsv,
    fileName: (url) => `loam-soil-location_${safe(url.searchParams.get("latitude") ?? "")}_${safe(url.searchParams.get("longitude") ?? "")}.csv`,
  },
  "/v1/pedons": { render: pedonCollectionCsv, fileName: (url) => `loam-pedons_${safe(url.searchParams.get("bbox") ?? "")}.csv` },
  "/v1/pedons/:pedon_key": { render: pedonCsv, fileName: (_, params) => `loam-pedon_${safe((params.pedon_key ?? "").toUpperCase())}.csv` },
  "/v1/series/:name": { render: seriesCsv, fileName: (_, params) => `loam-series_${safe((params.name ?? "").toUpperCase())}.csv` },
};

/** The weight an Accept header gives a media type (exact type only; absent → 0). */
function weightOf(accept: string, type: string): number {
  for (const part of accept.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    if (name!.trim() !== type) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    return q === undefined ? 1 : Number(q);
  }
  return 0;
}

/**
 * `format` wins when given (json or csv; anything else is a 422); otherwise CSV when the Accept header
 * names text/csv at least as strongly as application/json. A browser's `*\/*` never selects CSV.
 */
export function wantsCsv(request: Request): boolean {
  const query = request.url.indexOf("?");
  const format = query === -1 ? null : new URLSearchParams(request.url.slice(query + 1)).get("format");
  if (format !== null) {
    if (format === "csv") return true;
    if (format === "json") return false;
    throw new ValidationError(`Query parameter 'format' must be json or csv; got '${format.slice(0, 20)}'.`);
  }
  const accept = request.headers.get("accept");
  if (!accept) return false;
  const csv = weightOf(accept, "text/csv");
  return csv > 0 && csv >= weightOf(accept, "application/json");
}

function decoded(bytes: Uint8Array, encoding: string | null): string {
  const plain = encoding === "br" ? brotliDecompressSync(bytes) : encoding === "gzip" ? gunzipSync(bytes) : bytes;
  return new TextDecoder().decode(plain);
}

function ifNoneMatchHas(request: Request, etag: string): boolean {
  const header = request.headers.get("if-none-match");
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, "");
    return tag === "*" || tag.replace(/-(?:br|gzip)"$/, '"') === etag;
  });
}

async function csvAnswer(route: CsvRoute, json: Response, request: Request, params: Record<string, string>): Promise<Response> {
  const headers = new Headers(json.headers);
  const text = decoded(new Uint8Array(await json.arrayBuffer()), headers.get("content-encoding"));
  const csv = route.render(JSON.parse(text));
  headers.delete("content-encoding");
  headers.delete("content-length");
  headers.set("content-type", CSV_MEDIA_TYPE);
  headers.set("content-disposition", `attachment; filename="${route.fileName(new URL(request.url), params)}"`);
  headers.set("vary", "Accept, Accept-Encoding");
  const jsonTag = headers.get("etag")?.replace(/-(?:br|gzip)"$/, '"');
  const etag = jsonTag?.endsWith('"') ? `${jsonTag.slice(0, -1)}-csv"` : undefined;
  if (etag) {
    headers.set("etag", etag);
    if (ifNoneMatchHas(request, etag)) {
      headers.delete("content-type");
      headers.delete("content-disposition");
      return new Response(null, { status: 304, headers });
    }
  }
  const encoding = csv.length > COMPRESS_MIN_BYTES ? chooseEncoding(request.headers.get("accept-encoding")) : null;
  if (!encoding) return new Response(csv, { status: 200, headers });
  headers.set("content-encoding", encoding);
  if (etag) headers.set("etag", encodedTag(etag, encoding));
  return new Response(compress(csv, encoding) as Uint8Array<ArrayBuffer>, { status: 200, headers });
}

export const tables = new Elysia({ name: "loam.tables" })
  // Checked before the route runs, so `format=xml` is a 422 without an upstream call.
  .onBeforeHandle({ as: "global" }, ({ request, route }) => {
    if (route in CSV_ROUTES) wantsCsv(request);
  })
  .onAfterHandle({ as: "global" }, async ({ request, response, route, params }) => {
    const table = CSV_ROUTES[route];
    if (!table || !(response instanceof Response) || response.status !== 200) return;
    if (!(response.headers.get("content-type") ?? "").startsWith("application/json")) return;
    if (!wantsCsv(request)) return;
    return csvAnswer(table, response, request, (params ?? {}) as Record<string, string>);
  });
