// Modeled values at a point (GET /v1/soil/modeled) as a section of the point's panel, beside the mapped
// survey's: labelled with their data kind and cell size, each value with its depth and, where the API
// gives one, the Q0.05–Q0.95 interval; the caveats after (docs/decisions.md#grid-context).
import { withParams } from "../api.js";
import { asArray, displayNumber, el, formatDepth, text, unique } from "../dom.js";
import { links, observationWarnings, warningList } from "./parts.js";

const isNumber = (x) => typeof x === "number" && isFinite(x);

/** "250 m" from the observations' grid context (or their source's spatial resolution). */
function cellSize(observations) {
  for (const o of observations) {
    if (o.grid_context && isNumber(o.grid_context.resolution_m)) return o.grid_context.resolution_m + " m";
    if (o.source && o.source.spatial_resolution) return String(o.source.spatial_resolution);
  }
  return null;
}

function interval(o) {
  const u = o.uncertainty;
  if (!u || !isNumber(u.lower) || !isNumber(u.upper)) return "—";
  return displayNumber(u.lower) + "–" + displayNumber(u.upper);
}

/** answer: GET /v1/soil/modeled; entry: the grid's GET /v1/layers entry. Returns the section. */
export function renderModeled(answer, params, entry, catalog) {
  const observations = asArray(answer.observations).filter((o) => o && o.property);
  const size = cellSize(observations);
  const kind = text(answer.data_kind || entry.data_kind).replace(/_/g, " ");
  const part = el("section", { class: "panel-section modeled-part", "data-kind": text(answer.data_kind || entry.data_kind) }, [
    el("h3", { text: "Modeled: " + text(entry.title) }),
    el("p", { class: "part-kind", text: "Data kind: " + kind + (size ? " · cell size " + size : "") + " · a prediction for the grid cell, not a measurement at the point" }),
  ]);
  if (observations.length === 0) {
    part.appendChild(el("p", { class: "panel-message panel-warn", text: "No modeled value at this point." }));
  } else {
    const withInterval = observations.some((o) => interval(o) !== "—");
    const head = el("tr", null, [el("th", { text: "Property" }), el("th", { text: "Depth (cm)" }), el("th", { text: "Value" }), withInterval ? el("th", { text: "Q0.05–Q0.95" }) : null]);
    const rows = observations.map((o) =>
      el("tr", { class: "modeled-row", "data-property": text(o.property.id), "data-top": o.depth ? o.depth.top_cm : "", "data-value": isNumber(o.value) ? o.value : "" }, [
        el("td", { text: catalog.property(o.property.id).name || text(o.property.name) }),
        el("td", { text: formatDepth(o.depth) }),
        el("td", { text: isNumber(o.value) ? displayNumber(o.value) + (o.unit ? " " + o.unit : "") : "no data" }),
        withInterval ? el("td", { text: interval(o) }) : null,
      ]),
    );
    part.appendChild(el("div", { class: "table-wrap" }, [el("table", { class: "data-table modeled-table" }, [el("thead", null, [head]), el("tbody", null, rows)])]));
    const method = observations.map((o) => o.uncertainty && o.uncertainty.method).find(Boolean);
    if (!withInterval && method) part.appendChild(el("p", { class: "lead-method", text: "No interval in this answer (" + method + ")." }));
  }
  const caveats = unique(observationWarnings(observations).concat(asArray(answer.warnings)));
  if (caveats.length) part.appendChild(warningList(caveats, "modeled-caveats"));
  const citations = unique(observations.map((o) => o.source && o.source.citation));
  for (const c of citations) part.appendChild(el("p", { class: "citation", text: c }));
  part.appendChild(links([["Modeled values JSON", withParams(entry.detail_endpoint, params)]]));
  return part;
}
