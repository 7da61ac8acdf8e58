/**
 * The live OSD transport against a local fake of raw.githubusercontent.com serving the real files
 * (the data README: byte-exact copies of SoilKnowledgeBase's inst/extdata/OSD/<letter>/<NAME>.json).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { LoamError } from "../../../src/errors";
import { fetchOsd } from "../../../src/providers/usda_osd/live";
import { DEFAULT_OSD_URL, osdUrl, osdUrlProblem } from "../../../src/providers/usda_osd/url";
import { munsellTable, parseRenotationText } from "../../../src/providers/usda_osd/munsell";
import { parseOsd } from "../../../src/providers/usda_osd/parse";
import { startFakeOsd, type FakeOsd } from "../../support/fake-osd";

const DATA = resolve(process.env.LOAM_DATA_DIR ?? "datasets");
const table = munsellTable(parseRenotationText(gunzipSync(readFileSync(join(DATA, "munsell", "munsell-all.dat.gz"))).toString("utf8")));

let fake: FakeOsd;
beforeAll(() => {
  fake = startFakeOsd({ dataDir: DATA });
});
afterAll(() => fake.close());
beforeEach(() => fake.setFault(null));

const options = () => ({ urlPattern: fake.urlPattern, timeoutMs: 2000 });

/** The typed error a call fails with: status, code and provider are what the ErrorResponse carries. */
async function failure(promise: Promise<unknown>): Promise<{ status: number; code: string; provider: string | null; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof LoamError)) throw error;
    return { status: error.status, code: error.code, provider: error.provider, message: error.message };
  }
  throw new Error("expected a failure");
}

describe("fetchOsd", () => {
  test("CLARION: the file byte-exact from .../OSD/C/CLARION.json, and it parses to the known answer", async () => {
    const fetched = await fetchOsd("CLARION", options());
    expect(fetched.url).toEndWith("/inst/extdata/OSD/C/CLARION.json");
    expect(fetched.text).toBe(readFileSync(join(DATA, "osd", "CLARION.json"), "utf8"));
    const parsed = parseOsd(fetched.text, table);
    expect(parsed.series.taxonomic_class).toBe("Fine-loamy, mixed, superactive, mesic Typic Hapludolls");
    expect(parsed.horizons[0]).toMatchObject({ name: "Ap", depth: { top_cm: 0, bottom_cm: 18 }, texture_class: "loam" });
    expect(parsed.horizons[0]!.moist_color?.notation).toBe("10YR 2/1");
  });

  test("a two-word series is fetched under its first letter with spaces as _ (NEW_CAMBRIA)", async () => {
    const fetched = await fetchOsd("NEW_CAMBRIA", options());
    expect(fetched.url).toEndWith("/OSD/N/NEW_CAMBRIA.json");
    expect(JSON.parse(fetched.text).SERIES).toBe("NEW CAMBRIA");
  });

  test("a series the repository has no file for is not_found (404), naming usda_osd", async () => {
    // Meade has KSSL pedons but no OSD (data README).
    expect(await failure(fetchOsd("MEADE", options()))).toMatchObject({ status: 404, code: "not_found", provider: "usda_osd" });
  });

  test("an HTTP 500 is upstream_error (502, retryable)", async () => {
    fake.setFault("http-500");
    const error = await failure(fetchOsd("CLARION", options()));
    expect(error).toMatchObject({ status: 502, code: "upstream_error", provider: "usda_osd" });
    expect(error.message).toContain("HTTP 500");
  });

  test("a 200 answer that is not the JSON file (an HTML page) is upstream_error", async () => {
    fake.setFault("garbage");
    expect(await failure(fetchOsd("CLARION", options()))).toMatchObject({ status: 502, code: "upstream_error" });
  });

  test("no answer within the deadline is upstream_timeout (504), and the call ends near the deadline", async () => {
    fake.setFault("hang");
    const started = performance.now();
    const error = await failure(fetchOsd("CLARION", { urlPattern: fake.urlPattern, timeoutMs: 300 }));
    expect(error).toMatchObject({ status: 504, code: "upstream_timeout", provider: "usda_osd" });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test("a refused connection is upstream_unreachable (502)", async () => {
    const closed = startFakeOsd({ dataDir: DATA });
    const pattern = closed.urlPattern;
    closed.close();
    const error = await failure(fetchOsd("CLARION", { urlPattern: pattern, timeoutMs: 2000 }));
    expect(error).toMatchObject({ status: 502, code: "upstream_unreachable", provider: "usda_osd" });
    expect(error.message).toContain("connection refused");
  });
});

describe("OSD_URL", () => {
  test("the default is SoilKnowledgeBase's layout on raw.githubusercontent.com", () => {
    expect(osdUrl(DEFAULT_OSD_URL, "CLARION")).toBe("https://raw.githubusercontent.com/ncss-tech/SoilKnowledgeBase/main/inst/extdata/OSD/C/CLARION.json");
    expect(osdUrlProblem(DEFAULT_OSD_URL)).toBeNull();
  });

  test("a pattern without {name}, or not http(s), is refused at start", () => {
    expect(osdUrlProblem("https://example.org/osd/")).toContain("{name}");
    expect(osdUrlProblem("ftp://example.org/{letter}/{name}.json")).toContain("http(s)");
    expect(osdUrlProblem("not a url {name}")).toContain("http(s)");
  });
});
