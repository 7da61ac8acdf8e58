// The mapped soil survey at a point (GET /v1/soil/location): each map unit there, its components
// (largest share first) and their horizons, with the survey's warnings.
import { csvOf, urls } from "../api.js";
import { LOCATION_COLUMNS } from "../config.js";
import { asArray, el, formatDepth, formatNumber, text, unique } from "../dom.js";
import { columnKey, columnLabels, definitionList, headerRow, links, observationWarnings, section, warningList } from "./parts.js";

/** The properties a point query asks for: the page's columns the survey provider serves. */
export function locationProperties(catalog) {
  return catalog.columns(catalog.surveyProvider, LOCATION_COLUMNS);
}

export function renderLocation(body, lat, lon, answer, params, catalog) {
  const observations = asArray(answer.observations);
  const mapUnits = asArray(answer.map_units);
  // Warnings every observation carries (the mapped-survey warning) go to the top; the rest go with
  // their component (e.g. "minor component"), and the response's own warnings to the end.
  const everywhere = unique(observationWarnings(observations)).filter((w) => observations.every((o) => Array.isArray(o.warnings) && o.warnings.includes(w)));
  const responseWarnings = unique(asArray(answer.warnings)).filter((w) => !everywhere.includes(w));
  const provider = catalog.surveyProvider ? catalog.surveyProvider.id : providerOf(observations);

  body.textContent = "";
  body.appendChild(
    definitionList([
      ["Point", formatNumber(lat) + ", " + formatNumber(lon) + " (WGS84)"],
      ["Data kind", text(answer.data_kind || "mapped_survey")],
      ["Provider", text(provider)],
    ]),
  );
  if (everywhere.length) body.appendChild(warningList(everywhere, "survey-warning"));
  if (observations.length === 0) {
    // With no map unit, the API's reason (a gap in a survey area, outside the snapshot, outside the US) leads.
    const reason = asArray(answer.warnings).map((w) => /falls in no .* map unit: (.*)$/.exec(String(w))).find(Boolean);
    const message = mapUnits.length ? "The map unit here has no horizon values for the requested properties." : "No mapped survey data at this point" + (reason ? ": " + reason[1] : ".");
    body.appendChild(el("p", { class: "panel-message panel-warn coverage-message", text: message }));
  }

  const requested = String(params.properties || "").split(",").filter(Boolean);
  const columns = columnLabels(requested, observations, catalog);
  const groups = groupByMapUnit(observations);
  for (const unit of mapUnits) {
    // A location map unit is the spec's four fields (no components): profile sketches are on the map-unit panel.
    body.appendChild(mapUnitSection(unit, groups[unit.map_unit_key] || [], columns, everywhere));
    delete groups[unit.map_unit_key];
  }
  // Observations whose map unit was not in map_units (should not happen; shown rather than dropped).
  for (const mapUnitKey of Object.keys(groups)) {
    const first = groups[mapUnitKey][0] && groups[mapUnitKey][0].survey_context;
    body.appendChild(mapUnitSection(first || { map_unit_key: mapUnitKey }, groups[mapUnitKey], columns, everywhere));
  }

  if (responseWarnings.length) body.appendChild(section("Warnings", [warningList(responseWarnings)]));
  const citations = unique(observations.map((o) => (o && o.source ? o.source.citation : null)));
  if (citations.length) body.appendChild(section("Source", citations.map((c) => el("p", { class: "citation", text: c }))));
  const raw = { latitude: params.latitude, longitude: params.longitude, properties: params.properties };
  body.appendChild(links([["Location JSON", urls.location(params)], ["Location CSV", csvOf(urls.location(params))], provider ? ["Raw provider answer", urls.rawLocation(provider, raw)] : null]));
}

function providerOf(observations) {
  const named = observations.map((o) => o && o.source && o.source.provider).find((p) => typeof p === "string");
  return named || null;
}

function groupByMapUnit(observations) {
  const groups = {};
  for (const o of observations) {
    const key = o && o.survey_context ? String(o.survey_context.map_unit_key) : "";
    (groups[key] = groups[key] || []).push(o);
  }
  return groups;
}

