/**
 * The map-unit polygon collection as a table (src/tables/mapunits.ts): one record per feature, its map
 * unit and the summary that colours it. Features built from the real IA073 map units and Loam's own
 * aggregation (the polygons themselves are not cells); the route is tested through HTTP once mounted.
 */
import { describe, expect, test } from "bun:test";
import { summarize } from "../../src/aggregation/aggregate";
import { summaryProperty } from "../../src/providers/usda_ssurgo/summary-properties";
import { MAP_UNIT_FEATURE_COLUMNS, mapUnitCollectionCsv, type MapUnitCollectionCells } from "../../src/tables/mapunits";
import { MAP_UNIT_COLLECTION_TABLE } from "../../src/tables";
import { readTable, sourceMapUnits } from "../summaries/source-files";
import { parseRfc4180, records } from "../support/csv";

const IA073 = sourceMapUnits().filter((u) => u.area === "IA073-aoi");

function collection(truncated: boolean): MapUnitCollectionCells {
  const names = readTable("IA073-aoi", "mapunit");
  const aws = summaryProperty("available_water_storage")!;
  return {
    provider: "usda_ssurgo",
    query: { bbox: [-94.4, 41.9, -94.3, 42], property: "available_water_storage", method: "weighted_average", depth_top_cm: 0, depth_bottom_cm: 100 },
    features: IA073.map((unit, i) => {
      const s = summarize(unit.components, aws, "weighted_average", { top_cm: 0, bottom_cm: 100 });
      const mu = names.find((m) => m.mukey === unit.mukey)!;
      return {
        id: i + 1,
        properties: { map_unit_key: unit.mukey, map_unit_symbol: mu.musym ?? null, map_unit_name: mu.muname ?? null, area_symbol: "IA073", summary: { value: s.value, category: s.category, unit: s.unit } },
      };
    }),
    truncated,
    cache: { stored_at: "2026-11-23T10:00:00.000Z" },
    warnings: ["Served from Loam's offline snapshot."],
  };
}

describe("map-unit polygons as CSV", () => {
  test("one record per feature with its map unit and summary; aws0100wta read back for each IA073 unit", () => {
    const body = collection(false);
    const rows = records(parseRfc4180(mapUnitCollectionCsv(body)));
    expect(Object.keys(rows[0]!)).toEqual(MAP_UNIT_FEATURE_COLUMNS.map(([name]) => name));
    expect(rows.length).toBe(IA073.length);
    IA073.forEach((unit, i) => {
      expect(rows[i]).toMatchObject({
        feature_id: String(i + 1),
        map_unit_key: unit.mukey,
        area_symbol: "IA073",
        summary_property: "available_water_storage",
        summary_method: "weighted_average",
        summary_depth_top_cm: "0",
        summary_depth_bottom_cm: "100",
        summary_unit: "cm",
        provider: "usda_ssurgo",
        truncated: "false",
      });
      expect(Number(rows[i]!.summary_value).toFixed(2)).toBe(Number(unit.muaggatt.aws0100wta).toFixed(2));
    });
    expect(rows.find((r) => r.map_unit_key === "2765528")!.map_unit_name).toBe("Clarion loam, Bemis moraine, 2 to 6 percent slopes");
    expect(MAP_UNIT_COLLECTION_TABLE.fileName(body)).toBe("loam-mapunits_-94.4_41.9_-94.3_42.csv");
  });

  test("without a property the summary cells are empty; truncated shows on every row", () => {
    const body = collection(true);
    body.query = { ...body.query, property: null, method: null };
    body.features = body.features.map((f) => ({ ...f, properties: { ...f.properties, summary: null } }));
    const rows = records(parseRfc4180(mapUnitCollectionCsv(body)));
    for (const row of rows) {
      expect(row).toMatchObject({ summary_property: "", summary_method: "", summary_depth_top_cm: "", summary_value: "", summary_category: "", summary_unit: "", truncated: "true" });
    }
  });
});
