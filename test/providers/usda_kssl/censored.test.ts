import { describe, expect, test } from "bun:test";
import { parseReported } from "../../../src/domain/censored";
import { normalizePedon } from "../../../src/providers/usda_kssl/normalize";
import { parseBbox } from "../../../src/domain/bbox";
import { LAB_PEDON_COLUMNS } from "../../../src/providers/usda_kssl/columns";
import { answerAsSda, type Cell } from "../../../src/upstream/sda/payload";
import { pedonQuery } from "../../../src/providers/usda_kssl/queries";
import type { RowAnswer, RowTable } from "../../../src/upstream/sda/rows";
import { Payload } from "../../../src/upstream/transport";

describe("reading a reported lab result (SDA sends every value as a string)", () => {
  test("a plain decimal is the value", () => {
    expect(parseReported("0.05")).toMatchObject({ kind: "number", value: 0.05, reported_value: "0.05", value_qualifier: null, reporting_limit: null, warning: null });
    expect(parseReported("35.154017").value).toBe(35.154017);
    expect(parseReported(".5").value).toBe(0.5);
    expect(parseReported("1.5E-05").value).toBe(0.000015);
  });

  for (const reported of ["<0.05", "< 0.05", "<.05", " <0.05 "]) {
    test(`'${reported}' is censored below 0.05: value null, limit 0.05, never in value`, () => {
      const r = parseReported(reported);
      expect(r).toMatchObject({ kind: "censored", value: null, reported_value: reported, value_qualifier: "less_than", reporting_limit: 0.05 });
      expect(r.warning).toMatch(/not the value/);
    });
  }

  test("'>200' is censored above 200", () => {
    expect(parseReported(">200")).toMatchObject({ kind: "censored", value: null, reported_value: ">200", value_qualifier: "greater_than", reporting_limit: 200 });
  });

  for (const reported of ["ND", "nd", "n.d.", "N.D.", "BDL"]) {
    test(`'${reported}' (not detected) is less_than without a stated limit, value null, not zero`, () => {
      const r = parseReported(reported);
      expect(r).toMatchObject({ kind: "not_detected", value: null, reported_value: reported, value_qualifier: "less_than", reporting_limit: null });
      expect(r.warning).toMatch(/not detected.*not zero/);
    });
  }

  for (const reported of ["tr", "Tr", "trace", "TRACE"]) {
    test(`'${reported}' (trace) is less_than without a stated limit, value null`, () => {
      const r = parseReported(reported);
      expect(r).toMatchObject({ kind: "trace", value: null, value_qualifier: "less_than", reporting_limit: null });
      expect(r.warning).toMatch(/trace/);
    });
  }

  for (const reported of ["", "   ", null, undefined]) {
    test(`${JSON.stringify(reported)} is missing: nothing was reported`, () => {
      expect(parseReported(reported)).toMatchObject({ kind: "missing", value: null, reported_value: null, value_qualifier: null, reporting_limit: null });
    });
  }

  for (const reported of ["abc", "NaN", "Infinity", "0x10", "1,5", "<", "<abc", "5 %", "1e400"]) {
    test(`'${reported}' cannot be read: value null with a warning`, () => {
      const r = parseReported(reported);
      expect(r).toMatchObject({ kind: "unparseable", value: null, reported_value: reported, value_qualifier: null, reporting_limit: null });
      expect(r.warning).toMatch(/could not be read/);
    });
  }
});

/** One SDA-shaped layer row of the lab_pedon answer, every value a string or null. */
/** The rows as SDA would send them (every value a string), through the pedon query's own decoder. */
function pedonTable(rows: Record<string, string | null>[]): RowTable {
  const columns = [...LAB_PEDON_COLUMNS];
  const { payload } = answerAsSda(columns, columns.map(() => "varchar"), rows.map((row) => columns.map((c): Cell => row[c] ?? null)));
  return (pedonQuery.decode(Payload.ofJson(payload)) as RowAnswer).typed;
}

const BASE = { pedon_key: "99X0001", pedlabsampnum: "99X0001", upedonid: "TEST-1", samp_name: "Testseries", latitude_decimal_degrees: "38.5", longitude_decimal_degrees: "-97.25" };

