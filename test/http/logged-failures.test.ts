/**
 * An unexpected failure (a 500) is logged for the operator with its message and the functions it
 * passed through, never a stack's file paths nor a message's absolute paths (docs/decisions.md#logged-failures);
 * the client's body names neither.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startLoam, testSnapshot, type RunningLoam } from "../support/server";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import type { Payload, QueryKind, Transport } from "../../src/upstream/transport";

const SECRET_PATH = "/srv/loam-internal/mirror/state-ia.sqlite";

/** The real snapshot, but every query fails as a bug would: a TypeError naming a file of the machine. */
class BrokenTransport implements Transport {
  readonly kind = "snapshot" as const;
  constructor(private readonly inner: SnapshotTransport) {}
  async fetch<P>(_query: QueryKind<P, unknown>, _params: P): Promise<Payload> {
    return readBrokenFile();
  }
  describe() {
    return this.inner.describe();
  }
}

function readBrokenFile(): never {
  throw new TypeError(`cannot read properties of undefined (reading 'rings') in ${SECRET_PATH}`);
}

let loam: RunningLoam;
beforeAll(async () => {
  loam = await startLoam({ source: new BrokenTransport(new SnapshotTransport(await testSnapshot())) });
}, 120_000);
afterAll(() => loam.stop());

describe("a 500's log line", () => {
  test("names the error and its functions, no file path; the body names neither", async () => {
    const answer = await loam.json("/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=clay");
    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe("internal_error");
    const body = JSON.stringify(answer.body);
    expect(body).not.toContain("state-ia");
    expect(body).not.toContain("readBrokenFile");
    const line = loam.logs.find((l) => l.level === "error" && l.request_id === answer.body.error.request_id);
    expect(line).toBeDefined();
    expect(line!.error).toBe("TypeError: cannot read properties of undefined (reading 'rings') in state-ia.sqlite");
    expect(line!.frames as string[]).toContain("readBrokenFile");
    const text = JSON.stringify(line);
    expect(text).not.toContain("/srv/");
    expect(text).not.toContain(process.cwd());
    expect(text).not.toMatch(/\.ts:\d+/);
  });
});
