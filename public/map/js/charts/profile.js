// SoilWeb-style profile sketches of soil series: per series one column of boxes from the surface down,
// each box a horizon of the typical pedon (GET /v1/series/{name}), filled with its moist colour's sRGB
// and named beside it. Several sketches share one depth scale so they compare at a glance.
import { getJson, describeError } from "../api.js";
import { el, svg, text } from "../dom.js";

export const SKETCH = { width: 132, height: 260, top: 18, bottom: 14, columnX: 30, columnWidth: 40, openBottomCm: 20 };

/** Where the series page shows a series ("/v1/series/CLARION" → "/series?name=CLARION"). */
export function seriesPageHref(apiUrl) {
  const key = String(apiUrl).split("/").pop();
  return "/series?name=" + encodeURIComponent(decodeURIComponent(key));
}

const bottomOf = (h) => (typeof h.depth.bottom_cm === "number" ? h.depth.bottom_cm : h.depth.top_cm + SKETCH.openBottomCm);

/** The deepest bottom of a series' horizons, cm (a horizon without a bottom drawn SKETCH.openBottomCm deep). */
export function profileDepth(horizons) {
  return horizons.reduce((deepest, h) => Math.max(deepest, bottomOf(h)), 0);
}

/**
 * One sketch: `series` is a /v1/series answer; `scaleCm` the depth the drawing's height stands for
 * (the deepest of the sketches shown together). Each box carries data-horizon and data-fill.
 */
export function profileSketch(series, scaleCm) {
  const horizons = series.horizons || [];
  const depth = scaleCm || profileDepth(horizons) || 1;
  const inner = SKETCH.height - SKETCH.top - SKETCH.bottom;
  const y = (cm) => SKETCH.top + (cm / depth) * inner;
  const name = text(series.series && series.series.name);
  const picture = svg("svg", {
    class: "profile-sketch",
    width: SKETCH.width,
    height: SKETCH.height,
    viewBox: "0 0 " + SKETCH.width + " " + SKETCH.height,
    role: "img",
    "aria-label": "Profile sketch of the " + name + " series: " + horizons.map((h) => h.name + " " + h.depth.top_cm + "–" + (h.depth.bottom_cm ?? "?") + " cm").join(", "),
  });
  picture.appendChild(svg("text", { x: SKETCH.columnX + SKETCH.columnWidth / 2, y: 12, "text-anchor": "middle", class: "profile-title", text: name }));
  // Labels of thin horizons are pushed down so they never overlap (a line is about 11 px).
  let nextLabelY = 0;
  for (const h of horizons) {
    const colour = h.moist_color && h.moist_color.srgb_hex;
    const top = y(h.depth.top_cm);
    const height = Math.max(1, y(bottomOf(h)) - top);
    const box = svg("rect", {
      x: SKETCH.columnX,
      y: top,
      width: SKETCH.columnWidth,
      height,
      // No colour in the description: light grey, and the title says so.
      fill: colour || "#d9d9d9",
      "data-horizon": h.name,
      "data-fill": colour || "",
      class: "profile-horizon" + (colour ? "" : " no-colour") + (typeof h.depth.bottom_cm === "number" ? "" : " open-bottom"),
    });
    box.appendChild(svg("title", { text: h.name + " " + h.depth.top_cm + "–" + (h.depth.bottom_cm ?? "?") + " cm" + (h.moist_color ? ", moist " + h.moist_color.notation : ", no moist colour") + (h.texture_class ? ", " + h.texture_class : "") }));
    picture.appendChild(box);
    const labelY = Math.max(top + Math.min(height, 14) / 2 + 4, nextLabelY);
    nextLabelY = labelY + 11;
    picture.appendChild(svg("text", { x: SKETCH.columnX + SKETCH.columnWidth + 4, y: labelY, class: "profile-label", text: h.name }));
  }
  // Depth ticks: the surface and the scale's depth, in cm (the unit written on the deeper tick).
  for (const cm of [0, depth]) {
    picture.appendChild(svg("text", { x: SKETCH.columnX - 3, y: y(cm) + 4, "text-anchor": "end", class: "profile-tick", text: String(Math.round(cm)) }));
  }
  picture.appendChild(svg("text", { x: SKETCH.columnX - 3, y: y(depth) + 14, "text-anchor": "end", class: "profile-tick profile-unit", text: "cm" }));
  return picture;
}

/**
 * A "Profiles" block for map-unit components: each component with a `series` link gets the sketch of
 * its series (fetched from the API), on a shared depth scale, opening the series page when clicked.
 * Returns the element at once; the sketches arrive when their answers do. Null when no component links one.
 */
export function componentProfiles(components) {
  const linked = components.filter((c) => c && c.series && c.series.url);
  if (!linked.length) return null;
  const row = el("div", { class: "profile-row" });
  const block = el("section", { class: "panel-section profiles" }, [el("h3", { text: "Profile sketches (series descriptions, moist colours)" }), row]);
  row.appendChild(el("p", { class: "panel-message panel-busy", text: "Loading series descriptions…" }));
  Promise.allSettled(linked.map((c) => getJson(c.series.url))).then((answers) => {
    row.textContent = "";
    const loaded = answers.map((a) => (a.status === "fulfilled" ? a.value : null));
    const scale = Math.max(1, ...loaded.filter(Boolean).map((s) => profileDepth(s.horizons || [])));
    linked.forEach((component, i) => {
      const series = loaded[i];
      const href = seriesPageHref(component.series.url);
      const caption = el("figcaption", null, [
        el("a", { href, class: "series-link", "data-series": component.series.name, text: component.component_name + " series" }),
        typeof component.component_percent === "number" ? " (" + component.component_percent + " %)" : "",
      ]);
      if (!series) {
        row.appendChild(el("figure", { class: "profile" }, [el("p", { class: "panel-message panel-warn", text: "No description: " + describeError(answers[i].reason) }), caption]));
        return;
      }
      const link = el("a", { href, class: "profile-link", "aria-label": "Open the " + component.series.name + " series description" }, [profileSketch(series, scale)]);
      row.appendChild(el("figure", { class: "profile", "data-series": component.series.name }, [link, caption]));
    });
  });
  return block;
}
