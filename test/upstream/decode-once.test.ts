/**
 * Decode once, in native types (docs/decisions.md#decode-once): the snapshot hands the SSURGO and
 * KSSL decoders typed rows, so no number or date becomes SDA text on the served path and none is
 * parsed back; SDA's strings are converted once each, at the edge. Counted by spying on the
 * conversions themselves: sdaNumber and sdaDateTime (sda/payload.ts) render, parseSdaValue (SDA's
 * strings) and parseSnapshotNumber (the KSSL export's TEXT) parse (sda/rows.ts). Expected values
 * come from the snapshot file itself.
 */
import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { Database } from "bun:sqlite";
import { UpstreamError } from "../../src/errors";
import { pedonQuery } from "../../src/providers/usda_kssl/queries";
import { pointQuery } from "../../src/providers/usda_ssurgo/queries";
import { extentQuery } from "../../src/providers/usda_ssurgo/polygons";
import { SdaTransport } from "../../src/upstream/sda/client";
import * as payloadModule from "../../src/upstream/sda/payload";
import * as rowsModule from "../../src/upstream/sda/rows";
import type { RowAnswer } from "../../src/upstream/sda/rows";
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { Payload } from "../../src/upstream/transport";
import { startFakeSda, type FakeSda } from "../support/fake-sda";
import { startUncachedSdaLoam } from "../support/sda-mode";
import { startLoam, testSnapshot, type RunningLoam } from "../support/server";

const IA073 = { latitude: 41.944131, longitude: -94.359608 };
const PEDON = "02N0245";

let db: Database;
let snapshot: SnapshotTransport;
let offline: RunningLoam;
let fake: FakeSda;
let viaSda: RunningLoam;
let sda: SdaTransport;

beforeAll(async () => {
  const path = await testSnapshot();
  db = new Database(path, { readonly: true });
  snapshot = new SnapshotTransport(path);
  offline = await startLoam();
  fake = startFakeSda({ answerer: snapshot });
  viaSda = await startUncachedSdaLoam(fake.url);
  sda = new SdaTransport({ url: fake.url, timeoutMs: 10_000 });
}, 120_000);

afterAll(async () => {
  await offline?.stop();
  await viaSda?.stop();
  fake?.close();
  snapshot?.close();
  db?.close();
});

const spies = {
  sdaParsed: spyOn(rowsModule, "parseSdaValue"),
  snapshotParsed: spyOn(rowsModule, "parseSnapshotNumber"),
  sdaNumber: spyOn(payloadModule, "sdaNumber"),
  sdaDateTime: spyOn(payloadModule, "sdaDateTime"),
};

type Counts = { sdaParsed: number; snapshotParsed: number; sdaRendered: number };

/** What `run` converted, by kind. */
async function converted(run: () => Promise<unknown>): Promise<Counts> {
  for (const spy of Object.values(spies)) spy.mockClear();
  await run();
  return {
    sdaParsed: spies.sdaParsed.mock.calls.length,
    snapshotParsed: spies.snapshotParsed.mock.calls.length,
    sdaRendered: spies.sdaNumber.mock.calls.length + spies.sdaDateTime.mock.calls.length,
  };
}

/** Cells an answer holds as numbers or dates: each is one string SDA sent that the edge read. */
const typedCells = (answer: RowAnswer) => answer.typed.rows.flat().filter((cell) => typeof cell === "number" || cell instanceof Date).length;

