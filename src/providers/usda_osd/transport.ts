/**
 * The live transport of usda_osd: SoilKnowledgeBase's OSD JSON files over HTTPS (OSD_URL), and the
 * Munsell renotation table its colours are converted with, read once from the data directory
 * (`munsell/munsell-all.dat.gz`; in snapshot mode the snapshot holds the same table). Its answers
 * live 30 days in the cache: a description is revised every few years at most
 * (docs/decisions.md#series).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { UpstreamError } from "../../errors";
import { formOf, type Payload, type QueryKind, type SourceDescription, type Transport } from "../../upstream/transport";
import { remoteSource } from "../../upstream/public-url";
import { fetchOsd, type FetchedOsd, type OsdFetchOptions } from "./live";
import type { RenotationRow } from "./munsell";
import { MUNSELL_FILE, readRenotationFile } from "./renotation-file";
import { OSD_PROVIDER_ID } from "./series";

export const OSD_CACHE_TTL_SECONDS = 30 * 24 * 3600;

/** What a query's `osd` form may read. */
export interface OsdLiveSource {
  series(key: string): Promise<FetchedOsd>;
  munsellRows(): RenotationRow[];
  urlPattern: string;
}

/** A query's form for this transport. */
export type OsdLiveForm<P> = (params: P, source: OsdLiveSource) => Promise<Payload>;

export interface OsdLiveOptions extends OsdFetchOptions {
  dataDir: string;
}

export function osdLiveTransport(options: OsdLiveOptions): Transport {
  let rows: RenotationRow[] | undefined;
  const source: OsdLiveSource = {
    urlPattern: options.urlPattern,
    series: (key) => fetchOsd(key, options),
    munsellRows() {
      if (rows) return rows;
      const path = join(options.dataDir, MUNSELL_FILE);
      if (!existsSync(path)) throw new UpstreamError(`The Munsell renotation table is not at ${MUNSELL_FILE} in LOAM_DATA_DIR; series colours cannot be converted.`, "usda_osd");
      rows = readRenotationFile(path);
      return rows;
    },
  };
  // Served (source_url) and logged: never the credentials an operator put in OSD_URL (docs/decisions.md#url-secrets).
  const description: SourceDescription = remoteSource("osd", options.urlPattern);
  return {
    kind: "osd",
    ttlSeconds: OSD_CACHE_TTL_SECONDS,
    async fetch<P>(query: QueryKind<P, unknown>, params: P): Promise<Payload> {
      return formOf<OsdLiveForm<P>, P>(query, "osd", "OSD transport", OSD_PROVIDER_ID)(params, source);
    },
    describe: () => description,
  };
}
