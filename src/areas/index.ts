/** GET /v1/soil/aoi and GET /v1/soil/points: an area's report and the summaries at many points (docs/decisions.md#areas). */
import { Memo } from "../lru";
import { Elysia } from "elysia";
import { documentedRoute, PLANNED_PROVIDER_ERROR, UPSTREAM_ERRORS } from "../http/openapi";
import { strictQuery, type QueryOf } from "../http/query";
import type { Send } from "../http/response";
import { clip, ValidationError } from "../errors";
import { checkDepthInterval, type DataDeps } from "../answer";
import { fitFor, resolveProvider, type ProviderFit } from "../answer/providers";
import { parseProperties } from "../catalog/properties-param";
import { decimal } from "../decimal";
import { parseBbox } from "../domain/bbox";
import { parseMethod, planSummaries, type MapUnitProvider, type SummaryPlan } from "../aggregation/plan";
import { summaryOptions, type SummaryOptions } from "../aggregation/options";
import { AOI_TABLE, POINTS_TABLE } from "../tables";
import { aoiOfBbox, aoiWkt, parseAoiPolygon, type Aoi } from "./geometry";
import { AoiFeatureCollection, AoiQueryParams, AoiReport, MAX_POINTS, PointsQueryParams, PointsResponse } from "./model";
import { aoiFeatures, aoiReport, pointsReport, type AreaProvider } from "./service";

export interface AreaRouteDeps extends DataDeps {
  send: Send;
}

const AREAS: ProviderFit<AreaProvider> = fitFor(
  "mapped_location",
  "map units and polygons to report an area from",
  "Query parameter 'provider'",
  (provider) => provider.mapUnits !== undefined && provider.mapUnitPolygons?.inArea !== undefined,
);

const MAP_UNITS: ProviderFit<MapUnitProvider> = fitFor("mapped_location", "map-unit summaries", "Query parameter 'provider'", (provider) => provider.mapUnits !== undefined);

/** An AOI whose sides may reach a degree before the area rule (10,000 ha) decides. */
const AOI_BBOX_LIMITS = { maxSideDegrees: 1, maxAreaSquareDegrees: 1 };

type Shared = Pick<QueryOf<typeof PointsQueryParams>, "provider" | "properties" | "method" | "depth_top_cm" | "depth_bottom_cm" | "include_minors" | "miscellaneous_areas">;

interface PlanFields extends SummaryOptions {
  provider: string;
  properties: string[];
  method: SummaryPlan["summaries"][number]["method"] | null;
  depth_top_cm: number;
  depth_bottom_cm: number;
}

/** Properties, method, depth and which components count (docs/decisions.md#summary-options), checked before any upstream call. */
function planOf(read: Shared, provider: MapUnitProvider): { plan: SummaryPlan; fields: PlanFields } {
  checkDepthInterval(read.depth_top_cm, read.depth_bottom_cm);
  const properties = parseProperties(read.properties);
  const method = parseMethod(read.method);
  const options = summaryOptions(read);
  const plan = planSummaries(provider.mapUnits.properties, properties, method, { top_cm: read.depth_top_cm, bottom_cm: read.depth_bottom_cm }, options);
  return { plan, fields: { provider: provider.id, properties, method, depth_top_cm: read.depth_top_cm, depth_bottom_cm: read.depth_bottom_cm, ...options } };
}

function providerNamed<P extends MapUnitProvider>(deps: DataDeps, given: string, fit: ProviderFit<P>): P {
  if (given.trim() === "") throw new ValidationError("Query parameter 'provider' must name a mapped-survey provider; it is empty (omit it for the default).");
  return resolveProvider(deps.registry, given.trim(), fit);
}

/**
 * Checked areas by their query text: a repeated request (a 304, a second page of the map) does not parse,
 * validate and measure its polygon again (docs/decisions.md#derived-once). Refusals are not kept.
 */
const checkedPolygons = new Memo<string, Aoi>(256);
const checkedBoxes = new Memo<string, { aoi: Aoi; bbox: [number, number, number, number] }>(256);

/** Exactly one of `polygon` and `bbox`, as a checked area. */
function areaOf(read: QueryOf<typeof AoiQueryParams>): { aoi: Aoi; bbox: [number, number, number, number] | null } {
  const polygon = read.polygon.trim();
  const box = read.bbox.trim();
  if (polygon !== "" && box !== "") throw new ValidationError("Query parameters 'polygon' and 'bbox' both name an area; give one of them.");
  if (polygon === "" && box === "") throw new ValidationError("Query parameter 'polygon' (WKT, CRS84) or 'bbox' (min_lon,min_lat,max_lon,max_lat) is required: the area of interest.");
  if (polygon !== "") return { aoi: checkedPolygons.of(polygon, parseAoiPolygon), bbox: null };
  return checkedBoxes.of(box, () => {
    const bbox = parseBbox(box, AOI_BBOX_LIMITS);
    return { aoi: aoiOfBbox(bbox), bbox: [...bbox] };
  });
}