describe("offline (snapshot) path", () => {
  test("GET /v1/soil/location at the IA073 point renders no number as SDA text and parses none back", async () => {
    let body: any;
    const counts = await converted(async () => {
      const response = await offline.json(`/v1/soil/location?latitude=${IA073.latitude}&longitude=${IA073.longitude}&properties=clay,ph`);
      expect(response.status).toBe(200);
      body = response.body;
    });
    expect(counts).toEqual({ sdaParsed: 0, snapshotParsed: 0, sdaRendered: 0 });
    // The values still come through, as the snapshot holds them (the Clarion Ap horizon, README §1.3).
    const stored = db.query<{ claytotal_r: number; ph1to1h2o_r: number }, []>("SELECT claytotal_r, ph1to1h2o_r FROM chorizon WHERE chkey = '59949744'").get()!;
    const ap = body.observations.filter((o: any) => o.survey_context.horizon_key === "59949744");
    expect(ap.map((o: any) => [o.property.id, o.value, o.source.original_value])).toEqual([
      ["clay", stored.claytotal_r, stored.claytotal_r],
      ["ph", stored.ph1to1h2o_r, stored.ph1to1h2o_r],
    ]);
  });

  test(`GET /v1/pedons/${PEDON} renders nothing as SDA text; the export's TEXT depths and coordinates are each read once, results stay as reported`, async () => {
    let body: any;
    const counts = await converted(async () => {
      const response = await offline.json(`/v1/pedons/${PEDON}?properties=clay,ph`);
      expect(response.status).toBe(200);
      body = response.body;
    });
    // The KSSL export stores every value as TEXT: its declared numbers (site coordinates on each row, layer depths) are read once each.
    const layers = db.query<{ hzn_top: string | null; hzn_bot: string | null; clay_total: string | null }, [string]>(
      "SELECT ly.hzn_top, ly.hzn_bot, ph.clay_total FROM lab_layer ly LEFT JOIN lab_physical_properties ph ON ph.labsampnum = ly.labsampnum WHERE ly.pedlabsampnum = ?",
    ).all(PEDON);
    const depths = layers.flatMap((l) => [l.hzn_top, l.hzn_bot]).filter((v) => v !== null && v !== "").length;
    expect(counts).toEqual({ sdaParsed: 0, snapshotParsed: 2 * layers.length + depths, sdaRendered: 0 });
    // reported_value is the export's string, unchanged.
    const reported = body.layers.flatMap((l: any) => l.observations.filter((o: any) => o.property.id === "clay").map((o: any) => o.reported_value)).sort();
    expect(reported).toEqual(layers.map((l) => l.clay_total).filter((v) => v !== null).sort());
  });

  test("the raw endpoint renders SDA's JSON from the snapshot's cells once; a repeat renders nothing", async () => {
    const path = `/v1/providers/usda_ssurgo/raw/location?latitude=${IA073.latitude}&longitude=${IA073.longitude}`;
    const answer = (await pointQuery.decode(await snapshot.fetch(pointQuery, IA073))) as RowAnswer;
    const first = await converted(async () => expect((await offline.get(path)).status).toBe(200));
    expect(first.sdaParsed + first.snapshotParsed).toBe(0);
    expect(first.sdaRendered).toBe(typedCells(answer));
    const again = await converted(async () => expect((await offline.get(path)).status).toBe(200));
    expect(again).toEqual({ sdaParsed: 0, snapshotParsed: 0, sdaRendered: 0 });
  });
});

describe("the SSURGO polygons' extent", () => {
  test("from the snapshot is the R*Tree's own numbers: none written as text, none parsed back", async () => {
    const box = db.query<{ w: number; s: number; e: number; n: number }, []>("SELECT min(min_x) AS w, min(min_y) AS s, max(max_x) AS e, max(max_y) AS n FROM mupolygon_rtree").get()!;
    let answer: RowAnswer | undefined;
    const counts = await converted(async () => {
      answer = await extentQuery.decode(await snapshot.fetch(extentQuery, {}));
    });
    expect(answer!.typed.rows).toEqual([[box.w, box.s, box.e, box.n]]);
    expect(counts).toEqual({ sdaParsed: 0, snapshotParsed: 0, sdaRendered: 0 });
  });

  test("from SDA: its four strings read once each, into the same numbers", async () => {
    const direct = await extentQuery.decode(await snapshot.fetch(extentQuery, {}));
    const payload = await sda.fetch(extentQuery, {});
    let decoded: RowAnswer | undefined;
    const counts = await converted(async () => {
      decoded = await extentQuery.decode(payload);
    });
    expect(decoded!.typed).toEqual(direct.typed);
    expect(counts).toEqual({ sdaParsed: 4, snapshotParsed: 0, sdaRendered: 0 });
  });
});

