/**
 * The live transport of usgs_geochem (docs/decisions.md#geochem-live): the DS 801 Appendix 2b file
 * from GEOCHEM_URL, a static file downloaded once, checked (header, unit row, row count: ./file.ts)
 * and kept in memory for 30 days; every query is answered from that copy. A download that fails, or a
 * file that fails a check, is an upstream error naming the check (502) while no good copy exists;
 * once one exists it keeps serving, and its answers say that a newer download was refused.
 * Concurrent first requests share one download.
 */
import { LoamError, UpstreamError } from "../../errors";
import { fetchCapped, hostOf } from "../../upstream/http";
import { formOf, type Payload, type QueryKind, type SourceDescription, type Transport } from "../../upstream/transport";
import { remoteSource } from "../../upstream/public-url";
import { GeochemFileError, readGeochemText, type GeochemTable } from "./file";
import { GEOCHEM_PROVIDER_ID } from "./rows";
import { indexGeochem, type GeochemIndex } from "./table";

export const GEOCHEM_KEEP_SECONDS = 30 * 24 * 3600;
/** After a refused download, the good copy serves this long before another download is tried. */
const RETRY_AFTER_MS = 3600 * 1000;
/** The file is 1.45 MB; anything far bigger is not it. */
export const GEOCHEM_MAX_BYTES = 16 * 1024 * 1024;

const SERVICE = "The USGS DS 801 geochemistry file";

/** A query's form for this transport: its answer from the index of the checked file. */
export type GeochemLiveForm<P> = (index: GeochemIndex, params: P) => Payload;

export interface GeochemLiveOptions {
  url: string;
  timeoutMs: number;
  now?: () => number;
  fetch?: typeof fetch;
}

/** Download and check the file, or throw a typed error naming usgs_geochem (and the failed check). */
export async function downloadGeochem(options: GeochemLiveOptions): Promise<GeochemTable> {
  const { status, bytes: body } = await fetchCapped(options.url, { headers: { accept: "text/plain, */*" } }, {
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    maxBytes: GEOCHEM_MAX_BYTES,
    service: SERVICE,
    configured: options.url,
    provider: GEOCHEM_PROVIDER_ID,
    tooLarge: () => new UpstreamError(`${SERVICE} was larger than ${GEOCHEM_MAX_BYTES} bytes; it is not the DS 801 table.`, GEOCHEM_PROVIDER_ID),
  });
  if (status < 200 || status > 299) throw new UpstreamError(`${SERVICE} (${hostOf(options.url)}) answered HTTP ${status}.`, GEOCHEM_PROVIDER_ID);
  try {
    return readGeochemText(new TextDecoder("latin1").decode(body));
  } catch (error) {
    if (error instanceof GeochemFileError) throw new UpstreamError(`${SERVICE} was refused: the ${error.message}.`, GEOCHEM_PROVIDER_ID);
    throw error;
  }
}

export function geochemLiveTransport(options: GeochemLiveOptions): Transport {
  const now = options.now ?? Date.now;
  let good: { file: GeochemIndex; freshUntil: number } | null = null;
  let downloading: Promise<GeochemIndex> | null = null;

  async function refresh(): Promise<GeochemIndex> {
    try {
      const table = await downloadGeochem(options);
      const file = indexGeochem(table, new Date(now()).toISOString());
      good = { file, freshUntil: now() + GEOCHEM_KEEP_SECONDS * 1000 };
      return file;
    } catch (error) {
      if (!good || !(error instanceof LoamError)) throw error;
      // The last good copy keeps serving; its answers say why, and a new download waits an hour.
      good.file = { ...good.file, note: `A newer download of the file was refused (${error.message}); serving the copy downloaded at ${good.file.retrievedAt}.` };
      good.freshUntil = now() + RETRY_AFTER_MS;
      return good.file;
    }
  }

  function current(): Promise<GeochemIndex> | GeochemIndex {
    if (good && now() < good.freshUntil) return good.file;
    downloading ??= refresh().finally(() => (downloading = null));
    return downloading;
  }

  // Served (source_url), counted and written into cache keys: never GEOCHEM_URL's credentials (docs/decisions.md#url-secrets).
  const description: SourceDescription = remoteSource("geochem", options.url);
  return {
    kind: "geochem",
    ttlSeconds: GEOCHEM_KEEP_SECONDS,
    async fetch<P>(query: QueryKind<P, unknown>, params: P): Promise<Payload> {
      const form = formOf<GeochemLiveForm<P>, P>(query, "geochem", "geochemistry transport", GEOCHEM_PROVIDER_ID);
      return form(await current(), params);
    },
    describe: () => description,
  };
}
