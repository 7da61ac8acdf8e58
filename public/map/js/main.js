// Loam map page: laboratory pedons for the current view (/v1/pedons), a pedon's layers and depth
// chart (/v1/pedons/{key}), the mapped soil survey at a clicked point (/v1/soil/location) and, when
// switched on, map-unit polygons (mapunits.js). This module wires the others together.
//
// Rules every module keeps:
// - Everything that comes from the API is written as text (textContent, createElement), never as HTML.
// - No request leaves Loam's origin: Leaflet, the TopoJSON outlines and topojson-client are served by
//   Loam itself; there is no tile server.
// - The page's Content-Security-Policy allows only 'self' for scripts, styles and connections: no inline
//   script, no style attribute in markup (Leaflet's own element styles are set through the CSSOM).
/* global L */
import { csvOf, describeError, getJson, isAbort, urls } from "./api.js";
import { loadCatalog } from "./catalog.js";
import { DEFAULT_PROPERTY, GEOCHEM, MAPPED_POINT_ZOOM, PEDON_LIMIT, UNMAPPED_POINT_ZOOM } from "./config.js";
import { $, el, formatNumber, round6 } from "./dom.js";
import { createPedonLayer, pedonBoxProblem } from "./layers/pedons.js";
import { createMap, openFirstView, pointOf, viewBox, writeHash } from "./map.js";
import { setUpMapUnits } from "./mapunits.js";
import { createPanel } from "./panels/panel.js";
import { pedonProperties, renderPedon } from "./panels/pedon.js";
import { locationProperties, renderLocation } from "./panels/location.js";
import { setNotes, setStatus, setWhere } from "./status.js";
import { placeView, setUpPlaces } from "./places.js";
import { setUpSearch } from "./search.js";
import { setUpMenu } from "./menu.js";
import { setUpGeochem } from "./geochem.js";
import { setUpAoi } from "./aoi.js";

/** State for tests and the curious: the map, the layers, and what the last view request did. */
const state = { map: null, pedonLayer: null, lastBbox: null, lastPedonCount: null, pedonState: "pending", basemapState: "loading" };
window.loam = state;

const map = createMap(state);
window.loamMap = map;
state.map = map;

const catalog = loadCatalog().then((loaded) => {
  setNotes("catalog", loaded.problems);
  return loaded;
});

/** The property the depth chart (and the map-unit choropleth) shows; the user's last pick. */
let chosenProperty = DEFAULT_PROPERTY;

const pedons = createPedonLayer(map, state, openPedon);
state.pedonLayer = pedons.layer;

let pointMarker = null;
function removePointMarker() {
  if (pointMarker) pointMarker.remove();
  pointMarker = null;
}
/** Before a new detail opens (or the panel closes): no pedon selected, no map unit outlined, no point marker. */
function beforeDetail() {
  pedons.highlight(null);
  if (mapUnits) mapUnits.layer.select(null);
  if (geochem) geochem.deselect();
  if (aoi) aoi.clear();
  removePointMarker();
}

const panel = createPanel(map, beforeDetail);
const menu = setUpMenu(map);

/**
 * Go somewhere else: the detail of the place left behind (panel, marker, selection, readout) is stale,
 * so it is closed first; the phone's menu closes too.
 */
function jump(center, zoom) {
  setWhere("");
  panel.close(false);
  beforeDetail();
  if (state.clearReadout) state.clearReadout();
  menu.close();
  map.setView(center, zoom, { animate: false });
}
function jumpToBounds(bounds, padding) {
  setWhere("");
  panel.close(false);
  beforeDetail();
  if (state.clearReadout) state.clearReadout();
  menu.close();
  map.fitBounds(bounds, Object.assign({ animate: false }, padding || { padding: [24, 24] }));
}

let mapUnits = null;
let geochem = null;
let aoi = null;
mapUnits = setUpMapUnits({ map, state, panel, catalog, property: () => chosenProperty, beforeDetail, jump });
geochem = setUpGeochem({ map, state, panel, catalog, beforeDetail });
aoi = setUpAoi({ map, state, panel, beforeDetail, choice: () => state.mapUnitChoice, onStart: () => menu.close() });

setUpPlaces(
  map,
  state,
  (place) => {
    const view = placeView(place);
    jump(view.center, view.zoom);
    setWhere("Showing " + place.label + ": " + place.detail + ".");
  },
  (bounds) => {
    // Room above for the zoom-in message, and beside for the places' names.
    jumpToBounds(bounds, { paddingTopLeft: [60, 150], paddingBottomRight: [220, 40] });
    setWhere("Showing every place with data in the conterminous US; pick one in the list or on the map (MH936 is in the Pacific).");
  },
);

// ---- a pedon's panel

