/**
 * GET /v1/soil/points: 21 points, one inside each map unit of datasets/ (chosen by the test's own
 * reader of the shapefiles, reference.py), answered in one request equal 21 single GET /v1/soil/summary
 * calls, value for value, in snapshot mode and through the fake SDA; the map units are loaded once.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { useSnapshotAndFakeSda, type RunningLoam } from "../support/server";
import { parseRfc4180, records } from "../support/csv";
import { referenceAvailable, referencePoints, type ReferencePoint } from "./reference";

// Set before the hooks are declared: starting the servers, and each comparison (it asks the reference,
// a Python process, and several answers), may take far longer than 5 s on a busy 2-core machine.
setDefaultTimeout(60_000);
const { snapshot, viaSda, fake, contract } = useSnapshotAndFakeSda();
const HAS_REFERENCE = referenceAvailable();
const POINTS: ReferencePoint[] = HAS_REFERENCE ? referencePoints() : [];
// The data README's negative answer: outside the IA073 AOI.
const NOWHERE = { latitude: 41.95, longitude: -94.35 };
const PROPERTIES = "properties=clay,ph,available_water_storage,drainage_class&depth_bottom_cm=50";

const listOf = (points: readonly { latitude: number; longitude: number }[]) => points.map((p) => `${p.latitude},${p.longitude}`).join(";");

async function expectEqualsSingleCalls(loam: RunningLoam, points: readonly { latitude: number; longitude: number }[]) {
  const { status, body } = await loam.json(`/v1/soil/points?points=${listOf(points)}&${PROPERTIES}`);
  expect(status).toBe(200);
  contract.assert("PointsResponse", body);
  expect(body.points.length).toBe(points.length);
  for (const [index, point] of points.entries()) {
    const item = body.points[index];
    expect([item.index, item.latitude, item.longitude]).toEqual([index, point.latitude, point.longitude]);
    const single = await loam.json(`/v1/soil/summary?latitude=${point.latitude}&longitude=${point.longitude}&${PROPERTIES}`);
    expect(single.status).toBe(200);
    expect(item.summaries).toEqual(single.body.summaries);
    if (single.body.map_unit === null) expect(item.map_unit).toBeNull();
    else {
      const { components, ...identity } = single.body.map_unit;
      expect(item.map_unit).toEqual(identity);
    }
  }
  return body;
}

describe.skipIf(!HAS_REFERENCE)("GET /v1/soil/points: 21 points, one in each map unit of datasets/", () => {
  test("the reference chose 21 points in 21 distinct map units", () => {
    expect(POINTS.length).toBe(21);
    expect(new Set(POINTS.map((p) => p.mukey)).size).toBe(21);
  });

  test("one request equals 21 single /v1/soil/summary calls, value for value, in input order (snapshot)", async () => {
    const body = await expectEqualsSingleCalls(snapshot, POINTS);
    expect(body.points.map((p: any) => p.map_unit.map_unit_key)).toEqual(POINTS.map((p) => p.mukey));
  });

  test("the same through the fake SDA, each distinct map unit asked for once", async () => {
    // Reversed, and with the first point again, so order and duplicates are both exercised.
    const points = [...POINTS].reverse().concat([POINTS[0]!]);
    const body = await expectEqualsSingleCalls(viaSda, points);
    expect(body.points.map((p: any) => p.map_unit.map_unit_key)).toEqual(points.map((p) => p.mukey));
  });
});

describe("GET /v1/soil/points: the rest of the contract", () => {
  test("a point in no map unit: map_unit null, no summaries, a warning; its neighbours answered", async () => {
    const known = { latitude: 41.944131, longitude: -94.359608 };
    const { status, body } = await snapshot.json(`/v1/soil/points?points=${listOf([known, NOWHERE, known])}&properties=clay`);
    expect(status).toBe(200);
    contract.assert("PointsResponse", body);
    expect(body.points.map((p: any) => p.map_unit?.map_unit_key ?? null)).toEqual(["2765528", null, "2765528"]);
    expect(body.points[1].summaries).toEqual([]);
    expect(body.points[1].warnings.join(" ")).toContain("falls in no usda_ssurgo map unit");
  });

  test("a point given four times is located once and its map unit loaded at most once (fake SDA)", async () => {
    // The data README's MH936 known point (Majuro, 465580); no other test of this file asks for these coordinates.
    const majuro = { latitude: 7.087128, longitude: 171.140451 };
    const before = fake.calls;
    const { status, body } = await viaSda.json(`/v1/soil/points?points=${listOf([majuro, majuro, majuro, majuro])}&properties=silt&depth_bottom_cm=11`);
    expect(status).toBe(200);
    expect(body.points.map((p: any) => p.map_unit.map_unit_key)).toEqual(["465580", "465580", "465580", "465580"]);
    const sent = fake.lastQueries.slice(-(fake.calls - before));
    expect(sent.filter((sql) => sql.includes("POINT(171.140451 7.087128)")).length).toBe(1);
    expect(sent.filter((sql) => /WHERE mu\.mukey = 465580 AND/.test(sql)).length).toBeLessThanOrEqual(1);
    expect(sent.length).toBeLessThanOrEqual(2);
  });

  test("format=csv: one row per point and property, index and coordinates first; a point without a map unit keeps its rows", async () => {
    const known = { latitude: 41.944131, longitude: -94.359608 };
    const json = (await snapshot.json(`/v1/soil/points?points=${listOf([NOWHERE, known])}&properties=clay,ph`)).body;
    const response = await snapshot.get(`/v1/soil/points?points=${listOf([NOWHERE, known])}&properties=clay,ph&format=csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const table = parseRfc4180(await response.text());
    expect(table[0]!.slice(0, 3)).toEqual(["point_index", "latitude", "longitude"]);
    const rows = records(table);
    expect(rows.map((r) => [r.point_index, r.latitude, r.longitude, r.property_id])).toEqual([
      ["0", "41.95", "-94.35", "clay"],
      ["0", "41.95", "-94.35", "ph"],
      ["1", "41.944131", "-94.359608", "clay"],
      ["1", "41.944131", "-94.359608", "ph"],
    ]);
    expect(rows[0]!.value).toBe("");
    expect(rows[0]!.warnings).toContain("falls in no usda_ssurgo map unit");
    expect(Number(rows[2]!.value)).toBe(json.points[1].summaries[0].value);
    expect(Number(rows[3]!.value)).toBe(json.points[1].summaries[1].value);
  });
});
