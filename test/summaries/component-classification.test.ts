/**
 * A component's series link warns where the survey's class of the component (taxclname) and the
 * series' current Official Series Description name different great groups
 * (docs/decisions.md#series-classification): MH936 classes components with older names (Typic
 * Troporthents) whose series now read Udorthents. Expected from comp.txt and the OSD files, read here.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { useLoam } from "../support/server";
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