/** `points`: latitude,longitude pairs separated by semicolons, at most MAX_POINTS. */
export function parsePoints(raw: string): [number, number][] {
  const items = raw.split(";");
  if (items.length > MAX_POINTS) throw new ValidationError(`Query parameter 'points' has ${items.length} points; at most ${MAX_POINTS} are allowed per request.`);
  return items.map((item, i) => {
    const parts = item.split(",");
    if (parts.length !== 2) throw new ValidationError(`Query parameter 'points' item ${i + 1} must be latitude,longitude; got '${clip(item)}'.`);
    const [latitude, longitude] = parts.map(decimal);
    if (latitude === null || longitude === null || latitude === undefined || longitude === undefined) {
      throw new ValidationError(`Query parameter 'points' item ${i + 1} must be two decimal numbers latitude,longitude; got '${clip(item)}'.`);
    }
    if (latitude < -90 || latitude > 90) throw new ValidationError(`Query parameter 'points' item ${i + 1} has latitude ${latitude}, out of range: a latitude is from -90 to 90 (latitude comes first).`);
    if (longitude < -180 || longitude > 180) throw new ValidationError(`Query parameter 'points' item ${i + 1} has longitude ${longitude}, out of range: a longitude is from -180 to 180.`);
    return [latitude, longitude];
  });
}

const aoiQuery = strictQuery(AoiQueryParams);
const pointsQuery = strictQuery(PointsQueryParams);

const AOI_422 =
  "A parameter violates its rules (code validation_error), the message naming the rule: neither or both of polygon and bbox; WKT that does not parse or is not one POLYGON; a ring not closed or under four positions; a coordinate out of range; an edge across the antimeridian (more than 180 degrees of longitude); a position beyond latitude 85 north or south; a box over 1 degree a side; more than 1,000 vertices; a ring that crosses or touches itself or another ring (a position repeated in turn is dropped first); a hole outside the outer ring; under 1 m² or more than 10,000 ha; more than 5,000 map-unit polygons in the area; an unknown property, a method that does not fit it, a bad depth interval; format not json, csv or geojson.";

export function areas(deps: AreaRouteDeps) {
  return new Elysia({ name: "loam.areas" })
    .get(
      "/v1/soil/aoi",
      async ({ query, request, set }) => {
        const read = aoiQuery.queryOf(query);
        const provider = providerNamed(deps, read.provider, AREAS);
        const { aoi, bbox } = areaOf(read);
        const { plan, fields } = planOf(read, provider);
        const effective = { polygon: aoiWkt(aoi), bbox, ...fields };
        if (read.format === "geojson") {
          const sent: unknown = deps.send(await aoiFeatures(deps, provider, effective, aoi), request, set);
          // The pipeline sends JSON; the collection is GeoJSON (RFC 7946 §12).
          if (sent instanceof Response && sent.status === 200) sent.headers.set("content-type", "application/geo+json; charset=utf-8");
          return sent as never;
        }
        return deps.send(await aoiReport(deps, provider, effective, aoi, plan), request, set, AOI_TABLE);
      },
      {
        transform: aoiQuery.transform,
        query: AoiQueryParams,
        ...documentedRoute({
          operationId: "getSoilAoi",
          tag: "soil",
          summary: "Report of an area of interest: its map units, their areas and area-weighted summaries",
          description:
            "The map-unit polygons that meet the area, cut to it and measured geodesically on the WGS84 ellipsoid: each map unit's area (ha, acres) and percent of the area, with its summaries as GET /v1/soil/mapunits/{map_unit_key} gives them; and for the whole area one summary per property, each map unit's value weighted by its area (classes: the class holding the largest area). An area outside every survey is a 200 with mapped_percent 0 and a warning. format=geojson gives the cut polygons. Example: /v1/soil/aoi?bbox=-94.361846,41.943158,-94.358198,41.945788&properties=clay&depth_bottom_cm=30",
          ok: [AoiReport, "The report (format=geojson: an AoiFeatureCollection, application/geo+json)."],
          alternative: ["application/geo+json", AoiFeatureCollection],
          errors: {
            404: ["ErrorResponse", "Unknown provider (code unknown_provider)."],
            409: PLANNED_PROVIDER_ERROR,
            422: ["ErrorResponse", AOI_422],
            ...UPSTREAM_ERRORS,
            503: [
              "ErrorResponse",
              "Loam is busy (code internal_error, retryable): it is cutting as many areas as it queues (Retry-After says when to ask again), or it was too busy to finish the upstream exchange in time; the upstream is not known to be at fault.",
            ],
          },
          etag: true,
          csv: "one row per map unit and property, then one row per property for the whole area (scope aoi)",
        }),
      },
    )
    .get(
      "/v1/soil/points",
      async ({ query, request, set }) => {
        const read = pointsQuery.queryOf(query);
        const provider = providerNamed(deps, read.provider, MAP_UNITS);
        const points = parsePoints(read.points);
        const { plan, fields } = planOf(read, provider);
        return deps.send(await pointsReport(deps, provider, { points, ...fields }, plan), request, set, POINTS_TABLE);
      },
      {
        transform: pointsQuery.transform,
        query: PointsQueryParams,
        ...documentedRoute({
          operationId: "getSoilPoints",
          tag: "soil",
          summary: "Summaries at many points (up to 100) in one request",
          description:
            "For each point, in input order, its map unit and the summaries GET /v1/soil/summary gives for it; a point in no map unit has map_unit null and a warning. Each distinct map unit is loaded once. Example: /v1/soil/points?points=41.944131,-94.359608;41.943704,-94.361061&properties=clay,ph&depth_bottom_cm=30",
          ok: [PointsResponse, "One item per point, in input order."],
          errors: {
            404: ["ErrorResponse", "Unknown provider (code unknown_provider)."],
            409: PLANNED_PROVIDER_ERROR,
            422: [
              "ErrorResponse",
              "A parameter violates its rules (code validation_error): more than 100 points, a point that is not latitude,longitude, a coordinate out of range; an unknown property, a method that does not fit it, a bad depth interval; format not json or csv.",
            ],
            ...UPSTREAM_ERRORS,
          },
          etag: true,
          csv: "one row per point and property, the point's index and coordinates first",
        }),
      },
    );
}

