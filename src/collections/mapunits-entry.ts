/**
 * The OGC `mapunits` collection (and one per other mapped_location provider with polygons): a provider's map-unit polygons with flat properties, and with the polygon
 * summary parameters (POLYGON_SUMMARY_PARAMETERS: properties, method, depths) several summaries as
 * flat members. In SDA mode a page is one spatial query of Soil Data Access, so the box must be
 * within the 0.25-degree limit of docs/decisions.md#polygons (400 otherwise, naming it); the snapshot pages any box.
 */
import type { DataDeps } from "../answer";
import { BadRequestError } from "../errors";
import { MAP_UNIT_BBOX_LIMITS, MapUnitFeatureProperties, POLYGON_SUMMARY_PARAMETERS } from "../mapunits/model";
import { flatFields } from "./flat-fields";
import { readPolygonSummaries, type PolygonSummaryParams } from "../mapunits/plan";
import { mapUnitPage, polygonProperties, mapUnitPolygonByKey, pageWarnings, planKey, polygonGeometry, type MapUnitPage } from "../mapunits/service";
import type { Bbox } from "../domain/bbox";
import type { CollectionEntry, Item, ItemParams, ServedBy } from "./entries";
import type { PointProvider } from "../providers/provider";

/** The summary parameters this collection takes (every member of POLYGON_SUMMARY_PARAMETERS). */
export const SUMMARY_PARAMETER_NAMES: readonly string[] = Object.keys(POLYGON_SUMMARY_PARAMETERS);

function items(page: MapUnitPage): Item[] {
  return page.polygons.map((polygon) => ({
    type: "Feature",
    id: polygon.id,
    geometry: polygonGeometry(polygon),
    properties: polygonProperties(polygon, page.summaries?.get(polygon.mapUnitKey)),
  }));
}

function summariesOf(provider: PointProvider, params: ItemParams) {
  return { provider, summaries: readPolygonSummaries(params as unknown as PolygonSummaryParams, provider) };
}

/** In SDA mode every page is a spatial query of Soil Data Access: a box is needed, within the limit. */
function checkBox(id: string, bbox: Bbox, sourceKind: string): void {
  if (sourceKind !== "sda") return;
  const { maxSideDegrees, maxAreaSquareDegrees } = MAP_UNIT_BBOX_LIMITS;
  const limit = `at most ${maxSideDegrees} degrees per side (${maxAreaSquareDegrees} square degrees)`;
  const [w, s, e, n] = bbox;
  if (e - w > maxSideDegrees + 1e-9 || n - s > maxSideDegrees + 1e-9) {
    throw new BadRequestError(`Query parameter 'bbox' spans ${Number((e - w).toPrecision(10))} x ${Number((n - s).toPrecision(10))} degrees; the ${id} collection takes ${limit} when Loam reads Soil Data Access.`);
  }
}

/** The collection of one mapped_location provider's polygons (collections are derived per provider: table.ts). */
export const mapUnitsCollection = ({ id, provider }: ServedBy<PointProvider>): CollectionEntry => ({
  id,
  text() {
    const { shortName } = provider;
    return { title: `${shortName} map-unit polygons`, description: `${shortName} map-unit polygons (delineations; WGS84), ordered by polygon key, each naming its map unit. With properties=clay,ph (and optionally method, depth_top_cm, depth_bottom_cm) each polygon carries its map unit's summaries as flat fields: <id> (the value, or the class of a class property) and <id>_percent_of_map_unit (the share of the map unit the value rests on). Units and methods: GET /v1/properties and GET /v1/soil/mapunits/{map_unit_key}.` };
  },
  parameters: SUMMARY_PARAMETER_NAMES,
  // The /v1 polygon's model (its summary members come with the summary parameters, so are not fields).
  fields: flatFields(MapUnitFeatureProperties),
  geometry: ["polygon", "multipolygon"],
  async extent(deps) {
    const extent = provider.mapUnitPolygons!.extent;
    const cached = await deps.connected.ask(provider, extent.query, {});
    return extent.read(cached.answer);
  },
  query(deps, bbox, params) {
    const { summaries } = summariesOf(provider, params);
    checkBox(id, bbox, deps.connected.sourceOf(provider).kind);
    return {
      // The summaries are bound by their plan's key (every summary option in it).
      binding: { provider: provider.id, summaries: summaries.plan ? planKey(summaries.plan) : null },
      async page(after, limit) {
        const page = await mapUnitPage(deps, provider, { bbox, limit, after }, summaries.plan);
        return { features: () => items(page), nextAfter: page.nextAfter, cache: page.cache, warnings: () => pageWarnings(page, limit, limit), stamp: page.stamp, matched: null };
      },
    };
  },
  async item(deps, id, params) {
    const { summaries } = summariesOf(provider, params);
    const page = await mapUnitPolygonByKey(deps, provider, id, summaries.plan);
    if (page === null) return null;
    return { feature: () => items(page)[0]!, cache: page.cache, warnings: () => pageWarnings(page, 1, 1), stamp: page.stamp };
  },
});
