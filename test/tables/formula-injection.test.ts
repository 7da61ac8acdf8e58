/**
 * Issue 27, finding 3 (docs/decisions.md#csv-formulas): cells from upstream that start with `=`, `+`,
 * `-`, `@`, a tab or a CR were quoted but not neutralised, so a spreadsheet opening Loam's CSV ran
 * `=HYPERLINK(...)` or a DDE command. The fake SDA on 127.0.0.1 answers the polygon query with the
 * box's real rows whose map-unit names, symbols and area symbols are replaced by the attack's texts;
 * the CSV is read back with the test's own RFC 4180 reader.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { SdaTransport } from "../../src/upstream/sda/client";
import type { Transport } from "../../src/upstream/transport";
import { rewritingRows } from "../support/rewritten-answers";
import { parseRfc4180, records } from "../support/csv";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { startLoam, testSnapshot, type RunningLoam } from "../support/server";

const ATTACKS = ['=HYPERLINK("http://127.0.0.1/x","click")', "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1"];

function withTexts(snapshot: SnapshotTransport): Transport {
  return rewritingRows(snapshot, "ssurgo_polygons", (rows) =>
    ATTACKS.map((text, i) => {
      const row = rows[i % rows.length]!;
      // areasymbol, musym, muname: text columns of SDA's answer; musym also a plain negative number.
      return [String(700_000_000 + i), i === 0 ? "@IA073" : row[1]!, i === 1 ? "-3.5" : text, row[3]!, text, row[5]!];
    }),
  );
}

let fake: FakeSda;
let loam: RunningLoam;
beforeAll(async () => {
  fake = startFakeSda({ answerer: withTexts(new SnapshotTransport(await testSnapshot())) });
  loam = await startLoam({ source: new SdaTransport({ url: fake.url, timeoutMs: 10_000 }), env: { LOAM_UPSTREAM: "sda" } });
});
afterAll(async () => {
  await loam.stop();
  fake.close();
});

test("text cells a spreadsheet would execute get a leading ', plain numbers stay numbers", async () => {
  const response = await loam.get("/v1/soil/mapunits?bbox=-94.48,41.83,-94.23,42.08&limit=100&property=clay&format=csv");
  expect(response.status).toBe(200);
  const rows = records(parseRfc4180(await response.text()));
  expect(rows.length).toBe(ATTACKS.length);
  // Before: the cells started with = + - @ tab CR as sent.
  expect(rows.map((row) => row.map_unit_name)).toEqual(ATTACKS.map((text) => `'${text}`));
  expect(rows[0]!.area_symbol).toBe("'@IA073");
  expect(rows[1]!.map_unit_symbol).toBe("-3.5");
  for (const row of rows) {
    for (const [column, cell] of Object.entries(row)) {
      if (/^[=+@\t\r]/.test(cell) || (/^-/.test(cell) && !/^-\d+(\.\d+)?$/.test(cell))) throw new Error(`column ${column} holds an executable cell: ${JSON.stringify(cell)}`);
    }
    // Number cells are numbers as written (the summary depth, a clay percentage or empty).
    expect(row.summary_depth_top_cm).toBe("0");
    expect(row.summary_value === "" || Number.isFinite(Number(row.summary_value))).toBe(true);
  }
  // The JSON keeps the upstream's text exactly: neutralising is the CSV's business.
  const json = await loam.json("/v1/soil/mapunits?bbox=-94.48,41.83,-94.23,42.08&limit=100&property=clay");
  expect(json.body.features.map((f: { properties: { map_unit_name: string } }) => f.properties.map_unit_name)).toEqual(ATTACKS);
}, 60_000);
