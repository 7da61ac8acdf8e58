/** What the two USDA-NRCS providers share: licence text, Soil Data Access limits, and their transport. */
import type { Transport } from "../upstream/transport";
import { numberIn, type RowAnswer } from "../upstream/sda/rows";
import type { ConnectContext, DataExtent } from "./provider";

/** Acknowledgement USDA-NRCS asks for in products derived from SSURGO and KSSL data. */
export const USDA_ACKNOWLEDGEMENT =
  "Soil data: Soil Survey Staff, Natural Resources Conservation Service, United States Department of Agriculture. " +
  "Soil Survey Geographic (SSURGO) Database and NCSS Kellogg Soil Survey Laboratory data.";

/** License text of USDA-NRCS data (FGDC metadata: Access_Constraints none; acknowledgement requested). */
export const USDA_NRCS_LICENSE =
  "Public domain: US Government work (USDA-NRCS), public information with no access or use constraints " +
  `beyond acknowledging USDA-NRCS as the data source. Required acknowledgement: "${USDA_ACKNOWLEDGEMENT}"`;

/** Limits of USDA Soil Data Access that both USDA providers inherit (docs/decisions.md#sda-wire). */
export const SDA_LIMITS = [
  "Soil Data Access answers at most 100,000 rows and about 32 MB of serialized JSON per query; Loam's queries are fixed and bounded well below that.",
  "Soil Data Access has a nightly maintenance window, 12:30 to 12:45 AM US Central time, when it answers with a maintenance notice instead of data; Loam then reports an upstream error (retryable) or serves a stale cached answer with a warning.",
] as const;


/** Both USDA providers read Soil Data Access when it is configured, else the offline snapshot. */
export function usdaTransport({ upstreams }: ConnectContext): Transport {
  const transport = upstreams.sda ?? upstreams.snapshot;
  if (!transport) throw new Error("The USDA providers need the offline snapshot or Soil Data Access; neither was opened.");
  return transport;
}

/** The one row of an extent query (min_lon, min_lat, max_lon, max_lat), typed (docs/decisions.md#decode-once), as a box; null when the data hold nothing located. */
export function extentOfRow(answer: RowAnswer): DataExtent {
  const { columns, rows } = answer.typed;
  const row = rows[0];
  if (!row) return null;
  const at = (name: string) => numberIn(row[columns.indexOf(name)]) ?? Number.NaN;
  const box = [at("min_lon"), at("min_lat"), at("max_lon"), at("max_lat")] as [number, number, number, number];
  return box.every(Number.isFinite) ? box : null;
}
