// What the point layers drawn with their own symbol share (sites' diamonds, stations' triangles): a
// marker of another shape with a circle's hit area and styling, and a layer of markers by key in an SVG
// pane of its own, with one selected marker ringed. Each layer keeps what is its own (styles, tooltip,
// legend).
/* global L */
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
 * `restyle(marker)` puts an unselected marker back, `ring` is the selected one's style.
 */
export function pointLayer(map, { pane, zIndex, kind, restyle, ring }) {
  map.createPane(pane).style.zIndex = zIndex;
  const renderer = L.svg({ pane });
  const layer = L.layerGroup();
  const markers = new Map();
  let selected = null;

  function clear() {
    layer.clearLayers();
    markers.clear();
    legendSection(kind, null);
  }

  function add(key, marker) {
    layer.addLayer(marker);
    markers.set(String(key), marker);
  }

  /** Ring the marker of a key (null: none). */
  function highlight(key) {
    if (selected !== null && markers.has(selected)) restyle(markers.get(selected));
    selected = key === null || key === undefined ? null : String(key);
    const marker = selected !== null ? markers.get(selected) : null;
    if (marker) {
      marker.setStyle(ring);
      marker.bringToFront();
    }
  }

  return { renderer, layer, markers, clear, add, highlight, selected: () => selected, marker: (key) => markers.get(String(key)) || null };
}
