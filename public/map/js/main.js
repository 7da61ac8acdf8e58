// Loam map page: laboratory pedons for the current view, a pedon's layers and depth chart, the mapped
// soil survey at a clicked point (/v1/soil/location) and, when switched on, map-unit polygons
// (mapunits.js), sample sites, a modeled grid and sensor stations. This module wires the others together.
// Every layer is drawn from its GET /v1/layers entry (its endpoint, detail endpoint and extent), never
// from a path written here, so each provider's layer reads its own data (docs/decisions.md#map-layers);
// every provider of the sites and stations kinds is a layer of its own.
//
// Rules every module keeps:
// - Everything that comes from the API is written as text (textContent, createElement), never as HTML.
// - No request leaves Loam's origin: Leaflet, the TopoJSON outlines and topojson-client are served by
//   Loam itself; there is no tile server.
// - The page's Content-Security-Policy allows only 'self' for scripts, styles and connections: no inline
//   script, no style attribute in markup (Leaflet's own element styles are set through the CSSOM).
/* global L */
import { csvOf, describeError, detailOf, getJson, isAbort, urls, withParams } from "./api.js";
import { renderEvidence } from "./panels/evidence.js";
import { loadCatalog } from "./catalog.js";
import { CITY_ZOOM, DEFAULT_PROPERTY, MAPPED_POINT_ZOOM, PEDON_LIMIT, SYMBOL_ZOOM, UNMAPPED_POINT_ZOOM } from "./config.js";
import { $, el, formatNumber, round6 } from "./dom.js";
import { createPedonLayer, pedonBoxProblem } from "./layers/pedons.js";
import { createMap, openFirstView, pointOf, viewBox, writeHash } from "./map.js";
import { setUpMapUnits } from "./mapunits.js";
import { createPanel } from "./panels/panel.js";
import { pedonProperties, renderPedon } from "./panels/pedon.js";
import { locationProperties, renderLocation } from "./panels/location.js";
import { setNotes, setStatus, setWhere } from "./status.js";
import { loadLayers, setUpLayerList, setUpPlaces } from "./places.js";
import { setSearchPlaces, setSearchSources, setUpSearch } from "./search.js";
import { setUpMenu } from "./menu.js";
import { setUpGeochem } from "./geochem.js";
import { setUpAoi } from "./aoi.js";
import { setUpGrid } from "./grid.js";
import { setUpStations } from "./stations.js";
import { setUpInView } from "./inview.js";

/**
 * State for tests and the curious: the map, the layers, and what the last view request did. A layer's
 * module reports on `layers[key]` (its key: places.js) and, the first layer of its kind, on the state
 * itself (stationsState, geochemDrawn, …).
 */
const state = { map: null, pedonLayer: null, lastBbox: null, lastPedonCount: null, pedonState: "pending", basemapState: "loading", layers: {} };

/** The report(name, value) of a layer's module (see `state`). */
function reporter(entry) {
  const own = (state.layers[entry.key] = {});
  return (name, value) => {
    own[name] = value;
    if (entry.key === entry.kind) state[name] = value;
  };
}
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
  for (const layer of siteLayers.concat(stationLayers)) layer.deselect();
  if (aoi) aoi.clear();
  removePointMarker();
}

const menu = setUpMenu(() => state.measure());
// On a phone a detail and the drawer share the space under the map: a detail opening closes the drawer.
const panel = createPanel(map, beforeDetail, () => menu.close());

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
  // Measured now: the lines just cleared may have resized the map, and Leaflet keeps the size it read last.
  state.measure();
  // reset: a jump lands on exactly the view asked for, not on a whole-pixel pan from wherever the map was.
  map.setView(center, zoom, { animate: false, reset: true });
}
function jumpToBounds(bounds, options) {
  setWhere("");
  panel.close(false);
  beforeDetail();
  if (state.clearReadout) state.clearReadout();
  menu.close();
  state.measure();
  map.fitBounds(bounds, Object.assign({ animate: false, reset: true, maxZoom: 17 }, options || { padding: [24, 24] }));
}

