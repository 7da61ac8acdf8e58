// The Leaflet map and its offline basemap: country, US state and county outlines drawn from TopoJSON
// served by Loam (there is no tile server), the legend, the cursor coordinates and the view in the URL.
// The one legend of the map (docs/map.md): a line per shown layer, with the layer's own symbol and what
// it is (from GET /v1/layers), the colour classes of a coloured layer under its line, then the basemap's
// lines. Layers write their part with `legendSection(key, node)` (the layer's key, places.js); nothing else adds a legend to the map.
// Leaflet (L) and topojson-client (topojson) are classic scripts loaded before the modules.
/* global L, topojson */
import { describeError } from "./api.js";
import { COUNTY_MIN_ZOOM, FIRST_VIEW } from "./config.js";
import { COUNTIES_URL, loadTopology, STATES_URL, US_PLACES_CREDIT } from "./gazetteer.js";
import { addPlaceLabels } from "./labels.js";
import { clamp, el, round6 } from "./dom.js";
import { addNote } from "./status.js";

/** Panes, bottom to top: land fill, county lines, map units, state and country lines, pedons. */
const PANES = [["land", "230"], ["counties", "240"], ["mapunits", "245"], ["borders", "250"], ["pedons", "450"]];


export function createMap(state) {
  const map = L.map("map", {
    preferCanvas: true,
    minZoom: 2,
    maxZoom: 18,
    maxBounds: L.latLngBounds([-90, -180], [90, 180]),
    maxBoundsViscosity: 1,
    worldCopyJump: false,
    keyboard: true,
  });
  // Leaflet sets each pane's z-index through the CSSOM, which the CSP permits.
  for (const [name, zIndex] of PANES) map.createPane(name).style.zIndex = zIndex;
  const renderers = {
    land: L.canvas({ pane: "land", padding: 0.3 }),
    counties: L.canvas({ pane: "counties", padding: 0.3 }),
    borders: L.canvas({ pane: "borders", padding: 0.3 }),
  };

  map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
  map.attributionControl.addAttribution("Outlines: Natural Earth, US Census Bureau; " + US_PLACES_CREDIT);
  L.control.scale({ position: "bottomright", imperial: false }).addTo(map);

  const outline = (geometry, pane, style) => L.geoJSON(unwrapAntimeridian(geometry), { renderer: renderers[pane], pane, interactive: false, style: () => style });
  drawBasemap(map, outline, state);
  addLegend(map);
  addCursorCoordinates(map, state);
  addPlaceLabels(map, state);
  keepMeasured(map, state);
  return map;
}

/**
 * The map re-measures itself on every change of its box (a panel, the phone's drawer, the window, the
 * layout's first pass): Leaflet keeps the size it read last, so without this "in view" would be a box
 * partly off screen (docs/decisions.md#map-measured). The legend's height limit follows the map's.
 */
function keepMeasured(map, state) {
  const container = map.getContainer();
  // The centre stays where it was (a line of status appearing above the map must not move what was found).
  const measure = () => {
    map.invalidateSize({ pan: true, animate: false });
    container.style.setProperty("--map-height", container.clientHeight + "px");
    state.mapSize = { width: container.clientWidth, height: container.clientHeight };
  };
  new ResizeObserver(measure).observe(container);
  measure();
  // For a change of layout made by the page itself (the drawer): measured at once, before the next event
  // reads the map, not only when the observer reports.
  state.measure = measure;
}

/**
 * Rings that cross 180° (Fiji, Chukotka, Antarctica's edge) jump from +179 to -179 between two points; drawn
 * on a flat map that is a line across the world. Each longitude is moved by whole turns to stay within 180°
 * of the point before it, so such a ring runs on past 180° instead.
 */
export function unwrapAntimeridian(geojson) {
  const line = (points) => {
    const moved = [];
    for (const [lon, lat] of points) {
      const before = moved.length ? moved[moved.length - 1][0] : lon;
      moved.push([lon + 360 * Math.round((before - lon) / 360), lat]);
    }
    return moved;
  };
  const geometry = (g) => {
    if (!g) return g;
    if (g.type === "LineString") return Object.assign({}, g, { coordinates: line(g.coordinates) });
    if (g.type === "MultiLineString" || g.type === "Polygon") return Object.assign({}, g, { coordinates: g.coordinates.map(line) });
    if (g.type === "MultiPolygon") return Object.assign({}, g, { coordinates: g.coordinates.map((rings) => rings.map(line)) });
    if (g.type === "GeometryCollection") return Object.assign({}, g, { geometries: g.geometries.map(geometry) });
    return g;
  };
  if (geojson.type === "FeatureCollection") return Object.assign({}, geojson, { features: geojson.features.map((f) => Object.assign({}, f, { geometry: geometry(f.geometry) })) });
  if (geojson.type === "Feature") return Object.assign({}, geojson, { geometry: geometry(geojson.geometry) });
  return geometry(geojson);
}

