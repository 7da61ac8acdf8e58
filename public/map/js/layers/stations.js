// Sensor stations (GET /v1/stations): one triangle per station, its own symbol (pedons are circles, sites
// diamonds, survey polygons squares). A station with a series held offline has a dark outline; the
// legend says so. SVG in a pane above the sites: a station takes its own click.
/* global L */
import { el, text } from "../dom.js";
import { legendSection } from "../map.js";
import { pointLayer, shapedMarker } from "./points.js";

/** This layer's kind in GET /v1/layers. */
export const KIND = "stations";

export const STATION_FILL = "#1a6f73";

/** A circle marker drawn as an upward triangle (SVG renderer): same hit area and styling, another shape. */
const TriangleMarker = shapedMarker((p, r) => "M" + p.x + "," + (p.y - r) + "L" + (p.x + r) + "," + (p.y + r * 0.9) + "L" + (p.x - r) + "," + (p.y + r * 0.9) + "Z");

const hasSeries = (p) => Array.isArray(p && p.series_offline) && p.series_offline.length > 0;
const BASE = (p) => ({ color: hasSeries(p) ? "#111111" : "#0d3b3d", weight: hasSeries(p) ? 2.5 : 1 });

/** `key`: the layer's key in the page (its kind for the first provider of the kind, else kind and provider id: main.js), its pane and legend section. */
export function createStationLayer(map, onOpen, key = KIND) {
  const restyle = (marker) => marker.setStyle(BASE(marker.stationFeature.properties));
  const pane = key === KIND ? "stations" : "stations-" + key;
  const { renderer, layer, markers, clear, add, highlight, marker: markerOf } = pointLayer(map, { pane, zIndex: "457", kind: key, restyle, ring: { weight: 4, color: "#ffd43b" }, cluster: { name: "sensor stations", className: "cluster-stations" } });

  /** Draw station features; returns {count, withSeries}. */
  function show(features) {
    clear();
    let withSeries = 0;
    for (const f of features) {
      if (!f || !f.geometry || f.geometry.type !== "Point") continue;
      const p = f.properties || {};
      const [lon, lat] = f.geometry.coordinates;
      if (hasSeries(p)) withSeries++;
      const marker = new TriangleMarker([lat, lon], Object.assign({ renderer, pane, radius: 9, fillColor: STATION_FILL, fillOpacity: 1, className: "station-marker" + (hasSeries(p) ? " station-held" : "") }, BASE(p)));
      marker.stationFeature = f;
      // A tooltip of DOM nodes: the API's text is written as text, never as HTML.
      marker.bindTooltip(() => el("span", { text: "Station " + text(p.name) + " (" + text(p.station_triplet) + ")" + (hasSeries(p) ? ": a series held offline" : "") }), { direction: "top", offset: [0, -8] });
      marker.on("click", (event) => {
        L.DomEvent.stop(event);
        onOpen(String(p.station_triplet), marker.getLatLng());
      });
      add(p.station_triplet, marker);
    }
    legendSection(key, stationLegend(markers.size, withSeries));
    return { count: markers.size, withSeries };
  }

  /** The stations drawn, for the list of what is in view and the search: [{key, name, latlng, feature}]. */
  const items = () => [...markers.values()].map((m) => ({ key: String(m.stationFeature.properties.station_triplet), name: text(m.stationFeature.properties.name) + " (" + text(m.stationFeature.properties.station_triplet) + ")", latlng: m.getLatLng() }));
  return { layer, show, clear, highlight, marker: markerOf, items };
}

function stationLegend(count, withSeries) {
  const box = el("div", { class: "legend-classes station-legend", role: "group", "aria-label": "Sensor stations" });
  box.appendChild(el("div", { class: "legend-row" }, [el("span", { class: "sym sym-stations", "aria-hidden": "true" }), el("span", { text: count + " stations" })]));
  box.appendChild(el("div", { class: "legend-row" }, [el("span", { class: "sym sym-stations sym-station-series", "aria-hidden": "true" }), el("span", { text: "dark outline: a series held by this instance (" + withSeries + ")" })]));
  return box;
}
