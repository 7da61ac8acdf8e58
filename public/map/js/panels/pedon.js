// A laboratory pedon's panel (GET /v1/pedons/{key}): where it is, its layers as a table, a depth chart
// of one property, warnings, source and links.
import { depthChart } from "../charts/depth.js";
import { MAX_PROPERTIES_PER_REQUEST, PEDON_CAVEAT, PEDON_COLUMNS } from "../config.js";
import { asArray, asReported, displayNumber, el, formatDepth, formatNumber, text, unique } from "../dom.js";
import { csvOf, detailOf, urls } from "../api.js";
import { seriesPageHref } from "../charts/profile.js";
import { columnKey, columnLabels, definitionList, headerRow, links, observationWarnings, section, warningList } from "./parts.js";

/**
 * The properties to ask a pedon for: the table's columns, then other numeric properties the lab
 * provider serves (the depth chart can show any of them), up to the per-request limit.
 */
export function pedonProperties(catalog) {
  return catalog.numericProperties(catalog.labProvider, PEDON_COLUMNS).slice(0, MAX_PROPERTIES_PER_REQUEST);
}

const topOf = (layer) => (layer && layer.depth && typeof layer.depth.top_cm === "number" ? layer.depth.top_cm : Infinity);

/**
 * Fill `body` with a pedon. `feature` is its /v1/pedons feature when it is on the map (name, sample
 * numbers); `chart` is {property, onChange(id)}: the property the depth chart shows first and who to
 * tell when the user picks another; `entry`: its layer's GET /v1/layers entry (the pedon's own links).
 */