describe("normalizing a pedon whose cells carry censored strings", () => {
  const table = pedonTable([
    {
      ...BASE,
      layer_key: "99X00001",
      labsampnum: "99X00001",
      hzn_top: "0",
      hzn_bot: "10",
      hzn_desgn: "A",
      ph_h2o: "7.1",
      ph_h2o_method: "4C1a2a1",
      estimated_organic_carbon: "<0.05",
      clay_total: ">80",
      electrical_conductivity_satx: "ND",
      total_nitrogen_ncs: "tr",
      sand_total: "",
      cec_nh4_ph_7: "n/a",
    },
  ]);
  const normalized = normalizePedon(table, { properties: ["ph", "organic_carbon", "organic_matter", "clay", "ec", "total_nitrogen", "sand", "cec"], depthTop: 0, depthBottom: 200 })!;
  const observations = normalized.layers[0]!.observations;
  const get = (id: string) => observations.find((o) => o.property.id === id);

  test("a less-than result keeps its string and limit; value is null, never the limit", () => {
    const oc = get("organic_carbon")!;
    expect(oc).toMatchObject({ value: null, reported_value: "<0.05", value_qualifier: "less_than", reporting_limit: 0.05, data_kind: "derived", original_column: "lab_chemical_properties.estimated_organic_carbon" });
    expect(oc.warnings.join(" ")).toMatch(/Censored result '<0.05'/);
  });

  test("organic matter derived from a censored carbon stays censored; its limit is converted, its value stays null", () => {
    const om = get("organic_matter")!;
    expect(om.value).toBeNull();
    expect(om.reported_value).toBe("<0.05");
    expect(om.value_qualifier).toBe("less_than");
    expect(om.reporting_limit).toBeCloseTo(0.0862, 10);
    expect(om.transformations).toEqual([{ operation: "derive_organic_matter_from_organic_carbon", from_unit: "% (by weight)", to_unit: "% (by weight)", formula: "organic_matter = organic_carbon * 1.724; result rounded to 4 significant digits" }]);
  });

  test("greater-than, not-detected and trace results are kept as reported", () => {
    expect(get("clay")).toMatchObject({ value: null, reported_value: ">80", value_qualifier: "greater_than", reporting_limit: 80 });
    expect(get("ec")).toMatchObject({ value: null, reported_value: "ND", value_qualifier: "less_than", reporting_limit: null });
    expect(get("total_nitrogen")).toMatchObject({ value: null, reported_value: "tr", value_qualifier: "less_than", reporting_limit: null });
  });

  test("an empty cell makes no observation; an unreadable one is kept with a warning", () => {
    expect(get("sand")).toBeUndefined();
    const cec = get("cec")!;
    expect(cec).toMatchObject({ value: null, reported_value: "n/a", value_qualifier: null, reporting_limit: null });
    expect(cec.warnings.join(" ")).toMatch(/could not be read/);
  });

  test("an uncensored result has its number, and the method code of its *_method column", () => {
    expect(get("ph")).toMatchObject({ value: 7.1, reported_value: "7.1", value_qualifier: null, reporting_limit: null, method_code: "4C1a2a1", data_kind: "observed" });
  });

  test("no observation anywhere holds a limit as its value", () => {
    for (const o of observations) if (o.value_qualifier !== null) expect(o.value).toBeNull();
    expect(normalized.censoredCount).toBe(5);
  });

  test("Walkley-Black organic carbon is preferred (observed) when reported", () => {
    const both = pedonTable([{ ...BASE, layer_key: "1", labsampnum: "99X00002", hzn_top: "0", hzn_bot: "5", organic_carbon_walkley_black: "2.1", oc_walkley_black_method: "6A1c", estimated_organic_carbon: "2.4" }]);
    const [oc] = normalizePedon(both, { properties: ["organic_carbon"], depthTop: 0, depthBottom: 200 })!.layers[0]!.observations;
    expect(oc).toMatchObject({ value: 2.1, data_kind: "observed", original_column: "lab_chemical_properties.organic_carbon_walkley_black", method_code: "6A1c", warnings: [] });
  });
});

describe("bbox parsing", () => {
  test("edges are exact: 5 degrees per side and 4 square degrees pass despite binary noise", () => {
    expect(parseBbox("-100.1,38,-95.1,38.8")).toEqual([-100.1, 38, -95.1, 38.8]);
    expect(parseBbox("-98,38,-96,40")).toEqual([-98, 38, -96, 40]);
    expect(parseBbox(" -98 , 38 , -97 , 39 ")).toEqual([-98, 38, -97, 39]);
  });
});
