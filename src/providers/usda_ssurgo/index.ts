/** USDA-NRCS SSURGO: mapped-survey values for a point (role mapped_location). */
import type { RowAnswer } from "../../upstream/sda/rows";
import { SURVEY_AREA_DATASETS } from "../../upstream/snapshot-schema";
import type { PointProvider } from "../provider";
import { extentOfRow, usdaTransport } from "../usda";
import { SSURGO_AREA_CITATION, SSURGO_ID, SSURGO_RECORD, SSURGO_SCOPE, SSURGO_SHORT_NAME } from "./catalog";
import { SSURGO_PROPERTIES } from "./columns";
import { normalizePoint } from "./normalize";
import { pointQuery } from "./queries";
import { checkMapUnitKey, MAP_UNIT_KEYS, mapUnitAnswerOf, mapUnitKeysAtPoint, mapUnitNotFound, mapUnitQuery, mapUnitsAtPointQuery, pointAnswerOf, readMapUnit } from "./mapunit";
import { extentQuery, polygonByKeyQuery, polygonQuery, polygonsOf, ssurgoPolygonKey } from "./polygons";
import { areaPolygonQuery, areaPolygonsOf } from "./area-polygons";
import { SSURGO_SUMMARY_PROPERTIES } from "./summary-properties";
import { SSURGO_SNAPSHOT } from "./snapshot";

export const usdaSsurgo: PointProvider<RowAnswer> = {
  id: SSURGO_ID,
  aliases: [],
  role: "mapped_location",
  record: SSURGO_RECORD,
  shortName: SSURGO_SHORT_NAME,
  columns: SSURGO_PROPERTIES,
  queries: { [pointQuery.kind]: pointQuery, [mapUnitQuery.kind]: mapUnitQuery, [mapUnitsAtPointQuery.kind]: mapUnitsAtPointQuery, [polygonQuery.kind]: polygonQuery, [extentQuery.kind]: extentQuery, [polygonByKeyQuery.kind]: polygonByKeyQuery, [areaPolygonQuery.kind]: areaPolygonQuery },
  connect: usdaTransport,
  snapshot: SSURGO_SNAPSHOT,
  // Each survey area the snapshot holds is a place, with its polygons' box.
  placeDatasets: SURVEY_AREA_DATASETS,
  point: { dataKind: "mapped_survey", note: "Mapped survey data are not a laboratory observation at the queried point.", scope: SSURGO_SCOPE, query: pointQuery, normalize: normalizePoint },
  mapUnits: { query: mapUnitQuery, checkKey: checkMapUnitKey, keys: MAP_UNIT_KEYS, read: readMapUnit, notFoundMessage: mapUnitNotFound, keysAtPoint: mapUnitKeysAtPoint, properties: SSURGO_SUMMARY_PROPERTIES, atPoint: { query: mapUnitsAtPointQuery, point: pointAnswerOf, mapUnit: mapUnitAnswerOf } },
  mapUnitPolygons: { query: polygonQuery, polygons: polygonsOf, byKey: polygonByKeyQuery, polygonKey: ssurgoPolygonKey, extent: { query: extentQuery, read: extentOfRow }, inArea: { query: areaPolygonQuery, polygons: areaPolygonsOf, citation: SSURGO_AREA_CITATION } },
};