const percentOf = (c) => (typeof c.component_percent === "number" ? c.component_percent : -1);
const topOf = (depth) => (depth && typeof depth.top_cm === "number" ? depth.top_cm : Infinity);

function mapUnitSection(unit, observations, columns, shownAbove) {
  const box = el("section", { class: "panel-section map-unit" });
  box.appendChild(el("h3", null, ["Map unit ", el("span", { class: "symbol", text: text(unit.map_unit_symbol) }), ": " + text(unit.map_unit_name)]));
  box.appendChild(
    definitionList([
      ["Map unit key", text(unit.map_unit_key)],
      ["Survey area", text(unit.area_symbol)],
    ]),
  );
  // Components, largest share first.
  const components = new Map();
  for (const o of observations) {
    const c = o.survey_context;
    if (!components.has(c.component_key)) components.set(c.component_key, { context: c, horizons: new Map(), warnings: [] });
    const component = components.get(c.component_key);
    for (const w of asArray(o.warnings)) if (!shownAbove.includes(w)) component.warnings.push(w);
    if (!component.horizons.has(c.horizon_key)) component.horizons.set(c.horizon_key, { name: c.horizon_name, depth: o.depth, values: {} });
    const horizon = component.horizons.get(c.horizon_key);
    if (o.property && !horizon.values[o.property.id]) horizon.values[o.property.id] = o;
  }
  const order = [...components.entries()].sort((a, b) => percentOf(b[1].context) - percentOf(a[1].context));
  if (order.length === 0) box.appendChild(el("p", { class: "panel-message", text: "No component horizon values for the requested properties in this map unit." }));
  for (const [componentKey, component] of order) {
    const c = component.context;
    const percent = typeof c.component_percent === "number" ? formatNumber(c.component_percent) + " % of the map unit" : "share not recorded";
    box.appendChild(el("h4", { class: "component" }, [text(c.component_name) + " — " + percent, el("span", { class: "key", text: " (component key " + text(componentKey) + ")" })]));
    const componentWarnings = unique(component.warnings);
    if (componentWarnings.length) box.appendChild(warningList(componentWarnings, "component-warnings"));
    const table = el("table", { class: "data-table component-horizons" });
    table.appendChild(el("caption", { text: "Horizons of " + text(c.component_name) + ": representative values" }));
    table.appendChild(el("thead", null, [headerRow(columns)]));
    const tbody = el("tbody");
    const horizons = [...component.horizons.values()].sort((a, b) => topOf(a.depth) - topOf(b.depth));
    for (const horizon of horizons) {
      const row = el("tr", null, [el("th", { scope: "row", class: "col-depth", text: formatDepth(horizon.depth) }), el("td", { class: "col-horizon", text: text(horizon.name) })]);
      for (const column of columns) row.appendChild(surveyCell(horizon.values[column.id]));
      tbody.appendChild(row);
    }
    table.appendChild(tbody);
    box.appendChild(el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": "Horizons of " + text(c.component_name) }, [table]));
  }
  if (order.length) box.appendChild(el("div", { class: "table-notes" }, [el("p", { text: columnKey(columns) }), el("p", { text: "Small figures: the low–high typical values of the component horizon (not a statistical interval). — = not reported." })]));
  return box;
}

function surveyCell(observation) {
  if (!observation) return el("td", { class: "col-value missing", text: "—", title: "not reported" });
  const cell = el("td", { class: "col-value", title: observation.measurement_method || null }, [formatNumber(observation.value)]);
  const u = observation.uncertainty || {};
  if (typeof u.lower === "number" || typeof u.upper === "number") {
    cell.appendChild(el("span", { class: "range", text: (typeof u.lower === "number" ? formatNumber(u.lower) : "?") + "–" + (typeof u.upper === "number" ? formatNumber(u.upper) : "?"), title: u.method || null }));
  }
  if (observation.data_kind === "derived" || (Array.isArray(observation.transformations) && observation.transformations.length)) {
    cell.appendChild(el("sup", { class: "derived-mark", text: "d", title: "derived or converted; see the JSON for the transformation" }));
  }
  return cell;
}
