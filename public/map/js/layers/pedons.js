// Laboratory pedons in the current view (the pedon layer's endpoint in GET /v1/layers, GET
// /v1/pedons?bbox=…; nothing is asked before the layers are read): circle markers, the "Pedon in view"
// select (the keyboard path), the selected pedon, and the zoom-in message for views over the box limits.
/* global L */
import { getJson, isAbort, describeError, withParams } from "../api.js";
import { MOVE_DEBOUNCE_MS, PEDON_BOX, PEDON_LIMIT, PEDON_STYLE, SELECTED_STYLE } from "../config.js";
import { $, el } from "../dom.js";
import { viewBox } from "../map.js";
import { activeOwner, onActiveChange, setNotes, setStatus } from "../status.js";

/** This layer's kind in GET /v1/layers: its status and its zoom-in message are shown while it is the active layer. */
export const KIND = "pedons";
const say = (message, kind) => setStatus(message, kind, KIND);

/** Why a box cannot be asked for (a sentence for the zoom-in message), "empty", or null when it can. */
export function pedonBoxProblem(box) {
  const width = box[2] - box[0], height = box[3] - box[1];
  if (!(width > 0) || !(height > 0)) return "empty";
  const { maxSideDegrees, maxAreaSquareDegrees } = PEDON_BOX;
  if (width > maxSideDegrees || height > maxSideDegrees || width * height > maxAreaSquareDegrees) {
    return "This view is " + width.toFixed(1) + "° × " + height.toFixed(1) + "° (" + (width * height).toFixed(1) + " square degrees); " +
      "pedons are listed for boxes of at most " + maxSideDegrees + "° a side and " + maxAreaSquareDegrees + " square degrees.";
  }
  return null;
}

/**
 * The pedon layer. `onOpen(key, focus)` is called when the user picks a pedon (marker click or select).
 * `state` is window.loam: the tests read pedonState, lastBbox and lastPedonCount from it.
 */
