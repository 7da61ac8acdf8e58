/**
 * Lab layers keep their layer_type, and layers of one pedon whose depth ranges overlap (a fixed-depth
 * increment beside a horizon) are flagged: a sum over depth would count the shared depth twice.
 * Expected values come from lab_layer.csv, read here with the tests' own RFC 4180 reader.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseRfc4180 } from "../support/csv";
import { DATA_DIR, useLoam } from "../support/server";

const { loam, contract } = useLoam();

interface CsvLayer {
  labsampnum: string;
  pedlabsampnum: string;
  layer_type: string | null;
  top: number | null;
  bottom: number | null;
}

function csvLayers(): CsvLayer[] {
  const text = readFileSync(join(DATA_DIR, "kssl", "KS", "lab_layer.csv"), "utf8").replace(/\r?\n/g, "\r\n");
  const [header, ...rows] = parseRfc4180(text).filter((r) => r.length > 1);
  const at = (name: string) => header!.indexOf(name);
  const n = (v: string | undefined) => (v === undefined || v === "" ? null : Number(v));
  return rows.map((r) => ({
    labsampnum: r[at("labsampnum")]!,
    pedlabsampnum: r[at("pedlabsampnum")]!,
    layer_type: r[at("layer_type")] || null,
    top: n(r[at("hzn_top")]),
    bottom: n(r[at("hzn_bot")]),
  }));
}

const LAYERS = csvLayers();
const PEDONS = [...new Set(LAYERS.map((l) => l.pedlabsampnum))];

/** Pedons with two layers of positive thickness sharing some depth. */
function pedonsWithOverlap(): Set<string> {
  const out = new Set<string>();
  for (const pedon of PEDONS) {
    const layers = LAYERS.filter((l) => l.pedlabsampnum === pedon && l.top !== null && l.bottom !== null);
    for (const a of layers) for (const b of layers) if (a !== b && a.top! < b.bottom! && b.top! < a.bottom!) out.add(pedon);
  }
  return out;
}

describe("layer_type and overlapping layers (GET /v1/pedons/{pedon_key})", () => {
  test("02N0245: every layer keeps its layer_type; the 0–5 cm layer beside Ap1 0–13 cm is flagged", async () => {
    const { status, body } = await loam.json("/v1/pedons/02N0245?properties=clay");
    expect(status).toBe(200);
    contract.assert("PedonResponse", body);
    const expected = LAYERS.filter((l) => l.pedlabsampnum === "02N0245").map((l) => [l.labsampnum, l.layer_type]);
    const served = body.layers.map((l: any) => [l.lab_sample_key, l.layer_type]);
    expect(served.sort()).toEqual(expected.sort());
    expect(body.layers.find((l: any) => l.lab_sample_key === "02N01107")).toMatchObject({ depth: { top_cm: 0, bottom_cm: 5 }, layer_type: null });
    expect(body.layers.find((l: any) => l.lab_sample_key === "02N01100")).toMatchObject({ horizon_designation: "Ap1", layer_type: "horizon" });
    const warning = body.warnings.find((w: string) => w.startsWith("Overlapping layers"));
    expect(warning).toContain("02N01107 (no designation, 0–5 cm) and 02N01100 (Ap1, 0–13 cm)");
    expect(warning).toContain("count the shared depth twice");
  });

  test("12N7611 has no overlapping layers and no such warning", async () => {
    const { body } = await loam.json("/v1/pedons/12N7611");
    expect(pedonsWithOverlap().has("12N7611")).toBe(false);
    expect(body.warnings.some((w: string) => w.startsWith("Overlapping layers"))).toBe(false);
  });

  test("over all 462 pedons, exactly those with overlapping layers in lab_layer.csv are flagged (40)", async () => {
    const expected = pedonsWithOverlap();
    expect(PEDONS).toHaveLength(462);
    expect(expected.size).toBe(40);
    const flagged = new Set<string>();
    for (const pedon of PEDONS) {
      const { status, body } = await loam.json(`/v1/pedons/${pedon}?properties=ph`);
      expect(status).toBe(200);
      if (body.warnings.some((w: string) => w.startsWith("Overlapping layers"))) flagged.add(pedon);
    }
    expect([...flagged].sort()).toEqual([...expected].sort());
  });
});