let mapUnits = null;
/** The sites and stations layers, one per provider; the first of each (the role's default) is also `geochem`, `stations`: the search's. */
let siteLayers = [];
let stationLayers = [];
let geochem = null;
let aoi = null;
let grid = null;
let stations = null;
mapUnits = setUpMapUnits({ map, state, panel, catalog, property: () => chosenProperty, beforeDetail, jump });
aoi = setUpAoi({ map, state, panel, beforeDetail, choice: () => state.mapUnitChoice, onStart: () => menu.close() });

// ---- the layers GET /v1/layers declares, their list, the legend and the coverage list

/** A module per layer this page draws, by the layer's key (places.js; a kind without one stays dormant). */
const modules = {};
let layerList = null;

/** Zoom in about the centre until `fits(view)` (the pedon box limits). */
function zoomUntil(fits) {
  const center = map.getCenter();
  while (!fits(viewBox(map)) && map.getZoom() < map.getMaxZoom()) map.setView(center, map.getZoom() + 1, { animate: false });
}

/** A place of the coverage list: fly to its box, show its layer, and let the layer pick a view where it draws. */
async function goToPlace(place, bounds) {
  jumpToBounds(bounds, { padding: [24, 24] });
  layerList.show(place.entry.key);
  const module = modules[place.entry.key];
  if (module && module.fitView) await module.fitView(place.entry);
  setWhere("Showing " + place.label + ".");
}

state.layersState = "loading";
loadLayers().then((entries) => {
  state.layerEntries = entries;
  const firstOf = (kind) => entries.find((entry) => entry.key === kind) || null;
  // One pedon layer, one survey layer and one grid (their controls are the page's; the first provider of the kind).
  pedons.useEntry(firstOf("pedons"));
  if (firstOf("pedons")) modules.pedons = Object.assign(pedons, { fitView: () => zoomUntil((box) => pedonBoxProblem(box) === null) });
  // The view's export links are the pedon layer's endpoint: written now that it is known.
  updatePedonCsvLink();
  mapUnits.useEntry(firstOf("survey_polygons"));
  if (firstOf("survey_polygons")) modules.survey_polygons = mapUnits;
  const gridEntry = firstOf("grid");
  if (gridEntry) modules.grid = grid = setUpGrid({ map, state, catalog }, gridEntry);
  else $("grid-controls").hidden = true;
  // A sites or stations layer per provider, each drawing and opening its own.
  const named = (entry, one, many) => (n) => (n === 1 ? one : many) + (entry.key === entry.kind ? "" : " (" + entry.title + ")");
  siteLayers = entries.filter((entry) => entry.kind === "sites").map((entry) => (modules[entry.key] = setUpGeochem({ map, state, panel, catalog, beforeDetail, report: reporter(entry) }, entry)));
  geochem = siteLayers[0] || null;
  if (!geochem) $("geo-controls").hidden = true;
  stationLayers = entries.filter((entry) => entry.kind === "stations").map((entry) => (modules[entry.key] = setUpStations({ map, state, panel, catalog, beforeDetail, property: () => chosenProperty, report: reporter(entry) }, entry)));
  stations = stationLayers[0] || null;
  for (const layer of siteLayers) inView.add({ kind: layer.entry.key, label: named(layer.entry, "geochemistry site", "geochemistry sites"), visible: layer.visible, items: () => layer.items().map((item) => Object.assign(item, { open: () => layer.openSite(item.key, item.latlng) })) });
  for (const layer of stationLayers) inView.add({ kind: layer.entry.key, label: named(layer.entry, "sensor station", "sensor stations"), visible: layer.visible, items: () => layer.items().map((item) => Object.assign(item, { open: () => layer.openStation(item.key, item.latlng) })) });
  layerList = setUpLayerList(entries, modules);
  const coverage = setUpPlaces(map, state, layerList.entries, goToPlace, (bounds) => {
    // Room above for a layer's message, and beside for the places' names.
    jumpToBounds(bounds, { paddingTopLeft: [60, 150], paddingBottomRight: [220, 40] });
    setWhere("Showing every place with data in the conterminous US; pick one in the list or on the map (MH936 is in the Pacific).");
  }, (entry) => (modules[entry.key] && modules[entry.key].extent ? modules[entry.key].extent() : null));
  setSearchPlaces(coverage.places);
  setSearchSources({ stations: () => (stations ? stations.features() : null), pedons: firstOf("pedons"), sites: geochem ? geochem.entry : null });
  $("go-soil-map").addEventListener("click", () => layerList.show("survey_polygons"));
  state.layersState = "ready";
});

