/**
 * The queries of isric_soilgrids: values at a point (one REST call asking every needed layer, depth
 * and statistic; offline, the clips' cells) and the clips as grids (offline only).
 */
import { UpstreamError } from "../../errors";
import type { PointValuesParams } from "../provider";
import type { QueryKind } from "../../upstream/transport";
import { decodeAnswer, type ClipFacts, type SoilGridsAnswer } from "./answer";
import { SOILGRIDS_ID } from "./catalog";
import { depthsOverlapping, layerNamed, layerOfProperty, STATISTICS, type SoilGridsLayer } from "./layers";
import { gridForm, mergeClipPoints, pointForm } from "./snapshot";
import type { SoilGridsForm } from "./transport";

/** The layers and depth labels a query needs (properties it does not serve are not asked). */
export function needed(params: PointValuesParams): { layers: SoilGridsLayer[]; depths: string[] } {
  const layers = params.properties.flatMap((p) => layerOfProperty(p) ?? []);
  const depths = new Set(layers.flatMap((l) => depthsOverlapping(l, params.depthTop, params.depthBottom).map((d) => d.label)));
  return { layers, depths: [...depths] };
}

const unitOf = (name: string) => {
  const layer = layerNamed(name);
  return layer ? { dFactor: layer.dFactor, mappedUnit: layer.mappedUnit, targetUnit: layer.targetUnit } : undefined;
};

const restForm: SoilGridsForm<PointValuesParams> = (params) => {
  const { layers, depths } = needed(params);
  return {
    search: [
      ["lon", String(params.longitude)],
      ["lat", String(params.latitude)],
      ...layers.map((l): [string, string] => ["property", l.name]),
      ...depths.map((d): [string, string] => ["depth", d]),
      ...STATISTICS.map((s): [string, string] => ["value", s]),
    ],
    layers: layers.map((l) => l.name),
  };
};

const clipPoint = pointForm<{ latitude: number; longitude: number; layers: readonly SoilGridsLayer[] }>();

export const POINT_QUERY: QueryKind<PointValuesParams, SoilGridsAnswer> = {
  kind: "soilgrids_point",
  columns: ["properties.layers"],
  key: (params) => {
    const { layers, depths } = needed(params);
    return `${params.longitude},${params.latitude}|${layers.map((l) => l.name).sort().join(",")}|${[...depths].sort().join(",")}`;
  },
  forms: {
    soilgrids: restForm,
    snapshot: {
      // Every file of clips is asked (no reach): the answer names the clips held and their extent, of all of them.
      datasets: SOILGRIDS_ID,
      merge: mergeClipPoints,
      prepare(snapshot) {
        const read = clipPoint.prepare(snapshot);
        return (params: PointValuesParams) => read({ latitude: params.latitude, longitude: params.longitude, layers: needed(params).layers });
      },
    },
  },
  decode: (payload) => decodeAnswer(payload, unitOf),
  raw: (answer) => answer.raw,
};

/** A clip as the grid route reads it. */
export interface GridClip extends ClipFacts {
  cells: number[];
}

export const GRID_QUERY: QueryKind<Record<string, never>, { clips: GridClip[] }> = {
  kind: "soilgrids_grid",
  columns: ["clips"],
  key: () => "all",
  forms: { snapshot: gridForm },
  decode(payload) {
    const json = payload.json() as { clips?: unknown } | null;
    if (!json || !Array.isArray(json.clips)) throw new UpstreamError("The offline snapshot's SoilGrids clips could not be read.", SOILGRIDS_ID);
    return { clips: json.clips as GridClip[] };
  },
  raw: (answer) => ({ clips: answer.clips.map(({ cells: _cells, ...meta }) => meta) }),
};
