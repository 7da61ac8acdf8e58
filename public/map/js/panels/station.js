// A sensor station's panel (GET /v1/stations/{triplet}): name, triplet, place and elevation, the sources'
// disagreements as the API states them, the series as a chart (charts/series.js) and the linked lab
// pedon's layers beside the sensor depths (charts/sensor-depth.js). Everything from the API is text.
import { detailOf } from "../api.js";
import { asArray, el, formatNumber, text, unique } from "../dom.js";
import { seriesChart } from "../charts/series.js";
import { sensorDepthChart } from "../charts/sensor-depth.js";
import { definitionList, links, section, warningList } from "./parts.js";

const isNumber = (x) => typeof x === "number" && isFinite(x);

/** Writes the station's facts; returns {series, pedon}: the sections the series and the pedon go into. */
export function renderStation(body, answer, entry) {
  const feature = answer.station || {};
  const p = feature.properties || {};
  const coordinates = feature.geometry && Array.isArray(feature.geometry.coordinates) ? feature.geometry.coordinates : [];
  body.textContent = "";
  body.appendChild(
    el("div", { class: "panel-lead", id: "panel-lead" }, [
      el("p", { class: "lead-property", id: "station-name", text: text(p.name) + " (" + text(p.station_triplet) + ")" }),
      el("p", { class: "lead-method", text: text(entry.title) + ": " + text(answer.data_kind || entry.data_kind).replace(/_/g, " ") + " at the station" }),
      el("p", { class: "lead-caveat", text: "A station measures its own site: not a field, a map unit or the area around it." }),
    ]),
  );
  body.appendChild(
    definitionList([
      ["Triplet", text(p.station_triplet)],
      ["Place", [p.county, p.state].filter(Boolean).join(", ") || "—"],
      ["Location", coordinates.length === 2 ? formatNumber(coordinates[1]) + ", " + formatNumber(coordinates[0]) + " (WGS84)" : "—"],
      ["Elevation", isNumber(p.elevation_m) ? formatNumber(p.elevation_m) + " m" + (isNumber(p.elevation_ft) ? " (" + formatNumber(p.elevation_ft) + " ft as reported)" : "") : "—"],
      ["Operating", text(p.begin_date) + " to " + (p.end_date ? String(p.end_date) : "now")],
      ["Sensors", asArray(answer.sensors).length ? asArray(answer.sensors).map((s) => text(s.element).replace(/_/g, " ") + " at " + formatNumber(s.depth_cm) + " cm").join("; ") : "not named by this source"],
    ]),
  );
  const disagreements = asArray(answer.disagreements);
  if (disagreements.length) {
    body.appendChild(
      section(
        "Where the sources disagree",
        [el("ul", { class: "disagreements" }, disagreements.map((d) => el("li", { "data-field": text(d.field) }, [el("strong", { text: text(d.field) + ": " }), text(d.note)])))],
        "station-disagreements",
      ),
    );
  }
  const series = section("Series", [], "station-series");
  const pedon = section("Lab pedon and sensor depths", [], "station-pedon");
  body.appendChild(series);
  body.appendChild(pedon);
  const shown = new Set(disagreements.map((d) => d.note));
  const warnings = unique(asArray(answer.warnings)).filter((w) => ![...shown].some((note) => w.includes(note)));
  if (warnings.length) body.appendChild(section("Warnings", [warningList(warnings)]));
  const citations = unique(asArray(answer.source && answer.source.citations));
  if (citations.length) body.appendChild(section("Source", citations.map((c) => el("p", { class: "citation", text: c }))));
  body.appendChild(links([["Station JSON", detailOf(entry.detail_endpoint, p.station_triplet || (answer.query && answer.query.station_triplet))]]));
  return { series, pedon };
}

/** The series: a chart of its daily means and hourly ranges, or the API's word on why there is none. */
export function renderStationSeries(node, answer, url) {
  const values = asArray(answer.values);
  const q = answer.query || {};
  const what = text(q.element).replace(/_/g, " ") + " at " + formatNumber(q.depth_cm) + " cm";
  const unit = answer.unit || (values[0] && values[0].unit) || "";
  if (values.length === 0) {
    const held = asArray(answer.warnings).filter((w) => /holds no|no value|not held|offline snapshot holds/i.test(String(w)));
    node.appendChild(el("p", { class: "panel-message panel-warn series-missing", text: "No " + what + " here. " + (held.length ? held.join(" ") : unique(asArray(answer.warnings)).slice(-1).join(" ")) }));
    node.appendChild(links([["Series JSON", url]]));
    return;
  }
  const first = String(values[0].date || values[0].time).slice(0, 10), last = String(values[values.length - 1].date || values[values.length - 1].time).slice(0, 10);
  node.appendChild(el("p", { class: "lead-method", text: "Daily mean of " + what + " (line) and the day's hourly min–max (band), " + first + " to " + last + ", " + values.length + " days with data; days not reported are gaps. Clock: " + text(answer.clock && answer.clock.name) + "." }));
  node.appendChild(seriesChart(values, { name: "Soil " + what.replace(/^soil /, ""), unit, title: "Daily " + what + " (" + unit + "), " + first + " to " + last }));
  node.appendChild(links([["Series JSON", url], ["Series CSV", url + "&format=csv"]]));
}

/** The linked pedon's layers (the chosen property) beside the sensor depths, or why there is none. */
export function renderStationPedon(node, pedon, station, property, catalog) {
  const sensors = unique(asArray(station.sensors).map((s) => s.depth_cm).filter(isNumber).map(String)).map(Number);
  const held = asArray(station.station && station.station.properties && station.station.properties.series_offline).map((s) => s.depth_cm).filter(isNumber);
  const depths = [...new Set(sensors.concat(held))].sort((a, b) => a - b);
  if (!pedon) {
    const key = station.station && station.station.properties && station.station.properties.pedon_key;
    node.appendChild(el("p", { class: "panel-message panel-info", text: key ? "The station names lab pedon " + key + ", which this instance does not hold." : "The source names no lab pedon for this station." }));
    return;
  }
  const name = catalog.property(property).name;
  const layers = asArray(pedon.layers).map((l) => {
    const o = asArray(l.observations).find((x) => x.property && x.property.id === property);
    return { depth: l.depth, name: l.horizon_designation || l.layer_key, value: o && o.value_qualifier == null ? o.value : null, unit: o ? o.unit : null };
  });
  node.appendChild(el("p", { class: "lead-method", text: "Pedon " + text(pedon.pedon_key) + (pedon.name ? " (sampled as " + pedon.name + ")" : "") + ": " + name + " by layer, with the sensor depth" + (depths.length === 1 ? "" : "s") + " marked." }));
  node.appendChild(sensorDepthChart(layers, depths, { name, unit: layers.find((l) => l.unit) ? layers.find((l) => l.unit).unit : "", title: name + " of pedon " + text(pedon.pedon_key) + " by depth, sensors at " + depths.map(formatNumber).join(", ") + " cm" }));
  node.appendChild(links([["Pedon JSON", station.links.pedon.href]]));
}
