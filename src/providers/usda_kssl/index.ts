/** NCSS / KSSL laboratory pedons (role lab_pedons). */
import type { SdaAnswer } from "../../upstream/sda/payload";
import { LAB_COLLECTION_DATASETS } from "../../upstream/snapshot-schema";
import type { PedonProvider } from "../provider";
import { extentOfRow, usdaTransport } from "../usda";
import { KSSL_ALIASES, KSSL_ID, KSSL_RECORD } from "./catalog";
import { KSSL_PROPERTY_COLUMNS } from "./columns";
import { coverageNote, notFoundMessage, pedonDetail, POINT_WARNING } from "./detail";
import { greatGroupsOf, normalizeCollection, sampledAs } from "./normalize";
import { bboxQuery, countQuery, extentQuery, pedonQuery } from "./queries";
import { parsePedonKey } from "../../domain/pedon-key";

export const usdaKssl: PedonProvider<SdaAnswer, SdaAnswer> = {
  id: KSSL_ID,
  aliases: KSSL_ALIASES,
  role: "lab_pedons",
  record: KSSL_RECORD,
  columns: KSSL_PROPERTY_COLUMNS,
  queries: { [bboxQuery.kind]: bboxQuery, [pedonQuery.kind]: pedonQuery, [extentQuery.kind]: extentQuery, [countQuery.kind]: countQuery },
  connect: usdaTransport,
  // Each lab collection the snapshot holds (a state's pedons) is a place; its extent is the pedons collection's.
  placeDatasets: LAB_COLLECTION_DATASETS,
  pedons: {
    key: {
      parse: parsePedonKey,
      syntax: "a KSSL pedon lab sample number such as 02N0245 (two digits, a letter, four digits or letters) or an SDA integer pedon_key from 1 to 2147483647",
    },
    bbox: bboxQuery,
    features: (answer, limit) => normalizeCollection(answer.table, limit),
    greatGroups: (answer) => greatGroupsOf(answer.table),
    extent: { query: extentQuery, read: extentOfRow },
    count: { query: countQuery, read: (answer) => Number(answer.table.rows[0]?.[0] ?? 0) },
    coverageNote,
    pedon: pedonQuery,
    found: (answer) => answer.table.rows.length > 0,
    notFoundMessage,
    detail: pedonDetail,
    sampledAs: (answer) => sampledAs(answer.table),
    rawNotes: [
      "The fixed laboratory query joins lab_combine_nasis_ncss, lab_layer, lab_physical_properties and lab_chemical_properties; companion morphological pedon data are not part of the laboratory tables and are not joined.",
      POINT_WARNING,
    ],
  },
};