export function renderPedon(body, key, detail, feature, catalog, chart, entry) {
  const props = (feature && feature.properties) || {};
  const location = detail.location || {};
  const lat = typeof location.latitude === "number" ? location.latitude : feature ? feature.geometry.coordinates[1] : null;
  const lon = typeof location.longitude === "number" ? location.longitude : feature ? feature.geometry.coordinates[0] : null;
  const accuracy = typeof location.horizontal_accuracy_m === "number" ? "± " + formatNumber(location.horizontal_accuracy_m) + " m as recorded" : "accuracy not recorded";
  const layers = asArray(detail.layers).slice().sort((a, b) => topOf(a) - topOf(b));
  const allObservations = [].concat(...layers.map((layer) => asArray(layer && layer.observations)));
  const provider = typeof detail.provider === "string" ? detail.provider : catalog.labProvider ? catalog.labProvider.id : null;

  // The pedon's own answer names it and links its series; a map feature does too.
  const sampledAs = detail.name || props.name;
  const series = detail.series || props.series;
  body.textContent = "";
  const lead = leadOf(layers, chart.property, catalog, allObservations);
  if (lead) body.appendChild(lead);
  body.appendChild(
    definitionList([
      ["Pedon key", text(detail.pedon_key || key)],
      sampledAs ? ["Sampled as", series && series.url ? el("a", { href: seriesPageHref(series.url), class: "series-link", text: text(sampledAs) + " (series description)" }) : text(sampledAs)] : null,
      props.pedlabsampnum && String(props.pedlabsampnum) !== String(detail.pedon_key || key) ? ["Lab sample no.", text(props.pedlabsampnum)] : null,
      props.upedonid ? ["User pedon id", text(props.upedonid)] : null,
      ["Provider", text(provider) + (detail.data_kind ? " (" + detail.data_kind + ")" : "")],
      ["Coordinates", lat === null || lon === null ? "not recorded" : formatNumber(lat) + ", " + formatNumber(lon) + " (WGS84; " + accuracy + ")"],
    ]),
  );
  body.appendChild(el("p", { class: "caveat", text: PEDON_CAVEAT }));

  // Layer table: depth, designation, then each property with its unit.
  const columns = columnLabels(catalog.columns(catalog.labProvider, PEDON_COLUMNS), allObservations, catalog);
  const derivedNotes = [];
  const table = el("table", { class: "data-table", id: "pedon-layers" });
  table.appendChild(el("caption", { text: "Laboratory layers (" + layers.length + ")" }));
  table.appendChild(el("thead", null, [headerRow(columns)]));
  const tbody = el("tbody");
  for (const layer of layers) {
    const byProperty = observationsByProperty(layer);
    const row = el("tr", { "data-layer-key": text(layer.layer_key) }, [
      el("th", { scope: "row", class: "col-depth", text: formatDepth(layer.depth) }),
      el("td", { class: "col-horizon", text: text(layer.horizon_designation) }),
    ]);
    for (const c of columns) row.appendChild(labCell(byProperty[c.id], derivedNotes));
    tbody.appendChild(row);
  }
  table.appendChild(tbody);
  if (layers.length === 0) {
    body.appendChild(el("p", { class: "panel-message", text: "No laboratory layers overlap the requested depth interval." }));
  } else {
    body.appendChild(el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": "Laboratory layers of pedon " + key }, [table]));
  }
  const legendNotes = [columnKey(columns), "— = not reported. A value beginning with < or > is a censored result, shown as reported (never as its limit).", "Values are shown to at most four significant digits, the API's precision rule; a cell's title, the JSON and the CSV give each value as the source reported it."].concat(unique(derivedNotes));
  body.appendChild(el("div", { class: "table-notes" }, legendNotes.map((n) => el("p", { text: n }))));

  if (layers.length) body.appendChild(chartSection(key, layers, allObservations, catalog, chart));

  const warnings = unique(asArray(detail.warnings).concat(observationWarnings(allObservations)));
  if (warnings.length) body.appendChild(section("Warnings", [warningList(warnings)]));
  if (detail.citation) body.appendChild(section("Source", [el("p", { class: "citation", text: String(detail.citation) + (detail.retrieved_at ? " Retrieved " + String(detail.retrieved_at) + "." : "") })]));
  const shown = detail.query && Array.isArray(detail.query.properties) ? detail.query.properties : null;
  body.appendChild(links([["Pedon JSON", detailOf(entry.detail_endpoint, key)], ["Pedon CSV (these layers)", csvOf(detailOf(entry.detail_endpoint, key, { properties: shown && shown.length ? shown.join(",") : null }))], provider ? ["Raw provider table", urls.rawPedon(provider, key)] : null]));
}

/**
 * The value asked for, first: the chosen property (the depth chart's, clay at first) in the top layer that
 * reports it, with its depth, method and the caveat every pedon value carries.
 */
function leadOf(layers, property, catalog, allObservations) {
  const layer = layers.find((l) => observationsByProperty(l)[property]);
  if (!layer) return null;
  const o = observationsByProperty(layer)[property];
  const label = columnLabels([property], allObservations, catalog)[0];
  const censored = o.value === null || o.value === undefined || (o.value_qualifier !== null && o.value_qualifier !== undefined);
  const value = censored ? text(o.reported_value) : displayNumber(o.value);
  return el("div", { class: "panel-lead", id: "panel-lead", "data-property": property }, [
    el("p", { class: "lead-property", text: label.name + ", " + formatDepth(layer.depth) + " cm (" + (layer.horizon_designation ? "layer " + layer.horizon_designation + ", " : "") + "the top layer reporting it)" }),
    el("p", { class: "lead-value" + (censored ? " censored" : ""), text: value + (o.unit ? " " + o.unit : "") }),
    o.measurement_method ? el("p", { class: "lead-method", text: "Method: " + o.measurement_method }) : null,
    el("p", { class: "lead-caveat", text: "A laboratory measurement of one sample at one point; " + (censored ? "a censored result, never its limit." : "not representative of the area around it.") }),
  ]);
}

function observationsByProperty(layer) {
  const byProperty = {};
  for (const o of asArray(layer && layer.observations)) if (o && o.property && o.property.id && !byProperty[o.property.id]) byProperty[o.property.id] = o;
  return byProperty;
}

/** The depth chart with its property picker: one step per layer (see charts/depth.js). */
function chartSection(key, layers, allObservations, catalog, chart) {
  const served = unique(allObservations.map((o) => o && o.property && o.property.id));
  const choices = pedonProperties(catalog).filter((id) => served.includes(id));
  const box = el("section", { class: "panel-section depth-chart-section" }, [el("h3", { text: "Depth chart" })]);
  if (choices.length === 0) return box;
  let chosen = choices.includes(chart.property) ? chart.property : choices[0];
  const labelOf = (id) => columnLabels([id], allObservations, catalog)[0];
  const select = el("select", { id: "depth-chart-property", "aria-label": "Property shown in the depth chart" }, choices.map((id) => el("option", { value: id, text: labelOf(id).name })));
  select.value = chosen;
  const holder = el("div", { class: "depth-chart-holder" });
  const draw = () => {
    holder.textContent = "";
    const label = labelOf(chosen);
    holder.appendChild(
      depthChart(
        layers.map((layer) => ({ depth: layer.depth, name: layer.horizon_designation, observation: observationsByProperty(layer)[chosen] || null })),
        { name: label.name, unit: label.unit, title: label.name + " against depth, pedon " + key },
      ),
    );
  };
  select.addEventListener("change", () => {
    chosen = select.value;
    if (chart.onChange) chart.onChange(chosen);
    draw();
  });
  box.appendChild(el("label", { class: "depth-chart-pick", for: "depth-chart-property" }, ["Property ", select]));
  box.appendChild(holder);
  draw();
  return box;
}

/** One lab value: censored results as reported ("<0.05"), never as their limit. */
function labCell(observation, derivedNotes) {
  if (!observation) return el("td", { class: "col-value missing", text: "—", title: "not reported" });
  const present = (x) => x !== null && x !== undefined;
  const censored = !present(observation.value) || present(observation.value_qualifier);
  const shown = censored ? (present(observation.reported_value) && observation.reported_value !== "" ? String(observation.reported_value) : "censored") : displayNumber(observation.value);
  const full = censored ? null : asReported(observation.value, observation.reported_value);
  const cell = el("td", { class: "col-value" + (censored ? " censored" : ""), title: [full, observation.measurement_method].filter(Boolean).join("; ") || null, "data-value": censored ? null : observation.value }, [shown]);
  if (censored && typeof observation.reporting_limit === "number") cell.setAttribute("title", "Censored result; reporting limit " + formatNumber(observation.reporting_limit));
  if (observation.data_kind === "derived") {
    cell.appendChild(el("sup", { class: "derived-mark", text: "d", title: "derived, not measured" }));
    derivedNotes.push("d = derived, not a direct measurement" + (observation.property && observation.property.name ? " (" + observation.property.name + ")" : "") + (observation.measurement_method ? ": " + observation.measurement_method : "."));
  }
  return cell;
}
