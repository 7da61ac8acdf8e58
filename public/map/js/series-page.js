// The series page (/series?name=CLARION): GET /v1/series/{name} as a page: the taxonomic class, the
// typical pedon's profile sketch and horizons (colours as notation and swatch), every text section,
// the citation and warnings. API text is always set as text, never as markup.
import { describeError, getJson } from "./api.js";
import { el, svg, text } from "./dom.js";
import { profileSketch } from "./charts/profile.js";

const main = document.getElementById("series");

function swatch(color) {
  if (!color) return "—";
  const box = svg("svg", { width: 14, height: 14, class: "swatch", "aria-hidden": "true" }, [svg("rect", { width: 14, height: 14, fill: color.srgb_hex || "#d9d9d9" })]);
  return el("span", { class: "colour", "data-hex": color.srgb_hex || "" }, [box, " " + color.notation]);
}

function horizonTable(horizons) {
  const table = el("table", { class: "data-table series-horizons" });
  table.appendChild(el("caption", { text: "Typical pedon (" + horizons.length + " horizons)" }));
  table.appendChild(el("thead", null, [el("tr", null, ["Horizon", "Depth (cm)", "Moist", "Dry", "Texture", "Structure", "Reaction"].map((h) => el("th", { scope: "col", text: h })))]));
  const body = el("tbody");
  for (const h of horizons) {
    body.appendChild(
      el("tr", { "data-horizon": h.name }, [
        el("th", { scope: "row", text: h.name }),
        el("td", { text: h.depth.top_cm + "–" + (h.depth.bottom_cm ?? "?") }),
        el("td", { class: "moist" }, [swatch(h.moist_color)]),
        el("td", { class: "dry" }, [swatch(h.dry_color)]),
        el("td", { text: text(h.texture_class) }),
        el("td", { text: text(h.structure) }),
        el("td", { text: text(h.ph_class) }),
      ]),
    );
  }
  table.appendChild(body);
  return el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": "Horizons of the typical pedon" }, [table]);
}

function render(answer, apiUrl) {
  const s = answer.series;
  document.title = "Loam: " + s.name + " series";
  main.textContent = "";
  main.appendChild(el("h2", { class: "series-name", text: s.name + " series" }));
  main.appendChild(el("p", { class: "taxonomic-class", text: text(s.taxonomic_class) }));
  main.appendChild(el("p", { class: "series-facts", text: [s.status, s.states.length ? "States: " + s.states.join(", ") : null, s.revised ? "Revised " + s.revised : null].filter(Boolean).join(" · ") }));
  if (s.overview) main.appendChild(el("p", { class: "overview", text: s.overview }));
  main.appendChild(el("div", { class: "series-profile" }, [el("figure", { class: "profile" }, [profileSketch(answer)]), horizonTable(answer.horizons)]));
  for (const section of answer.sections) {
    main.appendChild(el("details", { class: "series-section" }, [el("summary", { text: section.name }), el("p", { text: section.text })]));
  }
  main.appendChild(el("p", { class: "citation", text: answer.source.citation }));
  if (answer.warnings.length) main.appendChild(el("ul", { class: "warnings" }, answer.warnings.map((w) => el("li", { text: w }))));
  main.appendChild(el("p", { class: "api-links" }, [el("a", { href: apiUrl, text: "Series JSON" }), el("a", { href: apiUrl + "?format=csv", text: "Horizons CSV" })]));
}

async function start() {
  const name = new URLSearchParams(location.search).get("name") || "";
  if (!name) {
    main.textContent = "";
    main.appendChild(el("p", { class: "panel-message panel-warn", text: "Name a series: /series?name=Clarion" }));
    return;
  }
  const apiUrl = "/v1/series/" + encodeURIComponent(name);
  try {
    render(await getJson(apiUrl), apiUrl);
  } catch (error) {
    main.textContent = "";
    main.appendChild(el("p", { class: "panel-message panel-error", text: "The series description could not be loaded: " + describeError(error) }));
  }
}

start();
