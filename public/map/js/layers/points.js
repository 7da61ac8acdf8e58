// What the point layers drawn with their own symbol share (sites' diamonds, stations' triangles): a
// marker of another shape with a circle's hit area and styling, and a layer of markers by key in an SVG
// pane of its own, with one selected marker ringed. Each layer keeps what is its own (styles, tooltip,
// legend).
/* global L */
import { CLUSTER } from "../config.js";
import { el } from "../dom.js";
import { legendSection } from "../map.js";

/** A circle marker drawn as another shape: `pathOf(point, radius)` is its SVG path. */
export function shapedMarker(pathOf) {
  return L.CircleMarker.extend({
    _updatePath() {
      this._renderer._setPath(this, this._empty() ? "M0 0" : pathOf(this._point, this._radius));
    },
  });
}

/**
 * A layer of markers by key in the pane `pane` (stacked at `zIndex`), its legend section `kind`;
 * `restyle(marker)` puts an unselected marker back, `ring` is the selected one's style. With `cluster`
 * ({name, className}), zoomed out to CLUSTER.maxZoom or less, markers that fall in one cell of
 * CLUSTER.cellPx pixels are drawn as one disc with their count (a click or Enter zooms in on them):
 * hundreds of triangles would merge into one blob (docs/map.md). The selected marker is never hidden in one.
 */
export function pointLayer(map, { pane, zIndex, kind, restyle, ring, cluster }) {
  map.createPane(pane).style.zIndex = zIndex;
  const renderer = L.svg({ pane });
  const layer = L.layerGroup();
  const markers = new Map();
  let selected = null;
  let pending = false;

  function draw() {
    pending = false;
    layer.clearLayers();
    const all = [...markers.entries()];
    if (!cluster || map.getZoom() > CLUSTER.maxZoom) {
      for (const [, marker] of all) layer.addLayer(marker);
      return;
    }
    const cells = new Map();
    for (const [key, marker] of all) {
      const p = map.project(marker.getLatLng(), map.getZoom());
      const cell = key === selected ? "selected" : Math.floor(p.x / CLUSTER.cellPx) + ":" + Math.floor(p.y / CLUSTER.cellPx);
      if (!cells.has(cell)) cells.set(cell, []);
      cells.get(cell).push(marker);
    }
    for (const group of cells.values()) {
      if (group.length < 2) group.forEach((marker) => layer.addLayer(marker));
      else layer.addLayer(clusterMarker(group));
    }
  }

  function clusterMarker(group) {
    const bounds = L.latLngBounds(group.map((marker) => marker.getLatLng()));
    const size = group.length < 10 ? 26 : group.length < 100 ? 32 : 38;
    const marker = L.marker(bounds.getCenter(), {
      pane,
      keyboard: true,
      title: group.length + " " + cluster.name + " here: zoom in",
      icon: L.divIcon({ className: "place-cluster " + cluster.className, html: el("span", { text: String(group.length) }), iconSize: [size, size] }),
    });
    marker.on("click", (event) => {
      L.DomEvent.stop(event);
      map.fitBounds(bounds.pad(0.2), { animate: false, maxZoom: Math.min(map.getMaxZoom(), Math.max(CLUSTER.maxZoom + 1, map.getZoom() + 2)) });
    });
    return marker;
  }

  /** Draw again once the current batch of adds is done. */
  function schedule() {
    if (pending) return;
    pending = true;
    queueMicrotask(draw);
  }
  if (cluster) map.on("zoomend", schedule);

  function clear() {
    layer.clearLayers();
    markers.clear();
    legendSection(kind, null);
  }

  function add(key, marker) {
    markers.set(String(key), marker);
    schedule();
  }

  /** Ring the marker of a key (null: none). */
  function highlight(key) {
    if (selected !== null && markers.has(selected)) restyle(markers.get(selected));
    selected = key === null || key === undefined ? null : String(key);
    const marker = selected !== null ? markers.get(selected) : null;
    if (marker) {
      marker.setStyle(ring);
      if (cluster) draw();
      marker.bringToFront();
    }
  }

  return { renderer, layer, markers, clear, add, highlight, selected: () => selected, marker: (key) => markers.get(String(key)) || null };
}