function drawBasemap(map, outline, state) {
  const landLayer = L.layerGroup().addTo(map);
  const countryBorders = L.layerGroup().addTo(map);
  const stateBorders = L.layerGroup().addTo(map);
  const countyBorders = L.layerGroup();
  let problems = 0;
  const failed = (what) => (error) => {
    problems++;
    addNote("basemap", what + " could not be loaded (" + describeError(error) + ").");
  };
  const different = (a, b) => a !== b;

  // Fetched in parallel, drawn in order: the opaque land fill first, borders over it.
  const worldLoad = loadTopology("/map/data/countries-50m.json");
  const statesLoad = loadTopology(STATES_URL);
  worldLoad
    .then((world) => {
      outline(topojson.feature(world, world.objects.land), "land", { stroke: true, color: "#6f6558", weight: 0.8, fill: true, fillColor: "#f3eee4", fillOpacity: 1 }).addTo(landLayer);
      outline(topojson.mesh(world, world.objects.countries, different), "borders", { color: "#6f6558", weight: 1.2, fill: false }).addTo(countryBorders);
    })
    .catch(failed("Country outlines"))
    .then(() => statesLoad)
    .then((us) => {
      outline(topojson.mesh(us, us.objects.states, different), "borders", { color: "#8c7f70", weight: 1, fill: false, dashArray: "4 3" }).addTo(stateBorders);
    })
    .catch(failed("US state outlines"))
    .then(() => {
      state.basemapState = problems ? "incomplete" : "ready";
    });

  // County lines (us-atlas, ~240 kB compressed) orient the eye in the lab coverage; they are fetched the
  // first time the view is zoomed in far enough, and drawn only from COUNTY_MIN_ZOOM on.
  let countyLines = null;
  let countiesLoading = null;
  const sameState = (a, b) => a !== b && ((a.id / 1000) | 0) === ((b.id / 1000) | 0);
  function updateCounties() {
    if (!map.hasLayer(countyBorders) || map.getZoom() < COUNTY_MIN_ZOOM) {
      if (countyLines) countyBorders.removeLayer(countyLines);
      return;
    }
    if (countyLines) {
      countyBorders.addLayer(countyLines);
      return;
    }
    if (countiesLoading) return;
    countiesLoading = loadTopology(COUNTIES_URL)
      .then((us) => {
        countyLines = outline(topojson.mesh(us, us.objects.counties, sameState), "counties", { color: "#b9ad9c", weight: 0.7, fill: false });
        updateCounties();
        state.countiesState = "ready";
      })
      .catch((error) => {
        countiesLoading = null;
        failed("US county outlines")(error);
      });
  }
  countyBorders.addTo(map);
  map.on("zoomend overlayadd overlayremove", updateCounties);
  map.whenReady(updateCounties);

  L.control
    .layers(null, { "Country borders": countryBorders, "US state borders": stateBorders, "US county borders (zoom 6+)": countyBorders }, { position: "topright", collapsed: true })
    .addTo(map);
}

/** The coordinates under the mouse; only where a pointer can hover (never on a touch screen). */
function addCursorCoordinates(map, state) {
  const node = el("div", { class: "cursor-coordinates", "aria-hidden": "true", text: "" });
  state.clearReadout = () => (node.textContent = "");
  if (!window.matchMedia("(hover: hover) and (pointer: fine)").matches) {
    state.hoverReadout = false;
    return;
  }
  state.hoverReadout = true;
  const Coordinates = L.Control.extend({ options: { position: "bottomright" }, onAdd: () => node });
  new Coordinates().addTo(map);
  map.on("mousemove", (event) => {
    const p = event.latlng.wrap();
    node.textContent = p.lat.toFixed(5) + ", " + p.lng.toFixed(5);
  });
  map.on("mouseout movestart", () => {
    node.textContent = "";
  });
}

/** The visible box as the API wants it: [w, s, e, n], clamped to valid ranges, 6 decimals. */
export function viewBox(map) {
  const b = map.getBounds();
  return [round6(clamp(b.getWest(), -180, 180)), round6(clamp(b.getSouth(), -90, 90)), round6(clamp(b.getEast(), -180, 180)), round6(clamp(b.getNorth(), -90, 90))];
}

