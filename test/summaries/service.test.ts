/**
 * The summaries service without HTTP, as another feature (per-polygon summaries of a map layer) uses
 * it: plan once, then summarize map units by key through the cache, on the snapshot.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config";
import { openDatabase, type LoamDatabase } from "../../db/client";
import { LoamError } from "../../src/errors";
import { connectProviders } from "../../src/providers/connect";
import { createRegistry } from "../../src/providers/registry";
import { createUpstreamCache } from "../../src/upstream/cache";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import type { DataDeps } from "../../src/answer";
import { planSummaries, summarizeByKey, type MapUnitProvider } from "../../src/aggregation/plan";
import { tempDbPath, testSnapshot } from "../support/server";
import { sourceMapUnits, twoDecimals } from "./source-files";

let db: LoamDatabase;
let transport: SnapshotTransport;
let deps: DataDeps;
let provider: MapUnitProvider;

beforeAll(async () => {
  const config = loadConfig({ LOAM_DB: tempDbPath() });
  db = openDatabase(config.dbPath);
  transport = new SnapshotTransport(await testSnapshot());
  const registry = createRegistry();
  const cache = createUpstreamCache(db, { ttlSeconds: 3600, now: Date.now });
  const connected = connectProviders(registry.operational, { config, upstreams: { snapshot: transport }, cache });
  deps = { registry, connected, cacheTtlSeconds: 3600, now: Date.now };
  provider = registry.find("usda_ssurgo") as MapUnitProvider;
});

afterAll(() => {
  transport?.close();
  db?.$client.close();
});

describe("summarizeByKey", () => {
  test("aws 0–100 cm of every map unit equals muaggatt.aws0100wta; the second call is a cache hit", async () => {
    const plan = planSummaries(provider.mapUnits.properties, ["available_water_storage"], "weighted_average", { top_cm: 0, bottom_cm: 100 });
    for (const unit of sourceMapUnits()) {
      const result = (await summarizeByKey(deps, provider, unit.mukey, plan))!;
      const value = result.summaries[0]!.value;
      const expected = unit.muaggatt.aws0100wta;
      expect(twoDecimals(value)).toBe(twoDecimals(expected));
      expect(result.mapUnit.map_unit_symbol).toBe(unit.musym);
    }
    const again = await summarizeByKey(deps, provider, "2765528", plan);
    expect(again!.loaded.cached.hit).toBe(true);
  });

  test("an unknown key is null; a malformed key a 422; a misfit method a 422 at planning", async () => {
    const plan = planSummaries(provider.mapUnits.properties, ["clay"], null, { top_cm: 0, bottom_cm: 30 });
    expect(plan.summaries.map((s) => s.method)).toEqual(["weighted_average"]);
    expect(await summarizeByKey(deps, provider, "1", plan)).toBeNull();
    await expect(summarizeByKey(deps, provider, "01", plan)).rejects.toBeInstanceOf(LoamError);
    expect(() => planSummaries(provider.mapUnits.properties, ["clay"], "dominant_condition", { top_cm: 0, bottom_cm: 30 })).toThrow(/'dominant_condition' does not fit property 'clay'/);
  });

  test("derived once per cache entry: a repeat of the same plan gets the summaries already made; another plan or depth makes its own", async () => {
    const plan = planSummaries(provider.mapUnits.properties, ["clay", "ph"], null, { top_cm: 0, bottom_cm: 30 });
    const first = (await summarizeByKey(deps, provider, "2765528", plan))!;
    const again = (await summarizeByKey(deps, provider, "2765528", planSummaries(provider.mapUnits.properties, ["clay", "ph"], null, { top_cm: 0, bottom_cm: 30 })))!;
    expect(again.loaded.cached.hit).toBe(true);
    expect(again.summaries).toBe(first.summaries);
    const deeper = (await summarizeByKey(deps, provider, "2765528", planSummaries(provider.mapUnits.properties, ["clay", "ph"], null, { top_cm: 0, bottom_cm: 50 })))!;
    expect(deeper.summaries).not.toBe(first.summaries);
    expect(deeper.summaries[0]!.depth).toEqual({ top_cm: 0, bottom_cm: 50 });
  });
});
