/**
 * The tables the data routes offer (docs/architecture.md#tables): for each, how its JSON body reads
 * as CSV (flatten.ts) and the download's file name. A route passes its table to `deps.send`; the
 * response pipeline (src/http/response.ts) negotiates and renders. Nothing here knows HTTP.
 */
import type { CsvTable } from "../http/response";
import { locationCsv, pedonCollectionCsv, pedonCsv, type LocationBody, type PedonBody, type PedonCollectionBody } from "./flatten";
import { summaryCsv, type SummaryBodyCells } from "./summary";
import { mapUnitCollectionCsv, type MapUnitCollectionCells } from "./mapunits";
import { seriesCsv } from "./series";
import type { SeriesResponse } from "../domain/series";
import { layerTableCsv, type LayerTableCells } from "./layers";
import { aoiCsv, pointsCsv, type AoiCells, type PointsCells } from "./areas";

export const LOCATION_TABLE: CsvTable<LocationBody & { query: { latitude: number; longitude: number } }> = {
  render: locationCsv,
  fileName: (body) => `loam-soil-location_${body.query.latitude}_${body.query.longitude}.csv`,
};

type PedonCollectionTableBody = PedonCollectionBody & { query: { bbox: readonly number[] } };

export const PEDON_COLLECTION_TABLE: CsvTable<PedonCollectionTableBody> = {
  render: (body) => pedonCollectionCsv(body),
  fileName: (body) => `loam-pedons_${body.query.bbox.join("_")}.csv`,
};

/** The pedon list with `retrieved_at` as the route states it: when its source read the list (docs/decisions.md#retrieved-at). */
export function pedonCollectionTable(retrievedAtOf: (body: PedonCollectionTableBody) => string): CsvTable<PedonCollectionTableBody> {
  return { ...PEDON_COLLECTION_TABLE, render: (body) => pedonCollectionCsv(body, retrievedAtOf(body)) };
}

export const PEDON_TABLE: CsvTable<PedonBody> = {
  render: pedonCsv,
  fileName: (body) => `loam-pedon_${body.pedon_key.toUpperCase()}.csv`,
};

/** GET /v1/soil/summary: named by the point asked about. */
export const SUMMARY_TABLE: CsvTable<SummaryBodyCells & { query: { latitude: number | null; longitude: number | null } }> = {
  render: summaryCsv,
  fileName: (body) => `loam-soil-summary_${body.query.latitude}_${body.query.longitude}.csv`,
};

/** GET /v1/soil/mapunits/{map_unit_key}: named by the map unit. */
export const MAP_UNIT_TABLE: CsvTable<SummaryBodyCells> = {
  render: summaryCsv,
  fileName: (body) => `loam-mapunit_${body.map_unit?.map_unit_key ?? "none"}.csv`,
};

/** GET /v1/soil/mapunits?bbox=...: named by the box. */
export const MAP_UNIT_COLLECTION_TABLE: CsvTable<MapUnitCollectionCells> = {
  render: (body) => mapUnitCollectionCsv(body),
  fileName: (body) => `loam-mapunits_${body.query.bbox.join("_")}.csv`,
};

/** The polygon table with `retrieved_at` as the route states it: when its source read the polygons (docs/decisions.md#retrieved-at). */
export function mapUnitCollectionTable(retrievedAtOf: (body: MapUnitCollectionCells) => string): CsvTable<MapUnitCollectionCells> {
  return { ...MAP_UNIT_COLLECTION_TABLE, render: (body) => mapUnitCollectionCsv(body, retrievedAtOf(body)) };
}

/** GET /v1/series/{name}: one row per horizon, named by the series. */
export const SERIES_TABLE: CsvTable<SeriesResponse> = {
  render: seriesCsv,
  fileName: (body) => `loam-series_${body.series.name}.csv`,
};

/** GET /v1/pedons/layers: named by the box. */
export const LAYER_TABLE: CsvTable<LayerTableCells> = {
  render: (body) => layerTableCsv(body),
  fileName: (body) => `loam-pedon-layers_${body.query.bbox.join("_")}.csv`,
};

/** The layer table with `retrieved_at` as the route states it: when its source read the layers (docs/decisions.md#retrieved-at). */
export function layerTableOf(retrievedAtOf: (body: LayerTableCells) => string): CsvTable<LayerTableCells> {
  return { ...LAYER_TABLE, render: (body) => layerTableCsv(body, retrievedAtOf(body)) };
}

/** GET /v1/soil/aoi: one row per map unit and property, then the area's own rows. */
export const AOI_TABLE: CsvTable<AoiCells & { query: { bbox: readonly number[] | null } }> = {
  render: aoiCsv,
  fileName: (body) => `loam-aoi_${body.query.bbox ? body.query.bbox.join("_") : `${body.aoi.area_ha}ha`}.csv`,
};

/** GET /v1/soil/points: one row per point and property. */
export const POINTS_TABLE: CsvTable<PointsCells> = {
  render: pointsCsv,
  fileName: (body) => `loam-points_${body.points.length}.csv`,
};
