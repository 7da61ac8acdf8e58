// Map-unit polygons as a choropleth: a GeoJSON FeatureCollection as GET /v1/soil/mapunits?bbox=…
// answers it (features with id and properties map_unit_key, map_unit_symbol, map_unit_name,
// area_symbol and, when a property was asked for, summary {value, category, unit}), each polygon
// filled by its summary value on a scale from the least to the greatest value of the collection,
// with a legend stating that range and its unit.
/* global L */
import { el, formatNumber, svg, text } from "../dom.js";
import { colourScale, NO_VALUE, PALETTE } from "./colour.js";

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
  let legend = null;
  const layer = L.geoJSON(null, {
    pane: "mapunits",
    renderer,
    interactive: false,
    style: (feature) => Object.assign({ fillColor: colours.get(keyOf(feature)) || NO_VALUE }, OUTLINE),
  }).addTo(map);
  let drawn = [];

  function clear() {
    layer.clearLayers();
    colours.clear();
    drawn = [];
    if (legend) legend.remove();
    legend = null;
  }

  /**
   * Draw `collection` (replacing what was drawn). label: {name, unit} of the summarized property, the
   * unit used when the features name none. Returns {count, min, max, unit} (min/max null without values).
   */
  function show(collection, label) {
    clear();
    const features = (collection && Array.isArray(collection.features) ? collection.features : []).filter((f) => f && f.geometry && /Polygon$/.test(f.geometry.type));
    const values = features.map(valueOf).filter((v) => v !== null);
    const min = values.length ? Math.min(...values) : null;
    const max = values.length ? Math.max(...values) : null;
    const scale = colourScale(min, max);
    for (const f of features) colours.set(keyOf(f), scale(valueOf(f)));
    const withUnit = features.find((f) => f.properties && f.properties.summary && f.properties.summary.unit);
    const unit = withUnit ? String(withUnit.properties.summary.unit) : label && label.unit ? label.unit : "";
    layer.addData({ type: "FeatureCollection", features });
    drawn = features;
    // No polygon in view (outside the survey areas): no scale to explain.
    if (features.length) legend = scaleLegend(label ? label.name : "", unit, min, max, values.length < features.length).addTo(map);
    return { count: features.length, min, max, unit };
  }

  return {
    layer,
    show,
    clear,
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

/** The legend: the palette from the least to the greatest value in view, with the unit. */
function scaleLegend(name, unit, min, max, someMissing) {
  const Control = L.Control.extend({
    options: { position: "bottomleft" },
    onAdd() {
      const box = el("div", { class: "legend scale-legend", role: "group", "aria-label": "Map-unit colour scale" });
      box.appendChild(el("p", { class: "legend-title", text: text(name) + (unit ? " (" + unit + ")" : "") }));
      if (min === null) {
        box.appendChild(el("p", { class: "scale-empty", text: "No map unit in view has a value." }));
      } else {
        const width = 180, swatch = width / PALETTE.length;
        box.appendChild(
          svg("svg", { class: "scale-bar", viewBox: "0 0 " + width + " 14", width, height: 14, "aria-hidden": "true" }, PALETTE.map((colour, i) => svg("rect", { x: i * swatch, y: 0, width: swatch, height: 14, fill: colour }))),
        );
        box.appendChild(
          el("div", { class: "scale-range" }, [
            el("span", { class: "scale-min", text: formatNumber(min) }),
            el("span", { class: "scale-max", text: formatNumber(max) + (unit ? " " + unit : "") }),
          ]),
        );
      }
      if (someMissing) box.appendChild(el("div", { class: "legend-row" }, [el("span", { class: "legend-swatch legend-no-value", "aria-hidden": "true" }), el("span", { text: "No value" })]));
      L.DomEvent.disableClickPropagation(box);
      return box;
    },
  });
  return new Control();
}
