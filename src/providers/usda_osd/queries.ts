/**
 * The logical queries of usda_osd, each with its two forms: `snapshot` (the tables written by
 * src/providers/usda_osd/import.ts) and `osd` (the live transport of ./transport.ts). Payloads are the
 * upstream's own text: the OSD file byte-exact, the renotation rows, the list of series keys.
 */
import { NotFoundError, UpstreamError } from "../../errors";
import type { SeriesKeyParams } from "../provider";
import { Payload, type QueryKind } from "../../upstream/transport";
import { munsellTable, type MunsellTable, type RenotationRow } from "./munsell";
import { readStoredOsd, storedSeriesKeys } from "./snapshot";
import type { OsdLiveForm } from "./transport";
import { OSD_PROVIDER_ID } from "./series";

/** An OSD as SoilKnowledgeBase parses it: a JSON object naming its series. */
export interface OsdDocument {
  /** The parsed file (the cache stores its exact text). */
  json: Record<string, unknown> & { SERIES: string };
}

/**
 * In a national mirror the file holding the series descriptions answers (docs/decisions.md#national-mirror):
 * the import writes them, with the Munsell table their colours need, as one dataset (`usda_osd:series`),
 * which a mirror holds in one file only, so no answers are merged.
 */
const OFFLINE = { datasets: OSD_PROVIDER_ID } as const;

const notFound = (key: string, where: string) =>
  new NotFoundError(`No Official Series Description named '${key.replaceAll("_", " ")}' ${where}.`, OSD_PROVIDER_ID);

/** One series description by key. */
export const SERIES_QUERY: QueryKind<SeriesKeyParams, OsdDocument> = {
  kind: "series",
  // Not a table: the document is checked for its SERIES name instead of a column row.
  columns: [],
  key: (params) => params.key,
  forms: {
    snapshot: {
      ...OFFLINE,
      prepare: (file) => (params) => {
        const stored = readStoredOsd(file.db, params.key);
        if (!stored) throw notFound(params.key, "in the offline snapshot (it holds the series of its survey areas and lab pedons)");
        return Payload.ofText(stored.json);
      },
    },
    osd: (async (params, source) => {
      const fetched = await source.series(params.key);
      return Payload.ofText(fetched.text);
    }) satisfies OsdLiveForm<SeriesKeyParams>,
  },
  decode(payload) {
    let json: unknown;
    try {
      json = payload.json();
    } catch {
      throw new UpstreamError("The series description is not valid JSON (truncated or malformed).", OSD_PROVIDER_ID);
    }
    if (typeof json !== "object" || json === null || Array.isArray(json) || typeof (json as { SERIES?: unknown }).SERIES !== "string") {
      throw new UpstreamError("The series description is not a parsed OSD (no SERIES name).", OSD_PROVIDER_ID);
    }
    return { json: json as OsdDocument["json"] };
  },
  raw: (answer) => answer.json,
};

/** The Munsell renotation table the colours are converted with. */
export const MUNSELL_QUERY: QueryKind<Record<string, never>, MunsellTable> = {
  kind: "munsell",
  columns: ["hue", "value", "chroma", "x", "y", "Y"],
  key: () => "renotation",
  forms: {
    snapshot: {
      ...OFFLINE,
      prepare: (file) => () => {
        const rows = file.has("usda_osd_munsell_renotation")
          ? file.db.query<RenotationRow, []>("SELECT hue, value, chroma, x, y, luminance AS Y FROM usda_osd_munsell_renotation").all()
          : [];
        return Payload.ofJson(rows);
      },
    },
    osd: (async (_params, source) => Payload.ofJson(source.munsellRows())) satisfies OsdLiveForm<Record<string, never>>,
  },
  decode(payload) {
    const rows = payload.json();
    if (!Array.isArray(rows) || rows.length === 0) {
      throw new UpstreamError("The Munsell renotation table is missing (the snapshot predates series descriptions: rebuild it).", OSD_PROVIDER_ID);
    }
    return munsellTable(rows as RenotationRow[]);
  },
  raw: () => ({}),
};

/** The series keys the source has descriptions for; null when it cannot list them (live: any name may exist). */
export const KNOWN_SERIES_QUERY: QueryKind<Record<string, never>, Set<string> | null> = {
  kind: "known",
  columns: [],
  key: () => "all",
  forms: {
    snapshot: { prepare: (file) => () => Payload.ofJson([...storedSeriesKeys(file.db)].sort()), ...OFFLINE },
    osd: (async () => Payload.ofJson(null)) satisfies OsdLiveForm<Record<string, never>>,
  },
  decode(payload) {
    const keys = payload.json();
    return Array.isArray(keys) ? new Set(keys.filter((k): k is string => typeof k === "string")) : null;
  },
  raw: (answer) => ({ keys: answer === null ? null : [...answer] }),
};
