/**
 * Every served cell of every site (issue #24, done-when): the 4,857 sites x 44 elements of USGS DS
 * 801 Appendix 2b, as the test's own reader reads the file (./reference.ts), against what Loam serves
 * through HTTP, in snapshot mode and in live mode against a local server sending the real file.
 * Each cell is checked twice: in the site list with `property` (value, reported_value,
 * value_qualifier, reporting_limit, unit for mapping) and in the site answer with every element.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SdaTransport } from "../../src/upstream/sda/client";
import { DATA_DIR, startLoam, type RunningLoam } from "../support/server";
import { startFakeUsgs, type FakeUsgs } from "../support/fake-usgs";
import { ELEMENT_IDS, expectedCell, reference } from "./reference";

let snapshot: RunningLoam;
let live: RunningLoam;
let fake: FakeUsgs;

beforeAll(async () => {
  // No cache: every answer is made from the source (and nothing is written to LOAM_DB per request).
  snapshot = await startLoam({ env: { CACHE_TTL_SECONDS: "0" } });
  fake = startFakeUsgs({ dataDir: DATA_DIR });
  // SDA is not reachable (port 9): only the geochemistry routes are asked.
  live = await startLoam({ source: new SdaTransport({ url: "http://127.0.0.1:9/Tabular/post.rest", timeoutMs: 500 }), env: { LOAM_UPSTREAM: "sda", GEOCHEM_URL: fake.url, CACHE_TTL_SECONDS: "0" } });
}, 120_000);

afterAll(async () => {
  await snapshot?.stop();
  await live?.stop();
  fake?.close();
});

/** Bodies uncompressed: the comparison reads some 300 MB of JSON, and compressing it would double the run. */
const PLAIN = { headers: { "accept-encoding": "identity" } };

/** Run `work` over `items`, `width` at a time. */
async function eachLimited<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

const modes = () => [["snapshot", snapshot], ["live", live]] as const;

describe.each(["snapshot", "live"] as const)("every cell of every site (%s)", (mode) => {
  const loam = () => (mode === "snapshot" ? snapshot : live);

  test("the site list with `property` serves each element's cell of every site, walked page by page", async () => {
    const { sites, units } = reference();
    const symbols = Object.keys(ELEMENT_IDS);
    let compared = 0;
    await eachLimited(symbols, 4, async (symbol) => {
      const id = ELEMENT_IDS[symbol]!;
      const column = `Top5_${symbol}`;
      const seen = new Set<number>();
      let path: string | null = `/v1/geochem/sites?limit=1000&property=${id}`;
      while (path) {
        const { status, body }: { status: number; body: any } = await loam().json(path, PLAIN);
        expect(status).toBe(200);
        const served: unknown[] = [];
        const wanted: unknown[] = [];
        for (const feature of body.features) {
          const p = feature.properties;
          const row = sites.get(p.site_id);
          if (!row || seen.has(p.site_id)) throw new Error(`site ${p.site_id} is unknown or listed twice`);
          seen.add(p.site_id);
          const want = expectedCell(row[column]!, units[column]!);
          served.push([p.site_id, p.property, p.value, p.reported_value, p.value_qualifier, p.reporting_limit, p.unit]);
          wanted.push([p.site_id, id, want.value, want.reported_value, want.value_qualifier, want.reporting_limit, want.unit]);
        }
        expect(served).toEqual(wanted);
        compared += served.length;
        path = body.next;
      }
      expect(seen.size).toBe(sites.size);
    });
    expect(compared).toBe(4857 * 44);
  }, 120_000);

  // Snapshot: every site. Live: the list above already compared every cell the live file serves; the
  // site answer, the same decoder over the same transport, is compared on every 7th site and every
  // site with an N.S. cell (it keeps the live run short on a busy machine).
  test("the site answer serves every element of the sites: numbers, censored results, and no observation for N.S.", async () => {
    const { sites, units } = reference();
    const ids = [...sites.keys()].filter((id, i) => mode === "snapshot" || i % 7 === 0 || Object.values(sites.get(id)!).includes("N.S."));
    let observed = 0;
    let missing = 0;
    await eachLimited(ids, 8, async (siteId) => {
      const { status, body } = await loam().json(`/v1/geochem/sites/${siteId}`, PLAIN);
      expect(status).toBe(200);
      const row = sites.get(siteId)!;
      const served = body.observations.map((o: any) => [o.property.id, o.value, o.reported_value, o.value_qualifier, o.reporting_limit, o.unit, o.source.column, o.source.original_value, o.source.original_unit]);
      const wanted: unknown[] = [];
      const noSample: string[] = [];
      for (const [symbol, id] of Object.entries(ELEMENT_IDS)) {
        const column = `Top5_${symbol}`;
        const want = expectedCell(row[column]!, units[column]!);
        if (want.observed) wanted.push([id, want.value, want.reported_value, want.value_qualifier, want.reporting_limit, want.unit, column, row[column], want.original_unit]);
        else noSample.push(id);
      }
      expect(served).toEqual(wanted);
      // An element with no sample: no observation, and a warning naming it.
      const unnamed = noSample.filter((id) => !body.warnings.some((w: string) => w.includes(`'${id}'`) && w.includes("N.S.")));
      expect(unnamed).toEqual([]);
      observed += served.length;
      missing += noSample.length;
    });
    // 4,857 x 44 cells: 704 are N.S. (the data README's count); every N.S. site is in both runs.
    if (mode === "snapshot") expect(observed + missing).toBe(4857 * 44);
    expect(missing).toBe(704);
  }, 120_000);
});

test("live mode downloaded the file once for all of the above", () => {
  expect(fake.calls).toBe(1);
  expect(modes()).toHaveLength(2);
});