export function createPedonLayer(map, state, onOpen) {
  const layer = L.layerGroup().addTo(map);
  let visible = true;
  /** The zoom-in message covers the map only while this layer is shown and active (not while you look at another layer or draw). */
  const zoomShown = (on) => (zoomMessage.hidden = !(on && visible && activeOwner() === KIND));
  let zoomWanted = false;
  onActiveChange(() => zoomShown(zoomWanted));
  const renderer = L.canvas({ pane: "pedons", padding: 0.2, tolerance: 3 });
  const zoomMessage = $("zoom-message");
  const zoomDetail = $("zoom-detail");
  const select = $("pedon-select");
  let markersByKey = new Map();
  let selectedKey = null;
  let controller = null;
  let sequence = 0;
  let moveTimer = null;
  /** The layer's GET /v1/layers entry (useEntry), whose endpoint is asked; null: the instance declares no pedon layer. */
  let entry = null;
  let entryRead;
  const entryKnown = new Promise((resolve) => (entryRead = resolve));

  function clear() {
    layer.clearLayers();
    markersByKey = new Map();
    fillSelect([]);
  }

  function scheduleLoad() {
    clearTimeout(moveTimer);
    if (!visible) return;
    // A view over the box limits needs no request: say so at once (no debounce, no stale line).
    if (pedonBoxProblem(viewBox(map)) !== null) return load();
    // The last view's answer, if it is still on its way, is for a view no longer shown: it must not
    // draw its markers or say "ready" while this one waits for its debounce.
    if (controller) controller.abort();
    controller = null;
    ++sequence;
    state.pedonState = "pending";
    // The line about the last view is stale from the moment the map moves.
    say("Looking for pedons in this view…", "busy");
    clearTimeout(moveTimer);
    moveTimer = setTimeout(load, MOVE_DEBOUNCE_MS);
  }

  function load() {
    if (controller) controller.abort();
    controller = null;
    if (!visible) return;
    const mine = ++sequence;
    const box = viewBox(map);
    state.lastBbox = box;
    const problem = pedonBoxProblem(box);
    if (problem) {
      clear();
      setNotes("pedons", []);
      state.pedonState = "zoom";
      if (problem === "empty") {
        zoomShown((zoomWanted = false));
        say("The view lies outside valid coordinates; pan back to the map.", "warn");
        return;
      }
      zoomDetail.textContent = problem;
      zoomShown((zoomWanted = true));
      say("Zoom in to see pedons. " + problem, "warn");
      return;
    }
    zoomShown((zoomWanted = false));
    const current = new AbortController();
    controller = current;
    say("Loading pedons in this view…", "busy");
    state.pedonState = "loading";
    entryKnown
      .then(() => (entry && mine === sequence ? getJson(withParams(entry.endpoint, { bbox: box.join(","), limit: PEDON_LIMIT }), current.signal) : null))
      .then((collection) => {
        if (mine !== sequence || !collection) return;
        render(Array.isArray(collection.features) ? collection.features : []);
        setNotes("pedons", Array.isArray(collection.warnings) ? collection.warnings : []);
        const n = markersByKey.size;
        const s = n === 1 ? "" : "s";
        if (collection.truncated === true) say("Showing " + n + " pedon" + s + "; more exist in this view — zoom in", "warn");
        else if (n === 0) say("No laboratory pedons in this view. Click the map for the mapped soil survey at a point.", "info");
        else say("Showing " + n + " laboratory pedon" + s + " in this view. Click one for its layers.", "info");
        state.lastPedonCount = n;
        state.pedonState = "ready";
      })
      .catch((error) => {
        if (isAbort(error) || mine !== sequence) return;
        clear();
        say("Pedons could not be loaded: " + describeError(error), "error");
        state.pedonState = "error";
      });
  }

  function render(features) {
    layer.clearLayers();
    markersByKey = new Map();
    const listed = [];
    for (const feature of features) {
      if (!feature || !feature.geometry || feature.geometry.type !== "Point") continue;
      const coordinates = feature.geometry.coordinates;
      const lon = Number(coordinates[0]), lat = Number(coordinates[1]);
      if (!isFinite(lat) || !isFinite(lon)) continue;
      const properties = feature.properties || {};
      const key = String(properties.pedon_key !== undefined && properties.pedon_key !== null ? properties.pedon_key : feature.id);
      if (markersByKey.has(key)) continue;
      const marker = L.circleMarker([lat, lon], Object.assign({ renderer, pane: "pedons", bubblingMouseEvents: false }, key === selectedKey ? SELECTED_STYLE : PEDON_STYLE));
      marker.pedonKey = key;
      marker.pedonFeature = feature;
      marker.bindTooltip(() => el("span", null, [el("strong", { text: key }), properties.name ? " " + String(properties.name) : ""]), { direction: "top", offset: [0, -6] });
      marker.on("click", (event) => {
        // Leaflet reports a small circle marker's own centre as the event's containerPoint; use the mouse's.
        const at = event.originalEvent ? map.mouseEventToContainerPoint(event.originalEvent) : null;
        onOpen(nearest(at) || key, false);
      });
      marker.addTo(layer);
      markersByKey.set(key, marker);
      listed.push({ key, name: properties.name });
    }
    const selected = selectedKey && markersByKey.get(selectedKey);
    if (selected) selected.bringToFront();
    fillSelect(listed);
  }

  /** Overlapping markers: the canvas reports the topmost; open the one whose centre is nearest the click. */
  function nearest(containerPoint) {
    if (!containerPoint) return null;
    let best = null, bestDistance = Infinity;
    markersByKey.forEach((marker, key) => {
      const d = map.latLngToContainerPoint(marker.getLatLng()).distanceTo(containerPoint);
      if (d <= marker.getRadius() + 4 && d < bestDistance) {
        best = key;
        bestDistance = d;
      }
    });
    return best;
  }

  function fillSelect(listed) {
    select.textContent = "";
    select.appendChild(el("option", { value: "", text: listed.length ? "Choose one of " + listed.length + "…" : "(none in view)" }));
    for (const item of listed) select.appendChild(el("option", { value: item.key, text: item.key + (item.name ? " — " + item.name : "") }));
    select.disabled = listed.length === 0;
    select.value = selectedKey && markersByKey.has(selectedKey) ? selectedKey : "";
  }

  select.addEventListener("change", () => {
    if (select.value) onOpen(select.value, true);
  });

  /** Mark `key` as the selected pedon (null: none). */
  function highlight(key) {
    if (selectedKey && markersByKey.has(selectedKey)) markersByKey.get(selectedKey).setStyle(PEDON_STYLE).setRadius(PEDON_STYLE.radius);
    selectedKey = key;
    if (key && markersByKey.has(key)) {
      const marker = markersByKey.get(key);
      marker.setStyle(SELECTED_STYLE).setRadius(SELECTED_STYLE.radius);
      marker.bringToFront();
    }
    if (select.value !== (key || "")) select.value = key && markersByKey.has(key) ? key : "";
  }

  $("zoom-in-button").addEventListener("click", () => {
    map.setZoom(Math.min(map.getMaxZoom(), map.getZoom() + 2));
  });

  /** Show or hide the layer (the layer list's checkbox). */
  function setVisible(on) {
    // Already so (the layer list's first pass): nothing to redo, no second request for the same view.
    if (visible === Boolean(on)) return;
    visible = Boolean(on);
    state.pedonsVisible = visible;
    if (visible) {
      layer.addTo(map);
      load();
      return;
    }
    if (controller) controller.abort();
    controller = null;
    clearTimeout(moveTimer);
    clear();
    setNotes("pedons", []);
    zoomShown((zoomWanted = false));
    state.pedonState = "off";
    say("", "info");
    layer.remove();
  }

  return {
    layer,
    /** The layer's GET /v1/layers entry (null: none, and the layer is hidden). */
    useEntry(layerEntry) {
      entry = layerEntry;
      entryRead();
      if (!entry) setVisible(false);
    },
    entry: () => entry,
    setVisible,
    visible: () => visible,
    scheduleLoad,
    highlight,
    /** The marker of a pedon in view (its feature is marker.pedonFeature), or undefined. */
    marker: (key) => markersByKey.get(key),
    /** The pedons drawn, for the list of what is in view: [{key, name, latlng}]. */
    items: () => [...markersByKey.values()].map((m) => ({ key: m.pedonKey, name: m.pedonKey + (m.pedonFeature.properties && m.pedonFeature.properties.name ? " " + String(m.pedonFeature.properties.name) : ""), latlng: m.getLatLng() })),
  };
}
