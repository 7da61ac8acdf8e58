// A geochemistry site's panel (GET /v1/geochem/sites/{site_id}): where and when it was sampled, one row
// per element with the value as the file reports it (a censored result stays "<1", never its limit),
// the unit and method, the warnings, and links to the JSON, the CSV and the file's raw row. Also the
// "nearest geochemistry sites" block of a point's panel (GET /v1/geochem/sites?near=…).
import { csvOf, describeError, detailOf, getJson, isAbort, urls, withParams } from "../api.js";
import { asArray, el, formatNumber, text, unique } from "../dom.js";
import { definitionList, links, section, warningList } from "./parts.js";

/** Sites farther than this are not offered as "nearest" (the survey's spacing is about 40 km). */
const NEAR_KM = 300;

/** A site's element table; entry: its layer's GET /v1/layers entry (the site's own links). */
export function renderSite(body, siteId, answer, element, entry) {
  const site = answer.site || {};
  const lat = site.latitude, lon = site.longitude;
  const depth = site.depth && typeof site.depth.top_cm === "number" ? formatNumber(site.depth.top_cm) + "–" + formatNumber(site.depth.bottom_cm) + " cm (one surface sample)" : "0–5 cm (one surface sample)";
  body.textContent = "";
  const asked = asArray(answer.observations).find((o) => o.property && o.property.id === element);
  if (asked) body.appendChild(leadOf(asked, depth));
  body.appendChild(
    definitionList([
      ["Site", text(site.site_id !== undefined ? site.site_id : siteId)],
      site.lab_id !== undefined ? ["Lab sample", text(site.lab_id)] : null,
      site.state !== undefined ? ["State", text(site.state)] : null,
      site.collection_date !== undefined ? ["Collected", text(site.collection_date)] : null,
      site.land_cover_primary !== undefined ? ["Land cover (NLCD 1992)", text(site.land_cover_primary) + (site.land_cover_secondary ? "; " + site.land_cover_secondary : "")] : null,
      ["Depth", depth],
      typeof lat === "number" && typeof lon === "number" ? ["Coordinates", formatNumber(lat) + ", " + formatNumber(lon) + " (WGS84)"] : null,
      ["Provider", text(answer.provider) + (answer.data_kind ? " (" + answer.data_kind + ")" : "")],
    ]),
  );
  const observations = asArray(answer.observations);
  // One method for every element (as DS 801 states it) is said once under the table, not in 44 rows.
  const methods = unique(observations.map((o) => o.measurement_method).filter((m) => typeof m === "string"));
  const methodColumn = methods.length > 1;
  const table = el("table", { class: "data-table geo-elements", id: "geo-elements" });
  table.appendChild(el("caption", { text: "Elements (" + observations.length + "), total or near-total content" }));
  table.appendChild(el("thead", null, [el("tr", null, ["Element", "Value", "Unit", "As reported"].concat(methodColumn ? ["Method"] : []).map((h, i) => el("th", { scope: "col", class: i === 0 ? "col-text" : null, text: h })))]));
  const tbody = el("tbody");
  for (const o of observations) {
    const isCensored = o.value === null && o.value_qualifier;
    tbody.appendChild(
      el("tr", { "data-property": text(o.property && o.property.id), class: isCensored ? "censored-row" : null }, [
        el("th", { scope: "row", text: text(o.property && (o.property.name || o.property.id)) }),
        el("td", { class: "col-value" + (isCensored ? " censored" : ""), text: isCensored ? String(o.reported_value) : formatNumber(o.value), title: isCensored ? "below the reporting limit " + formatNumber(o.reporting_limit) + " " + text(o.unit) + "; no value is given" : null }),
        el("td", { text: text(o.unit) }),
        el("td", { class: "col-value", text: text(o.reported_value) }),
        methodColumn ? el("td", { class: "geo-method", text: text(o.measurement_method) }) : null,
      ]),
    );
  }
  table.appendChild(tbody);
  body.appendChild(el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": "Elements of the site" }, [table]));
  if (methods.length === 1) body.appendChild(el("p", { class: "table-notes geo-method-note", text: "Method (every element): " + methods[0] }));
  body.appendChild(el("p", { class: "table-notes", text: "“<1” is a result below the reporting limit (1 in the unit shown): no value is given for it, and the limit is not a value." }));
  const elementWarnings = unique([].concat(...observations.map((o) => asArray(o.warnings))));
  const warnings = unique(asArray(answer.warnings));
  if (warnings.length) body.appendChild(section("Warnings", [warningList(warnings)]));
  if (elementWarnings.length) body.appendChild(section("Element warnings", [warningList(elementWarnings)]));
  if (answer.source && answer.source.citation) body.appendChild(section("Source", [el("p", { class: "citation", text: answer.source.citation })]));
  const json = detailOf(entry.detail_endpoint, siteId);
  // The raw row is the answering provider's (the answer names it); no provider is named by this page.
  body.appendChild(links([["Site JSON", json], ["Site CSV", csvOf(json)]].concat(typeof answer.provider === "string" ? [["Raw file row", urls.rawGeochemSite(answer.provider, siteId)]] : [])));
}

/** The value asked for (the layer's element), first: property, depth, value as reported, method, caveat. */
function leadOf(o, depth) {
  const isCensored = o.value === null && o.value_qualifier;
  return el("div", { class: "panel-lead", id: "panel-lead" }, [
    el("p", { class: "lead-property", text: text(o.property.name || o.property.id) + ", " + depth.replace(/ \(.*\)$/, "") }),
    el("p", { class: "lead-value" + (isCensored ? " censored" : ""), text: (isCensored ? String(o.reported_value) : text(o.reported_value !== undefined && o.reported_value !== null ? o.reported_value : formatNumber(o.value))) + (o.unit ? " " + o.unit : "") }),
    o.measurement_method ? el("p", { class: "lead-method", text: "Method: " + o.measurement_method }) : null,
    el("p", { class: "lead-caveat", text: isCensored ? "Below the reporting limit: no value is given, and the limit is not a value." : "One surface sample at one site: not representative of a field, a map unit or the area around it." }),
  ]);
}

/**
 * The sites nearest a point, appended to `body` as a section with a button per site (onOpen(siteId,
 * latlng)). `element` is the layer's element, whose result each row shows; the sites are the layer
 * entry's (its endpoint asked with `near`).
 */
export async function appendNearestSites(body, lat, lon, element, entry, signal, onOpen) {
  const box = section("Nearest geochemistry sites (0–5 cm)", [el("p", { class: "panel-message panel-busy", text: "Looking for the nearest sites…" })], "geo-nearest");
  body.appendChild(box);
  const url = withParams(entry.endpoint, { near: lat + "," + lon, limit: 5, property: element });
  try {
    const answer = await getJson(url, signal);
    box.lastChild.remove();
    const near = asArray(answer.features).filter((f) => f.properties && typeof f.properties.distance_km === "number" && f.properties.distance_km <= NEAR_KM);
    if (!near.length) {
      box.appendChild(el("p", { class: "panel-message", text: "No geochemistry site within " + NEAR_KM + " km: the survey covers the conterminous United States." }));
      return;
    }
    const list = el("ol", { class: "geo-near-list" });
    for (const f of near) {
      const p = f.properties || {};
      const [flon, flat] = f.geometry.coordinates;
      const button = el("button", { type: "button", class: "geo-near", "data-site": text(p.site_id) }, ["Site " + text(p.site_id)]);
      button.addEventListener("click", () => onOpen(p.site_id, [flat, flon]));
      const result = p.reported_value !== undefined ? ": " + (p.property || element) + " " + p.reported_value + (p.unit && p.value !== null ? " " + p.unit : p.value === null && p.value_qualifier ? " " + text(p.unit) + " (below the reporting limit)" : "") : "";
      list.appendChild(el("li", null, [button, " " + formatNumber(p.distance_km) + " km" + (p.state ? ", " + p.state : "") + result]));
    }
    box.appendChild(list);
    box.appendChild(el("p", { class: "table-notes", text: "One 0–5 cm sample per about 1,600 km²: a site is not representative of this point or its field." }));
    box.appendChild(links([["Nearest sites JSON", url], ["CSV", csvOf(url)]]));
  } catch (error) {
    if (isAbort(error)) return;
    box.lastChild.textContent = "The nearest geochemistry sites could not be loaded: " + describeError(error);
  }
}
