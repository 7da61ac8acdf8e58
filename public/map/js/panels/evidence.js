// The point panel's evidence view (GET /v1/soil/evidence, docs/map.md): every source's evidence about the
// soil at the point, side by side, each card labelled with its data kind and its distance, then the
// comparison on the GlobalSoilMap depths (one table per property, a column per source, each cell with its
// data kind and distance), never an average across sources. Text from the API is written as text.
import { urls } from "../api.js";
import { el, formatNumber, text } from "../dom.js";

const kindOf = (value) => String(value || "unknown").replace(/_/g, " ");
const km = (d) => (typeof d === "number" && isFinite(d) ? formatNumber(d) + " km" : "distance not stated");
const asList = (x) => (Array.isArray(x) ? x : []);

/** What a source holds at the point, in one line per item: [label, distance]. */
function itemsOf(source) {
  const rows = [];
  for (const unit of asList(source.map_units)) rows.push([text(unit.map_unit_symbol) + " " + text(unit.map_unit_name), 0]);
  if (!asList(source.map_units).length && asList(source.observations).length) {
    const properties = [...new Set(source.observations.map((o) => text(o.property && (o.property.name || o.property.id))))];
    rows.push(["Grid cell: " + properties.join(", "), 0]);
  }
  for (const pedon of asList(source.pedons)) rows.push(["Pedon " + text(pedon.pedon_key) + (pedon.name ? " (" + text(pedon.name) + ")" : ""), pedon.distance_km]);
  for (const site of asList(source.sites)) rows.push(["Site " + text(site.site_id) + (site.collection_date ? ", sampled " + text(site.collection_date) : ""), site.distance_km]);
  for (const station of asList(source.stations)) rows.push(["Station " + text(station.name) + " (" + text(station.station_triplet) + ")" + (asList(station.held).length ? ", a series held here" : ""), station.distance_km]);
  for (const description of asList(source.descriptions)) rows.push(["Series " + text(description.series && description.series.name) + (description.component_percent ? " (" + description.component_percent + " % of the map unit)" : ""), 0]);
  return rows;
}

/** One card per source: its name, data kind, what it has here and how far. */
function sourceCard(id, source) {
  const items = itemsOf(source);
  const card = el("section", { class: "evidence-source", "data-provider": id, "data-kind": source.data_kind }, [
    el("h4", { text: text(source.short_name || id) }),
    el("p", { class: "part-kind", text: "Data kind: " + kindOf(source.data_kind) }),
  ]);
  if (!items.length) card.appendChild(el("p", { class: "evidence-none", text: "Nothing here within the search radius." }));
  else card.appendChild(el("ul", { class: "evidence-items" }, items.map(([label, distance]) => el("li", null, [el("span", { text: label }), el("span", { class: "evidence-distance", text: " · " + km(distance) })]))));
  return card;
}

/** The comparison for one property: depths as rows, sources as columns; each cell its value, data kind and distance. */
function comparisonTable(entry, names) {
  const depths = asList(entry.depths);
  const providers = [...new Set(depths.flatMap((d) => asList(d.cells).map((c) => c.provider)))];
  if (!providers.length) return null;
  const head = el("tr", null, [el("th", { class: "col-depth", text: "Depth (cm)" }), ...providers.map((p) => el("th", { text: names[p] || p }))]);
  const body = depths.map((d) =>
    el("tr", null, [
      el("th", { class: "col-depth", text: d.top_cm + "–" + d.bottom_cm }),
      ...providers.map((p) => {
        const cell = asList(d.cells).find((c) => c.provider === p);
        if (!cell || typeof cell.value !== "number") return el("td", { class: "col-value missing", text: "—" });
        const interval = typeof cell.lower === "number" && typeof cell.upper === "number" ? " (" + formatNumber(cell.lower) + "–" + formatNumber(cell.upper) + ")" : "";
        return el("td", { class: "col-value evidence-cell", "data-provider": p, "data-value": cell.value, title: text(cell.describes) }, [
          formatNumber(cell.value) + (cell.unit ? " " + cell.unit : "") + interval,
          el("span", { class: "unit", text: kindOf(cell.data_kind) + ", " + km(cell.distance_km) }),
        ]);
      }),
    ]),
  );
  const statements = depths.flatMap((d) => asList(d.statements));
  return el("div", { class: "table-wrap" }, [
    el("table", { class: "data-table evidence-table", "data-property": entry.property && entry.property.id }, [
      el("caption", { text: text(entry.property && (entry.property.name || entry.property.id)) }),
      el("thead", null, [head]),
      el("tbody", null, body),
    ]),
    statements.length ? el("ul", { class: "warnings evidence-statements" }, statements.map((s) => el("li", { text: text(s) }))) : null,
  ]);
}

/** The evidence section for an answer of GET /v1/soil/evidence. */
export function renderEvidence(answer, params) {
  const sources = answer && answer.sources && typeof answer.sources === "object" ? answer.sources : {};
  const names = Object.fromEntries(Object.entries(sources).map(([id, s]) => [id, text(s.short_name || id)]));
  const section = el("section", { class: "panel-section evidence", id: "evidence", "data-kind": "evidence" }, [
    el("h3", { text: "Every source at this point, side by side" }),
    el("p", { class: "part-kind", text: "Each source answers for what it describes (a map unit, a model's grid cell, a pedon, a sample site, a station), at its own distance; never averaged across sources." }),
    el("div", { class: "evidence-sources" }, Object.entries(sources).map(([id, source]) => sourceCard(id, source))),
  ]);
  const tables = asList(answer.comparison).map((entry) => comparisonTable(entry, names)).filter(Boolean);
  if (tables.length) {
    section.appendChild(el("h3", { text: "Comparison on the GlobalSoilMap depths" }));
    for (const table of tables) section.appendChild(table);
  }
  for (const warning of asList(answer.warnings)) section.appendChild(el("p", { class: "caveat", text: text(warning) }));
  section.appendChild(el("p", { class: "api-links" }, [el("a", { href: urls.evidence(params), text: "Evidence JSON" }), el("a", { href: urls.evidence(Object.assign({ format: "csv" }, params)), text: "Evidence CSV" })]));
  return section;
}
