/** NCSS / KSSL laboratory pedons (role lab_pedons). */
import type { RowAnswer } from "../../upstream/sda/rows";
import { LAB_COLLECTION_DATASETS } from "../../upstream/snapshot-schema";
import type { PedonProvider } from "../provider";
import { extentOfRow, usdaTransport } from "../usda";
import { KSSL_ALIASES, KSSL_ID, KSSL_RECORD } from "./catalog";
import { KSSL_PROPERTY_COLUMNS } from "./columns";
import { coverageNote, notFoundMessage, pedonDetail, POINT_WARNING } from "./detail";
import { greatGroupsOf, normalizeCollection, sampledAs } from "./normalize";
import { bboxQuery, countQuery, extentQuery, nearestList, nearestOne, nearestQuery, pedonQuery } from "./queries";
import { parsePedonKey } from "../../domain/pedon-key";
import { KSSL_SNAPSHOT } from "./snapshot";

export const usdaKssl: PedonProvider<RowAnswer, RowAnswer> = {
  id: KSSL_ID,
  aliases: KSSL_ALIASES,
  role: "lab_pedons",
  record: KSSL_RECORD,
  shortName: "KSSL",
  columns: KSSL_PROPERTY_COLUMNS,
  queries: { [bboxQuery.kind]: bboxQuery, [pedonQuery.kind]: pedonQuery, [extentQuery.kind]: extentQuery, [countQuery.kind]: countQuery, [nearestQuery.kind]: nearestQuery },
  connect: usdaTransport,
  snapshot: KSSL_SNAPSHOT,
  // Each lab collection the snapshot holds (a state's pedons) is a place; its extent is the pedons collection's.
  placeDatasets: LAB_COLLECTION_DATASETS,
  pedons: {
    key: {
      parse: parsePedonKey,
      syntax: "a KSSL pedon lab sample number such as 02N0245 (two digits, a letter, four digits or letters) or an SDA integer pedon_key from 1 to 2147483647",
      example: "02N0245",
    },
    inBox: bboxQuery,
    page: (answer, limit) => {
      const { features, ...end } = normalizeCollection(answer.typed, limit);
      return { sites: features, ...end };
    },
    where: (f) => [f.geometry.coordinates[0]!, f.geometry.coordinates[1]!],
    one: { query: pedonQuery, params: (pedonKey) => ({ pedonKey }), found: (answer) => answer.typed.rows.length > 0 },
    greatGroups: (answer) => greatGroupsOf(answer.typed),
    extent: { query: extentQuery, read: extentOfRow },
    count: { query: countQuery, read: (answer: RowAnswer) => Number(answer.typed.rows[0]?.[0] ?? 0), unlocated: (answer: RowAnswer) => Number(answer.typed.rows[0]?.[1] ?? 0) },
    coverageNote,
    notFoundMessage,
    detail: pedonDetail,
    sampledAs: (answer) => sampledAs(answer.typed),
    nearestWithLayers: { query: nearestQuery, list: nearestList, one: nearestOne },
    rawNotes: [
      "The fixed laboratory query joins lab_combine_nasis_ncss, lab_layer, lab_physical_properties and lab_chemical_properties; companion morphological pedon data are not part of the laboratory tables and are not joined.",
      POINT_WARNING,
    ],
  },
};
