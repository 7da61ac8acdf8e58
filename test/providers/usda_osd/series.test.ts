/**
 * Series descriptions from the real OSD files, through the snapshot import, the snapshot reader, the
 * parser and the series builder: the data README's known answers, every file, and "NA" never shown.
 */
import { Database } from "bun:sqlite";
import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Value } from "@sinclair/typebox/value";
import { seriesKeyOrThrow } from "../../../src/providers/usda_osd/key";
import { SERIES_QUERY } from "../../../src/providers/usda_osd/queries";
import { SnapshotFile } from "../../../src/upstream/snapshot";
import { SeriesResponse, type SeriesBody } from "../../../src/domain/series";
import { parseOsd, revisionMonth, seriesKey } from "../../../src/providers/usda_osd/parse";
import { buildSeriesBody } from "../../../src/providers/usda_osd/series";
import { readMunsellTable, readStoredOsd, storedSeriesKeys } from "../../../src/providers/usda_osd/snapshot";
import { createOsdTables, importOsd } from "../../../src/providers/usda_osd/import";
import { createBaseSchema } from "../../../src/upstream/snapshot-schema";

const DATA = resolve(process.env.LOAM_DATA_DIR ?? "datasets");
const FILES = readdirSync(join(DATA, "osd")).filter((f) => f.endsWith(".json"));
const BUILT_AT = "2026-05-01T12:00:00.000Z";

let db: Database;
let report: ReturnType<typeof importOsd>;

beforeAll(() => {
  db = new Database(":memory:");
  createBaseSchema(db);
  report = importOsd(db, DATA);
});

/** The rows the import stored in one of its tables. */
const rows = (from: Database, table: string) => from.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;

/** The body GET /v1/series/{name} answers in snapshot mode (before the pipeline adds `cache`). */
function series(name: string): SeriesBody {
  const key = seriesKey(name);
  if (key === null) throw new Error(`malformed series name ${name}`);
  const stored = readStoredOsd(db, key);
  if (!stored) throw new Error(`no OSD for ${key}`);
  return buildSeriesBody(parseOsd(stored.json, readMunsellTable(db)), {
    apiVersion: "0.5.0",
    sourceUrl: `https://raw.githubusercontent.com/ncss-tech/SoilKnowledgeBase/main/inst/extdata/OSD/${key[0]}/${key}.json`,
    retrievedAt: BUILT_AT,
    snapshot: true,
  });
}

/** Every string anywhere in a value, with its path. */
function* strings(value: unknown, path = "$"): Generator<[string, string]> {
  if (typeof value === "string") yield [path, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, `${path}[${i}]`);
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) yield* strings(v, `${path}.${k}`);
}

describe("OSD snapshot import", () => {
  test("all 145 OSD files import, with the 4,995 renotation rows, and nothing is skipped", () => {
    expect(FILES.length).toBe(145);
    expect({ series: rows(db, "usda_osd_series"), munsellRows: rows(db, "usda_osd_munsell_renotation"), warnings: report.warnings }).toEqual({ series: 145, munsellRows: 4995, warnings: [] });
    expect(storedSeriesKeys(db)).toEqual(new Set(FILES.map((f) => f.replace(/\.json$/, ""))));
  });

  test("a data directory without the Munsell table imports nothing and says why", () => {
    const empty = new Database(":memory:");
    createBaseSchema(empty);
    createOsdTables(empty);
    const none = importOsd(empty, join(DATA, "osd"));
    expect(rows(empty, "usda_osd_series")).toBe(0);
    expect(none.warnings[0]).toContain("munsell-all.dat.gz");
    expect(readStoredOsd(empty, "CLARION")).toBeNull();
  });
});

