/**
 * The `bbox` query parameter of GET /v1/pedons (docs/decisions.md#limits): four plain decimals
 * min_lon,min_lat,max_lon,max_lat in WGS84, southwest corner first, at most 5 degrees per side and
 * 4 square degrees. Each failure names the rule it broke.
 */
import { clip } from "../errors";
import { ValidationError } from "../errors";
import { decimal } from "../decimal";

export type Bbox = [minLon: number, minLat: number, maxLon: number, maxLat: number];

export const MAX_BBOX_SIDE_DEGREES = 5;
export const MAX_BBOX_AREA_SQ_DEGREES = 4;
// Differences of decimal degrees carry binary noise (-100.1 - -95.1 = 5.000000000000014).
const TOLERANCE = 1e-9;

const NAMES = ["min_lon", "min_lat", "max_lon", "max_lat"] as const;

/** Round away the noise of a subtraction for messages (5.000000000000014 → 5). */
function tidy(value: number): number {
  return Number(value.toPrecision(10));
}

/** How large a box an endpoint accepts (GET /v1/pedons: the defaults; map-unit polygons: smaller). */
export interface BboxLimits {
  maxSideDegrees: number;
  maxAreaSquareDegrees: number;
}

/**
 * Any box inside WGS84 (the OGC collections' rule; sparse points: pedons, sites, stations): for lists
 * bounded by their pages (`limit`) or their CSV cap instead of by the box.
 */
export const WORLD_BBOX_LIMITS: BboxLimits = { maxSideDegrees: 360, maxAreaSquareDegrees: 360 * 180 };

export const PEDON_BBOX_LIMITS: BboxLimits = { maxSideDegrees: MAX_BBOX_SIDE_DEGREES, maxAreaSquareDegrees: MAX_BBOX_AREA_SQ_DEGREES };

export function parseBbox(raw: string, limits: BboxLimits = PEDON_BBOX_LIMITS): Bbox {
  const { maxSideDegrees, maxAreaSquareDegrees } = limits;
  const items = raw.split(",");
  if (items.length !== 4) {
    throw new ValidationError(`Query parameter 'bbox' must be four comma-separated numbers min_lon,min_lat,max_lon,max_lat; got ${items.length} item${items.length === 1 ? "" : "s"}.`);
  }
  const values = items.map((item, i) => {
    const value = decimal(item);
    if (value === null) throw new ValidationError(`Query parameter 'bbox' item ${i + 1} (${NAMES[i]}) must be a decimal number; got '${clip(item)}'.`);
    return value;
  }) as Bbox;
  const [minLon, minLat, maxLon, maxLat] = values;
  values.forEach((value, i) => {
    const isLon = i % 2 === 0;
    const limit = isLon ? 180 : 90;
    if (value < -limit || value > limit) {
      throw new ValidationError(`Query parameter 'bbox' ${NAMES[i]} must be ${isLon ? "a longitude" : "a latitude"} from ${-limit} to ${limit}; got ${value}.`);
    }
  });
  if (minLon >= maxLon) {
    throw new ValidationError(
      `Query parameter 'bbox' min_lon (${minLon}) must be less than max_lon (${maxLon}): give the southwest corner first; a box across the antimeridian is not supported.`,
    );
  }
  if (minLat >= maxLat) {
    throw new ValidationError(`Query parameter 'bbox' min_lat (${minLat}) must be less than max_lat (${maxLat}): give the southwest corner first.`);
  }
  const width = maxLon - minLon;
  const height = maxLat - minLat;
  if (width > maxSideDegrees + TOLERANCE) {
    throw new ValidationError(`Query parameter 'bbox' spans ${tidy(width)} degrees of longitude; at most ${maxSideDegrees} degrees per side are allowed.`);
  }
  if (height > maxSideDegrees + TOLERANCE) {
    throw new ValidationError(`Query parameter 'bbox' spans ${tidy(height)} degrees of latitude; at most ${maxSideDegrees} degrees per side are allowed.`);
  }
  if (width * height > maxAreaSquareDegrees + TOLERANCE) {
    throw new ValidationError(
      `Query parameter 'bbox' covers ${tidy(width * height)} square degrees (${tidy(width)} x ${tidy(height)}); at most ${maxAreaSquareDegrees} square degrees are allowed.`,
    );
  }
  return values;
}

/** A `near=latitude,longitude` parameter as [lat, lon], or a ValidationError (422) naming the rule. */
export function nearPoint(raw: string): [number, number] {
  const items = raw.split(",");
  const [lat, lon] = items.map((item) => decimal(item));
  if (items.length !== 2 || lat === null || lon === null || lat === undefined || lon === undefined) {
    throw new ValidationError(`Query parameter 'near' must be latitude,longitude in decimal degrees; got '${clip(raw)}'.`);
  }
  if (lat < -90 || lat > 90) throw new ValidationError(`Query parameter 'near' latitude must be from -90 to 90; got ${lat}.`);
  if (lon < -180 || lon > 180) throw new ValidationError(`Query parameter 'near' longitude must be from -180 to 180; got ${lon}.`);
  return [lat, lon];
}

/** The query parameters that choose between a box of sparse points and the points nearest one (the request's own spellings). */
export interface BoxOrNearQuery {
  bbox: string;
  near: string;
  limit: number;
  cursor: string;
}

/**
 * Either any box inside WGS84 (paged) or the points nearest `near` (one list, at most `maxNear`), for
 * routes of sparse points (`what`: "sites", "stations"). `bbox` has a default (the whole range): only a
 * box the request names (`bboxGiven`) conflicts with `near`. Each refusal is a 422 naming the rule.
 */
export function boxOrNear(read: BoxOrNearQuery, bboxGiven: boolean, what: string, maxNear: number): { bbox: Bbox | null; near: [number, number] | null } {
  if (read.near === "") return { bbox: parseBbox(read.bbox, WORLD_BBOX_LIMITS), near: null };
  if (bboxGiven) throw new ValidationError(`Give either 'bbox' (the ${what} in a box) or 'near' (the ${what} nearest a point), not both.`);
  if (read.cursor !== "") throw new ValidationError("Query parameter 'cursor' pages a bbox; a 'near' answer is one list, nearest first, with no further pages.");
  if (read.limit > maxNear) throw new ValidationError(`Query parameter 'limit' must be at most ${maxNear} with 'near'; got ${read.limit}.`);
  return { bbox: null, near: nearPoint(read.near) };
}
