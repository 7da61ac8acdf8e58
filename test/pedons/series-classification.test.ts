/**
 * A pedon's series link warns when the pedon's recorded great group (samp_taxgrtgroup) differs from
 * the current Official Series Description's taxonomic class
 * (docs/decisions.md#series-classification). Expected from lab_combine_nasis_ncss.csv and the OSD JSON
 * files, read here.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR, useLoam } from "../support/server";

const { loam, contract } = useLoam();

/** lab_combine_nasis_ncss.csv: LF lines, a header, no quoted field. */
function pedons(): Record<string, string | undefined>[] {
  const [header, ...lines] = readFileSync(join(DATA_DIR, "kssl", "KS", "lab_combine_nasis_ncss.csv"), "utf8").split("\n").filter((l) => l !== "");
  const names = header!.split(",");
  return lines.map((line) => Object.fromEntries(line.split(",").map((v, i) => [names[i]!, v])));
}

/** The TAXONOMIC CLASS section of an OSD file, without its heading and final period. */
function taxonomicClass(name: string): string | null {
  const file = join(DATA_DIR, "osd", `${name.toUpperCase().replace(/ /g, "_")}.json`);
  if (!existsSync(file)) return null;
  const found = JSON.stringify(JSON.parse(readFileSync(file, "utf8"))).match(/"content":"TAXONOMIC CLASS:\s*([^"]*)"/);
  return found ? found[1]!.replace(/\\n/g, " ").trim().replace(/\.$/, "") : null;
}

const CASES = pedons()
  .filter((p) => /^[A-Za-z ]+$/.test(p.samp_name ?? "") && p.samp_taxgrtgroup)
  .map((p) => ({ key: p.pedlabsampnum!, name: p.samp_name!, greatGroup: p.samp_taxgrtgroup!, osd: taxonomicClass(p.samp_name!) }))
  .filter((c) => c.osd !== null);

describe("series link vs the pedon's own classification", () => {
  test("01N0169, sampled as Palermo (argiudolls), warns that the current OSD gives Typic Hapludalfs", async () => {
    const palermo = CASES.find((c) => c.key === "01N0169")!;
    expect(palermo.greatGroup).toBe("argiudolls");
    const { status, body } = await loam.json("/v1/pedons/01N0169?properties=clay");
    expect(status).toBe(200);
    contract.assert("PedonResponse", body);
    expect(body.series).toEqual({ name: "Palermo", url: "/v1/series/PALERMO" });
    const warning = body.warnings.find((w: string) => w.includes("(samp_taxgrtgroup)"));
    expect(warning).toContain("argiudolls");
    expect(warning).toContain(palermo.osd!);
  });

  test("every linked pedon: a warning exactly where the great groups differ", async () => {
    const differing = CASES.filter((c) => c.osd!.split(/\s+/).at(-1)!.toLowerCase() !== c.greatGroup.toLowerCase());
    expect(differing.length).toBe(36);
    for (const c of CASES) {
      const { body } = await loam.json(`/v1/pedons/${c.key}?properties=ph`);
      const warned = body.warnings.some((w: string) => w.includes("(samp_taxgrtgroup)"));
      expect({ pedon: c.key, warned }).toEqual({ pedon: c.key, warned: differing.includes(c) });
    }
  }, 60_000);

  test("the pedon list says it too: every listed pedon whose great group differs is named in the list's warning, the others are not", async () => {
    const differing = new Set(CASES.filter((c) => c.osd!.split(/\s+/).at(-1)!.toLowerCase() !== c.greatGroup.toLowerCase()).map((c) => c.key));
    // Kansas in 2 x 2 degree boxes (the list's largest is 4 square degrees).
    let checked = 0;
    for (const west of [-102, -100, -98, -96]) {
      for (const south of [37, 39]) {
        const { status, body } = await loam.json(`/v1/pedons?bbox=${west},${south},${west + 2},${south + 2}&limit=500`);
        expect(status).toBe(200);
        const warning: string = body.warnings.find((w: string) => w.startsWith("Pedon(s) ")) ?? "";
        for (const f of body.features) {
          const key = f.properties.pedon_key;
          expect({ key, named: warning.includes(`${key} (sampled as`) }).toEqual({ key, named: differing.has(key) });
          if (key === "01N0169") expect(warning).toContain("01N0169 (sampled as Palermo, classified as argiudolls; the current description gives");
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(400);
  });
});
