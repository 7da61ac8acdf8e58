/**
 * isric_soilgrids: ISRIC SoilGrids 2.0, 250 m modeled soil properties (shape `point_values`,
 * docs/decisions.md#isric-soilgrids). Offline: the real clips the snapshot build imported; live
 * (LOAM_UPSTREAM=sda): SoilGrids' REST point query through its own transport, within its call budget.
 */
import { settingOf, type SettingDeclaration } from "../../config";
import type { AnswerContext, ConnectContext, GridLayer, PointValuesProvider } from "../provider";
import { offlineSnapshot } from "../connect";
import { retrievedAt } from "../../domain/retrieved-at";
import type { SoilGridsAnswer } from "./answer";
import { CLIPS_RETRIEVED_AT, DEFAULT_SOILGRIDS_URL, SOILGRIDS_CITATION, SOILGRIDS_FILES, SOILGRIDS_ID, SOILGRIDS_LICENSE, SOILGRIDS_RECORD } from "./catalog";
import { layerNamed, SOILGRIDS_LAYERS, STANDARD_DEPTHS, toServed } from "./layers";
import { GRID_QUERY, POINT_QUERY, type GridClip } from "./queries";
import { CLIP_WARNING, MODELED_WARNING, readSoilGrids } from "./read";
import { SOILGRIDS_SNAPSHOT } from "./snapshot";
import { soilGridsLiveTransport } from "./transport";

const URL_SETTING = {
  name: "SOILGRIDS_URL",
  kind: "url",
  default: DEFAULT_SOILGRIDS_URL,
  help: "ISRIC SoilGrids' REST point query (properties/query), asked in live mode (LOAM_UPSTREAM=sda).",
} as const satisfies SettingDeclaration;
const BUDGET_SETTING = {
  name: "SOILGRIDS_REQUESTS_PER_MINUTE",
  kind: "integer",
  default: 5,
  min: 1,
  max: 600,
  help: "Most SoilGrids REST calls a minute across every worker and instance (ISRIC's fair use: about 5).",
} as const satisfies SettingDeclaration;

function gridLayer(clip: GridClip, context: AnswerContext): GridLayer | null {
  const layer = layerNamed(clip.layer);
  const depth = [...STANDARD_DEPTHS, ...(layer?.depths ?? [])].find((d) => d.label === clip.depth);
  if (!layer || !depth) return null;
  return {
    property: layer.property,
    depth,
    statistic: clip.statistic,
    unit: layer.unit,
    crs: clip.crs,
    origin: clip.origin,
    cellSize: clip.cell_size,
    width: clip.width,
    height: clip.height,
    values: clip.cells.map((v) => (v === clip.nodata ? null : toServed(layer, v, layer.dFactor))),
    citation: SOILGRIDS_CITATION,
    license: SOILGRIDS_LICENSE,
    sourceUrl: `${SOILGRIDS_FILES}${clip.layer}/`,
    retrievedAt: retrievedAt(context.source, context.storedAt, CLIPS_RETRIEVED_AT),
    warnings: [
      MODELED_WARNING,
      CLIP_WARNING,
      `Values are ${clip.layer} ${clip.depth} ${clip.statistic} divided by SoilGrids' d_factor ${layer.dFactor}${layer.toUnit ? ` and by ${layer.toUnit.divisor} (${layer.toUnit.from} to ${layer.unit})` : ""}; null where the clip holds NoData (${clip.nodata}).`,
    ],
  };
}

export const isricSoilgrids: PointValuesProvider<SoilGridsAnswer, { clips: GridClip[] }> = {
  id: SOILGRIDS_ID,
  aliases: ["soilgrids"],
  role: "point_values",
  record: SOILGRIDS_RECORD,
  shortName: "SoilGrids",
  settings: [URL_SETTING, BUDGET_SETTING],
  snapshot: SOILGRIDS_SNAPSHOT,
  // The clips its snapshot step imported are its place, with their extent.
  placeDatasets: SOILGRIDS_ID,
  columns: SOILGRIDS_LAYERS.map((layer) => ({
    property: layer.property,
    table: "properties/query",
    column: layer.name,
    unit: layer.unit,
    meaning: layer.meaning,
    methodColumn: null,
  })),
  queries: { point: POINT_QUERY, grid: GRID_QUERY },
  // Offline when Loam opened the snapshot; else SoilGrids' REST API, within its shared call budget.
  connect({ config, upstreams, callBudget, now }: ConnectContext) {
    return offlineSnapshot(upstreams) ?? soilGridsLiveTransport({
      url: settingOf(config, URL_SETTING),
      timeoutMs: config.upstreamTimeoutMs,
      perMinute: settingOf(config, BUDGET_SETTING),
      budget: callBudget,
      now,
    });
  },
  pointValues: {
    dataKind: "modeled",
    note: "SoilGrids values are a model's predictions for a 250 m cell, not observations at the point; divide each integer by its layer's d_factor (unit_measure).",
    offlineNote: "In snapshot mode this payload is the offline clips' cells holding the point, with each clip's file metadata (snapshot_clips; none outside the clips), not a live answer.",
    defaultProperties: "clay,sand,silt,ph,organic_carbon",
    query: POINT_QUERY,
    read: readSoilGrids,
    grid: {
      query: GRID_QUERY,
      layers: (answer) => answer.clips.flatMap((c) => (layerNamed(c.layer) ? [{ property: layerNamed(c.layer)!.property, depth: c.depth }] : [])),
      read(answer, property, depth, context) {
        const clip = answer.clips.find((c) => layerNamed(c.layer)?.property === property && c.depth === depth && c.statistic === "mean");
        return clip ? gridLayer(clip, context) : null;
      },
    },
  },
};
