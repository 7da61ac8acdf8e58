/**
 * One SoilGrids answer at a point, decoded once per cache entry (docs/decisions.md#decode-once), from
 * either source: the REST API's GeoJSON Feature (live) or the snapshot's clip cells (offline). Both
 * become layers of depths of statistics, integers in mapped units (null: no prediction).
 */
import { UpstreamError } from "../../errors";
import type { Payload } from "../../upstream/transport";
import { SOILGRIDS_ID } from "./catalog";

export interface DecodedDepth {
  label: string;
  top: number;
  bottom: number;
  /** The statistics the answer holds, in mapped units; null where the model (or the clip) has no value. */
  values: Partial<Record<string, number | null>>;
  /** Offline: the clip's NoData value (65535 in the repository's clips, -32768 in SoilGrids' own) was read here (said apart from a masked prediction). */
  nodata?: number;
}

export interface DecodedLayer {
  name: string;
  dFactor: number;
  mappedUnit: string;
  targetUnit: string;
  depths: DecodedDepth[];
}

/** What the snapshot holds of one clip file: its layer and its grid. */
export interface ClipFacts {
  file: string;
  band: string;
  layer: string;
  depth: string;
  statistic: string;
  crs: string;
  origin: [number, number];
  cell_size: [number, number];
  width: number;
  height: number;
  nodata: number;
}

/** The snapshot's clip facts for one cell, as the raw route shows them. */
export interface ClipCell extends ClipFacts {
  pixel: { column: number; row: number };
  cell_center: [number, number];
  value: number;
}

/** The offline payload: the cells of the clips that hold the point (none when outside), and the clips' extent. */
export interface ClipPayload {
  snapshot_clips: ClipCell[];
  extent: [number, number, number, number] | null;
  /** Each clip's layer, depth and statistic, whether or not it holds the point. */
  held: { layer: string; depth: string; statistic: string }[];
}

export interface SoilGridsAnswer {
  origin: "rest" | "clip";
  layers: DecodedLayer[];
  /** Centre of the cell that answered (offline); null for the REST API, which does not say. */
  cell: { longitude: number; latitude: number } | null;
  /** Offline: the clips' extent [w, s, e, n], and whether the point lies in it. */
  extent: [number, number, number, number] | null;
  outside: boolean;
  held: { layer: string; depth: string; statistic: string }[];
  raw: Record<string, unknown>;
}

const fail = (why: string) => new UpstreamError(`ISRIC SoilGrids' answer is not a SoilGrids properties answer: ${why}.`, SOILGRIDS_ID);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function decodeRestDepth(layer: string, depth: unknown): DecodedDepth {
  if (!isRecord(depth) || !isRecord(depth.range) || typeof depth.label !== "string" || !isRecord(depth.values)) throw fail(`a depth of layer '${layer}' lacks its range, label or values`);
  const { top_depth: top, bottom_depth: bottom } = depth.range;
  if (typeof top !== "number" || typeof bottom !== "number") throw fail(`depth '${depth.label}' of layer '${layer}' has no numeric range`);
  const values: Record<string, number | null> = {};
  for (const [statistic, value] of Object.entries(depth.values)) {
    if (value !== null && typeof value !== "number") throw fail(`${layer} ${depth.label} ${statistic} is neither a number nor null`);
    values[statistic] = value;
  }
  return { label: depth.label, top, bottom, values };
}

function decodeRestLayer(layer: unknown): DecodedLayer {
  if (!isRecord(layer) || typeof layer.name !== "string") throw fail("a layer has no name");
  const unit = layer.unit_measure;
  if (!isRecord(unit) || typeof unit.d_factor !== "number" || !(unit.d_factor > 0) || typeof unit.mapped_units !== "string") throw fail(`layer '${layer.name}' has no unit_measure with a positive d_factor`);
  if (!Array.isArray(layer.depths)) throw fail(`layer '${layer.name}' has no depths`);
  return {
    name: layer.name,
    dFactor: unit.d_factor,
    mappedUnit: unit.mapped_units,
    targetUnit: typeof unit.target_units === "string" ? unit.target_units : "",
    depths: layer.depths.map((d) => decodeRestDepth(layer.name as string, d)),
  };
}

/** The REST answer (B.2 of the format notes): a GeoJSON Feature whose properties.layers hold the values. */
export function decodeRest(json: Record<string, unknown>): SoilGridsAnswer {
  const properties = json.properties;
  if (!isRecord(properties) || !Array.isArray(properties.layers)) throw fail("no properties.layers");
  return { origin: "rest", layers: properties.layers.map(decodeRestLayer), cell: null, extent: null, outside: false, held: [], raw: json };
}

/** The snapshot's clip cells, as layers (the clip's unit facts are SoilGrids' own: ./layers.ts gives them). */
export function decodeClips(json: ClipPayload, unitOf: (layer: string) => { dFactor: number; mappedUnit: string; targetUnit: string } | undefined): SoilGridsAnswer {
  const layers = new Map<string, DecodedLayer>();
  for (const cell of json.snapshot_clips) {
    const unit = unitOf(cell.layer);
    if (!unit) continue;
    const layer = layers.get(cell.layer) ?? { name: cell.layer, ...unit, depths: [] };
    layers.set(cell.layer, layer);
    const [top, bottom] = cell.depth.replace(/cm$/, "").split("-").map(Number) as [number, number];
    let depth = layer.depths.find((d) => d.label === cell.depth);
    if (!depth) layer.depths.push((depth = { label: cell.depth, top, bottom, values: {} }));
    const nodata = cell.value === cell.nodata;
    depth.values[cell.statistic] = nodata ? null : cell.value;
    if (nodata) depth.nodata = cell.nodata;
  }
  const first = json.snapshot_clips[0];
  return {
    origin: "clip",
    layers: [...layers.values()],
    cell: first ? { longitude: first.cell_center[0], latitude: first.cell_center[1] } : null,
    extent: json.extent,
    outside: json.snapshot_clips.length === 0,
    held: json.held,
    raw: json as unknown as Record<string, unknown>,
  };
}

export function decodeAnswer(payload: Payload, unitOf: Parameters<typeof decodeClips>[1]): SoilGridsAnswer {
  let json: unknown;
  try {
    json = payload.json();
  } catch {
    throw fail("it is not JSON");
  }
  if (isRecord(json) && Array.isArray(json.snapshot_clips)) return decodeClips(json as unknown as ClipPayload, unitOf);
  if (isRecord(json) && json.type === "Feature") return decodeRest(json);
  throw fail("it is not a GeoJSON Feature");
}
