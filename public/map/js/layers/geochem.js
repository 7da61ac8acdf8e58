// Geochemistry sample sites (GET /v1/geochem/sites?bbox=…&property=…): one circle per site, filled by
// the class of its result for the chosen element (colour.js classify, as the soil map); a censored
// result ("<1": below the reporting limit, value null) is drawn hollow with a dashed ring, never at its
// limit; a site with no sample (N.S.) is a small grey dot. SVG in a pane above the pedons: a site takes
// its own click, and a click beside it reaches the pedons and the map.
/* global L */
import { PHONE_QUERY } from "../config.js";
import { el, formatNumber, text } from "../dom.js";
import { classifyQuantiles, NO_VALUE } from "./colour.js";

const valueOf = (p) => (p && typeof p.value === "number" && isFinite(p.value) ? p.value : null);
const censored = (p) => Boolean(p && p.value_qualifier && p.value === null && /^[<>]/.test(String(p.reported_value || "")));
const noSample = (p) => Boolean(p && p.value === null && !censored(p));

export function createGeochemLayer(map, onOpen) {
  map.createPane("geochem").style.zIndex = "455";
  const renderer = L.svg({ pane: "geochem" });
  const layer = L.layerGroup();
  const markers = new Map();
  let legend = null;
  let selected = null;

  function clear() {
    layer.clearLayers();
    markers.clear();
    if (legend) legend.remove();
    legend = null;
  }

  /** Draw a FeatureCollection of sites; label {name, unit}. Returns {count, censored, noSample, min, max}. */
  function show(collection, label) {
    clear();
    const features = (collection && Array.isArray(collection.features) ? collection.features : []).filter((f) => f && f.geometry && f.geometry.type === "Point");
    const values = features.map((f) => valueOf(f.properties)).filter((v) => v !== null);
    const min = values.length ? Math.min(...values) : null;
    const max = values.length ? Math.max(...values) : null;
    // Element contents are skewed (a few sites far above the rest): classes at the quantiles of the view.
    const classes = classifyQuantiles(values);
    let censoredCount = 0, noSampleCount = 0;
    for (const f of features) {
      const p = f.properties || {};
      const [lon, lat] = f.geometry.coordinates;
      const kind = valueOf(p) !== null ? "value" : censored(p) ? "censored" : noSample(p) ? "nosample" : "value";
      if (kind === "censored") censoredCount++;
      if (kind === "nosample") noSampleCount++;
      const colour = kind === "value" ? classes.colourOf(valueOf(p)) : kind === "censored" ? "#ffffff" : NO_VALUE;
      const marker = L.circleMarker([lat, lon], {
        renderer,
        pane: "geochem",
        radius: kind === "nosample" ? 4 : 7,
        color: kind === "censored" ? "#3f2a6b" : "#2b2b2b",
        weight: kind === "censored" ? 2 : 1,
        dashArray: kind === "censored" ? "3 2" : null,
        fillColor: colour,
        fillOpacity: kind === "censored" ? 0.6 : 0.95,
        className: "geo-site geo-" + kind,
      });
      marker.geoFeature = f;
      marker.geoKind = kind;
      marker.geoColour = colour;
      // A node with text, never a string: Leaflet inserts a string tooltip as HTML, and these values come from the file (docs/decisions.md#pages-text).
      const tip = "Site " + p.site_id + ": " + (p.reported_value !== undefined ? String(p.reported_value) + (p.unit && kind !== "nosample" ? " " + p.unit : "") : "");
      marker.bindTooltip(() => el("span", { text: tip }), { direction: "top", offset: [0, -6] });
      marker.on("click", (event) => {
        L.DomEvent.stop(event);
        onOpen(p.site_id, marker.getLatLng());
      });
      layer.addLayer(marker);
      markers.set(String(p.site_id), marker);
    }
    if (selected !== null) highlight(selected);
    if (features.length) legend = siteLegend(label, min, max, classes, censoredCount, noSampleCount).addTo(map);
    return { count: features.length, censored: censoredCount, noSample: noSampleCount, min, max };
  }

  /** Ring the selected site (null: none). */
  function highlight(siteId) {
    if (selected !== null && markers.has(String(selected))) markers.get(String(selected)).setStyle({ weight: markers.get(String(selected)).geoKind === "censored" ? 2 : 1, color: markers.get(String(selected)).geoKind === "censored" ? "#3f2a6b" : "#2b2b2b" });
    selected = siteId === null || siteId === undefined ? null : String(siteId);
    const marker = selected !== null ? markers.get(selected) : null;
    if (marker) {
      marker.setStyle({ weight: 4, color: "#111" });
      marker.bringToFront();
    }
  }

  return {
    layer,
    show,
    clear,
    highlight,
    /** The marker of a site id, for tests and the keyboard path. */
    marker: (siteId) => markers.get(String(siteId)) || null,
    /** [{site_id, kind, colour, value, reported_value}] of what is drawn. */
    drawn: () => [...markers.values()].map((m) => ({ site_id: m.geoFeature.properties.site_id, kind: m.geoKind, colour: m.geoColour, value: m.geoFeature.properties.value, reported_value: m.geoFeature.properties.reported_value })),
  };
}

/** The legend: the element's classes (round bounds, unit), then censored and no-sample marks. */
function siteLegend(label, min, max, classes, censoredCount, noSampleCount) {
  const Control = L.Control.extend({
    options: { position: "bottomright" },
    onAdd() {
      const unit = label && label.unit ? label.unit : "";
      const box = el("details", { class: "legend geo-legend", role: "group", "aria-label": "Geochemistry colour classes" });
      box.open = !window.matchMedia(PHONE_QUERY).matches;
      box.appendChild(el("summary", { class: "legend-title", text: text(label && label.name) + ", 0–5 cm" + (unit ? " (" + unit + ")" : "") }));
      const list = el("ul", { class: "class-list" });
      for (const c of classes.classes) {
        const swatch = el("span", { class: "legend-swatch class-swatch geo-swatch", "aria-hidden": "true" });
        swatch.style.background = c.colour;
        list.appendChild(el("li", { class: "class-row", "data-from": c.from, "data-to": c.to, "data-colour": c.colour }, [swatch, el("span", { text: c.label + (unit ? " " + unit : "") })]));
      }
      box.appendChild(list);
      if (censoredCount) box.appendChild(el("div", { class: "legend-row geo-censored-row" }, [el("span", { class: "legend-censored", "aria-hidden": "true" }), el("span", { text: "Below the reporting limit (“<”), " + censoredCount + " in view" })]));
      if (noSampleCount) box.appendChild(el("div", { class: "legend-row" }, [el("span", { class: "legend-nosample", "aria-hidden": "true" }), el("span", { text: "No sample (N.S.), " + noSampleCount })]));
      if (min !== null) box.appendChild(el("p", { class: "scale-range", text: (classes.quantiles ? "Classes hold about equal numbers of sites. " : "") + "Measured in view: " + formatNumber(min) + " to " + formatNumber(max) + (unit ? " " + unit : "") }));
      L.DomEvent.disableClickPropagation(box);
      return box;
    },
  });
  return new Control();
}
