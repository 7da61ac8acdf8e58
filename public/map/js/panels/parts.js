// Building blocks of the panels: sections, fact lists, warnings, links and data-table headings.
import { SHORT_LABELS } from "../config.js";
import { el, text } from "../dom.js";

export function section(title, children, extraClass) {
  return el("section", { class: "panel-section" + (extraClass ? " " + extraClass : "") }, [el("h3", { text: title })].concat(children));
}

/** A <dl> of [term, text or node] rows; null rows are skipped. */
export function definitionList(rows) {
  const dl = el("dl", { class: "facts" });
  for (const row of rows) {
    if (!row) continue;
    dl.appendChild(el("dt", { text: row[0] }));
    dl.appendChild(el("dd", null, [row[1]]));
  }
  return dl;
}

export function warningList(warnings, className) {
  return el("ul", { class: "warnings " + (className || "") }, warnings.map((w) => el("li", { text: w })));
}

/** Links to the JSON (and raw provider answers) behind a panel: [label, href] pairs. */
export function links(items) {
  return el("p", { class: "api-links" }, items.filter(Boolean).map(([label, href]) => el("a", { href, target: "_blank", rel: "noopener", text: label })));
}

/**
 * Column headings (name and unit) for each property: the name and unit the observations came back
 * with, else the catalog's (GET /v1/properties).
 */
export function columnLabels(properties, observations, catalog) {
  const labels = {};
  for (const o of observations) {
    const id = o && o.property && o.property.id;
    if (id && !labels[id]) labels[id] = { name: text(o.property.name), unit: text(o.unit) };
  }
  return properties.map((id) => {
    const known = catalog.property(id);
    const name = labels[id] ? labels[id].name : known.name;
    const unit = labels[id] ? labels[id].unit : known.unit || "";
    return { id, short: SHORT_LABELS[id] || name, name, unit };
  });
}

export function headerRow(columns) {
  return el(
    "tr",
    null,
    [el("th", { scope: "col", class: "col-depth" }, ["Depth", el("span", { class: "unit", text: "cm" })]), el("th", { scope: "col", class: "col-horizon", text: "Horizon" })].concat(
      columns.map((c) => el("th", { scope: "col", class: "col-value", title: c.name + ", " + c.unit }, [el("abbr", { title: c.name, text: c.short }), el("span", { class: "unit", text: c.unit })])),
    ),
  );
}

/** "pH = pH (1:1 water); OC = Organic carbon; …" for the headings that are abbreviated. */
export function columnKey(columns) {
  return "Columns: " + columns.map((c) => (c.short === c.name ? c.name + " (" + c.unit + ")" : c.short + " = " + c.name + " (" + c.unit + ")")).join("; ") + ".";
}

/** The warnings of a list of observations (each once). */
export function observationWarnings(observations) {
  return observations.reduce((acc, o) => acc.concat(Array.isArray(o && o.warnings) ? o.warnings : []), []);
}
