/**
 * usda_osd: Official Series Descriptions as parsed by ncss-tech SoilKnowledgeBase (role `series`,
 * docs/decisions.md#series). Snapshot mode reads the `usda_osd_series` table of the offline snapshot;
 * live mode (LOAM_UPSTREAM=sda) fetches the same files from OSD_URL through its own transport.
 */
import type { ConnectContext, SeriesProvider } from "../provider";
import { offlineSnapshot } from "../connect";
import { SERIES_NAME_SYNTAX, seriesKeyOrThrow } from "./key";
import { OSD_CATALOG_RECORD } from "./catalog";
import { settingOf } from "../../config";
import { DEFAULT_OSD_URL, OSD_URL_SETTING, osdUrl } from "./url";
import { parseOsd, seriesKey } from "./parse";
import { KNOWN_SERIES_QUERY, MUNSELL_QUERY, SERIES_QUERY } from "./queries";
import { buildSeriesBody, OSD_PROVIDER_ID } from "./series";
import { osdLiveTransport } from "./transport";
import { createOsdTables, importOsd, importOsdFiles, OSD_FORMATS, OSD_LAYOUT, osdFormatOf } from "./import";
import { retrievedAt } from "../../domain/retrieved-at";

export const usdaOsd: SeriesProvider = {
  id: OSD_PROVIDER_ID,
  aliases: [],
  role: "series",
  record: OSD_CATALOG_RECORD,
  shortName: "OSD",
  settings: [OSD_URL_SETTING],
  // Horizon classes are served as the description words them, not as vocabulary properties.
  columns: [],
  queries: { series: SERIES_QUERY, munsell: MUNSELL_QUERY, known: KNOWN_SERIES_QUERY },
  // The OSD files byte-exact and the Munsell renotation table, in usda_osd_* (docs/decisions.md#series).
  snapshot: { layout: OSD_LAYOUT, create: createOsdTables, import: importOsd, formats: OSD_FORMATS, formatOf: osdFormatOf, importFiles: importOsdFiles },
  // As the USDA providers: the offline snapshot when that is what Loam opened, else live (SDA mode).
  connect({ config, upstreams }: ConnectContext) {
    return offlineSnapshot(upstreams) ?? osdLiveTransport({ urlPattern: settingOf(config, OSD_URL_SETTING), timeoutMs: config.upstreamTimeoutMs, dataDir: config.dataDir });
  },
  series: {
    describedAs: "Official Series Description",
    names: { syntax: SERIES_NAME_SYNTAX, example: "Clarion" },
    keyOf: seriesKeyOrThrow,
    async describe(ask, key, source, apiVersion) {
      const cached = await ask(SERIES_QUERY, { key });
      const table = (await ask(MUNSELL_QUERY, {})).answer;
      const snapshot = source.kind === "snapshot";
      // The snapshot holds byte-exact copies of SoilKnowledgeBase's files: cite their home there.
      const sourceUrl = osdUrl(snapshot ? DEFAULT_OSD_URL : source.location, key);
      const retrieved = retrievedAt(source, cached.storedAt);
      return {
        cached,
        body: () => buildSeriesBody(parseOsd(cached.answer.json, table), { apiVersion, sourceUrl, retrievedAt: retrieved, snapshot }),
      };
    },
    async linker(ask) {
      let known: Set<string> | null;
      try {
        known = (await ask(KNOWN_SERIES_QUERY, {})).answer;
      } catch {
        return () => null;
      }
      return (name) => {
        const key = seriesKey(name);
        // Live mode cannot list the repository: every series-like name is linked (docs/decisions.md#series).
        return key !== null && (known === null || known.has(key)) ? key : null;
      };
    },
  },
};