async function openPedon(key, focus) {
  pedons.highlight(key);
  removePointMarker();
  const marker = pedons.marker(key);
  panel.open("Pedon " + key, focus, marker ? marker.getLatLng() : null);
  panel.message("Loading laboratory layers…", "busy");
  const controller = panel.start();
  const feature = marker ? marker.pedonFeature : null;
  try {
    const known = await catalog;
    const detail = await getJson(urls.pedon(key, pedonProperties(known)), controller.signal);
    if (!panel.current(controller)) return;
    renderPedon(panel.body, key, detail, feature, known, { property: chosenProperty, onChange: (id) => (chosenProperty = id) });
  } catch (error) {
    if (isAbort(error) || !panel.current(controller)) return;
    panel.message("The pedon could not be loaded: " + describeError(error), "error");
  }
}

// ---- the mapped survey at a point

/**
 * The survey at a point. `typed`: the point was typed (search, form), so the view is chosen by the answer:
 * close enough to see its map-unit polygons where there is a map unit, wide enough to see where it lies
 * (state and county names) where there is none.
 */
async function queryPoint(lat, lon, focus, typed) {
  beforeDetail();
  pointMarker = L.marker([lat, lon], { keyboard: false, interactive: false, alt: "Queried point", title: "Queried point" }).addTo(map);
  panel.open("Mapped soil survey at " + formatNumber(lat) + ", " + formatNumber(lon), focus, L.latLng(lat, lon));
  panel.message("Looking up the mapped soil survey at this point…", "busy");
  const controller = panel.start();
  try {
    const known = await catalog;
    const params = { latitude: lat, longitude: lon, properties: locationProperties(known).join(",") };
    const answer = await getJson(urls.location(params), controller.signal);
    if (!panel.current(controller)) return;
    if (typed) {
      map.setView([lat, lon], Array.isArray(answer.map_units) && answer.map_units.length ? MAPPED_POINT_ZOOM : UNMAPPED_POINT_ZOOM, { animate: false });
      panel.reveal(L.latLng(lat, lon));
    }
    renderLocation(panel.body, lat, lon, answer, params, known);
    geochem.nearest(panel.body, lat, lon, controller.signal);
  } catch (error) {
    if (isAbort(error) || !panel.current(controller)) return;
    panel.message("The mapped survey could not be loaded: " + describeError(error), "error");
  }
}

// A click on a drawn map-unit polygon opens that map unit; anywhere else, the survey at the point.
map.on("click", (event) => {
  if (aoi.active()) return aoi.click(event.latlng);
  if (mapUnits.openAt(event.latlng)) return;
  const p = pointOf(event.latlng);
  queryPoint(p.lat, p.lon, false);
});

/**
 * A typed point: the map moves there (zoomed in far enough to see map units, not so far that a point
 * with no data shows nothing around it) and the panel answers for it.
 */
function goToPoint(lat, lon, focus) {
  jump([lat, lon], Math.min(Math.max(map.getZoom(), 10), MAPPED_POINT_ZOOM));
  queryPoint(round6(lat), round6(lon), focus, true);
}

$("point-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const lat = Number($("point-lat").value), lon = Number($("point-lon").value);
  if (!isFinite(lat) || !isFinite(lon) || lat < -90 || lat > 90 || lon < -180 || lon > 180) {
    setStatus("Enter a latitude from -90 to 90 and a longitude from -180 to 180.", "error");
    return;
  }
  goToPoint(lat, lon, true);
});

setUpSearch(state, {
  point: (lat, lon) => goToPoint(lat, lon, false),
  place: (place) => {
    const view = placeView(place);
    jump(view.center, view.zoom);
    setWhere("Showing " + place.label + ": " + place.detail + ".");
  },
  area: (name, bounds) => {
    jumpToBounds(bounds);
    setWhere("Showing " + name + ".");
  },
});

/** The pedons in view as the API answers them (GeoJSON, and CSV with format=csv), offered when the view is within the pedon box limits. */
function updatePedonCsvLink() {
  const link = $("pedons-csv");
  const geojson = $("pedons-geojson");
  const box = viewBox(map);
  link.hidden = geojson.hidden = pedonBoxProblem(box) !== null;
  const url = urls.pedons(box, PEDON_LIMIT);
  geojson.setAttribute("href", url);
  link.setAttribute("href", csvOf(url));
}

// The geochemistry layer is reachable from the first view: an entry of the places list, when served.
geochem.available.then((served) => {
  if (!served) return;
  const button = el("button", { type: "button", class: "place-button place-geochem", "data-place": "geochem", title: "USGS soil geochemistry, 0–5 cm, one site per about 1,600 km²" }, [GEOCHEM.view.label]);
  button.addEventListener("click", () => {
    jump([GEOCHEM.view.lat, GEOCHEM.view.lon], GEOCHEM.view.zoom);
    geochem.show();
    setWhere("Showing the geochemistry sites around Iowa, coloured by the element chosen in the menu.");
  });
  $("places-list").appendChild(el("li", null, [button]));
});

// The user moving the map makes "Showing …" stale (jumps set it after their own move).
map.on("dragstart", () => setWhere(""));
map.getContainer().addEventListener("wheel", () => setWhere(""), { passive: true });

map.on("moveend", () => {
  pedons.scheduleLoad();
  updatePedonCsvLink();
  writeHash(map);
});

openFirstView(map, (box) => pedonBoxProblem(box) === null);
