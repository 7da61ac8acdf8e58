// Map-unit polygons as a choropleth: a GeoJSON FeatureCollection as GET /v1/soil/mapunits?bbox=…
// answers it (features with id and properties map_unit_key, map_unit_symbol, map_unit_name,
// area_symbol and, when a property was asked for, summary {value, category, unit}), each polygon
// filled by the class of its summary value (equal classes with round bounds over the collection's range,
// colour.js classify), with a legend listing the classes and the unit; the selected polygon outlined,
// and map-unit symbols written on the polygons from MAP_UNIT_LABEL_MIN_ZOOM on.
/* global L */
import { MAP_UNIT_LABEL_MIN_ZOOM } from "../config.js";
import { legendSection } from "../map.js";

/** This layer's kind in GET /v1/layers. */
export const KIND = "survey_polygons";
import { el, formatNumber, text } from "../dom.js";
import { classify, NO_VALUE } from "./colour.js";

const OUTLINE = { color: "#5b4a3a", weight: 0.8, opacity: 0.9, fillOpacity: 0.75 };

const valueOf = (feature) => {
  const s = feature && feature.properties && feature.properties.summary;
  return s && typeof s.value === "number" && isFinite(s.value) ? s.value : null;
};

/** Whether [lon, lat] lies inside a Polygon or MultiPolygon geometry (even-odd rule: holes excluded). */
export function geometryContains(geometry, lon, lat) {
  const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.type === "MultiPolygon" ? geometry.coordinates : [];
  let inside = false;
  for (const rings of polygons) {
    for (const ring of rings) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [xi, yi] = ring[i], [xj, yj] = ring[j];
        if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
      }
    }
  }
  return inside;
}

/**
 * The map-unit layer (drawn in the "mapunits" pane, under the borders and pedons). The pedons' canvas
 * lies over it and takes the pointer events, so polygons are not interactive themselves: the map's
 * click handler asks featureAt(latlng) and opens the map unit found (main.js).
 */
export function createMapUnitLayer(map) {
  const renderer = L.canvas({ pane: "mapunits", padding: 0.3 });
  const colours = new Map();
  const layer = L.geoJSON(null, {
    pane: "mapunits",
    renderer,
    interactive: false,
    style: (feature) => Object.assign({ fillColor: colours.get(keyOf(feature)) || NO_VALUE }, OUTLINE),
  }).addTo(map);
  let drawn = [];
  // The selected map unit: its polygons outlined above the fill (SVG, so the outline is a DOM node).
  map.createPane("selection").style.zIndex = "248";
  const selection = L.geoJSON(null, { pane: "selection", renderer: L.svg({ pane: "selection" }), interactive: false, style: () => ({ className: "mu-selected", color: "#111", weight: 4, opacity: 1, fill: false }) }).addTo(map);
  let selectedKey = null;
  const labels = L.layerGroup().addTo(map);

  function drawLabels() {
    labels.clearLayers();
    if (map.getZoom() < MAP_UNIT_LABEL_MIN_ZOOM) return;
    const view = map.getBounds();
    for (const f of drawn) {
      const symbol = f.properties && f.properties.map_unit_symbol;
      const at = labelPoint(f.geometry);
      if (!symbol || !at || !view.contains(at)) continue;
      const icon = L.divIcon({ className: "mu-label", html: el("span", { text: String(symbol) }), iconSize: null });
      labels.addLayer(L.marker(at, { icon, pane: "labels", interactive: false, keyboard: false }));
    }
  }
  map.on("zoomend moveend", drawLabels);

  /** Outline the polygons of map unit `key` (null: none). */
  function select(key) {
    selection.clearLayers();
    selectedKey = key === null || key === undefined ? null : String(key);
    if (selectedKey === null) return;
    const mine = drawn.filter((f) => String((f.properties || {}).map_unit_key) === selectedKey);
    selection.addData({ type: "FeatureCollection", features: mine });
  }

  function clear() {
    layer.clearLayers();
    labels.clearLayers();
    selection.clearLayers();
    colours.clear();
    drawn = [];
    legendSection(KIND, null);
  }

  /**
   * Draw `collection` (replacing what was drawn). label: {name, unit} of the summarized property, the
   * unit used when the features name none. Returns {count, min, max, unit} (min/max null without values).
   */
  function show(collection, label, fixed) {
    clear();
    const features = (collection && Array.isArray(collection.features) ? collection.features : []).filter((f) => f && f.geometry && /Polygon$/.test(f.geometry.type));
    const values = features.map(valueOf).filter((v) => v !== null);
    const min = values.length ? Math.min(...values) : null;
    const max = values.length ? Math.max(...values) : null;
    // Classes fixed from every map unit of the dataset when it is known (mapunits.js datasetRange), else from the view.
    const classes = fixed ? Object.assign(classify(fixed.min, fixed.max), { basis: fixed }) : classify(min, max);
    for (const f of features) colours.set(keyOf(f), classes.colourOf(valueOf(f)));
    const withUnit = features.find((f) => f.properties && f.properties.summary && f.properties.summary.unit);
    const unit = withUnit ? String(withUnit.properties.summary.unit) : label && label.unit ? label.unit : "";
    layer.addData({ type: "FeatureCollection", features });
    drawn = features;
    if (selectedKey !== null) select(selectedKey);
    drawLabels();
    // No polygon in view (outside the survey areas): no scale to explain.
    if (features.length) legendSection(KIND, classLegend(label ? label.name : "", unit, min, max, classes, values.length < features.length));
    return { count: features.length, min, max, unit };
  }

  return {
    layer,
    show,
    clear,
    select,
    /** The selected map unit's key and how many polygons outline it (for tests and the curious). */
    selected: () => ({ key: selectedKey, polygons: selection.getLayers().length }),
    /** The drawn feature whose polygon contains `latlng`, or null. */
    featureAt(latlng) {
      const p = latlng.wrap();
      return drawn.find((f) => geometryContains(f.geometry, p.lng, p.lat)) || null;
    },
    /** The fill colour drawn for a feature id (or map-unit key when the feature has no id). */
    colourOf: (key) => colours.get(String(key)) || null,
  };
}