describe("a snapshot answer in the cache store", () => {
  test("is kept as the snapshot's cells, never SDA text, and reads back as the same rows and the same raw JSON", async () => {
    const params = { pedonKey: { form: "pedlabsampnum" as const, value: PEDON } };
    const made = await snapshot.fetch(pedonQuery, params);
    const answer = (await pedonQuery.decode(made)) as RowAnswer;
    const stored = made.stored();
    // The stored text is not SDA's JSON (no metadata row, the export's TEXT as written).
    expect(stored).not.toContain("DataTypeName");
    const counts = await converted(async () => {
      const back = (await pedonQuery.decode(Payload.fromStore(stored))) as RowAnswer;
      expect(back.typed).toEqual(answer.typed);
    });
    expect(counts.sdaParsed + counts.sdaRendered).toBe(0);
    const back = (await pedonQuery.decode(Payload.fromStore(stored))) as RowAnswer;
    expect(JSON.stringify(back.payload)).toBe(JSON.stringify(answer.payload));
    expect(JSON.stringify(answer.payload)).toBe(made.text());
    // The same text from an upstream is not Loam's rows: SDA must send its table.
    expect(() => pedonQuery.decode(Payload.ofText(stored))).toThrow(UpstreamError);
  });

  test("a stored answer without its query's columns is refused (a corrupt entry), never read as rows", async () => {
    const stored = (await snapshot.fetch(pointQuery, IA073)).stored();
    expect(() => pedonQuery.decode(Payload.fromStore(stored))).toThrow(UpstreamError);
  });
});

describe("Soil Data Access path (the fake SDA, sending SDA's strings)", () => {
  test("the point answer's strings are read once each at the edge, into the snapshot's very rows", async () => {
    const direct = (await pointQuery.decode(await snapshot.fetch(pointQuery, IA073))) as RowAnswer;
    const payload = await sda.fetch(pointQuery, IA073);
    const counts = await converted(async () => {
      expect(((await pointQuery.decode(payload)) as RowAnswer).typed).toEqual(direct.typed);
    });
    // (The fake SDA renders its answer from the snapshot in this process, so only the parses are Loam's.)
    expect(counts.sdaParsed).toBe(typedCells(direct));
    expect(counts.sdaParsed).toBeGreaterThan(100);
  });

  test(`the pedon ${PEDON} answer's strings are read once each at the edge; results stay strings`, async () => {
    const params = { pedonKey: { form: "pedlabsampnum" as const, value: PEDON } };
    const direct = (await pedonQuery.decode(await snapshot.fetch(pedonQuery, params))) as RowAnswer;
    const payload = await sda.fetch(pedonQuery, params);
    let decoded: RowAnswer | undefined;
    const counts = await converted(async () => {
      decoded = (await pedonQuery.decode(payload)) as RowAnswer;
    });
    expect(decoded!.typed).toEqual(direct.typed);
    // (The fake SDA renders its answer from the snapshot in this process, so only the parses are Loam's.)
    expect(counts.sdaParsed).toBe(typedCells(direct));
    const clay = decoded!.typed.columns.indexOf("clay_total");
    expect(decoded!.typed.rows.every((row) => row[clay] === null || typeof row[clay] === "string")).toBe(true);
  });

  test("GET /v1/soil/location in SDA mode: the decoders parse nothing after the edge", async () => {
    const direct = (await pointQuery.decode(await snapshot.fetch(pointQuery, IA073))) as RowAnswer;
    const counts = await converted(async () => {
      const response = await viaSda.json(`/v1/soil/location?latitude=${IA073.latitude}&longitude=${IA073.longitude}&properties=clay,ph`);
      expect(response.status).toBe(200);
      expect(response.body.observations.length).toBeGreaterThan(0);
    });
    // The location route asks the point query alone: its cells, each read once, and nothing after.
    // (The fake SDA renders its answer from the snapshot in this process, so only the parses are Loam's.)
    expect(counts.sdaParsed).toBe(typedCells(direct));
  });
});
