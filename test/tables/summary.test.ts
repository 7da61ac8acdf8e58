/**
 * The map-unit summary as a table (src/tables/summary.ts): one record per summary with the values,
 * classes, contributions and warnings of the JSON body. The bodies are the summaries Loam's own
 * aggregation computes from the real SSURGO exports (read by the summary tests' reader), in the
 * map-unit answer's envelope; the routes that serve them are tested through HTTP once mounted.
 */
import { expectRowCodes } from "../support/warning-codes";
import { describe, expect, test } from "bun:test";
import { summarize } from "../../src/aggregation/aggregate";
import { defaultMethod } from "../../src/aggregation/methods";
import { summaryProperty } from "../../src/providers/usda_ssurgo/summary-properties";
import { isMiscellaneousArea } from "../../src/domain/component";
import { SSURGO_ID, SSURGO_ORGANIZATION, SSURGO_SOURCE_URL } from "../../src/providers/usda_ssurgo/catalog";
import { joinContributions, SUMMARY_COLUMNS, summaryCsv, type SummaryBodyCells } from "../../src/tables/summary";
import { MAP_UNIT_TABLE, SUMMARY_TABLE } from "../../src/tables";
import { WARNING_SEPARATOR } from "../../src/tables/flatten";
import { readTable, sourceMapUnits, type SourceMapUnit } from "../summaries/source-files";
import { parseRfc4180, parseWithPython, PYTHON, records } from "../support/csv";

const UNITS = sourceMapUnits();
const PROPERTIES = ["ph", "clay", "available_water_storage", "drainage_class", "hydrologic_group", "slope"];
const ANSWER_WARNING = "Served from Loam's offline snapshot of dated USDA-NRCS exports, not from a live query of Soil Data Access.";

/** The body of GET /v1/soil/mapunits/{key}?properties=... for one map unit of the source files. */
function bodyOf(unit: SourceMapUnit, depth = { top_cm: 0, bottom_cm: 30 }): SummaryBodyCells & { query: { latitude: number; longitude: number } } {
  const mapunit = readTable(unit.area, "mapunit").find((m) => m.mukey === unit.mukey)!;
  // The export folders are named by survey area symbol (IA073-aoi is an area of interest of IA073).
  const areaSymbol = unit.area.replace(/-aoi$/, "");
  return {
    query: { latitude: 41.944131, longitude: -94.359608 },
    data_kind: "derived",
    map_unit: {
      provider: SSURGO_ID,
      area_symbol: areaSymbol,
      map_unit_key: unit.mukey,
      map_unit_symbol: mapunit.musym!,
      map_unit_name: mapunit.muname!,
      components: unit.components,
    },
    summaries: PROPERTIES.map((id) => {
      const property = summaryProperty(id)!;
      const summary = summarize(unit.components, property, defaultMethod(property), depth);
      return {
        ...summary,
        source: {
          provider: SSURGO_ID,
          organization: SSURGO_ORGANIZATION,
          retrieved_at: "2025-09-01T00:00:00.000Z",
          original_property_name: `${property.table}.${property.column}`,
          citation: `Soil Survey Staff. SSURGO for ${areaSymbol}.`,
          source_url: SSURGO_SOURCE_URL,
        },
      };
    }),
    warnings: [ANSWER_WARNING],
  };
}

const cell = (value: unknown) => (value === null || value === undefined ? "" : String(value));

