/**
 * Which representation of a data answer a request asks for, on the routes that offer a table
 * (docs/architecture.md#tables): `format` wins when given; otherwise an Accept header that names
 * text/csv at least as strongly as application/json. A browser's `*\/*` never selects CSV, so a
 * link opened in a browser still shows JSON.
 */
import { ValidationError } from "../errors";
import { queryOfRequest, statedQuery } from "./query";

export type Representation = "json" | "csv";

/** The weight an Accept header gives a media type (the exact type only; absent → 0). */
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
 * The route's query schema already refused any `format` but json and csv (FORMAT_PARAMETER, before
 * the service ran), and its reader hands the validated value over (statedQuery); the check here only
 * keeps a route that forgot the parameter from sending JSON to a client that asked for something else.
 */
export function representationOf(request: Request): Representation {
  // The route's strict reader has validated what the client gave; a route without one is read here.
  const stated = statedQuery(request);
  const format = stated ? (stated.format === undefined ? null : String(stated.format)) : (queryOfRequest(request).values.get("format") ?? null);
  if (format !== null) {
    if (format === "csv" || format === "json") return format;
    throw new ValidationError(`Query parameter 'format' must be one of json, csv; got '${format.slice(0, 20)}'.`);
  }
  const accept = request.headers.get("accept");
  if (!accept || !accept.toLowerCase().includes("text/csv")) return "json";
  const csv = weightOf(accept, "text/csv");
  return csv > 0 && csv >= weightOf(accept, "application/json") ? "csv" : "json";
}
