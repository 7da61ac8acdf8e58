// The layers GET /v1/layers declares (docs/map.md): the layer list and the coverage list.
//
// The layer list: one checkbox per layer this page has a module for (main.js `modules`), with the layer's
// symbol, its name and its own status line. A layer is a provider's (an entry of GET /v1/layers): two
// providers of one kind are two layers, each named with its provider's title and keyed by `key` (the
// kind for the first of its kind, so the default's ids stay; else kind and provider id). A layer switched on becomes the active one (the status line
// and the zoom-in message are the active layer's); a declared kind without a module stays dormant. The
// legend's lines follow the checkboxes.
//
// The coverage list, what the snapshot covers and where to go: a short list built from GET /v1/layers, one
// entry per place a layer declares (each survey area, the lab pedons' collection) or, for a layer that
// names no place, one entry for its whole extent (computed from the data by the OGC collection it
// names). A click flies there and shows that layer. Zoomed out below PLACE_MAX_ZOOM, the places are also
// drawn as labelled outlines, so the first screen says where the data is.
/* global L */
import { describeError, getJson, urls } from "./api.js";
import { LAYERS_SHOWN_FIRST, PLACE_MAX_ZOOM } from "./config.js";
import { $, asArray, el } from "./dom.js";
import { legendLayer, symbolOf } from "./map.js";
import { activeOwner, addNote, setActive, statusRow } from "./status.js";

const boundsOf = (box) => L.latLngBounds([box[1], box[0]], [box[3], box[2]]);