describe("map-unit summaries as CSV", () => {
  test("every map unit of the exports: one record per summary, with the JSON's values and classes", () => {
    expect(UNITS.length).toBe(21);
    for (const unit of UNITS) {
      const body = bodyOf(unit);
      const rows = records(parseRfc4180(summaryCsv(body)));
      expect(Object.keys(rows[0]!)).toEqual(SUMMARY_COLUMNS.map(([name]) => name));
      expect(rows.length).toBe(body.summaries.length);
      body.summaries.forEach((s, i) => {
        expect(rows[i]).toMatchObject({
          map_unit_key: unit.mukey,
          map_unit_name: body.map_unit!.map_unit_name,
          component_count: String(unit.components.length),
          property_id: s.property.id,
          method: s.method,
          value: cell(s.value),
          category: cell(s.category),
          unit: cell(s.unit),
          depth_top_cm: "0",
          depth_bottom_cm: "30",
          percent_of_map_unit: String(s.percent_of_map_unit),
          contribution_count: String(s.contributions.length),
          contributions: joinContributions(s.contributions),
          data_kind: "derived",
          provider: "usda_ssurgo",
          original_property_name: s.source.original_property_name,
          answer_warnings: i === 0 ? body.warnings.join(WARNING_SEPARATOR) : "",
        });
        expectRowCodes(rows[i]!.warnings!, s.warnings, body.warnings);
      });
    }
  });

  test("the Clarion map unit L138B: clay, drainage class and hydrologic group read back as NRCS gives them", () => {
    const unit = UNITS.find((u) => u.area === "IA073-aoi" && u.mukey === "2765528")!;
    const rows = records(parseRfc4180(summaryCsv(bodyOf(unit, { top_cm: 0, bottom_cm: 150 }))));
    const by = Object.fromEntries(rows.map((r) => [r.property_id, r]));
    expect(by.clay!.map_unit_name).toBe("Clarion loam, Bemis moraine, 2 to 6 percent slopes");
    expect(by.drainage_class).toMatchObject({ value: "", category: unit.muaggatt.drclassdcd!, method: "dominant_condition" });
    expect(by.hydrologic_group).toMatchObject({ value: "", category: unit.muaggatt.hydgrpdcd! });
    expect(Number(by.available_water_storage!.value).toFixed(2)).toBe(Number(unit.muaggatt.aws0150wta).toFixed(2));
    // The dominant component, Clarion at 85 %, is in the contributions text with its key.
    expect(by.clay!.contributions).toContain("Clarion [20424631] 85 %: ");
  });

  test("a map unit with a miscellaneous area keeps that warning on the rows it affects", () => {
    const unit = UNITS.find((u) => u.components.some(isMiscellaneousArea) && u.components.some((c) => c.horizons.length > 0))!;
    expect(unit).toBeDefined();
    const body = bodyOf(unit);
    const rows = records(parseRfc4180(summaryCsv(body)));
    const clay = body.summaries.find((s) => s.property.id === "clay")!;
    expect(clay.warnings.length).toBeGreaterThan(0);
    // Rubble land's zero clay is a placeholder; Beaches' real clay may not be soil: each a documented code on the clay row.
    const codes = expectRowCodes(rows.find((r) => r.property_id === "clay")!.warnings!, clay.warnings, body.warnings);
    expect(codes).toContain("miscellaneous_placeholder");
  });

  test("no map unit at the point: the header alone", () => {
    const body = { ...bodyOf(UNITS[0]!), map_unit: null, summaries: [] };
    expect(parseRfc4180(summaryCsv(body))).toEqual([SUMMARY_COLUMNS.map(([name]) => name)]);
  });

  test("file names: the point for the summary, the key for the map unit", () => {
    const body = bodyOf(UNITS.find((u) => u.mukey === "2765528")!);
    expect(SUMMARY_TABLE.fileName(body)).toBe("loam-soil-summary_41.944131_-94.359608.csv");
    expect(MAP_UNIT_TABLE.fileName(body)).toBe("loam-mapunit_2765528.csv");
  });

  test.skipIf(!PYTHON)("Python's csv reads the same records (names with commas, contributions with |)", async () => {
    const body = bodyOf(UNITS.find((u) => u.mukey === "2765528")!);
    const text = summaryCsv(body);
    expect(await parseWithPython(text)).toEqual(parseRfc4180(text));
  });
});
