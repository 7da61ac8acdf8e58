/**
 * The recorded Soil Data Access answers (docs/sda-captures under LOAM_DATA_DIR) read by Loam's real payload
 * reader, directly and over HTTP through the SDA client, byte for byte as SDA sent them.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { UpstreamError } from "../../src/errors";
import { pointQuery, ssurgoPointSql } from "../../src/providers/usda_ssurgo/queries";
import { SdaTransport, SDA_FORMAT, serviceException } from "../../src/upstream/sda/client";
import { decodeSdaTable, parseSdaPayload } from "../../src/upstream/sda/payload";
import type { Transport } from "../../src/upstream/transport";
import { readCapture, startFakeSda, type CaptureName } from "../support/fake-sda";

const json = (name: CaptureName) => JSON.parse(new TextDecoder().decode(readCapture(name)));

// Answers for the fake's own query path; these tests serve captures, so it is never asked.
const unused: Transport = {
  kind: "snapshot",
  fetch: async () => {
    throw new Error("not asked");
  },
  describe: () => ({ kind: "snapshot", location: "unused" }),
};
const fake = startFakeSda({ answerer: unused });
afterAll(() => fake.close());
afterEach(() => fake.respondWith(null));

const KS053_COLUMNS = ["areasymbol", "areaname", "mukey", "musym", "muname", "cokey", "compname", "localphase", "comppct_r", "hzname", "hzdept_r", "hzdepb_r", "awc_r"];

describe("the captured JSON answers through the payload reader", () => {
  test("KS053 (JSON+COLUMNNAME+METADATA): 13 columns with SQL Server types; an empty number is NULL, an empty text stays", () => {
    const table = parseSdaPayload(json("ks053_awc_metadata.json"));
    expect(table.columns).toEqual(KS053_COLUMNS);
    expect(table.types).toEqual(["varchar", "varchar", "int", "varchar", "varchar", "int", "varchar", "varchar", "smallint", "varchar", "smallint", "smallint", "real"]);
    expect(table.rows).toEqual([
      ["KS053", "Ellsworth County, Kansas", "2733324", "3844", "Geary silt loam, 3 to 7 percent slopes", "11807777", "Kipson", "", "1", "Cr", "46", "200", null],
    ]);
  });

  test("WI natmusym: two columns, three rows", () => {
    const table = parseSdaPayload(json("wi_natmusym_metadata.json"));
    expect(table.columns).toEqual(["mukey", "natmusym"]);
    expect(table.types).toEqual(["int", "varchar"]);
    expect(table.rows).toEqual([["753571", "2tjpl"], ["753574", "2szdz"], ["2809844", "2v3f0"]]);
  });

  test("plain JSON format (data rows only, no names row) is refused, naming the format Loam needs", () => {
    expect(() => parseSdaPayload(json("dirtio_format_json.json"))).toThrow(UpstreamError);
    expect(() => parseSdaPayload(json("dirtio_format_json.json"))).toThrow(/JSON\+COLUMNNAME\+METADATA/);
  });

  test("the empty answer {} is an empty table", () => {
    expect(parseSdaPayload(json("empty.json"))).toEqual({ columns: [], types: [], rows: [] });
  });
});

describe("the captured bytes over HTTP through the SDA client", () => {
  const sda = new SdaTransport({ url: fake.url, timeoutMs: 5000 });
  const POINT = { latitude: 41.944131, longitude: -94.359608 };
  const SQL = ssurgoPointSql(POINT);

  test("KS053 as served parses to the same table, and the payload is kept as sent", async () => {
    fake.serveCapture("ks053_awc_metadata.json");
    const answer = decodeSdaTable(await sda.query(SQL), KS053_COLUMNS);
    expect(answer.table.columns).toEqual(KS053_COLUMNS);
    expect(answer.table.rows[0]![12]).toBeNull();
    expect(answer.payload).toEqual(json("ks053_awc_metadata.json"));
  });

  test("a real answer with other columns than the query asked for is refused by the query's decoder (column check)", async () => {
    fake.serveCapture("ks053_awc_metadata.json");
    const error = await sda.fetch(pointQuery, POINT).then((payload) => pointQuery.decode(payload)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).status).toBe(502);
    expect((error as UpstreamError).message).toMatch(/other columns than the query asked for: missing saverest, .*; unexpected localphase\.$/);
  });

  test("a plain-JSON answer over HTTP is a 502 upstream_error, not a table", async () => {
    fake.serveCapture("dirtio_format_json.json");
    const error = await sda.fetch(pointQuery, POINT).then((payload) => pointQuery.decode(payload)).catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/column-name and metadata rows/);
  });

  test("the fake takes the query as a form too, as SDA does, and answers it the same", async () => {
    fake.serveCapture("wi_natmusym_metadata.json");
    const asForm = await fetch(fake.url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ query: SQL, format: SDA_FORMAT }),
    });
    expect(asForm.status).toBe(200);
    expect(fake.lastEncodings.at(-1)).toBe("form");
    expect(fake.lastQueries.at(-1)).toBe(SQL);
    const viaClient = await sda.query(SQL);
    expect(fake.lastEncodings.at(-1)).toBe("json");
    expect(parseSdaPayload(await asForm.json())).toEqual(parseSdaPayload(viaClient.json()));
  });

  test("a form without the format is refused with SDA's error shape", async () => {
    const answer = await fetch(fake.url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "query=SELECT%201" });
    expect(answer.status).toBe(400);
    expect(serviceException(await answer.text())).toMatch(/^Invalid request/);
  });
});

describe("what of a ServiceException a client may see", () => {
  test("the first line only, with a Windows server path in it masked", () => {
    const body = `<?xml version='1.0'?><ServiceExceptionReport><ServiceException>
Invalid query: Could not find file 'C:\\inetpub\\wwwroot\\SDMDataAccess\\App_Data\\x.mdf'.
   at System.Data.SqlClient.SqlConnection.OnError(SqlException exception) in D:\\build\\src\\SqlConnection.cs:line 9</ServiceException></ServiceExceptionReport>`;
    expect(serviceException(body)).toBe("Invalid query: Could not find file '[path]'.");
  });

  test("the captured invalid-column report keeps its message, entities unescaped", () => {
    const text = new TextDecoder().decode(readCapture("invalid_column_400.xml"));
    expect(serviceException(text)).toBe("Invalid query: Invalid column name 'nosuchcolumn'.");
  });
});
