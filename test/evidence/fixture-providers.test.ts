/**
 * GET /v1/soil/evidence names no provider: with fixture providers registered first for three roles (a
 * mapped survey with its own map-unit keys, a modeled grid and sensor stations, each with its own
 * transport), the route asks them and the registered defaults alike, keys them by their ids in the
 * registry's order, and compares their values exactly as their own routes give them.
 */
import { describe, expect, test } from "bun:test";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { fixturePolygons } from "../fixtures/fixture_polygons";
import { fixtureGrid, GRID } from "../fixtures/fixture_grid";
import { fixtureStations, STATIONS } from "../fixtures/fixture_stations";
import { referencePoints } from "../areas/reference";
import { useLoam } from "../support/server";

const { loam, contract } = useLoam({ providers: [fixturePolygons, fixtureGrid, fixtureStations, ...DEFAULT_PROVIDERS] });

describe("the evidence route over fixture providers", () => {
  test("a fixture survey's map unit, in its own key syntax, compared as its own map-unit route summarizes it", async () => {
    const point = referencePoints().find((p) => p.area_symbol === "IA015")!;
    const { status, body } = await loam.json(`/v1/soil/evidence?latitude=${point.latitude}&longitude=${point.longitude}&properties=clay,slope`);
    expect(status).toBe(200);
    contract.assert("EvidenceResponse", body);
    // Every provider of every role, the fixtures and the defaults alike, in the registry's order (docs/decisions.md#provider-links).
    const registryOrder = [fixturePolygons, fixtureGrid, fixtureStations, ...DEFAULT_PROVIDERS].filter((p) => p.role !== "planned").map((p) => p.id);
    expect(Object.keys(body.sources)).toEqual(registryOrder);
    const survey = body.sources[fixturePolygons.id];
    expect(survey.map_units[0].map_unit_key).toBe(`mu-${point.mukey}`);
    let compared = 0;
    for (const comparison of body.comparison) {
      for (const depth of comparison.depths) {
        const own = `/v1/soil/mapunits/mu-${point.mukey}?provider=${fixturePolygons.id}&properties=${comparison.property.id}&depth_top_cm=${depth.top_cm}&depth_bottom_cm=${depth.bottom_cm}`;
        const summary = (await loam.json(own)).body.summaries[0];
        const cell = depth.cells.find((c: any) => c.provider === fixturePolygons.id);
        expect(cell?.value ?? null).toBe(summary?.value ?? null);
        if (cell) compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(0);
  });

  test("a fixture grid's cell and fixture stations, by their own ids and answers", async () => {
    const lon = GRID.originLon + 1.3 * GRID.cell;
    const lat = GRID.originLat - 0.6 * GRID.cell;
    const { body } = await loam.json(`/v1/soil/evidence?latitude=${lat}&longitude=${lon}&properties=clay,silt&depth_bottom_cm=15`);
    const modeled = (await loam.json(`/v1/soil/modeled?latitude=${lat}&longitude=${lon}&provider=${fixtureGrid.id}&properties=clay,silt&depth_bottom_cm=15`)).body;
    expect(body.sources[fixtureGrid.id].observations).toEqual(modeled.observations);
    const cells = body.comparison.flatMap((c: any) => c.depths.flatMap((d: any) => d.cells.filter((x: any) => x.provider === fixtureGrid.id).map((x: any) => [c.property.id, d.top_cm, x.value])));
    expect(cells).toEqual(modeled.observations.map((o: any) => [o.property.id, o.depth.top_cm, o.value]));
    expect(cells.length).toBeGreaterThan(0);
    // The fixture's stations, none within the radius of the Dominican Republic: the nearest is named.
    expect(body.sources[fixtureStations.id].stations).toEqual([]);
    expect(body.sources[fixtureStations.id].warnings.join(" ")).toContain("nearest is");
    const at = STATIONS[0]!;
    const near = (await loam.json(`/v1/soil/evidence?latitude=${at.latitude}&longitude=${at.longitude}&properties=clay`)).body.sources[fixtureStations.id];
    expect(near.stations[0]).toMatchObject({ station_triplet: at.properties.station_triplet, distance_km: 0 });
  });
});
