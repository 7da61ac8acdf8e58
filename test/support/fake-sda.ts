/**
 * A local stand-in for USDA Soil Data Access (tests only; the real service is unreachable here).
 *
 * It reads the T-SQL that the providers' queries write, recognises which logical query it is (one
 * entry of RECOGNIZERS per query kind), asks `answerer` (normally a SnapshotTransport) for its answer,
 * and sends it in SDA's wire format: `{"Table": [[names], [metadata], ...rows of strings or null]}`.
 * Faults reproduce the ways SDA fails in the wild, on demand; where a real answer was recorded (the
 * empty result, the invalid-query and timed-out reports) the fake sends those captured bytes with
 * their status and content type. Like SDA, it takes the request as JSON or as a form
 * (`query=...&format=...`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Transport } from "../../src/upstream/transport";
import { queryKind, type LogicalQuery } from "./queries";

export type SdaFault =
  | "hang" // accepts the request, never answers
  | "slow-drip" // sends headers, then one byte every ~200 ms
  | "http-500" // status 500 with a <ServiceException> XML body
  | "maintenance" // 200 text/html: the nightly maintenance notice
  | "truncated-json" // the real answer cut in half
  | "empty" // captured empty.json: {} (SDA's empty result set)
  | "invalid-query" // captured invalid_column_400.xml: 400 text/xml, "Invalid query: Invalid column name ..."
  | "timed-out" // captured timed_out_200.xml: 200 text/xml, "Your query timed out."
  | "reset" // the connection is closed before any answer (ECONNRESET at the client)
  | "http-502" // a gateway's 502 HTML page (not captured: IIS's standard text)
  | "http-503" // a gateway's 503 HTML page (not captured: IIS's standard text)
  | "wrong-content-type" // the real answer as text/plain
  | "not-table" // valid JSON, not the Table shape
  | "endless"; // a chunked JSON body that never ends (body-cap tests)

/** The recorded SDA answers (docs/sda-captures under LOAM_DATA_DIR), with the status and content type they came with. */
export const CAPTURES_DIR = join(process.env.LOAM_DATA_DIR ?? "datasets", "docs", "sda-captures");
export const CAPTURES = {
  "ks053_awc_metadata.json": { status: 200, contentType: "application/json" },
  "wi_natmusym_metadata.json": { status: 200, contentType: "application/json" },
  "dirtio_format_json.json": { status: 200, contentType: "application/json" },
  "empty.json": { status: 200, contentType: "application/json" },
  "invalid_column_400.xml": { status: 400, contentType: "text/xml" },
  "timed_out_200.xml": { status: 200, contentType: "text/xml" },
} as const;
export type CaptureName = keyof typeof CAPTURES;

/** The exact bytes of one capture. */
export function readCapture(name: CaptureName): Uint8Array<ArrayBuffer> {
  return new Uint8Array(readFileSync(join(CAPTURES_DIR, name)));
}

/** An answer given verbatim, whatever was asked. */
export interface FixedAnswer {
  status: number;
  contentType: string;
  body: string | Uint8Array<ArrayBuffer>;
}

export interface FakeSda {
  url: string;
  close(): void;
  setFault(fault: SdaFault | null): void;
  /** Faults for the next requests, one each, before the standing fault applies again. */
  queueFaults(...faults: SdaFault[]): void;
  /** Answer every request with these bytes (null: answer the query again). Faults take precedence. */
  respondWith(answer: FixedAnswer | null): void;
  /** Answer every request with a capture's bytes, status and content type. */
  serveCapture(name: CaptureName | null): void;
  /** POST requests received so far, whatever was answered. */
  readonly calls: number;
  /** SQL text of the most recent requests, oldest first. */
  readonly lastQueries: string[];
  /** How each of the most recent requests sent its query ("json" or "form"), oldest first. */
  readonly lastEncodings: ("json" | "form")[];
  /** When each POST arrived (performance.now()), oldest first. */
  readonly callTimes: number[];
  /** Bytes the `endless` and `slow-drip` faults have pushed so far. */
  readonly bytesStreamed: number;
}

export const MAINTENANCE_PAGE =
  "<html><head><title>Soil Data Access</title></head><body><p>Site is under daily maintenance from 12:30 AM CST to 12:45 AM CST. Please try after 12:45 AM CST.</p></body></html>";

const JSON_TYPE = "application/json; charset=utf-8";
const NUMBER = String.raw`(-?\d+(?:\.\d+)?)`;

/**
 * How the fake tells the providers' T-SQL apart: one entry per query kind, tried in order, each
 * reading its parameters back out of the text or answering null. A new query kind is one new entry.
 */
