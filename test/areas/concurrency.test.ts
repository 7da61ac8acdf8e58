/**
 * Heavy areas of interest share the event loop with everything else (docs/decisions.md#area-cuts):
 * while twenty 963-vertex, 8,900 ha areas are cut, a GET /health asked after them is answered before
 * the last of them (no timing threshold: the order of completions), at most AREA_CUTS.slots cuts run
 * at once, and past the bounded queue an area is a 503 with Retry-After, never a wait without end.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { useLoam } from "../support/server";
import { heavyAoiPath, HEAVY_AOI_VERTICES } from "../support/heavy-aoi";
import { startChild, type ChildLoam } from "../resilience/support";
import { AREA_CUTS } from "../../src/areas/cut-gate";

// Twenty cuts of a 963-vertex area take seconds on a busy 2-core machine.
setDefaultTimeout(120_000);
const { loam, contract } = useLoam();
let child: ChildLoam | undefined;
beforeAll(async () => {
  child = await startChild({ env: { RATE_LIMIT_PER_MINUTE: "100000" } });
}, 60_000);
afterAll(() => child?.stop());

/** Twenty heavy areas at once against `base`, then /health: how many areas had finished when /health answered. */
async function healthAmidHeavyAreas(base: string, first: number): Promise<{ finishedBeforeHealth: number; statuses: number[] }> {
  let finished = 0;
  const statuses: number[] = [];
  const areas = Array.from({ length: 20 }, async (_, k) => {
    const response = await fetch(base + heavyAoiPath(first + k));
    const body = await response.json();
    statuses.push(response.status);
    if (response.status === 200) {
      expect(body.aoi.vertex_count).toBe(HEAVY_AOI_VERTICES);
      expect(body.map_units.length).toBeGreaterThan(0);
    }
    finished += 1;
  });
  // Sent after all twenty, so the server reads it last.
  const health = await fetch(`${base}/health`);
  expect(health.status).toBe(200);
  const finishedBeforeHealth = finished;
  await Promise.all(areas);
  return { finishedBeforeHealth, statuses };
}

describe("GET /v1/soil/aoi under load", () => {
  test("while twenty heavy areas are cut, /health (asked after them) answers before the last of them (Loam as its own process)", async () => {
    const { finishedBeforeHealth, statuses } = await healthAmidHeavyAreas(child!.base, 1);
    expect(statuses).toEqual(Array(20).fill(200));
    expect(finishedBeforeHealth).toBeLessThan(20);
  });

  test("twenty heavy areas all pass through the cut gate, at most AREA_CUTS.slots at once", async () => {
    const { statuses } = await healthAmidHeavyAreas(loam.base, 101);
    expect(statuses).toEqual(Array(20).fill(200));
    expect(AREA_CUTS.peak).toBeGreaterThanOrEqual(1);
    expect(AREA_CUTS.peak).toBeLessThanOrEqual(AREA_CUTS.slots);
    expect(AREA_CUTS.load).toEqual({ running: 0, waiting: 0 });
  });

  test("past the queue an area is a 503 ErrorResponse with Retry-After, and it is answered once the cuts drain", async () => {
    const held: (() => void)[] = [];
    const hold = () => AREA_CUTS.run(() => new Promise<void>((resolve) => held.push(resolve)));
    // A cut starts a turn after it is asked for: fill the queue, let the slots take theirs, fill it again.
    const holders = Array.from({ length: AREA_CUTS.queueLimit }, hold);
    for (let i = 0; i < 1000 && AREA_CUTS.load.running < AREA_CUTS.slots; i++) await Bun.sleep(1);
    holders.push(...Array.from({ length: AREA_CUTS.slots }, hold));
    try {
      expect(AREA_CUTS.load).toEqual({ running: AREA_CUTS.slots, waiting: AREA_CUTS.queueLimit });
      const response = await loam.get("/v1/soil/aoi?bbox=-94.361846,41.943158,-94.358198,41.945788&properties=clay");
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe(String(AREA_CUTS.retryAfterSeconds));
      const body = await response.json();
      contract.assert("ErrorResponse", body);
      expect(body.error.retryable).toBe(true);
      expect(body.error.message).toContain("retry after");
    } finally {
      // Each held cut, once it starts, is let go, until all have run (bounded).
      let settled = false;
      const all = Promise.all(holders).then(() => (settled = true));
      for (let i = 0; i < 100_000 && !settled; i++) {
        held.shift()?.();
        await Bun.sleep(0);
      }
      await all;
    }
    expect(AREA_CUTS.load).toEqual({ running: 0, waiting: 0 });
    const again = await loam.json("/v1/soil/aoi?bbox=-94.361846,41.943158,-94.358198,41.945788&properties=clay");
    expect(again.status).toBe(200);
    contract.assert("AoiReport", again.body);
  });
});
