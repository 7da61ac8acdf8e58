/**
 * What the providers make of real-shaped upstream answers, through HTTP: an answer with other columns
 * than asked for is a 502 naming them (docs/decisions.md#column-check); a layer whose results carry a
 * prep_code other than 'S' is served with a warning (docs/decisions.md#prep-code).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { answerAsSda, decodeSdaTable } from "../../src/upstream/sda/payload";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { Payload, type Transport } from "../../src/upstream/transport";
import { startLoam, testSnapshot, type RunningLoam } from "../support/server";

/** The snapshot's answers as SDA would send them, with `edit` applied to the lab_pedon and ssurgo_point tables. */
function editing(inner: Transport, edit: (kind: string, columns: string[], rows: (string | null)[][]) => void): Transport {
  return {
    kind: "sda",
    describe: () => ({ kind: "sda", location: "test" }),
    async fetch(query, params) {
      const { table } = decodeSdaTable(await inner.fetch(query, params), query.columns);
      const columns = [...table.columns];
      const rows = table.rows.map((row) => [...row]);
      edit(query.kind, columns, rows);
      return Payload.ofJson(answerAsSda(columns, table.types.map((t) => t as never), rows).payload);
    },
  };
}

describe("upstream answers through HTTP", () => {
  let renamed: RunningLoam;
  let prepared: RunningLoam;
  beforeAll(async () => {
    const snapshot = new SnapshotTransport(await testSnapshot());
    renamed = await startLoam({
      source: editing(snapshot, (kind, columns) => {
        if (kind === "ssurgo_point") columns[columns.indexOf("ph1to1h2o_r")] = "ph1to1h2o_rv";
      }),
    });
    prepared = await startLoam({
      source: editing(snapshot, (kind, columns, rows) => {
        if (kind !== "lab_pedon") return;
        rows.forEach((row, i) => (row[columns.indexOf("prep_code")] = i === 0 ? "N" : "S"));
      }),
    });
  });
  afterAll(async () => {
    await renamed?.stop();
    await prepared?.stop();
  });

  test("a renamed column is a 502 upstream_error naming the missing and the unexpected column, never a 200 of nulls", async () => {
    const { status, body } = await renamed.json("/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph");
    expect(status).toBe(502);
    expect(body.error.code).toBe("upstream_error");
    expect(body.error.provider).toBe("usda_ssurgo");
    expect(body.error.message).toContain("missing ph1to1h2o_r");
    expect(body.error.message).toContain("unexpected ph1to1h2o_rv");
  });

  test("a layer labelled with another preparation than 'S' is served, with a warning naming it", async () => {
    const { status, body } = await prepared.json("/v1/pedons/02N0245?properties=ph,clay");
    expect(status).toBe(200);
    const first = body.layers[0];
    expect(first.observations.length).toBeGreaterThan(0);
    const warning = body.warnings.find((w: string) => w.includes("preparation other than 'S'"));
    expect(warning).toContain(`${first.lab_sample_key} (N)`);
    expect(warning).not.toContain(`${body.layers[1].lab_sample_key} (`);
  });

  test("the snapshot carries no prep_code: no preparation warning", async () => {
    const plain = await startLoam();
    try {
      const { body } = await plain.json("/v1/pedons/02N0245?properties=ph,clay");
      expect(body.warnings.some((w: string) => w.includes("preparation other than 'S'"))).toBe(false);
    } finally {
      await plain.stop();
    }
  });
});