export const RECOGNIZERS: ((sql: string) => LogicalQuery | null)[] = [
  function ssurgoPolygonExtent(sql) {
    return /STEnvelope\(\)[\s\S]*FROM sapolygon/i.test(sql) ? { kind: "ssurgo_polygon_extent" } : null;
  },
  function ssurgoPolygonByKey(sql) {
    const key = /FROM mupolygon AS P[\s\S]*WHERE P\.mupolygonkey = (\d+)$/i.exec(sql.trim());
    return key ? { kind: "ssurgo_polygon", key: key[1] } : null;
  },
  function labExtent(sql) {
    return /^SELECT MIN\(p\.longitude_decimal_degrees\)/i.test(sql.trim()) ? { kind: "lab_extent" } : null;
  },
  function ssurgoMapUnitsAtPoint(sql) {
    // The point's map units with the map-unit query's joins (its representative texture group): before the point query's.
    const point = new RegExp(String.raw`WktWgs84\('POINT\(${NUMBER} ${NUMBER}\)'\)`, "i").exec(sql);
    return point && /JOIN chtexturegrp/i.test(sql) ? { kind: "ssurgo_mapunits_at_point", longitude: Number(point[1]), latitude: Number(point[2]) } : null;
  },
  function ssurgoPoint(sql) {
    const point = new RegExp(String.raw`WktWgs84\('POINT\(${NUMBER} ${NUMBER}\)'\)`, "i").exec(sql);
    return point && { kind: "ssurgo_point", longitude: Number(point[1]), latitude: Number(point[2]) };
  },
  function ssurgoMapUnit(sql) {
    const mapUnit = /WHERE mu\.mukey = (\d+) AND/i.exec(sql);
    return mapUnit && { kind: "ssurgo_mapunit", mapUnitKey: mapUnit[1]! };
  },
  function ssurgoAreaPolygons(sql) {
    // The area query cuts each polygon: STIntersection(geometry::STGeomFromText('POLYGON ((...), (...))', 4326)).
    const area = /STIntersection\(geometry::STGeomFromText\('POLYGON \(([^']*)\)', 4326\)\)/i.exec(sql);
    const top = /FROM mupolygon AS P/i.test(sql) && /SELECT TOP \((\d+)\)/i.exec(sql);
    if (!area || !top) return null;
    const rings = area[1]!.slice(1, -1).split(/\),\s*\(/).map((ring) => ring.split(",").map((p) => p.trim().split(/\s+/).map(Number)));
    return { kind: "ssurgo_area_polygons", rings, limit: Number(top[1]) - 1 };
  },
  function ssurgoPolygons(sql) {
    const box = new RegExp(String.raw`STIntersects\(geometry::STGeomFromText\('POLYGON\(\(${NUMBER} ${NUMBER}, ${NUMBER} ${NUMBER}, ${NUMBER} ${NUMBER}`, "i").exec(sql);
    const top = /FROM mupolygon AS P/i.test(sql) && /SELECT TOP \((\d+)\)/i.exec(sql);
    const after = /AND P\.mupolygonkey > (\d+)/i.exec(sql);
    return box && top
      ? { kind: "ssurgo_polygons", bbox: [Number(box[1]), Number(box[2]), Number(box[5]), Number(box[6])], limit: Number(top[1]) - 1, ...(after ? { after: after[1] } : {}) }
      : null;
  },
  function labNearest(sql) {
    // The nearest pedons with their layers: the inner box query is aliased n, so the box and pedon recognizers never match it.
    if (!/FROM lab_combine_nasis_ncss AS n/i.test(sql)) return null;
    const top = /SELECT TOP \((\d+)\) n\.pedon_key/i.exec(sql);
    const lon = new RegExp(String.raw`n\.longitude_decimal_degrees BETWEEN ${NUMBER} AND ${NUMBER}`, "i").exec(sql);
    const lat = new RegExp(String.raw`n\.latitude_decimal_degrees BETWEEN ${NUMBER} AND ${NUMBER}`, "i").exec(sql);
    const fromLat = new RegExp(String.raw`\(n\.latitude_decimal_degrees - ${NUMBER}\)`, "i").exec(sql);
    const fromLon = new RegExp(String.raw`\(n\.longitude_decimal_degrees - ${NUMBER}\)`, "i").exec(sql);
    if (!top || !lon || !lat || !fromLat || !fromLon) return null;
    return {
      kind: "lab_nearest",
      latitude: Number(fromLat[1]),
      longitude: Number(fromLon[1]),
      bbox: [Number(lon[1]), Number(lat[1]), Number(lon[2]), Number(lat[2])],
      limit: Number(top[1]),
    };
  },
  function labBbox(sql) {
    if (!LAB_PEDONS.test(sql)) return null;
    const top = /SELECT TOP \((\d+)\)/i.exec(sql);
    const lon = new RegExp(String.raw`p\.longitude_decimal_degrees BETWEEN ${NUMBER} AND ${NUMBER}`, "i").exec(sql);
    const lat = new RegExp(String.raw`p\.latitude_decimal_degrees BETWEEN ${NUMBER} AND ${NUMBER}`, "i").exec(sql);
    if (!top || !lon || !lat) return null;
    return {
      kind: "lab_bbox",
      bbox: [Number(lon[1]), Number(lat[1]), Number(lon[2]), Number(lat[2])],
      limit: Number(top[1]) - 1, // the template asks for one row more than the page
    };
  },
  function labPedon(sql) {
    if (!LAB_PEDONS.test(sql)) return null;
    const byKey = /WHERE p\.pedon_key = (\d+)/i.exec(sql);
    if (byKey) return { kind: "lab_pedon", pedonKey: { form: "pedon_key", value: Number(byKey[1]) } };
    const bySample = /WHERE p\.pedlabsampnum = '([0-9A-Z]+)'/i.exec(sql);
    return bySample && { kind: "lab_pedon", pedonKey: { form: "pedlabsampnum", value: bySample[1]! } };
  },
];

