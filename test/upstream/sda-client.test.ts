import { queryKind, runQuery, sqlFor } from "../support/queries";
import { Payload } from "../../src/upstream/transport";
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { LoamError, UpstreamError, UpstreamTimeoutError, UpstreamUnreachableError } from "../../src/errors";
import type { LogicalQuery } from "../support/queries";
import { answerAsSda, decodeSdaTable } from "../../src/upstream/sda/payload";
import { SdaTransport, serviceException } from "../../src/upstream/sda/client";
import type { Transport } from "../../src/upstream/transport";
import type { SdaTable } from "../../src/upstream/sda/payload";
import { startFakeSda, type SdaFault } from "../support/fake-sda";

/** A fixed answer, in the shape SDA sends for the point query's first columns. */
const TABLE: SdaTable = {
  columns: ["areasymbol", "mukey", "muname", "comppct_r"],
  types: ["varchar", "int", "varchar", "smallint"],
  rows: [
    ["IA073", "2765528", "Clarion loam, Bemis moraine, 2 to 6 percent slopes", "85"],
    ["IA073", "2765528", "Canisteo clay loam", null],
  ],
};
const stub: Transport = {
  kind: "snapshot",
  fetch: async () => Payload.ofJson(answerAsSda(TABLE.columns, TABLE.types, TABLE.rows).payload),
  describe: () => ({ kind: "snapshot", location: "stub" }),
};

const POINT: LogicalQuery = { kind: "ssurgo_point", latitude: 41.944131, longitude: -94.359608 };

/** The point query's SQL, answered by the stub's four columns: the table decoded as the stub's. */
async function runTable(transport: Transport, { kind, ...params }: LogicalQuery) {
  return decodeSdaTable(await transport.fetch(queryKind(kind), params), TABLE.columns);
}
const fake = startFakeSda({ answerer: stub });
afterAll(() => fake.close());
beforeEach(() => fake.setFault(null));

const sda = (options: { timeoutMs?: number; maxBodyBytes?: number; url?: string } = {}) =>
  new SdaTransport({ url: options.url ?? fake.url, timeoutMs: options.timeoutMs ?? 5000, maxBodyBytes: options.maxBodyBytes });

async function failure(run: Promise<unknown>): Promise<LoamError> {
  try {
    await run;
  } catch (error) {
    expect(error).toBeInstanceOf(LoamError);
    const loam = error as LoamError;
    // Messages reach API users: plain words, no stack frames, no file paths.
    expect(loam.message).not.toMatch(/\n\s+at |\/work\/|\.ts\b|node_modules/);
    return loam;
  }
  throw new Error("expected the call to fail");
}

describe("SdaTransport answers", () => {
  test("posts the template's T-SQL as JSON and returns the parsed table with the untouched payload", async () => {
    const before = fake.calls;
    const answer = await runTable(sda(), POINT);
    expect(fake.calls).toBe(before + 1);
    expect(fake.lastQueries.at(-1)).toBe(sqlFor(POINT));
    expect(answer.table).toEqual(TABLE);
    const table = answer.payload.Table as unknown[][];
    expect(table[0]).toEqual(TABLE.columns);
    expect(table.slice(2)).toEqual(TABLE.rows);
  });

  test("SDA's empty result set {} is an empty table, not an error", async () => {
    fake.setFault("empty");
    const answer = await runTable(sda(), POINT);
    expect(answer.payload).toEqual({});
    expect(answer.table.rows).toEqual([]);
  });

  test("an answer whose columns differ from those asked for is a 502 naming the missing and extra columns", async () => {
    const error = await failure(runQuery(sda(), POINT));
    expect(error.status).toBe(502);
    expect(error.code).toBe("upstream_error");
    expect(error.message).toContain("missing areaname, saverest");
    expect(error.message).toMatch(/missing [^;]*ph1to1h2o_r/);
    expect(error.message).not.toMatch(/unexpected/);
  });

  test("describe names the endpoint", () => {
    expect(sda().describe()).toEqual({ kind: "sda", location: fake.url });
  });

  test("a hostile query is refused before anything is sent", async () => {
    const before = fake.calls;
    await expect(runQuery(sda(), { kind: "ssurgo_point", latitude: Number.NaN, longitude: 0 })).rejects.toThrow();
    expect(fake.calls).toBe(before);
  });
});

