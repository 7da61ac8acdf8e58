/**
 * Cutting polygons to an area (docs/decisions.md#areas): polygon-clipping (Martinez-Rueda-Feito sweep
 * with robust predicates) on the longitude/latitude plane, as SQL Server's planar `geometry` type cuts.
 */
// The package's ES module exports only a default object (its CommonJS build also names the functions).
import polygonClipping, { type Polygon as ClipPolygon } from "polygon-clipping";
import type { Polygons, Ring } from "./rings";

/** The parts of `polygons` inside the polygon `area` ([outer, ...holes]); none when they only touch it. */
export function intersection(polygons: Polygons, area: readonly Ring[]): Polygons {
  return polygonClipping.intersection(polygons as ClipPolygon[], area as ClipPolygon);
}
