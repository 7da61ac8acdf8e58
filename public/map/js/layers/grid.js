// A modeled grid (GET /v1/soil/modeled/grid) drawn as one image over its box: one canvas pixel per cell,
// coloured by the API's own legend classes (docs/decisions.md#grid-legend), a cell with no data left
// transparent. The image is a data: URL (the page's CSP allows data: images) laid over the cells' box;
// `image-rendering: pixelated` (map.css) keeps each cell a square instead of a blur.
/* global L */
import { el, formatNumber, text } from "../dom.js";
import { legendSection } from "../map.js";

/** This layer's kind in GET /v1/layers. */
export const KIND = "grid";

const isNumber = (x) => typeof x === "number" && isFinite(x);

/** The box [w, s, e, n] of a grid answer's cells (origin is the top-left corner; rows run south). */
export function gridBox(grid) {
  const [west, north] = grid.origin;
  const [dx, dy] = grid.cell_size;
  return [west, north - grid.height * dy, west + grid.width * dx, north];
}

/** The class of a value: the first whose [min, max] holds it (a bound shared by two goes to the lower class, as the API's labels read). */
export function classOf(classes, value) {
  if (!isNumber(value)) return null;
  return classes.find((c) => value >= c.min && value <= c.max) || (value < classes[0].min ? classes[0] : classes[classes.length - 1]);
}

/** The value of the cell holding (lat, lon), or undefined outside the grid. */
export function cellAt(grid, lat, lon) {
  const column = Math.floor((lon - grid.origin[0]) / grid.cell_size[0]);
  const row = Math.floor((grid.origin[1] - lat) / grid.cell_size[1]);
  if (column < 0 || row < 0 || column >= grid.width || row >= grid.height) return undefined;
  return { column, row, value: grid.values[row * grid.width + column] };
}

/** The grid as a PNG data URL: one pixel per cell, the class colour, transparent where there is no data. */
function imageOf(grid, classes) {
  const canvas = document.createElement("canvas");
  canvas.width = grid.width;
  canvas.height = grid.height;
  const context = canvas.getContext("2d");
  const image = context.createImageData(grid.width, grid.height);
  const rgb = classes.map((c) => [1, 3, 5].map((i) => parseInt(String(c.color).slice(i, i + 2), 16)));
  for (let i = 0; i < grid.width * grid.height; i++) {
    const c = classOf(classes, grid.values[i]);
    if (!c) continue;
    const [r, g, b] = rgb[classes.indexOf(c)];
    image.data.set([r, g, b, 255], i * 4);
  }
  context.putImageData(image, 0, 0);
  return canvas.toDataURL("image/png");
}

export function createGridLayer(map) {
  map.createPane("grid").style.zIndex = "242";
  let overlay = null;
  let drawn = null;

  function clear() {
    if (overlay) overlay.remove();
    overlay = null;
    drawn = null;
    legendSection(KIND, null);
  }

  /** Draw a grid answer; returns {box, cells, noData}. */
  function show(grid) {
    clear();
    const classes = Array.isArray(grid.legend && grid.legend.classes) ? grid.legend.classes.filter((c) => isNumber(c.min) && isNumber(c.max) && /^#[0-9a-f]{6}$/i.test(String(c.color))) : [];
    const box = gridBox(grid);
    overlay = L.imageOverlay(imageOf(grid, classes), L.latLngBounds([box[1], box[0]], [box[3], box[2]]), { pane: "grid", opacity: 1, interactive: false, className: "grid-overlay", alt: "Modeled grid" }).addTo(map);
    drawn = grid;
    legendSection(KIND, gridLegend(grid, classes));
    const noData = grid.values.filter((v) => !isNumber(v)).length;
    return { box, cells: grid.values.length, noData };
  }

  return { show, clear, drawn: () => drawn };
}

/**
 * A class's bounds to two significant digits of its width ("31.3–34.7 %", not the API's "31.333–34.667 %":
 * the model is no more precise than that); the API's own label is the row's title.
 */
function classLabel(c, unit) {
  const decimals = Math.max(0, 1 - Math.floor(Math.log10(Math.abs(c.max - c.min) || 1)));
  const bound = (v) => String(Number(v.toFixed(decimals)));
  return bound(c.min) + "–" + bound(c.max) + (unit ? " " + unit : "");
}

/** The layer's part of the one legend: the API's classes for the property and depth, the statistic, the cell size. */
function gridLegend(grid, classes) {
  const unit = grid.unit ? " (" + grid.unit + ")" : "";
  const box = el("div", { class: "legend-classes grid-legend", role: "group", "aria-label": "Modeled grid colour classes" });
  box.appendChild(el("p", { class: "legend-title", text: text(grid.property && grid.property.name) + ", " + text(grid.depth && grid.depth.label) + ", " + text(grid.statistic) + unit }));
  const list = el("ul", { class: "class-list" });
  for (const c of classes) {
    const swatch = el("span", { class: "legend-swatch class-swatch", "aria-hidden": "true" });
    swatch.style.background = c.color;
    list.appendChild(el("li", { class: "class-row", "data-from": c.min, "data-to": c.max, "data-colour": c.color, title: text(c.label) }, [swatch, el("span", { text: classLabel(c, grid.unit) })]));
  }
  box.appendChild(list);
  box.appendChild(el("p", { class: "scale-range grid-basis", text: "Classes: the API's, six equal steps over the layer. Cells of " + formatNumber(Number((grid.cell_size[0] * 3600).toFixed(1))) + "″; blank cells hold no data." }));
  return box;
}