describe("SdaTransport failures map to typed upstream errors", () => {
  // Every one of these is SDA answering, but not with a usable table: upstream_error, 502.
  const cases: [SdaFault, RegExp][] = [
    ["http-500", /HTTP 500: Invalid query: Incorrect syntax near '<'\. Table "x" & co\./],
    ["maintenance", /nightly maintenance window/],
    ["wrong-content-type", /content type 'text\/plain; charset=utf-8' instead of JSON/],
    ["truncated-json", /not valid JSON/],
    ["not-table", /Table|table/],
  ];
  for (const [fault, message] of cases) {
    test(`${fault} → upstream_error (502) naming the cause`, async () => {
      fake.setFault(fault);
      const error = await failure(runTable(sda(), POINT));
      expect(error).toBeInstanceOf(UpstreamError);
      expect(error.code).toBe("upstream_error");
      expect(error.status).toBe(502);
      expect(error.retryable).toBe(true);
      expect(error.message).toMatch(message);
    });
  }

  test("a hang times out within the deadline (timeoutMs 300)", async () => {
    fake.setFault("hang");
    const started = performance.now();
    const error = await failure(runTable(sda({ timeoutMs: 300 }), POINT));
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(UpstreamTimeoutError);
    expect(error.code).toBe("upstream_timeout");
    expect(error.status).toBe(504);
    expect(error.message).toMatch(/within 300 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1300);
  });

  test("a slow drip that started in time still times out: the deadline covers the body", async () => {
    fake.setFault("slow-drip");
    const started = performance.now();
    const error = await failure(runTable(sda({ timeoutMs: 700 }), POINT));
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(UpstreamTimeoutError);
    expect(fake.bytesStreamed).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(1700);
  });

  test("a fetch that ignores its abort signal is still bounded by the deadline", async () => {
    const source = new SdaTransport({ url: fake.url, timeoutMs: 200, fetch: (() => new Promise(() => {})) as unknown as typeof fetch });
    const error = await failure(runTable(source, POINT));
    expect(error).toBeInstanceOf(UpstreamTimeoutError);
  });

  test("a closed port is upstream_unreachable (502), connection refused", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${closed.port}/Tabular/post.rest`;
    closed.stop(true);
    const error = await failure(runTable(sda({ url }), POINT));
    expect(error).toBeInstanceOf(UpstreamUnreachableError);
    expect(error.code).toBe("upstream_unreachable");
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/connection refused/);
  });

  test("a host name that does not resolve is upstream_unreachable", async () => {
    const dnsFailure = Object.assign(new TypeError("getaddrinfo ENOTFOUND sda.invalid"), { code: "ENOTFOUND" });
    const source = new SdaTransport({
      url: "https://sda.invalid/Tabular/post.rest",
      timeoutMs: 1000,
      fetch: (async () => {
        throw dnsFailure;
      }) as unknown as typeof fetch,
    });
    const error = await failure(runTable(source, POINT));
    expect(error).toBeInstanceOf(UpstreamUnreachableError);
    expect(error.message).toMatch(/host name could not be resolved/);
  });

  test("an answer over the body cap is refused (declared length)", async () => {
    const error = await failure(runTable(sda({ maxBodyBytes: 64 }), POINT));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toMatch(/larger than 64 bytes/);
  });

  test("a streamed answer that never ends is cut off at the cap, not buffered", async () => {
    fake.setFault("endless");
    const cap = 1024 * 1024;
    const started = performance.now();
    const error = await failure(runTable(sda({ maxBodyBytes: cap, timeoutMs: 10_000 }), POINT));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toMatch(/larger than 1048576 bytes/);
    expect(performance.now() - started).toBeLessThan(5000);
    // The client hung up: the fake stops producing once its stream is cancelled.
    await Bun.sleep(50);
    const afterError = fake.bytesStreamed;
    await Bun.sleep(300);
    expect(fake.bytesStreamed - afterError).toBeLessThan(cap);
  });

  test("a ServiceException text is unescaped, trimmed and length-capped", () => {
    const body = `<?xml version="1.0"?><ServiceExceptionReport><ServiceException>\n  Invalid query: ${"&lt;x&gt; ".repeat(100)}</ServiceException></ServiceExceptionReport>`;
    const text = serviceException(body, 40)!;
    expect(text).toStartWith("Invalid query: <x> <x>");
    expect(text.length).toBe(40);
    expect(serviceException("<html>no exception here</html>")).toBeNull();
  });
});