/** A dataset label without its version parenthesis: "SSURGO IA073 Greene County, Iowa (survey version 26, …)" → "SSURGO IA073 Greene County, Iowa". */
export const shortLabel = (label) => String(label).replace(/\s*\((?=[^)]*(?:[;,]|\d{4}-\d{2}))[^)]*\)\s*$/, "");
/** The first clause of a coverage statement: "Conterminous United States: 4,857 sites…" → "Conterminous United States"; "About 200 automated stations in most US states, Puerto Rico…" → its words before the comma. */
const firstClause = (text) => String(text).split(/[:.;(,]/)[0].trim();

/** The extent an OGC collection computes from its data ([w, s, e, n]), or null. */
async function collectionExtent(url) {
  try {
    const collection = await getJson(url);
    const box = collection && collection.extent && collection.extent.spatial && collection.extent.spatial.bbox && collection.extent.spatial.bbox[0];
    return Array.isArray(box) && box.length === 4 && box.every((x) => typeof x === "number") ? box : null;
  } catch {
    return null;
  }
}

/** The places of the layers: [{id, kind, label, detail, box (promise of [w,s,e,n] or null), entry}]. */
export function placesOf(entries, extentOf) {
  const places = [];
  for (const entry of entries) {
    const coverage = entry.coverage || {};
    const declared = Array.isArray(coverage.places) ? coverage.places : [];
    // A box the document states, else the OGC collection's, else the one the layer's module reads from its own data (the grid's cells, the stations).
    const fromModule = () => Promise.resolve(extentOf ? extentOf(entry) : null).catch(() => null);
    const extent = coverage.extent_url ? collectionExtent(coverage.extent_url) : coverage.extent ? Promise.resolve(coverage.extent) : fromModule();
    for (const place of declared) {
      places.push({ id: place.id, kind: entry.kind, label: shortLabel(place.label), detail: place.label, box: place.bbox ? Promise.resolve(place.bbox) : extent, known: place.bbox || null, entry });
    }
    if (declared.length === 0) places.push({ id: entry.key, kind: entry.kind, label: entry.label + ": " + firstClause(coverage.description || entry.title), detail: entry.title + ". " + (coverage.description || ""), box: extent, entry });
  }
  return places;
}

/**
 * The coverage list and the places' outlines. onJump(place, bounds) is called when the user picks one;
 * onOverview(bounds) shows every place of the conterminous US at once; extentOf(entry) is the box (or a
 * promise of it) a layer's module reads from its data when the document states none.
 * Returns {places, ready}: ready resolves when every place's box is known.
 */
export function setUpPlaces(map, state, entries, onJump, onOverview, extentOf) {
  const list = $("places-list");
  list.textContent = "";
  const places = placesOf(entries, extentOf);
  state.places = places.map((p) => ({ id: p.id, kind: p.kind, label: p.label }));
  map.createPane("places").style.zIndex = "460";
  const renderer = L.svg({ pane: "places" });
  const layer = L.layerGroup();
  // Every place of the conterminous US at once, outlined and named (MH936 is in the Pacific).
  const overview = el("button", { type: "button", class: "place-button place-overview", "data-place": "overview", title: "Every place of the conterminous US on one map, each outlined and named", disabled: true }, ["All places (overview)"]);
  list.appendChild(el("li", null, [overview]));
  const ready = Promise.all(
    places.map(async (place) => {
      const button = el("button", { type: "button", class: "place-button place-" + place.kind, "data-place": place.id, "data-kind": place.kind, title: place.detail, disabled: true }, [symbolOf(place.kind), el("span", { text: place.label })]);
      list.appendChild(el("li", null, [button]));
      const box = await place.box;
      if (!box) {
        button.title = place.detail + " (its extent is not known here)";
        return;
      }
      const bounds = boundsOf(box);
      button.disabled = false;
      button.addEventListener("click", () => onJump(place, bounds));
      // Outlines of places smaller than a continent (the whole-country layers need none); a labelled dot marks tiny areas.
      if (box[2] - box[0] > 40) return;
      layer.addLayer(L.rectangle(bounds, { pane: "places", renderer, className: "place-outline place-outline-" + place.kind, weight: 2, fill: true, fillOpacity: 0.12, interactive: false }));
      const dot = L.circleMarker(bounds.getCenter(), { pane: "places", renderer, radius: 7, className: "place-dot place-dot-" + place.kind, weight: 2, fillOpacity: 0.9 });
      // Two places close together (IA073 and IA015): the western one's name goes on its left.
      const side = places.some((other) => other !== place && other.known && other.known[0] > box[0] && other.known[0] - box[0] < 2 && Math.abs(other.known[1] - box[1]) < 1) ? "left" : "right";
      dot.bindTooltip(() => el("span", { text: place.label }), { permanent: true, direction: side, className: "place-tooltip", offset: [side === "left" ? -8 : 8, 0] });
      dot.on("click", (event) => {
        L.DomEvent.stop(event);
        onJump(place, bounds);
      });
      layer.addLayer(dot);
    }),
  );
  const update = () => {
    const show = map.getZoom() < PLACE_MAX_ZOOM;
    if (show && !map.hasLayer(layer)) layer.addTo(map);
    if (!show && map.hasLayer(layer)) layer.remove();
    state.placesShown = show;
  };
  map.on("zoomend", update);
  map.whenReady(update);
  ready.then(async () => {
    const boxes = (await Promise.all(places.map((p) => p.box))).filter((b) => b && b[2] - b[0] < 40 && b[0] > -125 && b[2] < -66 && b[1] > 24 && b[3] < 50);
    if (boxes.length) {
      overview.disabled = false;
      overview.addEventListener("click", () => onOverview(boxes.reduce((all, b) => all.extend(boundsOf(b)), boundsOf(boxes[0]))));
    }
    state.placesReady = true;
  });
  return { places, ready, layer };
}

// ---- the layer list

/**
 * GET /v1/layers, each entry with the page's `key` for it and its `name` (its label, with its provider's
 * title when another provider has a layer of the same kind); an empty list (and a note) when it cannot be read.
 */
export async function loadLayers() {
  try {
    const entries = asArray((await getJson(urls.layers())).layers).filter((entry) => entry && typeof entry.kind === "string" && typeof entry.id === "string");
    return entries.map((entry) => {
      const same = entries.filter((other) => other.kind === entry.kind);
      const key = same[0] === entry ? entry.kind : entry.kind + "-" + entry.id;
      return Object.assign({}, entry, { key, name: same.length > 1 ? entry.label + " (" + entry.title + ")" : entry.label });
    });
  } catch (error) {
    addNote("layers", "The layer list (/v1/layers) could not be loaded (" + describeError(error) + "); no data layer is drawn.");
    return [];
  }
}

/**
 * entries: GET /v1/layers (loadLayers); modules: {key → {setVisible(on), visible()}} (the page's modules).
 * Returns {show(key), shown(key), entries (those with a module)}.
 */
export function setUpLayerList(entries, modules) {
  const list = $("layer-list-items");
  list.textContent = "";
  const served = entries.filter((entry) => modules[entry.key]);
  const boxes = new Map();

  function apply(entry, on) {
    boxes.get(entry.key).checked = on;
    legendLayer(entry, on);
    modules[entry.key].setVisible(on);
    if (on) setActive(entry.key);
    else if (activeOwner() === entry.key) {
      const next = served.find((other) => other !== entry && boxes.get(other.key).checked);
      setActive(next ? next.key : null);
    }
  }

  for (const entry of served) {
    const box = el("input", { type: "checkbox", id: "layer-" + entry.key, "data-kind": entry.kind, "data-provider": entry.id });
    const state = el("span", { class: "layer-state", role: "status" });
    boxes.set(entry.key, box);
    list.appendChild(
      el("li", { class: "layer-item", "data-kind": entry.kind, "data-key": entry.key }, [
        el("label", { for: "layer-" + entry.key, class: "layer-label", title: entry.title }, [box, symbolOf(entry.kind), el("span", { class: "layer-name", text: entry.name })]),
        state,
      ]),
    );
    statusRow(entry.key, state);
    box.addEventListener("change", () => apply(entry, box.checked));
  }
  // Shown first: the page's choice among the declared kinds (their first provider's layer); the first of them is active.
  const first = LAYERS_SHOWN_FIRST.map((kind) => served.find((entry) => entry.key === kind)).filter(Boolean);
  for (const entry of served) if (!first.includes(entry)) apply(entry, false);
  for (const entry of first.slice().reverse()) apply(entry, true);
  return {
    entries: served,
    show(key) {
      const entry = served.find((e) => e.key === key);
      if (!entry) return;
      if (!boxes.get(key).checked) apply(entry, true);
      else setActive(key);
    },
    shown: (key) => Boolean(boxes.get(key) && boxes.get(key).checked),
  };
}