// ---- a pedon's panel

async function openPedon(key, focus) {
  pedons.highlight(key);
  removePointMarker();
  const marker = pedons.marker(key);
  const feature = marker ? marker.pedonFeature : null;
  const opening = { heading: "Pedon " + key, focus, latlng: marker ? marker.getLatLng() : null, loading: "Loading laboratory layers…", failure: "The pedon could not be loaded" };
  await panel.detail(opening, async (controller) => {
    const known = await catalog;
    const properties = pedonProperties(known);
    const entry = pedons.entry();
    const detail = await getJson(detailOf(entry.detail_endpoint, key, { properties: properties.length ? properties.join(",") : null }), controller.signal);
    if (!panel.current(controller)) return;
    renderPedon(panel.body, key, detail, feature, known, { property: chosenProperty, onChange: (id) => (chosenProperty = id) }, entry);
  });
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
  const opening = {
    heading: "Mapped soil survey at " + formatNumber(lat) + ", " + formatNumber(lon),
    focus,
    latlng: L.latLng(lat, lon),
    loading: "Looking up the mapped soil survey at this point…",
    failure: "The mapped survey could not be loaded",
  };
  await panel.detail(opening, async (controller) => {
    const known = await catalog;
    const params = { latitude: lat, longitude: lon, properties: locationProperties(known).join(",") };
    const answer = await getJson(urls.location(params), controller.signal);
    if (!panel.current(controller)) return;
    if (typed) {
      map.setView([lat, lon], Array.isArray(answer.map_units) && answer.map_units.length ? MAPPED_POINT_ZOOM : UNMAPPED_POINT_ZOOM, { animate: false });
      panel.reveal(L.latLng(lat, lon));
    }
    renderLocation(panel.body, lat, lon, answer, params, known);
    if (grid) await addModeled(lat, lon, answer, controller);
    if (!panel.current(controller)) return;
    await addEvidence(lat, lon, params.properties, controller);
    if (!panel.current(controller)) return;
    for (const layer of siteLayers) layer.nearest(panel.body, lat, lon, controller.signal);
  });
}

/**
 * The point panel's evidence view: every source's evidence at the point side by side and the comparison on
 * the GlobalSoilMap depths (GET /v1/soil/evidence, docs/map.md), after the survey's own detail. A failure
 * is said in its place; the rest of the panel stands.
 */
async function addEvidence(lat, lon, properties, controller) {
  const params = { latitude: lat, longitude: lon, properties };
  try {
    const answer = await getJson(urls.evidence(params), controller.signal);
    if (panel.current(controller)) panel.body.appendChild(renderEvidence(answer, params));
  } catch (error) {
    if (isAbort(error) || !panel.current(controller)) return;
    panel.body.appendChild(el("p", { class: "panel-message panel-error", text: "The evidence of every source could not be loaded: " + describeError(error) }));
  }
}

/**
 * Inside the modeled grid, a point's panel holds two parts, each labelled with its data kind: the modeled
 * values and the mapped survey's; the modeled part leads where the survey has no map unit (docs/map.md).
 */
async function addModeled(lat, lon, answer, controller) {
  const modeled = await grid.pointSection(lat, lon, controller.signal);
  if (!modeled || !panel.current(controller)) return;
  const body = panel.body;
  const survey = el("section", { class: "panel-section survey-part", "data-kind": "mapped_survey" }, [el("h3", { text: "Mapped survey: map-unit polygons (data kind: mapped survey; no cell size)" })]);
  while (body.firstChild) survey.appendChild(body.firstChild);
  const mapped = Array.isArray(answer.map_units) && answer.map_units.length > 0;
  body.appendChild(mapped ? survey : modeled);
  body.appendChild(mapped ? modeled : survey);
  $("panel-title").textContent = "Soil at " + formatNumber(lat) + ", " + formatNumber(lon) + ": modeled and mapped survey";
}

/** A click on a drawn map-unit polygon opens that map unit; anywhere else, the survey at the point. */
function openAt(latlng, focus) {
  if (aoi.active()) return aoi.click(latlng);
  if (mapUnits.openAt(latlng)) return;
  const p = pointOf(latlng);
  queryPoint(p.lat, p.lon, focus);
}
map.on("click", (event) => openAt(event.latlng, false));

