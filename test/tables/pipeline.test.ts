/**
 * CSV in the response pipeline itself (src/http/response.ts, src/http/negotiate.ts), on a data
 * answer built in the test: which representation a request gets, the tags that keep JSON and CSV
 * apart, the table kept per tag, and a stale answer rendered afresh.
 */
import { describe, expect, test } from "bun:test";
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import type { DataAnswer } from "../../src/answer";
import { createResponsePipeline, CSV_MEDIA_TYPE, csvTag, type CsvTable } from "../../src/http/response";
import { representationOf } from "../../src/http/negotiate";
import { ValidationError } from "../../src/errors";
import { toCsv } from "../../src/tables/csv";

type Body = { rows: { name: string; value: number }[]; cache: { hit: boolean; stored_at: string; age_seconds: number } };

const NOW = Date.parse("2026-11-23T10:00:00Z");
const STORED = NOW - 60_000;

function answer(rows: number, { hit = true, stale = false } = {}): DataAnswer<Body> & { built: () => number } {
  let built = 0;
  const body = (): Body => {
    built++;
    return {
      rows: Array.from({ length: rows }, (_, i) => ({ name: `Clarion, ${i}`, value: i / 10 })),
      cache: { hit, stored_at: new Date(STORED).toISOString(), age_seconds: 60 },
    };
  };
  return { key: `rows:${rows}`, cache: { source: "test", digest: `rows-${rows}`, hit, storedAt: STORED, stale, ttlSeconds: 3600, upstreamMs: 0 }, body, built: () => built };
}

const TABLE: CsvTable<Body> = {
  render: (body) => toCsv([["name", (r: Body["rows"][number]) => r.name], ["value", (r) => r.value]], body.rows),
  fileName: (body) => `loam-rows "${body.rows.length}"\r\n.csv`,
};

function get(path: string, headers: Record<string, string> = {}): Request {
  return new Request(`http://127.0.0.1${path}`, { headers });
}

/** `table` null: a route that offers no table. */
function send(pipeline: ReturnType<typeof createResponsePipeline>, data: DataAnswer<Body>, request: Request, table: CsvTable<Body> | null = TABLE): Response {
  return pipeline.send(data, request, { headers: {} }, table ?? undefined) as unknown as Response;
}

describe("negotiation", () => {
  test("format wins; otherwise Accept chooses CSV only when it prefers text/csv at least as much as JSON", () => {
    expect(representationOf(get("/x?format=csv"))).toBe("csv");
    expect(representationOf(get("/x?format=json", { accept: "text/csv" }))).toBe("json");
    expect(representationOf(get("/x", { accept: "text/csv" }))).toBe("csv");
    expect(representationOf(get("/x", { accept: "application/json;q=0.9, text/csv" }))).toBe("csv");
    expect(representationOf(get("/x", { accept: "application/json, text/csv;q=0.5" }))).toBe("json");
    expect(representationOf(get("/x", { accept: "text/html,application/xhtml+xml,*/*;q=0.8" }))).toBe("json");
    expect(representationOf(get("/x"))).toBe("json");
    expect(() => representationOf(get("/x?format=xlsx"))).toThrow(ValidationError);
  });
});

describe("send with a table", () => {
  test("CSV: its own type, file name (made safe), -csv tag, Vary: Accept, and the JSON's Cache-Control", async () => {
    const pipeline = createResponsePipeline({ now: () => NOW });
    const json = send(pipeline, answer(3), get("/x"));
    const csv = send(pipeline, answer(3), get("/x?format=csv"));
    expect(json.headers.get("content-type")).toStartWith("application/json");
    expect(csv.headers.get("content-type")).toBe(CSV_MEDIA_TYPE);
    expect(await csv.text()).toBe('name,value\r\n"Clarion, 0",0\r\n"Clarion, 1",0.1\r\n"Clarion, 2",0.2\r\n');
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="loam-rows_3_.csv"');
    expect(csv.headers.get("etag")).toBe(csvTag(json.headers.get("etag")!));
    expect(csv.headers.get("etag")).toMatch(/-csv"$/);
    expect(csv.headers.get("cache-control")).toBe(json.headers.get("cache-control"));
    expect(json.headers.get("vary")).toBe("Accept, Accept-Encoding");
    expect(csv.headers.get("vary")).toBe("Accept, Accept-Encoding");
    expect(json.headers.get("content-disposition")).toBeNull();
  });

  test("a JSON tag never 304s a CSV request, nor a CSV tag a JSON request; each matches its own", () => {
    const pipeline = createResponsePipeline({ now: () => NOW });
    const jsonTag = send(pipeline, answer(3), get("/x")).headers.get("etag")!;
    const tag = csvTag(jsonTag);
    expect(send(pipeline, answer(3), get("/x?format=csv", { "if-none-match": jsonTag })).status).toBe(200);
    expect(send(pipeline, answer(3), get("/x", { "if-none-match": tag })).status).toBe(200);
    expect(send(pipeline, answer(3), get("/x?format=csv", { "if-none-match": tag })).status).toBe(304);
    expect(send(pipeline, answer(3), get("/x", { accept: "text/csv", "if-none-match": `W/${tag}` })).status).toBe(304);
    expect(send(pipeline, answer(3), get("/x", { "if-none-match": jsonTag })).status).toBe(304);
  });

  test("a large table is compressed (gzip or br, its own tag) and decodes to the identity text", async () => {
    const pipeline = createResponsePipeline({ now: () => NOW });
    const plain = await send(pipeline, answer(200), get("/x?format=csv")).text();
    expect(plain.length).toBeGreaterThan(1024);
    const gzip = send(pipeline, answer(200), get("/x?format=csv", { "accept-encoding": "gzip" }));
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(gzip.headers.get("etag")).toMatch(/-csv-gzip"$/);
    expect(new TextDecoder().decode(gunzipSync(new Uint8Array(await gzip.arrayBuffer())))).toBe(plain);
    const br = send(pipeline, answer(200), get("/x?format=csv", { "accept-encoding": "br, gzip" }));
    expect(br.headers.get("etag")).toMatch(/-csv-br"$/);
    expect(new TextDecoder().decode(brotliDecompressSync(new Uint8Array(await br.arrayBuffer())))).toBe(plain);
    // A client holding the brotli CSV revalidates with that tag.
    expect(send(pipeline, answer(200), get("/x?format=csv", { "if-none-match": br.headers.get("etag")! })).status).toBe(304);
  });

  test("the table of a fresh answer is rendered once per tag; a stale answer's is rendered each time", async () => {
    const pipeline = createResponsePipeline({ now: () => NOW });
    const fresh = answer(5);
    const first = await send(pipeline, fresh, get("/x?format=csv")).text();
    const second = await send(pipeline, fresh, get("/x?format=csv")).text();
    expect(second).toBe(first);
    expect(fresh.built()).toBe(1);
    const stale = answer(5, { stale: true });
    await send(pipeline, stale, get("/x?format=csv")).text();
    await send(pipeline, stale, get("/x?format=csv")).text();
    expect(stale.built()).toBe(2);
  });

  test("without a table the route is JSON whatever it is asked, and does not vary on Accept", () => {
    const pipeline = createResponsePipeline({ now: () => NOW });
    const response = send(pipeline, answer(3), get("/x?format=csv", { accept: "text/csv" }), null);
    expect(response.headers.get("content-type")).toStartWith("application/json");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
  });
});
