/**
 * The survey's own version date is said the same way wherever a map unit is answered
 * (docs/decisions.md#retrieved-at): each item of GET /v1/soil/points carries the sentence the point
 * summary gives, and it reads as a sentence when the survey states a date but no version number (MH936).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { useLoam } from "../support/server";
import { referenceAvailable, referencePoints } from "../areas/reference";

setDefaultTimeout(60_000);
const { loam } = useLoam();
const HAS_REFERENCE = referenceAvailable();

describe.skipIf(!HAS_REFERENCE)("survey version sentences", () => {
  test("each point item carries its survey's version sentence, as the point summary says it", async () => {
    const all = referencePoints();
    const points = ["IA073", "IA015", "IA183", "MH936"].map((area) => all.find((p) => p.area_symbol === area)!);
    const { body } = await loam.json(`/v1/soil/points?points=${points.map((p) => `${p.latitude},${p.longitude}`).join(";")}&properties=clay`);
    for (const [i, p] of points.entries()) {
      const summary = (await loam.json(`/v1/soil/summary?latitude=${p.latitude}&longitude=${p.longitude}&properties=clay`)).body;
      const version = summary.warnings.filter((w: string) => w.startsWith("Survey area "));
      expect(version).toHaveLength(1);
      expect(version[0]).toContain(`(${p.area_symbol}) is served as of`);
      expect(body.points[i].warnings).toContain(version[0]);
    }
  });

  test("MH936 states a date but no version number: the sentence says so in words", async () => {
    const p = referencePoints().find((x) => x.area_symbol === "MH936")!;
    const summary = (await loam.json(`/v1/soil/summary?latitude=${p.latitude}&longitude=${p.longitude}&properties=clay`)).body;
    const sentence = summary.warnings.find((w: string) => w.startsWith("Survey area "))!;
    expect(sentence).toMatch(/\(MH936\) is served as of its version of \d{4}-\d{2}-\d{2} \(version number not stated\)/);
    expect(sentence).not.toContain("its an");
  });
});
