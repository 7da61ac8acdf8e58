/* global L */
// Map-unit polygons for the view and their panel: the survey layer's endpoint (GET /v1/layers; GET
// /v1/soil/mapunits?bbox=…) drawn as a choropleth (layers/mapunits.js), a polygon click opening its detail
// endpoint (GET /v1/soil/mapunits/{key}; panels/mapunit.js).
// MAP_UNITS.enabled in config.js is the switch; the soil-map controls choose property, method and depth.
import { csvOf, describeError, detailOf, getJson, isAbort, withParams } from "./api.js";
import { CHOROPLETH, MAP_UNITS, methodName, SOIL_MAP_VIEW } from "./config.js";
import { $, el } from "./dom.js";
import { createMapUnitLayer, KIND } from "./layers/mapunits.js";
import { emptyBox, viewBox } from "./map.js";
import { renderMapUnit } from "./panels/mapunit.js";
import { setStatus } from "./status.js";

/**
 * Creates the map-unit layer (state.mapUnits: show, clear, featureAt, colourOf) and, when MAP_UNITS.enabled,
 * loads the polygons of every view no larger than MAP_UNITS.maxSideDegrees a side.
 * ctx: {map, state, panel, catalog (a promise), property → the property chosen first, beforeDetail()}.
 */
export function setUpMapUnits(ctx) {
  const { map, state, panel } = ctx;
  const layer = createMapUnitLayer(map);
  state.mapUnits = layer;
  state.mapUnitState = MAP_UNITS.enabled ? "pending" : "off";
  /** What the choropleth shows: one property over a depth interval by one method. */
  const choice = { property: ctx.property(), method: MAP_UNITS.method, depthTopCm: MAP_UNITS.depthTopCm, depthBottomCm: MAP_UNITS.depthBottomCm };
  state.mapUnitChoice = choice;
  let controller = null;

  const summaryQuery = () => ({ property: choice.property, method: choice.method, depth_top_cm: choice.depthTopCm, depth_bottom_cm: choice.depthBottomCm });
  const say = (message) => {
    const node = $("mu-state");
    if (node) node.textContent = message;
  };
  /** Export of the current view: the API's own answers for it (GeoJSON, and the same query as CSV). */
  const exportLinks = (url) => {
    const geojson = $("mu-geojson"), csv = $("mu-csv");
    if (!geojson || !csv) return;
    geojson.hidden = csv.hidden = !url;
    if (url) {
      geojson.href = url;
      csv.href = csvOf(url);
    }
  };

  let visible = true;
  /** The survey layer's GET /v1/layers entry (set when the layers are read): its places fix the classes. */
  let entry = null;
  let entryRead;
  const entryKnown = new Promise((resolve) => (entryRead = resolve));
  const ranges = new Map();
  /**
   * The range of the chosen summary over every map unit of the places the layer declares (each place's box
   * in tiles the endpoint accepts), once per choice; null when the layer declares no place (live mode: the
   * dataset is every US survey, so the classes are the view's).
   */
  function datasetRange(query) {
    const places = entry && entry.coverage && Array.isArray(entry.coverage.places) ? entry.coverage.places.filter((p) => Array.isArray(p.bbox)) : [];
    if (!places.length) return Promise.resolve(null);
    const key = JSON.stringify(query);
    if (!ranges.has(key)) {
      const side = MAP_UNITS.maxSideDegrees;
      const tiles = [];
      for (const p of places) {
        const [w, s, e, n] = p.bbox;
        for (let x = w; x < e; x += side) for (let y = s; y < n; y += side) tiles.push([x, y, Math.min(e, x + side), Math.min(n, y + side)].map((v) => Math.round(v * 1e6) / 1e6));
      }
      const read = async () => {
        const byKey = new Map();
        for (let i = 0; i < tiles.length; i += 4) {
          const answers = await Promise.all(tiles.slice(i, i + 4).map((box) => getJson(withParams(entry.endpoint, Object.assign({ bbox: box.join(","), limit: MAP_UNITS.limit }, query)))));
          for (const answer of answers) for (const f of answer.features || []) {
            const v = f.properties && f.properties.summary ? f.properties.summary.value : null;
            if (typeof v === "number" && isFinite(v)) byKey.set(String(f.properties.map_unit_key), v);
          }
        }
        const values = [...byKey.values()];
        return values.length ? { min: Math.min(...values), max: Math.max(...values), count: values.length } : null;
      };
      const pending = read();
      pending.catch(() => ranges.delete(key));
      ranges.set(key, pending);
    }
    return ranges.get(key);
  }

  async function load() {
    if (!MAP_UNITS.enabled) return;
    if (controller) controller.abort();
    controller = null;
    if (!visible) {
      layer.clear();
      exportLinks(null);
      state.mapUnitState = "off";
      say("");
      setStatus("", "info", KIND);
      return;
    }
    const box = viewBox(map);
    if (emptyBox(box)) return;
    if (!(box[2] - box[0] <= MAP_UNITS.maxSideDegrees && box[3] - box[1] <= MAP_UNITS.maxSideDegrees)) {
      layer.clear();
      exportLinks(null);
      state.mapUnitState = "zoom";
      say("Map units are drawn in views of at most " + MAP_UNITS.maxSideDegrees + "° a side: zoom in.");
      setStatus("Zoom in to see map-unit polygons (views of at most " + MAP_UNITS.maxSideDegrees + "° a side).", "warn", KIND);
      return;
    }
    const mine = new AbortController();
    controller = mine;
    state.mapUnitState = "loading";
    say("Loading map units…");
    const catalog = await ctx.catalog;
    try {
      // The endpoint and the classes are the layer's entry's (GET /v1/layers): nothing is asked before it is read.
      await entryKnown;
      if (mine !== controller) return;
      if (!entry) {
        state.mapUnitState = "off";
        say("");
        return;
      }
      const url = withParams(entry.endpoint, Object.assign({ bbox: box.join(","), limit: MAP_UNITS.limit }, summaryQuery()));
      const [collection, fixed] = await Promise.all([getJson(url, mine.signal), datasetRange(summaryQuery()).catch(() => null)]);
      if (mine !== controller) return;
      const property = catalog.property(choice.property);
      const label = { name: property.name + ", " + choice.depthTopCm + "–" + choice.depthBottomCm + " cm, " + methodName(choice.method), unit: property.unit };
      state.mapUnitRange = layer.show(collection, label, fixed);
      state.mapUnitClassBasis = fixed;
      state.mapUnitUrl = url;
      exportLinks(state.mapUnitRange.count ? url : null);
      state.mapUnitState = "ready";
      const count = state.mapUnitRange.count;
      say(count === 0 ? "No map-unit polygon in view." : count + " map-unit polygon" + (count === 1 ? "" : "s") + (collection.truncated ? " (truncated: zoom in for all)" : "") + " in view.");
      setStatus(count === 0 ? "No map-unit polygon in this view." : "Showing " + count + " map-unit polygon" + (count === 1 ? "" : "s") + " in this view. Click one for its map unit.", "info", KIND);
    } catch (error) {
      if (isAbort(error) || mine !== controller) return;
      layer.clear();
      exportLinks(null);
      setStatus("Map units could not be loaded: " + describeError(error), "error", KIND);
      say("");
      state.mapUnitState = "error";
    }
  }

  async function openMapUnit(feature, latlng) {
    const p = feature.properties || {};
    const key = String(p.map_unit_key !== undefined && p.map_unit_key !== null ? p.map_unit_key : feature.id);
    ctx.beforeDetail();
    layer.select(key);
    const query = summaryQuery();
    const url = detailOf(entry.detail_endpoint, key, { properties: query.property, method: query.method, depth_top_cm: query.depth_top_cm, depth_bottom_cm: query.depth_bottom_cm });
    const heading = "Map unit " + (p.map_unit_symbol ? String(p.map_unit_symbol) : key);
    await panel.detail({ heading, focus: false, latlng, loading: "Loading the map unit…", failure: "The map unit could not be loaded" }, async (mine) => {
      const answer = await getJson(url, mine.signal);
      // No CSV link yet: GET /v1/soil/mapunits/{key} has no CSV form (src/tables lists the routes that do).
      if (panel.current(mine)) renderMapUnit(panel.body, answer, url);
    });
  }

  setUpControls(ctx, choice, load);
  map.on("moveend", load);
  return {
    layer,
    load,
    kind: KIND,
    /** The survey layer's GET /v1/layers entry: from now on, classes are fixed from its places. */
    useEntry(layerEntry) {
      entry = layerEntry;
      entryRead();
    },
    /** Show or hide the layer (the layer list's checkbox). */
    setVisible(on) {
      if (visible === Boolean(on)) return Promise.resolve();
      visible = Boolean(on);
      return load();
    },
    visible: () => visible,
    /** From a place's whole box to a view where polygons are drawn: the first polygon the OGC collection lists in it. */
    async fitView(entry) {
      const box = viewBox(map);
      if (box[2] - box[0] <= MAP_UNITS.maxSideDegrees && box[3] - box[1] <= MAP_UNITS.maxSideDegrees) return;
      if (!entry.coverage || !entry.coverage.extent_url) return;
      const items = await getJson(entry.coverage.extent_url + "/items?" + "bbox=" + box.join(",") + "&limit=1").catch(() => null);
      const feature = items && Array.isArray(items.features) ? items.features[0] : null;
      if (!feature || !feature.geometry) return;
      const bounds = L.geoJSON(feature.geometry).getBounds();
      map.fitBounds(bounds, { animate: false, maxZoom: 16 });
      if (map.getBounds().getEast() - map.getBounds().getWest() > MAP_UNITS.maxSideDegrees) map.setView(bounds.getCenter(), 13, { animate: false });
    },
    /** Open the map unit drawn at `latlng`, if any; false when there is none (a point query then). */
    openAt(latlng) {
      const feature = layer.featureAt(latlng);
      if (feature) openMapUnit(feature, latlng);
      return Boolean(feature);
    },
  };
}

