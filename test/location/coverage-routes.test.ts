/**
 * One coverage sentence on every route (docs/decisions.md#coverage-messages): for the same place, the
 * point query, the point summary, the many-points route and the area report give the same reason why
 * there is no map unit. The places: an area of Greene County outside the snapshot's IA073 extract, open
 * water inside MH936's survey area, and Paris.
 */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";

const { loam } = useLoam();

const PLACES = [
  { name: "Greene County outside the IA073 extract", bbox: [-94.5, 41.9, -94.45, 41.95], expected: "it lies outside this offline snapshot" },
  { name: "open water in MH936's survey area", bbox: [171.39, 7.59, 171.41, 7.61], expected: "inside survey area MH936 of this snapshot" },
  { name: "Paris", bbox: [2.34, 48.85, 2.36, 48.86], expected: "France" },
] as const;

/** The reason after "map unit: " (or "map unit (mapped_percent 0): ") in the one warning that gives it. */
function reasonIn(warnings: readonly string[]): string {
  const said = warnings.filter((w) => w.includes("falls in no usda_ssurgo map unit"));
  expect(said).toHaveLength(1);
  return said[0]!.replace(/^.*falls in no usda_ssurgo map unit( \(mapped_percent 0\))?: /, "");
}

describe("why a place has no map unit: the same sentence on every route", () => {
  test.each(PLACES)("$name", async ({ bbox, expected }) => {
    const [w, s, e, n] = bbox;
    const lat = (s + n) / 2;
    const lon = (w + e) / 2;
    const location = (await loam.json(`/v1/soil/location?latitude=${lat}&longitude=${lon}&properties=clay`)).body;
    const summary = (await loam.json(`/v1/soil/summary?latitude=${lat}&longitude=${lon}&properties=clay`)).body;
    const points = (await loam.json(`/v1/soil/points?points=${lat},${lon}&properties=clay`)).body;
    const aoi = (await loam.json(`/v1/soil/aoi?bbox=${bbox.join(",")}&properties=clay`)).body;
    expect(aoi.aoi.mapped_percent).toBe(0);
    const reasons = {
      location: reasonIn(location.warnings),
      summary: reasonIn(summary.warnings),
      points: reasonIn(points.points[0].warnings),
      aoi: reasonIn(aoi.warnings),
    };
    expect(reasons.location).toContain(expected);
    expect(reasons).toEqual({ location: reasons.location, summary: reasons.location, points: reasons.location, aoi: reasons.location });
  });
});
