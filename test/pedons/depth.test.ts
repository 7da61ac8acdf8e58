/**
 * Pedon depth bounds (docs/decisions.md#pedon-depth): the spec leaves them open; Loam
 * reaches 1000 cm, covers the whole pedon by default, and names every layer the interval leaves out.
 * Expected layers come from kssl/KS/lab_layer.csv read with the tests' own CSV reader.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR, useLoam } from "../support/server";

const { loam, contract } = useLoam();
/** lab_layer.csv: LF lines, a header, no quoted field (data README §2.1). */
function readLayers(): Record<string, string | undefined>[] {
  const [header, ...lines] = readFileSync(join(DATA_DIR, "kssl", "KS", "lab_layer.csv"), "utf8").split("\n").filter((l) => l !== "");
  const names = header!.split(",");
  return lines.map((line) => Object.fromEntries(line.split(",").map((v, i) => [names[i]!, v])));
}
const LAYERS = readLayers();
const layersOf = (pedon: string | undefined) => LAYERS.filter((l) => l.pedlabsampnum === pedon && l.hzn_top !== "" && l.hzn_bot !== "");
const overlaps = (l: Record<string, string | undefined>, top: number, bottom: number) => Number(l.hzn_top) < bottom && Number(l.hzn_bot) > top;

describe("pedon depth bounds", () => {
  test("07N0129: the default lists every layer, down to its 295–351 cm layer", async () => {
    const expected = layersOf("07N0129");
    expect(expected.some((l) => Number(l.hzn_top) >= 200)).toBe(true);
    const { status, body } = await loam.json("/v1/pedons/07N0129");
    expect(status).toBe(200);
    contract.assert("PedonResponse", body);
    expect(body.layers.map((l: any) => [l.lab_sample_key, l.depth.top_cm, l.depth.bottom_cm])).toEqual(expected.map((l) => [l.labsampnum, Number(l.hzn_top), Number(l.hzn_bot)]));
    expect(body.query.depth_bottom_cm).toBe(1000);
    expect(body.warnings.join(" ")).not.toContain("outside the requested");
  });

  test("07N0129 at 0–200 cm: the layers below are named in a warning, never dropped silently", async () => {
    const { status, body } = await loam.json("/v1/pedons/07N0129?depth_bottom_cm=200");
    expect(status).toBe(200);
    const inside = layersOf("07N0129").filter((l) => overlaps(l, 0, 200));
    const outside = layersOf("07N0129").filter((l) => !overlaps(l, 0, 200));
    expect(outside.length).toBeGreaterThan(0);
    expect(body.layers.map((l: any) => l.lab_sample_key)).toEqual(inside.map((l) => l.labsampnum));
    const warning = body.warnings.find((w: string) => w.includes("outside the requested 0–200 cm"));
    for (const l of outside) expect(warning).toContain(`${l.labsampnum} (${l.hzn_desgn || "no designation"}, ${l.hzn_top}–${l.hzn_bot} cm)`);
  });

  test("07N0129 at 200–400 cm answers its deep layers (depth_bottom_cm above 200 is no longer a 422)", async () => {
    const { status, body } = await loam.json("/v1/pedons/07N0129?depth_top_cm=200&depth_bottom_cm=400");
    expect(status).toBe(200);
    expect(body.layers.map((l: any) => l.lab_sample_key)).toEqual(layersOf("07N0129").filter((l) => overlaps(l, 200, 400)).map((l) => l.labsampnum));
  });

  test("every pedon with layers starting at or below 200 cm lists them all by default; a pedon deeper than 1000 cm echoes its own bottom", async () => {
    const deep = [...new Set(LAYERS.filter((l) => l.hzn_top !== "" && Number(l.hzn_top) >= 200).map((l) => l.pedlabsampnum!))];
    expect(deep.length).toBeGreaterThan(0);
    for (const pedon of deep) {
      const { status, body } = await loam.json(`/v1/pedons/${pedon}?properties=clay`);
      expect(status).toBe(200);
      expect({ pedon, count: body.layers.length }).toEqual({ pedon, count: layersOf(pedon).length });
      const deepest = Math.max(...layersOf(pedon).map((l) => Number(l.hzn_bot)));
      expect(body.query.depth_bottom_cm).toBe(Math.max(1000, deepest));
    }
  });
});
