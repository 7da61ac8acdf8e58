// Geochemistry sample sites (GET /v1/geochem/sites?bbox=…&property=…): one diamond per site (its own
// symbol: pedons are circles), filled by the class of its result for the chosen element. The classes are
// fixed for the element from every site of the dataset (national quantiles, geochem.js), so a colour
// means the same value in Iowa and in Kansas. A censored result ("<1": below the reporting limit, value
// null) is drawn hollow with a dashed outline, never at its limit; a site with no sample (N.S.) is a small
// grey diamond. SVG in a pane above the pedons: a site takes its own click, a click beside it reaches the
// pedons and the map.
/* global L */
import { el, formatNumber, text } from "../dom.js";
import { legendSection } from "../map.js";
import { NO_VALUE } from "./colour.js";
import { pointLayer, shapedMarker } from "./points.js";

/** This layer's kind in GET /v1/layers. */
export const KIND = "sites";

const valueOf = (p) => (p && typeof p.value === "number" && isFinite(p.value) ? p.value : null);
const censored = (p) => Boolean(p && p.value_qualifier && p.value === null && /^[<>]/.test(String(p.reported_value || "")));
const noSample = (p) => Boolean(p && p.value === null && !censored(p));

/** A circle marker drawn as a diamond (SVG renderer): same hit area and styling, another shape. */
const DiamondMarker = shapedMarker((p, r) => "M" + p.x + "," + (p.y - r) + "L" + (p.x + r) + "," + p.y + "L" + p.x + "," + (p.y + r) + "L" + (p.x - r) + "," + p.y + "Z");

const restyle = (marker) => marker.setStyle({ weight: marker.geoKind === "censored" ? 2 : 1, color: marker.geoKind === "censored" ? "#3f2a6b" : "#2b2b2b" });

/** `key`: the layer's key in the page (its kind for the first provider of the kind, else kind and provider id: main.js), its pane and legend section. */
export function createGeochemLayer(map, onOpen, key = KIND) {
  const pane = key === KIND ? "geochem" : "geochem-" + key;
  const { renderer, layer, markers, clear, add, highlight, selected, marker: markerOf } = pointLayer(map, { pane, zIndex: "455", kind: key, restyle, ring: { weight: 4, color: "#111" }, cluster: { name: "geochemistry sites", className: "cluster-sites" } });

  /**
   * Draw a FeatureCollection of sites; label {name, unit}; classes: the element's fixed classes (colour.js
   * shape). Returns {count, censored, noSample, min, max} of the view.
   */
  function show(collection, label, classes) {
    clear();
    const features = (collection && Array.isArray(collection.features) ? collection.features : []).filter((f) => f && f.geometry && f.geometry.type === "Point");
    const values = features.map((f) => valueOf(f.properties)).filter((v) => v !== null);
    const min = values.length ? Math.min(...values) : null;
    const max = values.length ? Math.max(...values) : null;
    let censoredCount = 0, noSampleCount = 0;
    for (const f of features) {
      const p = f.properties || {};
      const [lon, lat] = f.geometry.coordinates;
      const kind = valueOf(p) !== null ? "value" : censored(p) ? "censored" : noSample(p) ? "nosample" : "value";
      if (kind === "censored") censoredCount++;
      if (kind === "nosample") noSampleCount++;
      const colour = kind === "value" ? classes.colourOf(valueOf(p)) : kind === "censored" ? "#ffffff" : NO_VALUE;
      const marker = new DiamondMarker([lat, lon], {
        renderer,
        pane,
        radius: kind === "nosample" ? 5 : 8,
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
      // A tooltip of DOM nodes: the API's text is written as text, never as HTML.
      marker.bindTooltip(() => el("span", { text: "Site " + text(p.site_id) + ": " + (p.reported_value !== undefined && p.reported_value !== null ? String(p.reported_value) + (p.unit && kind !== "nosample" ? " " + p.unit : "") : "no sample") }), { direction: "top", offset: [0, -6] });
      marker.on("click", (event) => {
        L.DomEvent.stop(event);
        onOpen(p.site_id, marker.getLatLng());
      });
      add(p.site_id, marker);
    }
    if (selected() !== null) highlight(selected());
    legendSection(key, siteLegend(label, min, max, classes, censoredCount, noSampleCount));
    return { count: features.length, censored: censoredCount, noSample: noSampleCount, min, max };
  }

  return {
    layer,
    show,
    clear,
    highlight,
    /** The marker of a site id, for tests and the keyboard path. */
    marker: markerOf,
    /** The sites drawn, for the list of what is in view: [{key, name, latlng}]. */
    items: () => [...markers.values()].map((m) => ({ key: String(m.geoFeature.properties.site_id), name: "Site " + text(m.geoFeature.properties.site_id) + ": " + (m.geoKind === "nosample" ? "no sample" : text(m.geoFeature.properties.reported_value) + (m.geoFeature.properties.unit ? " " + m.geoFeature.properties.unit : "")), latlng: m.getLatLng() })),
    /** [{site_id, kind, colour, value, reported_value}] of what is drawn. */
    drawn: () => [...markers.values()].map((m) => ({ site_id: m.geoFeature.properties.site_id, kind: m.geoKind, colour: m.geoColour, value: m.geoFeature.properties.value, reported_value: m.geoFeature.properties.reported_value })),
  };
}

/** The layer's part of the one legend: the element's national classes (unit), then censored and no-sample marks, then what is in view. */
function siteLegend(label, min, max, classes, censoredCount, noSampleCount) {
  const unit = label && label.unit ? label.unit : "";
  const box = el("div", { class: "legend-classes geo-legend", role: "group", "aria-label": "Geochemistry colour classes" });
  box.appendChild(el("p", { class: "legend-title", text: text(label && label.name) + ", 0–5 cm" + (unit ? " (" + unit + ")" : "") }));
  const list = el("ul", { class: "class-list" });
  for (const c of classes.classes) {
    const swatch = el("span", { class: "legend-swatch class-swatch geo-swatch", "aria-hidden": "true" });
    swatch.style.background = c.colour;
    list.appendChild(el("li", { class: "class-row", "data-from": c.from, "data-to": c.to, "data-colour": c.colour }, [swatch, el("span", { text: c.label + (unit ? " " + unit : "") })]));
  }
  box.appendChild(list);
  if (censoredCount) box.appendChild(el("div", { class: "legend-row geo-censored-row" }, [el("span", { class: "legend-censored", "aria-hidden": "true" }), el("span", { text: "Below the reporting limit (“<”), " + censoredCount + " in view" })]));
  if (noSampleCount) box.appendChild(el("div", { class: "legend-row" }, [el("span", { class: "legend-nosample", "aria-hidden": "true" }), el("span", { text: "No sample (N.S.), " + noSampleCount })]));
  box.appendChild(el("p", { class: "scale-range geo-basis", text: (classes.quantiles ? "Classes: national quantiles of " + classes.count + " sites (each holds about a fifth)." : "Classes: every site of the dataset.") + (min !== null ? " In view: " + formatNumber(min) + " to " + formatNumber(max) + (unit ? " " + unit : "") : "") }));
  return box;
}