function keyOf(feature) {
  const p = feature.properties || {};
  return String(feature.id !== undefined && feature.id !== null ? feature.id : p.map_unit_key);
}

/** A point to write a polygon's label at: the centre of its largest outer ring's box, if inside, else a vertex-average. */
function labelPoint(geometry) {
  const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.type === "MultiPolygon" ? geometry.coordinates : [];
  let best = null, bestArea = -1;
  for (const rings of polygons) {
    const xs = rings[0].map((p) => p[0]), ys = rings[0].map((p) => p[1]);
    const a = (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
    if (a > bestArea) {
      bestArea = a;
      best = rings[0];
    }
  }
  if (!best) return null;
  const xs = best.map((p) => p[0]), ys = best.map((p) => p[1]);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2, cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  if (geometryContains(geometry, cx, cy)) return L.latLng(cy, cx);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length, my = ys.reduce((a, b) => a + b, 0) / ys.length;
  return geometryContains(geometry, mx, my) ? L.latLng(my, mx) : null;
}

/** `x` to `decimals` places, without trailing zeros (32.066666667 → "32.1"). */
const rounded = (x, decimals) => formatNumber(Math.round(x * 10 ** decimals) / 10 ** decimals);

/** The layer's part of the one legend (map.js): one row per class (round bounds, the unit in the title), and the values' range in view. */
function classLegend(name, unit, min, max, classes, someMissing) {
  const box = el("div", { class: "legend-classes scale-legend", role: "group", "aria-label": "Map-unit colour classes" });
  box.appendChild(el("p", { class: "legend-title", text: text(name) + (unit ? " (" + unit + ")" : "") }));
  if (min === null) {
    box.appendChild(el("p", { class: "scale-empty", text: "No map unit in view has a value." }));
  } else {
    const list = el("ul", { class: "class-list" });
    for (const c of classes.classes) {
      const swatch = el("span", { class: "legend-swatch class-swatch", "aria-hidden": "true", "data-colour": c.colour });
      // The swatch colour is set through the CSSOM (the CSP forbids style attributes, not CSSOM writes).
      swatch.style.background = c.colour;
      list.appendChild(el("li", { class: "class-row", "data-from": c.from, "data-to": c.to, "data-colour": c.colour }, [swatch, el("span", { text: c.label + (unit ? " " + unit : "") })]));
    }
    box.appendChild(list);
    box.appendChild(
      el("p", { class: "scale-range" }, ["In view: ", el("span", { class: "scale-min", text: rounded(min, classes.decimals + 1) }), " to ", el("span", { class: "scale-max", text: rounded(max, classes.decimals + 1) + (unit ? " " + unit : "") })]),
    );
    box.appendChild(el("p", { class: "scale-range scale-basis", text: classes.basis ? "Classes: every map unit of this instance (" + classes.basis.count + "), the same in every view." : "Classes: the map units in view." }));
  }
  if (someMissing) box.appendChild(el("div", { class: "legend-row" }, [el("span", { class: "legend-swatch legend-no-value", "aria-hidden": "true" }), el("span", { text: "No value" })]));
  return box;
}
