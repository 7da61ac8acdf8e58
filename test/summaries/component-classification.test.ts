/**
 * A component's series link warns where the survey's class of the component (taxclname) and the
 * series' current Official Series Description name different great groups
 * (docs/decisions.md#series-classification): MH936 classes components with older names (Typic
 * Troporthents) whose series now read Udorthents. Expected from comp.txt and the OSD files, read here.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startLoam, testSnapshot, useLoam, type RunningLoam } from "../support/server";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { startFakeOsd, type FakeOsd } from "../support/fake-osd";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { SdaTransport } from "../../src/upstream/sda/client";
import { DATA_DIR, readTable } from "./source-files";

setDefaultTimeout(60_000);
const { loam } = useLoam();

/** The TAXONOMIC CLASS of an OSD file; null without one. */
function osdClass(name: string): string | null {
  const file = join(DATA_DIR, "osd", `${name.toUpperCase().replace(/ /g, "_")}.json`);
  if (!existsSync(file)) return null;
  const found = JSON.stringify(JSON.parse(readFileSync(file, "utf8"))).match(/"content":"TAXONOMIC CLASS:\s*([^"]*)"/);
  return found ? found[1]!.replace(/\\n/g, " ").trim().replace(/\.$/, "") : null;
}
const greatGroup = (taxonomicClass: string) => taxonomicClass.trim().replace(/\.$/, "").split(/\s+/).at(-1)!.toLowerCase();

describe("component class vs the series' current description", () => {
  test("MH936: exactly the components whose great group differs from their series' are named, by map unit", async () => {
    const rows = readTable("MH936", "component").filter((c) => ["series", "taxadjunct"].includes((c.compkind ?? "").toLowerCase()) && c.taxclname);
    const differing = rows.filter((c) => {
      const current = osdClass(c.compname!);
      return current !== null && greatGroup(current) !== greatGroup(c.taxclname!);
    });
    expect(differing.length).toBe(19);
    expect(differing.some((c) => /Troporthents/.test(c.taxclname!))).toBe(true);
    const named = new Set<string>();
    for (const mukey of new Set(rows.map((c) => c.mukey!))) {
      const { status, body } = await loam.json(`/v1/soil/mapunits/${mukey}?properties=clay`);
      expect(status).toBe(200);
      for (const w of body.warnings.filter((x: string) => x.startsWith("Component(s) "))) {
        for (const c of rows.filter((r) => r.mukey === mukey && w.includes(r.cokey!))) {
          named.add(c.cokey!);
          expect(w).toContain(c.taxclname!);
          expect(w).toContain(osdClass(c.compname!)!);
        }
      }
    }
    expect([...named].sort()).toEqual(differing.map((c) => c.cokey!).sort());
  });
});

describe("component class check against a live series source", () => {
  let fakeSda: FakeSda;
  let fakeOsd: FakeOsd;
  let live: RunningLoam;
  beforeAll(async () => {
    fakeSda = startFakeSda({ answerer: new SnapshotTransport(await testSnapshot()) });
    fakeOsd = startFakeOsd({ dataDir: DATA_DIR });
    live = await startLoam({
      source: new SdaTransport({ url: fakeSda.url, timeoutMs: 5000 }),
      env: { LOAM_UPSTREAM: "sda", OSD_URL: fakeOsd.urlPattern, UPSTREAM_TIMEOUT_MS: "1500" },
    });
  });
  afterAll(async () => {
    await live?.stop();
    fakeSda?.close();
    fakeOsd?.close();
  });

  test("a map unit's series are asked for at the same time, each once: every differing component is named though the source answers only once all are asked", async () => {
    const rows = readTable("MH936", "component").filter((c) => ["series", "taxadjunct"].includes((c.compkind ?? "").toLowerCase()) && c.taxclname);
    const differs = (c: (typeof rows)[number]) => {
      const current = osdClass(c.compname!);
      return current !== null && greatGroup(current) !== greatGroup(c.taxclname!);
    };
    // The map unit whose differing components name the most series: a sequential check would name at most the last.
    const names = (mukey: string, which: (c: (typeof rows)[number]) => boolean) => new Set(rows.filter((c) => c.mukey === mukey && which(c)).map((c) => c.compname!.toUpperCase()));
    const mukey = [...new Set(rows.map((c) => c.mukey!))].sort((a, b) => names(b, differs).size - names(a, differs).size)[0]!;
    expect(names(mukey, differs).size).toBeGreaterThanOrEqual(2);
    // Live mode links every series-like name, so each checked component's series is asked for.
    const asked = names(mukey, () => true);
    fakeOsd.holdUntil(asked.size);
    const calls = fakeOsd.calls;
    const { status, body } = await live.json(`/v1/soil/mapunits/${mukey}?properties=clay`);
    expect(status).toBe(200);
    expect(fakeOsd.calls - calls).toBe(asked.size);
    const warned = body.warnings.filter((w: string) => w.startsWith("Component(s) ")).join("\n");
    for (const c of rows.filter((r) => r.mukey === mukey && differs(r))) {
      expect(warned).toContain(c.cokey!);
      expect(warned).toContain(osdClass(c.compname!)!);
    }
  });
});
