// The report of an area of interest (GET /v1/soil/aoi): its area, how much of it is mapped, each map
// unit with its acres and percent of the area (largest first), the area-weighted values for the whole
// area, warnings, and the export links (the same query as JSON, CSV and GeoJSON of the clipped polygons).
import { csvOf } from "../api.js";
import { methodName } from "../config.js";
import { asArray, el, formatDepth, formatNumber, text, unique } from "../dom.js";
import { definitionList, links, section, warningList } from "./parts.js";

/** `x` to `digits` significant figures at most, as text (no float noise). */
const sig = (x, digits) => (typeof x === "number" && isFinite(x) ? formatNumber(Number(x.toPrecision(digits))) : "—");
const acres = (x) => (typeof x === "number" ? (x >= 100 ? formatNumber(Math.round(x)) : sig(x, 3)) : "—");
const percent = (x) => (typeof x === "number" ? (x > 0 && x < 0.05 ? "< 0.1 %" : formatNumber(Math.round(x * 10) / 10) + " %") : "—");

export function renderAoi(body, answer, url) {
  const aoi = answer.aoi || {};
  body.textContent = "";
  body.appendChild(
    definitionList([
      ["Area", acres(aoi.area_acres) + " acres (" + sig(aoi.area_ha, 4) + " ha), geodesic on WGS84"],
      ["Mapped", percent(aoi.mapped_percent) + " of the area lies in map-unit polygons"],
      ["Data kind", text(answer.data_kind)],
    ]),
  );
  const mapUnits = asArray(answer.map_units);
  if (!mapUnits.length) body.appendChild(el("p", { class: "panel-message panel-warn", text: "No map unit in this area." }));
  else {
    const table = el("table", { class: "data-table aoi-map-units", id: "aoi-map-units" });
    table.appendChild(el("caption", { text: "Map units in the area (" + mapUnits.length + "), largest first" }));
    table.appendChild(el("thead", null, [el("tr", null, ["Symbol", "Map unit", "Acres", "% of area"].map((h, i) => el("th", { scope: "col", class: i < 2 ? "col-text" : null, text: h })))]));
    const tbody = el("tbody");
    for (const m of mapUnits) {
      tbody.appendChild(
        el("tr", { "data-map-unit-key": text(m.map_unit_key) }, [
          el("th", { scope: "row", class: "col-horizon", text: text(m.map_unit_symbol) }),
          el("td", { class: "aoi-name", text: text(m.map_unit_name) + (m.area_symbol ? " (" + m.area_symbol + ")" : "") }),
          el("td", { class: "col-value", text: acres(m.area_acres), "data-acres": m.area_acres }),
          el("td", { class: "col-value", text: percent(m.percent_of_aoi), "data-percent": m.percent_of_aoi }),
        ]),
      );
    }
    table.appendChild(tbody);
    body.appendChild(el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": "Map units in the area" }, [table]));
  }
  const summaries = asArray(answer.summaries);
  if (summaries.length) {
    const table = el("table", { class: "data-table aoi-summaries", id: "aoi-summaries" });
    table.appendChild(el("caption", { text: "Area-weighted values for the whole area (each map unit's summary, weighted by its area)" }));
    table.appendChild(el("thead", null, [el("tr", null, ["Property", "Value", "Method", "Depth (cm)", "Of the area"].map((h, i) => el("th", { scope: "col", class: i === 0 || i === 2 ? "col-text" : null, text: h })))]));
    const tbody = el("tbody");
    for (const s of summaries) {
      const value = typeof s.value === "number" ? sig(s.value, 4) + (s.unit ? " " + s.unit : "") : s.category !== null && s.category !== undefined ? String(s.category) : "no value";
      tbody.appendChild(
        el("tr", { "data-property": text(s.property && s.property.id) }, [
          el("th", { scope: "row", text: text(s.property && (s.property.name || s.property.id)) }),
          el("td", { class: "col-value", text: value, "data-value": typeof s.value === "number" ? s.value : null }),
          el("td", { class: "aoi-method", text: methodName(s.method) }),
          el("td", { text: formatDepth(s.depth) }),
          el("td", { class: "col-value", text: percent(s.percent_of_aoi), title: "the share of the area whose map units have a value" }),
        ]),
      );
    }
    table.appendChild(tbody);
    body.appendChild(el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": "Area-weighted values" }, [table]));
  }
  const warnings = unique(asArray(answer.warnings).concat(...summaries.map((s) => asArray(s.warnings))));
  if (warnings.length) body.appendChild(section("Warnings", [warningList(warnings)]));
  if (answer.source && answer.source.citation) body.appendChild(section("Source", [el("p", { class: "citation", text: answer.source.citation })]));
  body.appendChild(links([["Report JSON", url], ["Report CSV", csvOf(url)], ["Clipped polygons (GeoJSON)", url + "&format=geojson"]]));
}
