/**
 * Finding 7 of the hardening pass: with UPSTREAM_TIMEOUT_MS above Bun's idle timeout (30 s), Bun
 * closed the connection of a request still waiting on the upstream ("Empty reply from server")
 * (about 32 s in) before Loam could answer 504. The idle timeout now outlasts the upstream timeout, and a timeout
 * Bun cannot outlast is refused at start (exit 2 naming the variable).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { idleTimeoutFor, MAX_UPSTREAM_TIMEOUT_MS } from "../../src/http/idle-timeout";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { tempDbPath, testSnapshot } from "../support/server";
import { spawnLoam } from "../support/spawn";
import { startLoggedChild } from "./child-output";
import { rawRequest } from "./raw-http";

describe("idle timeout against UPSTREAM_TIMEOUT_MS", () => {
  test("the idle timeout covers the upstream timeout with a margin, within Bun's 30..255 s", () => {
    expect(idleTimeoutFor(15_000)).toBe(30);
    expect(idleTimeoutFor(32_000)).toBe(42);
    expect(idleTimeoutFor(MAX_UPSTREAM_TIMEOUT_MS)).toBe(255);
  });

  test("UPSTREAM_TIMEOUT_MS beyond what the idle timeout can outlast: exit 2, one line naming it", async () => {
    for (const value of ["300000", String(MAX_UPSTREAM_TIMEOUT_MS + 1)]) {
      const { proc } = spawnLoam({ env: { LOAM_DB: tempDbPath(), LOAM_SNAPSHOT: await testSnapshot(), UPSTREAM_TIMEOUT_MS: value }, stderr: "pipe" });
      expect(await proc.exited).toBe(2);
      const lines = (await new Response(proc.stderr as ReadableStream).text()).trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toStartWith("loam: invalid configuration: UPSTREAM_TIMEOUT_MS: ");
      expect(lines[0]).toContain(value);
    }
  });
});

describe("a hanging upstream with UPSTREAM_TIMEOUT_MS=38000 (over the old 30 s idle timeout)", () => {
  let sda: FakeSda;
  let answerer: SnapshotTransport;
  beforeAll(async () => {
    answerer = new SnapshotTransport(await testSnapshot());
    sda = startFakeSda({ answerer });
    sda.setFault("hang");
  });
  afterAll(() => {
    sda.close();
    answerer.close();
  });

  test("the client gets the 504 upstream_timeout after 38 s, not a dropped connection", async () => {
    const loam = await startLoggedChild({ LOAM_DB: tempDbPath(), LOAM_UPSTREAM: "sda", SDA_URL: sda.url, UPSTREAM_TIMEOUT_MS: "38000" });
    try {
      const started = Date.now();
      // A fresh connection (as curl makes), silent from the request on.
      const answer = await rawRequest(loam.port, `GET /v1/soil/location?latitude=41.944131&longitude=-94.359608 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close`, 60_000);
      const body = JSON.parse(answer.body);
      expect(answer.status).toBe(504);
      expect(body.error.code).toBe("upstream_timeout");
      expect(Date.now() - started).toBeGreaterThanOrEqual(37_500);
    } finally {
      await loam.stop();
    }
  }, 70_000);
});