const LAB_PEDONS = /FROM lab_combine_nasis_ncss AS p/i;

/** Which logical query a T-SQL text of the providers' queries is; null when it is none of them. */
export function logicalQueryFromSql(sql: string): LogicalQuery | null {
  for (const recognize of RECOGNIZERS) {
    const query = recognize(sql);
    if (query) return query;
  }
  return null;
}

function xmlEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/'/g, "&apos;").replace(/"/g, "&quot;");
}

/** SDA's error answer: an XML document whose ServiceException element holds the message. */
function serviceException(status: number, message: string): Response {
  const body = `<?xml version="1.0" encoding="utf-8"?>\n<ServiceExceptionReport><ServiceException>${xmlEscape(message)}</ServiceException></ServiceExceptionReport>`;
  return new Response(body, { status, headers: { "content-type": "text/xml; charset=utf-8" } });
}

function captured(name: CaptureName): Response {
  const { status, contentType } = CAPTURES[name];
  return new Response(readCapture(name), { status, headers: { "content-type": contentType } });
}

/** What IIS in front of SDA sends when the service behind it fails (its standard wording; no SDA capture). */
function gatewayPage(status: 502 | 503): Response {
  const text = status === 502 ? "502 - Web server received an invalid response while acting as a gateway or proxy server." : "503 - Service Unavailable";
  return new Response(`<html><head><title>${text}</title></head><body><h1>${text}</h1></body></html>`, {
    status,
    headers: { "content-type": "text/html" },
  });
}

/** A response whose body fails at once: Bun closes the socket, the client sees ECONNRESET. */
function connectionReset(): Response {
  return new Response(
    new ReadableStream({
      pull(controller) {
        controller.error(undefined);
      },
    }),
  );
}

/** The query and format of a request, sent as JSON or as a form, as SDA accepts both. */
async function readRequest(request: Request): Promise<{ query: unknown; format: unknown; encoding: "json" | "form" } | null> {
  const type = request.headers.get("content-type") ?? "";
  try {
    if (/application\/x-www-form-urlencoded/i.test(type)) {
      const form = new URLSearchParams(await request.text());
      return { query: form.get("query"), format: form.get("format"), encoding: "form" };
    }
    const body = (await request.json()) as { query?: unknown; format?: unknown };
    return { query: body.query, format: body.format, encoding: "json" };
  } catch {
    return null;
  }
}

