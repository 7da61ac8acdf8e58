/**
 * OSD horizon depths keep the original (docs/decisions.md#osd-depths): the line's inches or
 * centimetres in `original_depth`, the served centimetres converted exactly (1 in = 2.54 cm), at the
 * precision rule. Expected values come from the OSD JSON files' narratives, read here.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR, useLoam } from "../support/server";

const { loam, contract } = useLoam();
const OSD = join(DATA_DIR, "osd");
const round4 = (v: number) => Number(v.toPrecision(4));

describe("OSD horizon depths", () => {
  test("HOLDREGE Ap '0 to 6 inches' is 0-15.24 cm, its inches kept", async () => {
    const file = JSON.parse(readFileSync(join(OSD, "HOLDREGE.json"), "utf8"));
    const ap = file.HORIZONS[0][0];
    expect(ap.narrative).toStartWith("Ap--0 to 6 inches;");
    const { status, body } = await loam.json("/v1/series/holdrege");
    expect(status).toBe(200);
    contract.assert("SeriesResponse", body);
    expect(body.horizons[0].depth).toEqual({ top_cm: 0, bottom_cm: 6 * 2.54 });
    expect(body.horizons[0].original_depth).toMatchObject({ top: 0, bottom: 6, unit: "in", text: "0 to 6 inches" });
  });

  test("every horizon of every series: an inch line converts exactly, a centimetre line is served as written", async () => {
    let inches = 0;
    let centimetres = 0;
    for (const name of readdirSync(OSD).filter((f) => f.endsWith(".json"))) {
      const file = JSON.parse(readFileSync(join(OSD, name), "utf8"));
      const { body } = await loam.json(`/v1/series/${name.replace(/\.json$/, "")}`);
      const served = new Map<string, any>(body.horizons.map((h: any) => [h.narrative, h]));
      for (const h of file.HORIZONS[0]) {
        const line = /^[^;]*?--\s*(\d+(?:\.\d+)?)(?:\s+to\s+(\d+(?:\.\d+)?))?\s+(inches|centimeters|cm)\b/.exec(h.narrative ?? "");
        const horizon = served.get(h.narrative);
        if (!line || !horizon) continue;
        const factor = line[3] === "inches" ? 2.54 : 1;
        expect({ series: name, horizon: h.name, top: horizon.depth.top_cm }).toEqual({ series: name, horizon: h.name, top: round4(Number(line[1]) * factor) });
        if (line[2] !== undefined) expect(horizon.depth.bottom_cm).toBe(round4(Number(line[2]) * factor));
        expect(horizon.original_depth).toMatchObject({ top: Number(line[1]), unit: factor === 1 ? "cm" : "in" });
        if (factor === 1) centimetres++;
        else inches++;
      }
    }
    expect(inches).toBeGreaterThan(100);
    expect(centimetres).toBeGreaterThan(100);
  }, 60_000);
});
