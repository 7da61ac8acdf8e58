/**
 * The steps of GET /v1/series/{name} that do not depend on how the pipeline caches: the name to a
 * key (422 when malformed), the OSD text from the snapshot (404 when absent) or from live mode
 * (`fetchOsd` in live.ts), and the text to the answer body.
 */
import type { Database } from "bun:sqlite";
import { NotFoundError, ValidationError } from "../../errors";
import { DEFAULT_OSD_URL, osdUrl } from "./live";
import type { SeriesBody } from "../../series/model";
import type { MunsellTable } from "./munsell";
import { parseOsd, SERIES_NAME_MAX_LENGTH, seriesKey } from "./parse";
import { buildSeriesBody, OSD_PROVIDER_ID, type SeriesProvenance } from "./series";
import { readStoredOsd } from "./snapshot";

/** The series key of a path parameter, or a 422 saying what a series name looks like. */
export function seriesKeyOrThrow(name: string): string {
  const key = seriesKey(name);
  if (key !== null) return key;
  const shown = name.length > SERIES_NAME_MAX_LENGTH ? `${name.slice(0, SERIES_NAME_MAX_LENGTH)}…` : name;
  throw new ValidationError(
    `Path parameter 'name' must be a soil series name: letters, at most four words separated by single spaces or underscores, at most ${SERIES_NAME_MAX_LENGTH} characters; got '${shown.replace(/[\u0000-\u001f\u007f]/g, "?")}'.`,
    OSD_PROVIDER_ID,
  );
}

/**
 * The stored OSD text of a series in the snapshot, with the address of the same file in
 * SoilKnowledgeBase (the snapshot holds byte-exact copies of it), or a 404.
 */
export function snapshotOsd(db: Database, key: string): { text: string; sourceUrl: string } {
  const stored = readStoredOsd(db, key);
  if (!stored) {
    throw new NotFoundError(
      `No Official Series Description named '${key.replaceAll("_", " ")}' in the offline snapshot (it holds the series of its survey areas and lab pedons).`,
      OSD_PROVIDER_ID,
    );
  }
  return { text: stored.json, sourceUrl: osdUrl(DEFAULT_OSD_URL, key) };
}

/** Parse the OSD text and build the answer body (the pipeline adds `cache`). */
export function seriesBody(text: string, table: MunsellTable, provenance: SeriesProvenance): SeriesBody {
  return buildSeriesBody(parseOsd(text, table), provenance);
}
