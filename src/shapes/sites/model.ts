/**
 * The TypeBox pieces every site feature shares (the `sites` shape, docs/decisions.md#sites): an RFC 7946
 * point Feature whose id is the site's key, the `representative_of_bbox` member that is always false, and
 * `distance_km` of a nearest-site answer. Each feature states its own words for them.
 */
import { t } from "elysia";
import type { TObject, TSchema } from "@sinclair/typebox";
import { closed } from "../../domain/model";
import { PointGeometry } from "../../domain/lab";

/** A site as a GeoJSON Feature: a point, its key as `id`, its properties. */
export function siteFeature<I extends TSchema, P extends TObject>(id: I, properties: P, title: string) {
  return t.Object({ type: t.Literal("Feature"), id, geometry: PointGeometry, properties }, { ...closed, title });
}

/** Always false: a site is a point, `why` it does not stand for the box it was found in. */
export const notRepresentative = (why: string) => t.Literal(false, { description: `Always false: ${why}` });

/** With near: how far the site lies from the point asked, km (geodesic, the same for every role). */
export const distanceKm = () => t.Optional(t.Number({ description: "With near: geodesic distance from the point on the WGS84 ellipsoid (Karney), km to the metre." }));
