/**
 * `retrieved_at` means one thing everywhere (docs/decisions.md#retrieved-at): when Loam's
 * source read the data. In snapshot mode that is the snapshot's build, the same instant on every route
 * (lists, point, summaries, pedons, series, raw wrappers, CSV: the map-unit and layer tables too); through SDA it is the upstream call. A
 * survey's version date (data README §1.2: IA073 version 26, 2020-06-10) is a warning, not a retrieved_at.
 */
import { describe, expect, test } from "bun:test";
import { useSnapshotAndFakeSda } from "../support/server";
import { parseRfc4180, records } from "../support/csv";

const { snapshot, viaSda } = useSnapshotAndFakeSda();
const POINT = "latitude=41.944131&longitude=-94.359608";

async function retrievals(loam: typeof snapshot): Promise<Record<string, string[]>> {
  const location = (await loam.json(`/v1/soil/location?${POINT}&properties=clay`)).body;
  const summary = (await loam.json(`/v1/soil/summary?${POINT}&properties=clay`)).body;
  const pedon = (await loam.json("/v1/pedons/02N0245")).body;
  const raw = (await loam.json(`/v1/providers/usda_ssurgo/raw/location?${POINT}`)).body;
  const rawPedon = (await loam.json("/v1/providers/usda_kssl/raw/pedons/02N0245")).body;
  const list = records(parseRfc4180(await (await loam.get("/v1/pedons?bbox=-96,38.5,-95,39.5&format=csv")).text()));
  const polygons = records(parseRfc4180(await (await loam.get("/v1/soil/mapunits?bbox=-94.37,41.934,-94.35,41.954&property=clay&format=csv")).text()));
  const layers = records(parseRfc4180(await (await loam.get("/v1/pedons/layers?bbox=-96,38.5,-95,39.5&properties=clay&format=csv")).text()));
  return {
    location: location.observations.map((o: any) => o.source.retrieved_at),
    summary: summary.summaries.map((s: any) => s.source.retrieved_at),
    pedon: [pedon.retrieved_at],
    raw: [raw.retrieved_at, rawPedon.retrieved_at],
    list: list.map((r) => r.retrieved_at!),
    polygons: polygons.map((r) => r.retrieved_at!),
    layers: layers.map((r) => r.retrieved_at!),
  };
}

describe("retrieved_at", () => {
  test("snapshot: the snapshot's build on every route, never a survey's version date", async () => {
    const all = await retrievals(snapshot);
    const series = (await snapshot.json("/v1/series/CLARION")).body;
    const values = new Set([...Object.values(all).flat(), series.source.retrieved_at]);
    expect(values.size).toBe(1);
    const [built] = [...values];
    const location = (await snapshot.json(`/v1/soil/location?${POINT}&properties=clay`)).body;
    expect(location.warnings.join(" ")).toContain(`built ${built!.slice(0, 10)}`);
    expect(built!.slice(0, 10)).not.toBe("2020-06-10");
    // The survey's own version date is said once, as a warning, on the point and on the summary.
    expect(location.warnings.filter((w: string) => w.includes("version 26 of 2020-06-10"))).toHaveLength(1);
    const summary = (await snapshot.json(`/v1/soil/summary?${POINT}&properties=clay`)).body;
    expect(summary.warnings.join(" ")).toContain("version 26 of 2020-06-10");
  });

  test("through SDA: the upstream call, as the cache metadata records it", async () => {
    const location = (await viaSda.json(`/v1/soil/location?${POINT}&properties=clay`)).body;
    for (const o of location.observations) expect(o.source.retrieved_at).toBe(location.cache.stored_at);
    const pedon = (await viaSda.json("/v1/pedons/02N0245")).body;
    expect(pedon.retrieved_at).toBe(pedon.cache.stored_at);
  });
});
