/**
 * Live mode against what Soil Data Access really sends: Loam in SDA mode, over HTTP, in front of the
 * fake SDA serving the captured answers (status, content type and bytes as recorded). Each failure
 * class reaches the client as its documented ErrorResponse; SDA's own text goes to the log only;
 * transient failures are retried once within the deadline, query bugs and SDA time-outs never.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readCapture } from "../support/fake-sda";
import { startUncachedSdaLoam, useUncachedSda } from "../support/sda-mode";

/** The IA073 known point: map unit 2765528. */
const POINT = "/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph,clay";
const PEDON = "/v1/pedons/02N0245";

// No cache: every request reaches the fake, so each test counts its own upstream calls.
const { fake, loam, contract } = useUncachedSda();

afterEach(() => {
  fake.setFault(null);
  fake.respondWith(null);
});

/** GET `path`, returning the answer and how many POSTs the fake received for it. */
async function ask(path: string) {
  const before = fake.calls;
  const answer = await loam.json(path);
  return { ...answer, upstreamCalls: fake.calls - before };
}

function errorOf(answer: { status: number; body: any }) {
  contract.assert("ErrorResponse", answer.body);
  return answer.body.error as { code: string; message: string; retryable: boolean; request_id: string; provider: string | null };
}

describe("SDA's error reports, as captured, map to their error classes", () => {
  test("an Invalid query report on HTTP 400 is a 502 upstream_error that is not retryable, sent once, its first line kept", async () => {
    fake.setFault("invalid-query");
    const answer = await ask(POINT);
    expect(answer.status).toBe(502);
    const error = errorOf(answer);
    expect(error.code).toBe("upstream_error");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("Invalid query: Invalid column name 'nosuchcolumn'.");
    expect(error.message).not.toMatch(/ServiceException|opengis|<|&#39;/);
    // A bug in a query is not a blip: asking again would fail the same way.
    expect(answer.upstreamCalls).toBe(1);
  });

  test("SDA's own text is logged with the request id, not sent; a server path after the first line never reaches the client", async () => {
    const captured = new TextDecoder().decode(readCapture("invalid_column_400.xml"));
    // The captured report with the stack line an ASP.NET server adds under the message.
    const withPath = captured.replace(
      "</ServiceException>",
      "\n   at SDMDataAccess.Query(String sql) in C:\\inetpub\\wwwroot\\SDMDataAccess\\Tabular\\post.rest.cs:line 212</ServiceException>",
    );
    expect(withPath).not.toBe(captured);
    fake.respondWith({ status: 400, contentType: "text/xml", body: withPath });
    const answer = await ask(POINT);
    const error = errorOf(answer);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("Invalid column name 'nosuchcolumn'");
    expect(error.message).not.toMatch(/inetpub|C:\\|\bat SDMDataAccess|line 212/);
    const logged = loam.logs.find((line) => line.request_id === error.request_id);
    expect(logged).toMatchObject({ level: "warn", msg: "upstream failure", code: "upstream_error" });
    expect(String(logged!.detail)).toContain("HTTP 400");
    expect(String(logged!.detail)).toContain("C:\\inetpub\\wwwroot");
  });

  test("'Your query timed out.' on HTTP 200 (text/xml) is a 504 upstream_timeout, read before the content type, never retried", async () => {
    fake.setFault("timed-out");
    const answer = await ask(POINT);
    expect(answer.status).toBe(504);
    const error = errorOf(answer);
    expect(error.code).toBe("upstream_timeout");
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/its own time limit/);
    expect(error.message).not.toMatch(/content type/);
    expect(answer.upstreamCalls).toBe(1);
  });

  test("the HTML maintenance page on HTTP 200 is a retryable 502 saying maintenance, not retried at once", async () => {
    fake.setFault("maintenance");
    const answer = await ask(PEDON);
    expect(answer.status).toBe(502);
    const error = errorOf(answer);
    expect(error.code).toBe("upstream_error");
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/maintenance/);
    expect(error.message).not.toMatch(/<html|<p>/);
    // The window lasts 15 minutes: a retry 250 ms later would only double the load.
    expect(answer.upstreamCalls).toBe(1);
  });

  test("the captured empty answer {} is no data, not an error", async () => {
    fake.setFault("empty");
    const answer = await ask(POINT);
    expect(answer.status).toBe(200);
    expect(answer.body.observations).toEqual([]);
  });

  test("a gateway's error page is a fixed message: its HTML is logged, not echoed", async () => {
    fake.setFault("http-503");
    const answer = await ask(POINT);
    expect(answer.status).toBe(502);
    const error = errorOf(answer);
    expect(error.code).toBe("upstream_error");
    expect(error.message).toBe("Soil Data Access answered HTTP 503.");
    const logged = loam.logs.find((line) => line.request_id === error.request_id);
    expect(String(logged?.detail)).toContain("503 - Service Unavailable");
  });
});