describe("series answers from the snapshot (data README known answers)", () => {
  test("CLARION: taxonomic class, states, revision, and the Ap horizon 0-18 cm, moist 10YR 2/1 loam", () => {
    const body = series("Clarion");
    expect(body.series).toMatchObject({
      name: "CLARION",
      status: "Established Series",
      taxonomic_class: "Fine-loamy, mixed, superactive, mesic Typic Hapludolls",
      states: ["IA", "MN"],
      revised: "2005-10",
    });
    expect(body.series.overview).toStartWith("The Clarion series consists of very deep, moderately well drained soils on uplands.");
    expect(body.horizons).toHaveLength(7);
    const ap = body.horizons[0]!;
    expect(ap).toMatchObject({ name: "Ap", depth: { top_cm: 0, bottom_cm: 18 }, texture_class: "loam", ph_class: "slightly acid" });
    expect(ap.moist_color).toMatchObject({ hue: "10YR", value: 2, chroma: 1, notation: "10YR 2/1" });
    expect(ap.moist_color!.srgb_hex).toMatch(/^#[0-9a-f]{6}$/);
    expect(ap.dry_color).toMatchObject({ notation: "10YR 3/1" });
    expect(ap.narrative).toStartWith("Ap--0 to 18 centimeters (7 inches); black (10YR 2/1) loam");
    expect(body.horizons.at(-1)).toMatchObject({ name: "C2", depth: { top_cm: 132, bottom_cm: 152 } });
  });

  test("CLARION: the citation names the series and its revision date; provenance is complete", () => {
    const { source, provider, data_kind } = series("clarion");
    expect([provider, data_kind]).toEqual(["usda_osd", "mapped_survey"]);
    expect(source.citation).toContain("Official Soil Series Descriptions: CLARION series, revised 10/2005 (Rev. CSF-JRW-AGG)");
    expect(source.citation).toContain("Retrieved 2026-05-01 (offline snapshot)");
    expect(source.source_url).toEndWith("/inst/extdata/OSD/C/CLARION.json");
    expect(source.retrieved_at).toBe(BUILT_AT);
  });

  test("CLARION: every text section in OSD order, headings as written, heading not repeated in the text", () => {
    const { sections } = series("CLARION");
    expect(sections.map((s) => s.name)).toEqual([
      "TAXONOMIC CLASS",
      "TYPICAL PEDON",
      "TYPE LOCATION",
      "RANGE IN CHARACTERISTICS",
      "COMPETING SERIES",
      "GEOGRAPHIC SETTING",
      "GEOGRAPHICALLY ASSOCIATED SOILS",
      "DRAINAGE AND SATURATED HYDRAULIC CONDUCTIVITY",
      "USE AND VEGETATION",
      "DISTRIBUTION AND EXTENT",
      "MLRA SOIL SURVEY REGIONAL OFFICE (MO) RESPONSIBLE",
      "SERIES ESTABLISHED",
      "REMARKS",
      // ADDITIONAL DATA is "NA" in CLARION.json: absent, not shown as text.
    ]);
    expect(sections[0]!.text).toBe("Fine-loamy, mixed, superactive, mesic Typic Hapludolls");
    expect(sections[11]!.text).toBe("Hamilton County, Iowa, 1917.");
  });

  test("WEBSTER: the neutral moist colour N 2/0 is an equal-channel grey", () => {
    const body = series("webster");
    expect(body.series.taxonomic_class).toBe("Fine-loamy, mixed, superactive, mesic Typic Endoaquolls");
    expect(body.horizons).toHaveLength(7);
    const ap = body.horizons[0]!;
    expect(ap).toMatchObject({ name: "Ap", depth: { top_cm: 0, bottom_cm: 20 }, texture_class: "silty clay loam" });
    expect(ap.moist_color).toMatchObject({ hue: "N", value: 2, chroma: 0, notation: "N 2/0" });
    const hex = ap.moist_color!.srgb_hex!;
    expect(hex.slice(1, 3)).toBe(hex.slice(3, 5));
    expect(hex.slice(3, 5)).toBe(hex.slice(5, 7));
    expect(ap.dry_color).toMatchObject({ notation: "10YR 3/1" });
  });

  test("MAJURO: the missing dry colour is null, never \"NA\"", () => {
    const body = series("Majuro");
    expect(body.series.taxonomic_class).toBe("Sandy-skeletal, carbonatic, isohyperthermic Typic Udorthents");
    expect(body.horizons[0]).toMatchObject({ name: "A", depth: { top_cm: 0, bottom_cm: 15 }, texture_class: "loamy sand", dry_color: null });
    expect(body.horizons[0]!.moist_color).toMatchObject({ notation: "10YR 5/2" });
  });

  test("ROXBURY: A1 0-51 cm, moist 10YR 2/2, dry 10YR 4/2, silt loam; 4 horizons", () => {
    const body = series("Roxbury");
    expect(body.series.taxonomic_class).toBe("Fine-silty, mixed, superactive, mesic Cumulic Haplustolls");
    expect(body.horizons).toHaveLength(4);
    expect(body.horizons[0]).toMatchObject({ name: "A1", depth: { top_cm: 0, bottom_cm: 51 }, texture_class: "silt loam" });
    expect([body.horizons[0]!.moist_color?.notation, body.horizons[0]!.dry_color?.notation]).toEqual(["10YR 2/2", "10YR 4/2"]);
  });

  test("depths are centimetres even where the OSD line states inches first (ARMO: A--0 to 10 inches is 0-25.4 cm, exactly), the inches kept", () => {
    const a = series("Armo").horizons[0]!;
    expect(a.narrative).toStartWith("A--0 to 10 inches;");
    expect(a.depth).toEqual({ top_cm: 0, bottom_cm: 25.4 });
    expect(a.original_depth).toMatchObject({ top: 0, bottom: 10, unit: "in", text: "0 to 10 inches" });
    expect(a.original_depth!.conversion).toContain("2.54");
  });

  test("bedrock without a lower depth has bottom_cm null and a warning (BROWNELL R)", () => {
    const body = series("Brownell");
    const r = body.horizons.find((h) => h.name === "R")!;
    // "R--30 inches": 30 x 2.54 = 76.2 cm (SoilKnowledgeBase rounds to 76).
    expect(r.depth).toEqual({ top_cm: 76.2, bottom_cm: null });
    expect(r.original_depth).toMatchObject({ top: 30, bottom: null, unit: "in" });
    expect(body.warnings).toContain("Horizon R: the description gives no lower depth (bottom_cm is null).");
  });

  test("a neutral colour without a stated chroma is written N 2.5/ with chroma 0 (COLO)", () => {
    const colour = series("Colo").horizons.map((h) => h.moist_color).find((c) => c?.hue === "N")!;
    expect(colour).toMatchObject({ hue: "N", value: 2.5, chroma: 0, notation: "N 2.5/" });
    expect(colour.srgb_hex).toMatch(/^#([0-9a-f]{2})\1\1$/);
  });

  test("two-word series: 'new cambria', 'New_Cambria' and 'NEW CAMBRIA' are one series", () => {
    expect(["new cambria", "New_Cambria", "NEW CAMBRIA"].map(seriesKey)).toEqual(["NEW_CAMBRIA", "NEW_CAMBRIA", "NEW_CAMBRIA"]);
    expect(series("new cambria").series.name).toBe("NEW CAMBRIA");
  });

  test("every one of the 145 answers fits SeriesResponse, has horizons with colours, and never shows \"NA\"", () => {
    for (const file of FILES) {
      const body = series(file.replace(/\.json$/, "").replace(/_/g, " "));
      const response = { ...body, cache: { hit: false, stored_at: BUILT_AT, age_seconds: 0 } };
      const errors = [...Value.Errors(SeriesResponse, response)].map((e) => `${file} ${e.path}: ${e.message}`);
      expect(errors).toEqual([]);
      expect(body.horizons.length).toBeGreaterThan(0);
      expect(body.horizons.some((h) => h.moist_color?.srgb_hex || h.dry_color?.srgb_hex)).toBe(true);
      const na = [...strings(body)].filter(([, v]) => v.trim() === "NA").map(([p]) => `${file} ${p}`);
      expect(na).toEqual([]);
    }
  });
});

describe("series names", () => {
  test("malformed names have no key (the route answers 422): digits, punctuation, paths, empty, too long", () => {
    for (const bad of ["", " ", "clarion1", "clarion;", "../etc/passwd", "Clarion%20", "a  b", "_clarion", "clarion_", "a b c d e", "x".repeat(41), "Clar'ion", "Clarion-like"]) {
      expect(seriesKey(bad)).toBeNull();
    }
  });

  test("revision dates read as YYYY-MM, two-digit years included", () => {
    expect(["10/2005", "02/97", "8/86", "13/2005", "NA", null].map(revisionMonth)).toEqual(["2005-10", "1997-02", "1986-08", null, null, null]);
  });
});

describe("request steps (key.ts, the snapshot form of the series query)", () => {
  test("a malformed name is a 422 validation_error naming the parameter; an unknown series a 404 not_found", () => {
    expect(seriesKeyOrThrow("Clarion")).toBe("CLARION");
    expect(() => seriesKeyOrThrow("clarion;drop")).toThrow(expect.objectContaining({ status: 422, code: "validation_error" }));
    expect(() => seriesKeyOrThrow("../x")).toThrow(/Path parameter 'name' must be a soil series name/);
    // Meade: KSSL pedons carry the name, but it has no OSD (data README).
    const read = SERIES_QUERY.forms.snapshot!.prepare(new SnapshotFile(db));
    expect(() => read({ key: "MEADE" })).toThrow(expect.objectContaining({ status: 404, code: "not_found", provider: "usda_osd" }));
    // The stored text is the file byte-exact.
    expect(read({ key: "STORDEN" }).text()).toBe(readFileSync(join(DATA, "osd", "STORDEN.json"), "utf8"));
  });
});
