/**
 * A series' horizons say which parsed fields they leave out: every SoilKnowledgeBase horizon field with
 * a value (read from the OSD files in datasets with this test's own reader) is either a member of
 * the served horizon or named in the warning.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR, useLoam } from "../support/server";

const { loam } = useLoam();

/** SoilKnowledgeBase fields with a value in some horizon of the series' typical pedon. */
function fieldsWithValues(series: string): Set<string> {
  const osd = JSON.parse(readFileSync(join(DATA_DIR, "osd", `${series}.json`), "utf8"));
  const fields = new Set<string>();
  for (const h of osd.HORIZONS?.[0] ?? []) for (const [k, v] of Object.entries(h)) if (v !== null && v !== "" && v !== "NA") fields.add(k);
  return fields;
}

/** The parsed field a served horizon member comes from. */
const SERVED_FROM = ["name", "top", "bottom", "narrative", "texture_class", "structure", "pH_class", "moist_hue", "moist_value", "moist_chroma", "dry_hue", "dry_value", "dry_chroma"];

describe("GET /v1/series/{name}: fields the horizons leave out are named", () => {
  test.each(["CLARION", "HOLDREGE", "ABBYVILLE"])("%s", async (series) => {
    const { body } = await loam.json(`/v1/series/${series}`);
    const leftOut = [...fieldsWithValues(series)].filter((f) => !SERVED_FROM.includes(f));
    expect(leftOut.length).toBeGreaterThan(0);
    const warning = body.warnings.find((w: string) => w.startsWith("The parsed horizons also give "));
    expect(warning).toBeDefined();
    for (const field of leftOut) expect(warning).toContain(field);
  });
});