describe("one retry, for transient failures only, within the deadline", () => {
  test("a connection reset is retried once after a jittered pause, and the caller gets the answer", async () => {
    fake.queueFaults("reset");
    const answer = await ask(POINT);
    expect(answer.status).toBe(200);
    expect(answer.body.observations.length).toBeGreaterThan(0);
    expect(answer.upstreamCalls).toBe(2);
    const [first, second] = fake.callTimes.slice(-2);
    // 250 ms times a factor from 0.5 to 1.5.
    expect(second! - first!).toBeGreaterThanOrEqual(120);
    expect(second! - first!).toBeLessThan(600);
  });

  for (const fault of ["http-502", "http-503"] as const) {
    test(`${fault} once is retried and answered; twice is a retryable 502 after exactly two calls`, async () => {
      fake.queueFaults(fault);
      const once = await ask(PEDON);
      expect(once.status).toBe(200);
      expect(once.upstreamCalls).toBe(2);

      fake.setFault(fault);
      const twice = await ask(PEDON);
      expect(twice.status).toBe(502);
      expect(errorOf(twice)).toMatchObject({ code: "upstream_error", retryable: true });
      expect(twice.upstreamCalls).toBe(2);
    });
  }

  test("a reset every time is upstream_unreachable after two calls, not more", async () => {
    fake.setFault("reset");
    const answer = await ask(POINT);
    expect(answer.status).toBe(502);
    expect(errorOf(answer)).toMatchObject({ code: "upstream_unreachable", retryable: true });
    expect(answer.upstreamCalls).toBe(2);
  });

  test("an HTTP 500 with an SDA report is not retried", async () => {
    fake.setFault("http-500");
    const answer = await ask(POINT);
    expect(answer.status).toBe(502);
    expect(answer.upstreamCalls).toBe(1);
  });

  test("a 503 that carries SDA's own report is not a gateway blip: not retried", async () => {
    fake.respondWith({ status: 503, contentType: "text/xml", body: readCapture("invalid_column_400.xml") });
    const answer = await ask(POINT);
    expect(answer.status).toBe(502);
    expect(errorOf(answer).message).toContain("Invalid column name 'nosuchcolumn'");
    expect(answer.upstreamCalls).toBe(1);
  });

  test("the retry shares the deadline: a reset then a hang answers 504 within UPSTREAM_TIMEOUT_MS", async () => {
    const short = await startUncachedSdaLoam(fake.url, 1500);
    try {
      fake.queueFaults("reset", "hang");
      const before = fake.calls;
      const started = performance.now();
      const answer = await short.json(POINT);
      const elapsed = performance.now() - started;
      expect(answer.status).toBe(504);
      expect(answer.body.error.code).toBe("upstream_timeout");
      expect(fake.calls - before).toBe(2);
      expect(elapsed).toBeLessThan(1500 + 500);
    } finally {
      await short.stop();
    }
  });

  test("no retry when the deadline leaves no room for one: a reset with a 900 ms deadline is one call", async () => {
    const short = await startUncachedSdaLoam(fake.url, 900);
    try {
      fake.queueFaults("reset");
      const before = fake.calls;
      const answer = await short.json(POINT);
      expect(answer.status).toBe(502);
      expect(answer.body.error.code).toBe("upstream_unreachable");
      expect(fake.calls - before).toBe(1);
    } finally {
      await short.stop();
    }
  });
});
