// Map-unit polygons for the view and their panel: GET /v1/soil/mapunits?bbox=… drawn as a choropleth
// (layers/mapunits.js), a polygon click opening GET /v1/soil/mapunits/{key} (panels/mapunit.js).
// Off until the polygon endpoint is served: MAP_UNITS.enabled in config.js is the switch.
import { describeError, getJson, isAbort, urls } from "./api.js";
import { MAP_UNITS } from "./config.js";
import { createMapUnitLayer } from "./layers/mapunits.js";
import { viewBox } from "./map.js";
import { renderMapUnit } from "./panels/mapunit.js";
import { setStatus } from "./status.js";

/** The summary asked for: one property over a depth interval by one method. */
function summaryQuery(property) {
  return { method: MAP_UNITS.method, depth_top_cm: MAP_UNITS.depthTopCm, depth_bottom_cm: MAP_UNITS.depthBottomCm, property };
}

/**
 * Creates the map-unit layer (state.mapUnits: show, clear, featureAt, colourOf) and, when MAP_UNITS.enabled,
 * loads the polygons of every view no larger than MAP_UNITS.maxSideDegrees a side.
 * ctx: {map, state, panel, catalog (a promise), property() → the chosen property id, beforeDetail()}.
 */
export function setUpMapUnits(ctx) {
  const { map, state, panel } = ctx;
  const layer = createMapUnitLayer(map);
  state.mapUnits = layer;
  state.mapUnitState = MAP_UNITS.enabled ? "pending" : "off";
  let controller = null;

  async function load() {
    if (!MAP_UNITS.enabled) return;
    if (controller) controller.abort();
    controller = null;
    const box = viewBox(map);
    if (!(box[2] - box[0] <= MAP_UNITS.maxSideDegrees && box[3] - box[1] <= MAP_UNITS.maxSideDegrees)) {
      layer.clear();
      state.mapUnitState = "zoom";
      return;
    }
    const mine = new AbortController();
    controller = mine;
    state.mapUnitState = "loading";
    const property = ctx.property();
    const catalog = await ctx.catalog;
    try {
      const collection = await getJson(urls.mapUnits(box, Object.assign({ limit: MAP_UNITS.limit }, summaryQuery(property))), mine.signal);
      if (mine !== controller) return;
      state.mapUnitRange = layer.show(collection, catalog.property(property));
      state.mapUnitState = "ready";
    } catch (error) {
      if (isAbort(error) || mine !== controller) return;
      layer.clear();
      setStatus("Map units could not be loaded: " + describeError(error), "error");
      state.mapUnitState = "error";
    }
  }

  async function openMapUnit(feature, latlng) {
    const p = feature.properties || {};
    const key = String(p.map_unit_key !== undefined && p.map_unit_key !== null ? p.map_unit_key : feature.id);
    ctx.beforeDetail();
    panel.open("Map unit " + (p.map_unit_symbol ? String(p.map_unit_symbol) : key), false, latlng);
    panel.message("Loading the map unit…", "busy");
    const mine = panel.start();
    const query = summaryQuery(ctx.property());
    const url = urls.mapUnit(key, { properties: query.property, method: query.method, depth_top_cm: query.depth_top_cm, depth_bottom_cm: query.depth_bottom_cm });
    try {
      const answer = await getJson(url, mine.signal);
      if (panel.current(mine)) renderMapUnit(panel.body, answer, url);
    } catch (error) {
      if (isAbort(error) || !panel.current(mine)) return;
      panel.message("The map unit could not be loaded: " + describeError(error), "error");
    }
  }

  map.on("moveend", load);
  return {
    layer,
    load,
    /** Open the map unit drawn at `latlng`, if any; false when there is none (a point query then). */
    openAt(latlng) {
      const feature = layer.featureAt(latlng);
      if (feature) openMapUnit(feature, latlng);
      return Boolean(feature);
    },
  };
}