/** A box with no width or height: the map not laid out yet (no request is sent for it; the re-measure brings a real one). */
export const emptyBox = (box) => !(box[0] < box[2] && box[1] < box[3]);

/** A clicked point as the API wants it: wrapped, clamped, 6 decimals. */
export function pointOf(latlng) {
  const p = latlng.wrap();
  return { lat: round6(clamp(p.lat, -90, 90)), lon: round6(clamp(p.lng, -180, 180)) };
}

// ---- the view in the URL (#zoom/lat/lon)

function readHash() {
  const m = /^#(\d{1,2})\/(-?\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)$/.exec(window.location.hash);
  if (!m) return null;
  const zoom = Number(m[1]), lat = Number(m[2]), lon = Number(m[3]);
  if (zoom < 2 || zoom > 18 || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return { zoom, center: [lat, lon] };
}

export function writeHash(map) {
  const c = map.getCenter();
  const hash = "#" + map.getZoom() + "/" + c.lat.toFixed(5) + "/" + c.lng.toFixed(5);
  if (window.location.hash !== hash) window.history.replaceState(null, "", hash);
}

/**
 * The view the URL names, or else FIRST_VIEW, zoomed in (if the window is large) until `fits(box)`
 * holds, so that the first screen shows data instead of a "zoom in" message.
 */
export function openFirstView(map, fits) {
  const start = readHash();
  if (start) {
    map.setView(start.center, start.zoom);
    return;
  }
  const bounds = L.latLngBounds([FIRST_VIEW.south, FIRST_VIEW.west], [FIRST_VIEW.north, FIRST_VIEW.east]);
  const center = bounds.getCenter();
  let zoom = map.getBoundsZoom(bounds, false, L.point(48, 48));
  map.setView(center, zoom, { animate: false });
  while (!fits(viewBox(map)) && zoom < map.getMaxZoom()) map.setView(center, ++zoom, { animate: false });
}

// ---- the legend

const BASE_ROWS = [
  ["legend-pin", "Queried point (mapped survey at a point)"],
  ["legend-line legend-state", "US state border"],
  ["legend-line legend-county", "US county border (zoom 6+)"],
  ["legend-line legend-country", "Country border / coast"],
  ["legend-place", "Place with data in this snapshot (zoomed out)"],
];

/** The symbol of a layer kind, as the legend, the layer list and the coverage list draw it. */
export const symbolOf = (kind) => el("span", { class: "sym sym-" + kind, "aria-hidden": "true" });

let layersNode = null;
const rows = new Map();
const sections = new Map();

export function addLegend(map) {
  const Legend = L.Control.extend({
    options: { position: "bottomleft" },
    onAdd() {
      const box = el("details", { class: "legend", id: "legend", role: "group", "aria-label": "Legend" });
      // Closed until asked for: open, it would cover part of the map (docs/map.md).
      box.open = false;
      box.appendChild(el("summary", { class: "legend-title", text: "Legend" }));
      layersNode = el("div", { class: "legend-layers" });
      box.appendChild(layersNode);
      const base = el("div", { class: "legend-base" });
      for (const [className, label] of BASE_ROWS) base.appendChild(el("div", { class: "legend-row" }, [el("span", { class: className, "aria-hidden": "true" }), el("span", { text: label })]));
      box.appendChild(base);
      L.DomEvent.disableClickPropagation(box);
      L.DomEvent.disableScrollPropagation(box);
      return box;
    },
  });
  new Legend().addTo(map);
}

/**
 * A layer's line: shown while the layer is. entry: a GET /v1/layers entry; `extra` names what the
 * symbol means beyond the layer (e.g. "selected pedon").
 */
export function legendLayer(entry, shown) {
  if (!layersNode) return;
  let row = rows.get(entry.key);
  if (!row) {
    row = el("div", { class: "legend-layer", "data-kind": entry.kind }, [
      el("div", { class: "legend-row" }, [symbolOf(entry.kind), el("span", { class: "legend-layer-name", text: entry.label + " (" + entry.data_kind.replace(/_/g, " ") + ")" })]),
      el("div", { class: "legend-layer-source", text: entry.title }),
    ]);
    rows.set(entry.key, row);
    layersNode.appendChild(row);
    const section = sections.get(entry.key);
    if (section) row.appendChild(section);
  }
  row.hidden = !shown;
}

/** A layer's colour classes (or any detail of its symbols) under its line (`key`: the layer's, places.js); null removes them. */
export function legendSection(key, node) {
  const old = sections.get(key);
  if (old) old.remove();
  if (node) sections.set(key, node);
  else sections.delete(key);
  const row = rows.get(key);
  if (row && node) row.appendChild(node);
}
