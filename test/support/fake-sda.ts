/**
 * A local stand-in for USDA Soil Data Access (tests only; the real service is unreachable here).
 *
 * It reads the T-SQL that the providers' queries write, recognises which logical query it is, asks
 * `answerer` (normally a SnapshotTransport) for its answer, and sends it in SDA's wire format:
 * `{"Table": [[names], [metadata], ...rows of strings or null]}`, or `{}` for no rows. Faults
 * reproduce the ways SDA fails in the wild, on demand.
 */
import type { Transport } from "../../src/upstream/transport";
import { queryKind, type LogicalQuery } from "./queries";

export type SdaFault =
  | "hang" // accepts the request, never answers
  | "slow-drip" // sends headers, then one byte every ~200 ms
  | "http-500" // status 500 with a <ServiceException> XML body
  | "maintenance" // 200 text/html: the nightly maintenance notice
  | "truncated-json" // the real answer cut in half
  | "empty" // {} (SDA's empty result set)
  | "wrong-content-type" // the real answer as text/plain
  | "not-table" // valid JSON, not the Table shape
  | "endless"; // a chunked JSON body that never ends (body-cap tests)

export interface FakeSda {
  url: string;
  close(): void;
  setFault(fault: SdaFault | null): void;
  /** POST requests received so far, whatever was answered. */
  readonly calls: number;
  /** SQL text of the most recent requests, oldest first. */
  readonly lastQueries: string[];
  /** Bytes the `endless` and `slow-drip` faults have pushed so far. */
  readonly bytesStreamed: number;
}

export const MAINTENANCE_PAGE =
  "<html><head><title>Soil Data Access</title></head><body><p>Site is under daily maintenance from 12:30 AM CST to 12:45 AM CST. Please try after 12:45 AM CST.</p></body></html>";

const JSON_TYPE = "application/json; charset=utf-8";
const NUMBER = String.raw`(-?\d+(?:\.\d+)?)`;

/** Which logical query a T-SQL text of the providers' queries is; null when it is none of them. */
export function logicalQueryFromSql(sql: string): LogicalQuery | null {
  const point = new RegExp(String.raw`WktWgs84\('POINT\(${NUMBER} ${NUMBER}\)'\)`, "i").exec(sql);
  if (point) return { kind: "ssurgo_point", longitude: Number(point[1]), latitude: Number(point[2]) };
  const mapUnit = /WHERE mu\.mukey = (\d+) AND/i.exec(sql);
  if (mapUnit) return { kind: "ssurgo_mapunit", mapUnitKey: mapUnit[1]! };
  const box = new RegExp(String.raw`STIntersects\(geometry::STGeomFromText\('POLYGON\(\(${NUMBER} ${NUMBER}, ${NUMBER} ${NUMBER}, ${NUMBER} ${NUMBER}`, "i").exec(sql);
  const polygonsTop = /FROM mupolygon AS P/i.test(sql) && /SELECT TOP \((\d+)\)/i.exec(sql);
  if (box && polygonsTop) return { kind: "ssurgo_polygons", bbox: [Number(box[1]), Number(box[2]), Number(box[5]), Number(box[6])], limit: Number(polygonsTop[1]) - 1 };
  if (!/FROM lab_combine_nasis_ncss AS p/i.test(sql)) return null;
  const top = /SELECT TOP \((\d+)\)/i.exec(sql);
  const lon = new RegExp(String.raw`p\.longitude_decimal_degrees BETWEEN ${NUMBER} AND ${NUMBER}`, "i").exec(sql);
  const lat = new RegExp(String.raw`p\.latitude_decimal_degrees BETWEEN ${NUMBER} AND ${NUMBER}`, "i").exec(sql);
  if (top && lon && lat) {
    return {
      kind: "lab_bbox",
      bbox: [Number(lon[1]), Number(lat[1]), Number(lon[2]), Number(lat[2])],
      limit: Number(top[1]) - 1, // the template asks for one row more than the page
    };
  }
  const byKey = /WHERE p\.pedon_key = (\d+)/i.exec(sql);
  if (byKey) return { kind: "lab_pedon", pedonKey: { form: "pedon_key", value: Number(byKey[1]) } };
  const bySample = /WHERE p\.pedlabsampnum = '([0-9A-Z]+)'/i.exec(sql);
  if (bySample) return { kind: "lab_pedon", pedonKey: { form: "pedlabsampnum", value: bySample[1]! } };
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

export function startFakeSda({ answerer }: { answerer: Transport }): FakeSda {
  let fault: SdaFault | null = null;
  let calls = 0;
  let bytesStreamed = 0;
  const lastQueries: string[] = [];
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
    let sql: string;
    try {
      const body = (await request.json()) as { query?: unknown; format?: unknown };
      if (typeof body.query !== "string" || String(body.format).toUpperCase() !== "JSON+COLUMNNAME+METADATA") {
        return serviceException(400, "Invalid request: expected a query and format JSON+COLUMNNAME+METADATA.");
      }
      sql = body.query;
    } catch {
      return serviceException(400, "Invalid request: the body is not JSON.");
    }
    lastQueries.push(sql);
    if (lastQueries.length > 100) lastQueries.shift();

    switch (fault) {
      case "hang":
        return new Promise<Response>(() => {});
      case "http-500":
        return serviceException(500, "Invalid query: Incorrect syntax near '<'. Table \"x\" & co.");
      case "maintenance":
        return new Response(MAINTENANCE_PAGE, { status: 200, headers: { "content-type": "text/html" } });
      case "empty":
        return new Response("{}", { headers: { "content-type": JSON_TYPE } });
      case "not-table":
        return new Response(JSON.stringify({ Table: { columns: ["mukey"], rows: 1 } }), { headers: { "content-type": JSON_TYPE } });
      case "endless":
        return new Response(stream(null, 1), { headers: { "content-type": JSON_TYPE } });
    }

    const query = logicalQueryFromSql(sql);
    if (!query) return serviceException(500, "Invalid query: the fake SDA does not recognise this query.");
    let text: string;
    try {
      text = await answerText(query);
    } catch (error) {
      return serviceException(500, `Invalid query: ${error instanceof Error ? error.message : String(error)}`);
    }
    switch (fault) {
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
    },
    get calls() {
      return calls;
    },
    get lastQueries() {
      return lastQueries;
    },
    get bytesStreamed() {
      return bytesStreamed;
    },
  };
}
