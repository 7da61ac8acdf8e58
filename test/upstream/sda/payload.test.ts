import { describe, expect, test } from "bun:test";
import { UpstreamError } from "../../../src/errors";
import { answerAsSda, parseSdaPayload, sdaCell, sdaColumnMetadata, sdaDateTime, sdaNumber } from "../../../src/upstream/sda/payload";

// The real response pasted in an NRCS script docstring (docs/decisions.md#sda-wire).
const REAL = {
  Table: [
    ["mukey", "musym", "muname"],
    [
      "ColumnOrdinal=0,ColumnSize=4,NumericPrecision=10,NumericScale=255,ProviderType=Int,IsLong=False,ProviderSpecificDataType=System.Data.SqlTypes.SqlInt32,DataTypeName=int",
      "ColumnOrdinal=1,ColumnSize=6,NumericPrecision=255,NumericScale=255,ProviderType=VarChar,IsLong=False,ProviderSpecificDataType=System.Data.SqlTypes.SqlString,DataTypeName=varchar",
      "ColumnOrdinal=2,ColumnSize=240,NumericPrecision=255,NumericScale=255,ProviderType=VarChar,IsLong=False,ProviderSpecificDataType=System.Data.SqlTypes.SqlString,DataTypeName=varchar",
    ],
    ["753571", "2tjpl", "Amery sandy loam, 6 to 12 percent slopes"],
  ],
};

describe("SDA wire payload", () => {
  test("parses a real SDA JSON+COLUMNNAME+METADATA answer", () => {
    expect(parseSdaPayload(REAL)).toEqual({
      columns: ["mukey", "musym", "muname"],
      types: ["int", "varchar", "varchar"],
      rows: [["753571", "2tjpl", "Amery sandy loam, 6 to 12 percent slopes"]],
    });
  });

  test("builds SDA's metadata strings, byte for byte like the real ones", () => {
    expect(sdaColumnMetadata(0, "int")).toBe(REAL.Table[1]![0]!);
    expect(sdaColumnMetadata(1, { name: "varchar", size: 6 })).toBe(REAL.Table[1]![1]!);
  });

  test("{} is the empty result set both ways", () => {
    expect(parseSdaPayload({})).toEqual({ columns: [], types: [], rows: [] });
    expect(answerAsSda(["a"], ["int"], [])).toEqual({ table: { columns: [], types: [], rows: [] }, payload: {} });
  });

  test("answerAsSda output parses back to the same table, NULL kept as null", () => {
    const answer = answerAsSda(["mukey", "om_r"], ["varchar", "real"], [["2765528", "3.5"], ["2834838", null]]);
    expect(parseSdaPayload(answer.payload)).toEqual(answer.table);
    expect(answer.table.types).toEqual(["varchar", "real"]);
  });

  const bad: Array<[string, unknown, RegExp]> = [
    ["an array", [], /expected a JSON object/],
    ["null", null, /expected a JSON object/],
    ["no Table member", { Table1: [] }, /no "Table" member/],
    ["Table not an array", { Table: "x" }, /"Table" is not an array/],
    ["only a header row", { Table: [["a"]] }, /lacks its column-name and metadata rows/],
    ["numeric column names", { Table: [[1], ["DataTypeName=int"]] }, /row 0/],
    ["metadata without DataTypeName", { Table: [["a"], ["ColumnOrdinal=0"]] }, /no DataTypeName/],
    ["a short data row", { Table: [["a", "b"], ["DataTypeName=int", "DataTypeName=int"], ["1"]] }, /data row 0 has 1 values for 2 columns/],
    ["a number instead of a string", { Table: [["a"], ["DataTypeName=int"], [1]] }, /holds a number/],
  ];
  for (const [what, json, message] of bad) {
    test(`rejects ${what} with an UpstreamError`, () => {
      expect(() => parseSdaPayload(json)).toThrow(UpstreamError);
      expect(() => parseSdaPayload(json)).toThrow(message);
    });
  }
});

describe("values rendered as SDA renders them", () => {
  test("numbers: shortest decimal, integral without a point, never an exponent", () => {
    expect([6.2, 21, 3.5, 0.05, 91.74, -1, 366300].map(sdaNumber)).toEqual(["6.2", "21", "3.5", "0.05", "91.74", "-1", "366300"]);
    expect(sdaNumber(1e-7)).toBe("0.0000001");
    expect(sdaNumber(1.5e-7)).toBe("0.00000015");
    expect(sdaNumber(2.5e21)).toBe("2500000000000000000000");
  });

  test("datetime: SQL Server's en-US text; strings pass through; NULL is null", () => {
    expect(sdaDateTime("2020-06-10T02:56:26")).toBe("6/10/2020 2:56:26 AM");
    expect(sdaDateTime("2020-06-10T13:58:39")).toBe("6/10/2020 1:58:39 PM");
    expect(sdaCell("2025-09-09T00:00:00", "datetime")).toBe("9/9/2025 12:00:00 AM");
    expect(sdaCell("No ", "varchar")).toBe("No ");
    expect(sdaCell(null)).toBeNull();
  });
});