/** The soil-map controls: the "Go to the soil map" button and the property, method and depth choices. */
function setUpControls(ctx, choice, reload) {
  const go = $("go-soil-map");
  if (!go) return;
  go.textContent = "Go to the soil map: " + SOIL_MAP_VIEW.label;
  go.addEventListener("click", () => ctx.jump([SOIL_MAP_VIEW.lat, SOIL_MAP_VIEW.lon], SOIL_MAP_VIEW.zoom));

  const fill = (select, options, selected) => {
    select.textContent = "";
    for (const [value, label] of options) select.appendChild(el("option", { value, text: label }));
    select.value = selected;
  };
  const depthValue = (top, bottom) => top + "-" + bottom;
  fill($("mu-method"), CHOROPLETH.methods.map((m) => [m, methodName(m)]), choice.method);
  fill($("mu-depth"), CHOROPLETH.depths.map(([top, bottom]) => [depthValue(top, bottom), top + "–" + bottom + " cm"]), depthValue(choice.depthTopCm, choice.depthBottomCm));
  fill($("mu-property"), CHOROPLETH.properties.map((id) => [id, id]), choice.property);
  // Names as the catalog serves them, once it is loaded.
  ctx.catalog.then((catalog) => {
    for (const option of $("mu-property").options) option.textContent = catalog.property(option.value).name;
  });

  $("mu-property").addEventListener("change", (event) => {
    choice.property = event.target.value;
    reload();
  });
  $("mu-method").addEventListener("change", (event) => {
    choice.method = event.target.value;
    reload();
  });
  $("mu-depth").addEventListener("change", (event) => {
    const [top, bottom] = event.target.value.split("-").map(Number);
    choice.depthTopCm = top;
    choice.depthBottomCm = bottom;
    reload();
  });
}
