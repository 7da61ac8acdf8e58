import { describe, expect, test } from "bun:test";
import { iterateCsvRecords } from "../../../src/providers/usda_kssl/ldm-import";
import { decodeText } from "../../../src/providers/decode";
import { normalizeDateTime, parseFgdcMetadata, parseWssReadme } from "../../../src/providers/usda_ssurgo/wss-metadata";
import { parseWssRecords, readColumnDictionary, readTableFileNames } from "../../../src/providers/usda_ssurgo/wss-text";

describe("WSS SSURGO text records", () => {
  test("a component-shaped record keeps NULL (bare empty) apart from the empty string (\"\")", () => {
    const [record] = parseWssRecords('75|85|95|"Clarion"|"Series"|Yes|"A+"||6|""|"20424631"\n');
    expect(record).toEqual(["75", "85", "95", "Clarion", "Series", "Yes", "A+", null, "6", "", "20424631"]);
  });

  test("the Boolean 'No ' keeps its trailing blank, as SSURGO's char(3) does", () => {
    const [record] = parseWssRecords('3|5|10|"Nicollet"|"Series"|No |"A+"\n');
    expect(record?.[5]).toBe("No ");
  });

  test("CRLF and LF line endings give the same records; a missing final newline is fine", () => {
    const lf = '"IA073"|15840|\n"MH936"|8000|""\n';
    const crlf = lf.replaceAll("\n", "\r\n");
    expect(parseWssRecords(crlf)).toEqual(parseWssRecords(lf));
    expect(parseWssRecords(lf.trimEnd())).toEqual(parseWssRecords(lf));
    expect(parseWssRecords(lf)).toEqual([
      ["IA073", "15840", null],
      ["MH936", "8000", ""],
    ]);
  });

  test("a quoted field may hold | and doubled quotes", () => {
    const [record] = parseWssRecords('"a|b"|"the ""h"" and ""s"" of a Bhs horizon"|1\r\n');
    expect(record).toEqual(["a|b", 'the "h" and "s" of a Bhs horizon', "1"]);
  });

  test("a quoted description may span lines (mstab/mstabcol): records, not lines", () => {
    const text =
      '"chorizon"|"chorizon"|"Horizon"|"The Horizon table lists the horizon(s).\r\nIf the horizon thickness is greater than zero, ..."|"chorizon"\r\n' +
      '"component"|"component"|"Component"|"Components."|"comp"\r\n';
    const records = parseWssRecords(text);
    expect(records).toHaveLength(2);
    expect(records[0]?.[3]).toBe("The Horizon table lists the horizon(s).\r\nIf the horizon thickness is greater than zero, ...");
    expect(readTableFileNames(text)).toEqual(new Map([["chorizon", "chorizon"], ["component", "comp"]]));
  });

  test("leading and trailing NULL fields are kept", () => {
    expect(parseWssRecords("|1|\n")).toEqual([[null, "1", null]]);
  });

  test("an unterminated quote is an error naming the file, not a silent truncation", () => {
    expect(() => parseWssRecords('"abc|1\n', "comp.txt")).toThrow(/comp\.txt: record 1/);
  });

  test("Windows-1252 bytes decode (0x93 0x94 curly quotes, 0xE9 é); UTF-8 stays UTF-8", () => {
    expect(decodeText(new Uint8Array([0x93, 0x41, 0x94, 0xe9]))).toBe("\u201cA\u201d\u00e9");
    expect(decodeText(new TextEncoder().encode("Majuro é"))).toBe("Majuro é");
  });

  test("mstabcol gives each table's columns in colsequence order with their logical types", () => {
    const text =
      '"legend"|2|"areasymbol"|"area_symbol"|"Area Symbol"|"String"|"Yes"|20||||||"The symbol."\r\n' +
      '"legend"|1|"areatypename"|"area_type_name"|"Area Type Name"|"String"|"Yes"|45||||||"A\r\nname."\r\n' +
      '"component"|1|"comppct_l"|"comp_pct_l"|"Comp %"|"Integer"|"No"||||0.00|100.00|"percent"||"Pct."\r\n';
    const dictionary = readColumnDictionary(text);
    expect(dictionary.get("legend")?.map((c) => c.name)).toEqual(["areatypename", "areasymbol"]);
    expect(dictionary.get("component")?.[0]).toMatchObject({ name: "comppct_l", logicalType: "Integer", notNull: false, fieldSize: null });
  });
});

describe("survey-area version facts", () => {
  test("a WSS readme gives version and establishment date per survey area", () => {
    const readme = "SSA symbol:             IA073\nSSA name:               Greene County, Iowa\nSSA version:            26\nSSA version est.:       06/10/2020 02:56:26 AM\n";
    expect(parseWssReadme(readme)).toEqual([{ areasymbol: "IA073", saversion: 26, saverest: "2020-06-10T02:56:26", source: "readme.txt" }]);
  });

  test("FGDC XML: the latest certification step dates the version; it states no version number", () => {
    const xml =
      "<metadata><idinfo><citation><citeinfo><pubdate>20250909</pubdate></citeinfo></citation></idinfo><dataqual><lineage>" +
      "<procstep><procdesc>A system assigned version number and date stamp were added</procdesc><procdate>20240911</procdate></procstep>" +
      "<procstep><procdesc>A system assigned version number and date stamp were added</procdesc><procdate>20250909</procdate></procstep>" +
      "</lineage></dataqual></metadata>";
    expect(parseFgdcMetadata(xml, "MH936", "x.xml")).toEqual({ areasymbol: "MH936", saversion: null, saverest: "2025-09-09T00:00:00", source: "x.xml" });
  });

  test("date-times in WSS, FGDC and ISO forms normalise to ISO", () => {
    expect(normalizeDateTime("06/10/2020 01:58:39 PM")).toBe("2020-06-10T13:58:39");
    expect(normalizeDateTime("6/10/2020 12:05:00 AM")).toBe("2020-06-10T00:05:00");
    expect(normalizeDateTime("20250909")).toBe("2025-09-09T00:00:00");
    expect(normalizeDateTime("2025-09-09 10:11:12")).toBe("2025-09-09T10:11:12");
    expect(normalizeDateTime("soon")).toBeNull();
  });
});

describe("LDM CSV records", () => {
  test("RFC 4180: quoted commas, doubled quotes, line breaks in quotes; empty = NULL; BOM dropped", () => {
    const text = '\ufeffpedlabsampnum,samp_name,lab_proj_name\r\n02N0245,Kimo,"NWCA, ""KS"""\n02N0845,,"two\nlines"\n';
    expect([...iterateCsvRecords(text)]).toEqual([
      ["pedlabsampnum", "samp_name", "lab_proj_name"],
      ["02N0245", "Kimo", 'NWCA, "KS"'],
      ["02N0845", null, "two\nlines"],
    ]);
  });
});
