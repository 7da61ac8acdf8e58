/**
 * Loam in SDA mode in front of the fake SDA, without a cache, so every request reaches the fake and a
 * test can count and read what it received.
 */
import { afterAll, beforeAll } from "bun:test";
import { SdaTransport } from "../../src/upstream/sda/client";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { startFakeSda, type FakeSda } from "./fake-sda";
import { contractFrom, type ContractChecker } from "./openapi";
import { late, startLoam, testSnapshot, type RunningLoam } from "./server";

/** An uncached Loam whose SDA transport posts to `url` with this deadline (UPSTREAM_TIMEOUT_MS). */
export function startUncachedSdaLoam(url: string, timeoutMs = 5000): Promise<RunningLoam> {
  return startLoam({ source: new SdaTransport({ url, timeoutMs }), env: { LOAM_UPSTREAM: "sda", CACHE_TTL_SECONDS: "0" } });
}

/**
 * For a whole test file: the fake SDA answering from the test snapshot (`snapshot`, to compute the
 * expected answers), an uncached Loam before it, and the contract checker of Loam's OpenAPI document.
 */
export function useUncachedSda(): { fake: FakeSda; snapshot: SnapshotTransport; loam: RunningLoam; contract: ContractChecker } {
  let fake: FakeSda | undefined;
  let snapshot: SnapshotTransport | undefined;
  let loam: RunningLoam | undefined;
  let contract: ContractChecker | undefined;
  beforeAll(async () => {
    snapshot = new SnapshotTransport(await testSnapshot());
    fake = startFakeSda({ answerer: snapshot });
    loam = await startUncachedSdaLoam(fake.url);
    contract = await contractFrom(loam.base);
  }, 120_000);
  afterAll(async () => {
    await loam?.stop();
    fake?.close();
    snapshot?.close();
  });
  return {
    fake: late(() => fake, "fake"),
    snapshot: late(() => snapshot, "snapshot"),
    loam: late(() => loam, "loam"),
    contract: late(() => contract, "contract"),
  };
}
