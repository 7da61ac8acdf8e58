/**
 * Graceful stop: on SIGTERM (or SIGINT) Loam stops accepting connections, lets a request already in
 * flight finish with its full answer, closes its database cleanly and exits 0. The request is held
 * in flight by an SDA stand-in that does not answer until the test says so.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { testSnapshot } from "../support/server";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { buildOnce, refusesConnections, REPO, spawnLoam } from "./support";

/** An SDA that holds every request until `release()`, then forwards it to the fake SDA. */
function gatedSda(target: FakeSda) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let arrived!: () => void;
  const firstArrival = new Promise<void>((r) => (arrived = r));
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 60,
    async fetch(request) {
      const body = await request.text();
      arrived();
      await released;
      const answer = await fetch(target.url, { method: "POST", headers: { "content-type": "application/json" }, body });
      return new Response(await answer.arrayBuffer(), { status: answer.status, headers: { "content-type": answer.headers.get("content-type") ?? "" } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/Tabular/post.rest`, release, firstArrival, close: () => server.stop(true) };
}

let sda: FakeSda;
let answerer: SnapshotTransport;

beforeAll(async () => {
  answerer = new SnapshotTransport(await testSnapshot());
  sda = startFakeSda({ answerer });
});
afterAll(() => {
  sda.close();
  answerer.close();
});

const LOCATION = "/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph,organic_matter,clay";

async function inFlightRequestSurvives(signal: "SIGTERM" | "SIGINT", command: () => Promise<string[]>) {
  const gate = gatedSda(sda);
  const dir = mkdtempSync(join(tmpdir(), "loam-shutdown-"));
  const dbPath = join(dir, "loam.sqlite");
  try {
    const loam = await spawnLoam({
      cmd: await command(),
      cwd: REPO,
      env: { LOAM_UPSTREAM: "sda", SDA_URL: gate.url, LOAM_DB: dbPath, UPSTREAM_TIMEOUT_MS: "20000", RATE_LIMIT_PER_MINUTE: "1000" },
    });
    const pending = loam.get(LOCATION);
    await gate.firstArrival; // the request is now inside Loam, waiting on its upstream

    loam.proc.kill(signal);
    await loam.waitForLine(new RegExp(`"${signal}: stopping`));
    expect(await refusesConnections(loam.port)).toBe(true);
    await Bun.sleep(300);
    expect(loam.proc.exitCode).toBeNull(); // still finishing the request

    gate.release();
    const response = await pending;
    expect(response.status).toBe(200);
    const body = (await response.json()) as { observations: { survey_context: { map_unit_key: string } }[] };
    expect(body.observations.length).toBeGreaterThan(0);
    expect(body.observations[0]!.survey_context.map_unit_key).toBe("2765528");

    expect(await loam.proc.exited).toBe(0);
    await loam.waitForLine(/"stopped cleanly"/);

    // Closed cleanly: the answer fetched during the stop was stored, and the file is sound.
    const db = new Database(dbPath, { readonly: true });
    try {
      expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check).toBe("ok");
      expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM cache_entries WHERE key LIKE '%ssurgo_point%'").get()?.n).toBe(1);
    } finally {
      db.close();
    }
  } finally {
    gate.release();
    gate.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("graceful stop", () => {
  test("SIGTERM mid-request (from source): the request completes with its answer, then the process exits 0", async () => {
    await inFlightRequestSurvives("SIGTERM", async () => [process.execPath, "--max-http-header-size=262144", "src/cli.ts", "serve"]);
  });

  test("SIGINT mid-request (from source): the same", async () => {
    await inFlightRequestSurvives("SIGINT", async () => [process.execPath, "--max-http-header-size=262144", "src/cli.ts", "serve"]);
  });

  test("a second signal cuts a request that will not finish: the process still closes its database and exits 0", async () => {
    const gate = gatedSda(sda); // never released
    const dir = mkdtempSync(join(tmpdir(), "loam-shutdown-"));
    const dbPath = join(dir, "loam.sqlite");
    try {
      const loam = await spawnLoam({
        cmd: [process.execPath, "--max-http-header-size=262144", "src/cli.ts", "serve"],
        cwd: REPO,
        env: { LOAM_UPSTREAM: "sda", SDA_URL: gate.url, LOAM_DB: dbPath, UPSTREAM_TIMEOUT_MS: "60000" },
      });
      const pending = loam.get(LOCATION).then(
        (response) => response.status,
        () => "cut",
      );
      await gate.firstArrival;
      loam.proc.kill("SIGTERM");
      await loam.waitForLine(/"SIGTERM: stopping/);
      loam.proc.kill("SIGTERM");
      expect(await loam.proc.exited).toBe(0);
      expect(await pending).toBe("cut");
      await loam.waitForLine(/"stopped cleanly"/);
      const db = new Database(dbPath, { readonly: true });
      expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check).toBe("ok");
      db.close();
    } finally {
      gate.release();
      gate.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("SIGTERM mid-request (the single executable): the same", async () => {
    const { outfile } = await buildOnce();
    await inFlightRequestSurvives("SIGTERM", async () => [outfile]);
  }, 90_000);
});