// The keyboard's way to every symbol on screen, and to what lies under the map's centre.
const inView = setUpInView(map, state, (centre) => openAt(centre, true));
inView.add({ kind: "pedons", label: (n) => (n === 1 ? "lab pedon" : "lab pedons"), visible: pedons.visible, items: () => pedons.items().map((item) => Object.assign(item, { open: () => openPedon(item.key, true) })) });

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

/** A found symbol: its layer shown, the map there (close enough to see it alone), its panel open. */
function goToSymbol(kind, lat, lon, open) {
  jump([lat, lon], Math.max(map.getZoom(), SYMBOL_ZOOM));
  if (layerList) layerList.show(kind);
  return open(L.latLng(lat, lon));
}

setUpSearch(state, {
  point: (found) => goToPoint(found.lat, found.lon, false),
  place: (found) => found.place.box.then((box) => box && goToPlace(found.place, L.latLngBounds([box[1], box[0]], [box[3], box[2]]))),
  station: (found) => goToSymbol("stations", found.lat, found.lon, (latlng) => stations && stations.openStation(found.triplet, latlng)),
  pedon: (found) => goToSymbol("pedons", found.lat, found.lon, () => openPedon(found.key, false)),
  site: (found) => goToSymbol("sites", found.lat, found.lon, (latlng) => geochem && geochem.openSite(found.id, latlng)),
  series: (found) => showSeries(found.name, found.answer, found.counties),
  area: (found, offer) => {
    jumpToBounds(found.bounds);
    setWhere("Showing " + found.name + ".", "info", offer);
  },
  city: (found, offer) => {
    jump([found.lat, found.lon], CITY_ZOOM);
    setWhere("Showing " + found.name + " (GeoNames)." + (found.others ? " " + (found.others === 1 ? "One other place has" : found.others + " other places have") + " the name: add the state to choose." : ""), "info", offer);
  },
});

/** A series is a concept, not a place: its panel says what it is and links to its description; a county of the same name is offered beside it. */
function showSeries(name, answer, counties) {
  const series = answer.series || {};
  panel.open("Soil series " + String(series.name || name), false, null);
  const body = panel.body;
  body.textContent = "";
  body.appendChild(el("div", { class: "panel-lead", id: "panel-lead" }, [
    el("p", { class: "lead-property", text: String(series.name || name) + ": a soil series (" + String(series.status || "series") + ")" }),
    series.taxonomic_class ? el("p", { class: "lead-value-text", text: String(series.taxonomic_class) }) : null,
    Array.isArray(series.states) && series.states.length ? el("p", { class: "lead-method", text: "States: " + series.states.join(", ") }) : null,
    el("p", { class: "lead-caveat", text: "A series describes the central concept of a soil (a typical pedon), not a measurement at a place." }),
  ]));
  body.appendChild(el("p", null, [el("a", { href: urls.seriesPage(name), id: "series-link", text: "Open the " + String(series.name || name) + " series description" })]));
  for (const county of counties || []) {
    const button = el("button", { type: "button", class: "place-button series-county", text: "Show " + county.name + " County, " + county.state + " on the map" });
    button.addEventListener("click", () => {
      jumpToBounds(county.bounds);
      setWhere("Showing " + county.name + " County, " + county.state + ".");
    });
    body.appendChild(el("p", null, [button]));
  }
}

/** The pedons in view as the API answers them (GeoJSON, and CSV with format=csv), offered when the view is within the pedon box limits. */
function updatePedonCsvLink() {
  const link = $("pedons-csv");
  const geojson = $("pedons-geojson");
  const box = viewBox(map);
  const entry = pedons.entry();
  link.hidden = geojson.hidden = !entry || pedonBoxProblem(box) !== null;
  if (!entry) return;
  const url = withParams(entry.endpoint, { bbox: box.join(","), limit: PEDON_LIMIT });
  geojson.setAttribute("href", url);
  link.setAttribute("href", csvOf(url));
}

// The user moving the map makes "Showing …" stale (jumps set it after their own move).
map.on("dragstart", () => setWhere(""));
map.getContainer().addEventListener("wheel", () => setWhere(""), { passive: true });

map.on("moveend", () => {
  pedons.scheduleLoad();
  updatePedonCsvLink();
  writeHash(map);
});

openFirstView(map, (box) => pedonBoxProblem(box) === null);
