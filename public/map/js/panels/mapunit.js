// One map unit's panel: the body of GET /v1/soil/mapunits/{map_unit_key} (or GET /v1/soil/summary):
// map_unit {area_symbol, map_unit_key, map_unit_symbol, map_unit_name, components[]}, summaries[],
// warnings. Every component is listed with its percent and kind; each summary with its method, depth
// interval, the share of the map unit it rests on and its own warnings.
import { asArray, el, formatDepth, formatNumber, text, unique } from "../dom.js";
import { definitionList, links, section, warningList } from "./parts.js";
import { methodName } from "../config.js";
import { componentProfiles } from "../charts/profile.js";

const percentOf = (c) => (typeof c.component_percent === "number" ? c.component_percent : -1);

/** Fill `body` with a map unit; `jsonUrl` is the link to the JSON it came from, `csvUrl` to its CSV. */
export function renderMapUnit(body, answer, jsonUrl, csvUrl) {
  const unit = answer.map_unit || {};
  body.textContent = "";
  if (!answer.map_unit) {
    body.appendChild(el("p", { class: "panel-message panel-warn", text: "No map unit here." }));
  } else {
    body.appendChild(el("h3", { class: "map-unit-name" }, ["Map unit ", el("span", { class: "symbol", text: text(unit.map_unit_symbol) }), ": " + text(unit.map_unit_name)]));
    // The value asked for (the soil map's property, depth and method) leads, before the tables.
    const asked = asArray(answer.summaries)[0];
    if (asked) body.appendChild(leadOf(asked));
    body.appendChild(
      definitionList([
        ["Map unit key", text(unit.map_unit_key)],
        ["Survey area", text(unit.area_symbol)],
        ["Provider", text(unit.provider)],
        ["Data kind", text(answer.data_kind)],
      ]),
    );
    body.appendChild(componentTable(asArray(unit.components)));
    const profiles = componentProfiles(asArray(unit.components));
    if (profiles) body.appendChild(profiles);
  }
  const summaries = asArray(answer.summaries);
  if (summaries.length) body.appendChild(section("Summaries", [summaryTable(summaries)].concat(summaryWarnings(summaries))));
  const warnings = unique(asArray(answer.warnings));
  if (warnings.length) body.appendChild(section("Warnings", [warningList(warnings)]));
  if (jsonUrl) body.appendChild(links([["Map unit JSON", jsonUrl], csvUrl ? ["Map unit CSV", csvUrl] : null]));
}

/** A summary as the panel's lead: property and depth, value with its unit, method and share of the map unit, the caveat of a mapped value. */
function leadOf(s) {
  const value = typeof s.value === "number" ? formatNumber(s.value) + (s.unit ? " " + s.unit : "") : s.category !== null && s.category !== undefined ? String(s.category) : "no value";
  const warnings = unique(asArray(s.warnings));
  return el("div", { class: "panel-lead", id: "panel-lead", "data-property": text(s.property && s.property.id) }, [
    el("p", { class: "lead-property", text: text(s.property && (s.property.name || s.property.id)) + ", " + formatDepth(s.depth) + " cm" }),
    el("p", { class: "lead-value", text: value }),
    el("p", { class: "lead-method", text: "Method: " + methodName(s.method) + (typeof s.percent_of_map_unit === "number" ? ", over " + formatNumber(s.percent_of_map_unit) + " % of the map unit" : "") }),
    el("p", { class: "lead-caveat", text: "A mapped survey estimate for the whole map unit, not a measurement at a point." + (warnings.length ? " " + warnings.length + " warning" + (warnings.length === 1 ? "" : "s") + " below." : "") }),
  ]);
}

function componentTable(components) {
  const sorted = components.slice().sort((a, b) => percentOf(b) - percentOf(a));
  const table = el("table", { class: "data-table map-unit-components" });
  table.appendChild(el("caption", { text: "Components (" + components.length + ")" }));
  table.appendChild(el("thead", null, [el("tr", null, ["Component", "Percent", "Kind", "Major"].map((h) => el("th", { scope: "col", text: h })))]));
  const tbody = el("tbody");
  for (const c of sorted) {
    tbody.appendChild(
      el("tr", { "data-component-key": text(c.component_key) }, [
        el("th", { scope: "row", text: text(c.component_name) }),
        el("td", { class: "col-value", text: typeof c.component_percent === "number" ? formatNumber(c.component_percent) + " %" : "not recorded" }),
        el("td", { text: text(c.component_kind) }),
        el("td", { text: c.major_component === true ? "yes" : c.major_component === false ? "no" : "—" }),
      ]),
    );
  }
  table.appendChild(tbody);
  return el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": "Components of the map unit" }, [table]);
}

function summaryTable(summaries) {
  const table = el("table", { class: "data-table map-unit-summaries" });
  table.appendChild(el("thead", null, [el("tr", null, ["Property", "Value", "Method", "Depth (cm)", "Of map unit"].map((h) => el("th", { scope: "col", text: h })))]));
  const tbody = el("tbody");
  for (const s of summaries) {
    const value = typeof s.value === "number" ? formatNumber(s.value) + (s.unit ? " " + s.unit : "") : s.category !== null && s.category !== undefined ? String(s.category) : "no value";
    tbody.appendChild(
      el("tr", null, [
        el("th", { scope: "row", text: text(s.property && (s.property.name || s.property.id)) }),
        el("td", { class: "col-value", text: value }),
        el("td", { text: methodName(s.method), title: text(s.method) }),
        el("td", { text: formatDepth(s.depth) }),
        el("td", { class: "col-value", text: typeof s.percent_of_map_unit === "number" ? formatNumber(s.percent_of_map_unit) + " %" : "—" }),
      ]),
    );
  }
  table.appendChild(tbody);
  return el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": "Summaries of the map unit" }, [table]);
}

/** Each summary's warnings, under its property's name. */
function summaryWarnings(summaries) {
  return summaries
    .filter((s) => asArray(s.warnings).length)
    .map((s) => el("div", { class: "summary-warnings" }, [el("p", { class: "summary-warnings-title", text: text(s.property && (s.property.name || s.property.id)) + ":" }), warningList(unique(s.warnings))]));
}