export function startFakeSda({ answerer }: { answerer: Transport }): FakeSda {
  let fault: SdaFault | null = null;
  const queued: SdaFault[] = [];
  let fixed: FixedAnswer | null = null;
  let calls = 0;
  let bytesStreamed = 0;
  const lastQueries: string[] = [];
  const lastEncodings: ("json" | "form")[] = [];
  const callTimes: number[] = [];
  const encoder = new TextEncoder();

  /** A body that dribbles `text` one byte at a time, or repeats a chunk forever when `text` is null. */
  function stream(text: string | null, intervalMs: number): ReadableStream<Uint8Array> {
    let timer: ReturnType<typeof setInterval> | undefined;
    const bytes = encoder.encode(text ?? "");
    const chunk = encoder.encode(`${" ".repeat(65_535)}\n`);
    let sent = 0;
    return new ReadableStream<Uint8Array>({
      start(controller) {
        const push = () => {
          try {
            if (text === null) {
              controller.enqueue(chunk);
              bytesStreamed += chunk.byteLength;
            } else if (sent < bytes.length) {
              controller.enqueue(bytes.subarray(sent, sent + 1));
              sent += 1;
              bytesStreamed += 1;
            } else {
              clearInterval(timer);
              controller.close();
            }
          } catch {
            clearInterval(timer);
          }
        };
        if (text === null) controller.enqueue(encoder.encode('{"Table":[')); // headers go out with the first bytes
        push();
        timer = setInterval(push, intervalMs);
      },
      cancel() {
        clearInterval(timer);
      },
    });
  }

  async function answerText(query: LogicalQuery): Promise<string> {
    // A snapshot payload already is SDA's wire shape, column sizes in its metadata row included.
    const { kind, ...params } = query;
    return (await answerer.fetch(queryKind(kind), params)).text();
  }

  async function handle(request: Request): Promise<Response> {
    if (request.method !== "POST") return serviceException(405, "Only POST is supported.");
    calls += 1;
    callTimes.push(performance.now());
    if (callTimes.length > 100) callTimes.shift();
    const body = await readRequest(request);
    if (!body) return serviceException(400, "Invalid request: the body is neither JSON nor a form.");
    if (typeof body.query !== "string" || String(body.format).toUpperCase() !== "JSON+COLUMNNAME+METADATA") {
      return serviceException(400, "Invalid request: expected a query and format JSON+COLUMNNAME+METADATA.");
    }
    const sql = body.query;
    lastQueries.push(sql);
    lastEncodings.push(body.encoding);
    if (lastQueries.length > 100) lastQueries.shift();
    if (lastEncodings.length > 100) lastEncodings.shift();

    const current = queued.shift() ?? fault;
    switch (current) {
      case "hang":
        return new Promise<Response>(() => {});
      case "http-500":
        return serviceException(500, "Invalid query: Incorrect syntax near '<'. Table \"x\" & co.");
      case "maintenance":
        return new Response(MAINTENANCE_PAGE, { status: 200, headers: { "content-type": "text/html" } });
      case "empty":
        return captured("empty.json");
      case "invalid-query":
        return captured("invalid_column_400.xml");
      case "timed-out":
        return captured("timed_out_200.xml");
      case "reset":
        return connectionReset();
      case "http-502":
        return gatewayPage(502);
      case "http-503":
        return gatewayPage(503);
      case "not-table":
        return new Response(JSON.stringify({ Table: { columns: ["mukey"], rows: 1 } }), { headers: { "content-type": JSON_TYPE } });
      case "endless":
        return new Response(stream(null, 1), { headers: { "content-type": JSON_TYPE } });
    }
    if (fixed) return new Response(fixed.body, { status: fixed.status, headers: { "content-type": fixed.contentType } });

    const query = logicalQueryFromSql(sql);
    if (!query) return serviceException(500, "Invalid query: the fake SDA does not recognise this query.");
    let text: string;
    try {
      text = await answerText(query);
    } catch (error) {
      return serviceException(500, `Invalid query: ${error instanceof Error ? error.message : String(error)}`);
    }
    switch (current) {
      case "slow-drip":
        return new Response(stream(text, 200), { headers: { "content-type": JSON_TYPE } });
      case "truncated-json":
        return new Response(text.slice(0, Math.max(1, Math.floor(text.length / 2))), { headers: { "content-type": JSON_TYPE } });
      case "wrong-content-type":
        return new Response(text, { headers: { "content-type": "text/plain; charset=utf-8" } });
      default:
        return new Response(text, { headers: { "content-type": JSON_TYPE } });
    }
  }

  // idleTimeout at its maximum so a `hang` stays a hang rather than Bun closing the socket.
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 255, fetch: handle });
  return {
    url: `http://127.0.0.1:${server.port}/Tabular/post.rest`,
    close: () => void server.stop(true),
    setFault: (next) => {
      fault = next;
      queued.length = 0;
    },
    queueFaults: (...faults) => {
      queued.push(...faults);
    },
    respondWith: (answer) => {
      fixed = answer;
    },
    serveCapture: (name) => {
      fixed = name === null ? null : { ...CAPTURES[name], body: readCapture(name) };
    },
    get calls() {
      return calls;
    },
    get lastQueries() {
      return lastQueries;
    },
    get lastEncodings() {
      return lastEncodings;
    },
    get callTimes() {
      return callTimes;
    },
    get bytesStreamed() {
      return bytesStreamed;
    },
  };
}
