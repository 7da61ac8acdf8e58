// A station's lab pedon beside its sensors, as inline SVG built with DOM calls: the pedon's layers by
// depth (depth grows downward, as in a profile), each with its designation and the property's value, and
// a line at each sensor depth. Text from the API goes in as textContent only.
import { displayNumber, formatDepth, formatNumber, svg, text } from "../dom.js";

const WIDTH = 320;
const MARGIN = { top: 16, bottom: 10, left: 40, right: 8 };
const COLUMN = { x: 46, width: 96 };
const isNumber = (x) => typeof x === "number" && isFinite(x);

/**
 * Where a layer's label sits (its baseline): the middle of the layer, or its top or bottom edge, whichever
 * keeps the label farthest from every sensor line (a label across the line hides both).
 */
function labelY(top, bottom, sensorYs) {
  const places = [(top + bottom) / 2 + 4, top + 11, bottom - 2];
  const clearance = (baseline) => Math.min(Infinity, ...sensorYs.map((s) => Math.abs(s - (baseline - 4))));
  const best = places.reduce((a, b) => (clearance(b) > clearance(a) + 0.5 ? b : a));
  return Number(best.toFixed(2));
}

/**
 * layers: [{depth: {top_cm, bottom_cm}, name, value, unit}] of the pedon; sensors: depths in cm; label:
 * {name, unit, title}. Returns an <svg> whose `.pedon-layer` groups are the layers and `.sensor-depth` the sensors.
 */
export function sensorDepthChart(layers, sensors, label) {
  const drawn = layers.filter((l) => l.depth && isNumber(l.depth.top_cm) && isNumber(l.depth.bottom_cm) && l.depth.bottom_cm > l.depth.top_cm);
  const deepest = Math.max(10, ...drawn.map((l) => l.depth.bottom_cm), ...sensors.map((d) => d + 5));
  const height = Math.max(180, Math.min(320, 40 + deepest * 1.2));
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const y = (d) => Number((MARGIN.top + (d / deepest) * plotH).toFixed(2));
  const chart = svg("svg", { class: "sensor-depth-chart", viewBox: "0 0 " + WIDTH + " " + height, width: WIDTH, height, role: "img", "aria-label": label.title }, [svg("title", { text: label.title })]);
  chart.appendChild(svg("text", { class: "axis-label", x: 4, y: 11, text: "Depth (cm)" }));
  for (const l of drawn) {
    const top = y(l.depth.top_cm), bottom = y(l.depth.bottom_cm);
    const value = isNumber(l.value) ? displayNumber(l.value) + (l.unit ? " " + l.unit : "") : "not reported";
    chart.appendChild(
      svg("g", { class: "pedon-layer", "data-top": l.depth.top_cm, "data-bottom": l.depth.bottom_cm, "data-value": isNumber(l.value) ? l.value : "" }, [
        svg("rect", { x: MARGIN.left + COLUMN.x - 40, y: top, width: COLUMN.width, height: Number((bottom - top).toFixed(2)) }),
        svg("text", { class: "tick", x: MARGIN.left - 4, y: top + 10, "text-anchor": "end", text: formatNumber(l.depth.top_cm) }),
        bottom - top >= 11 ? svg("text", { class: "layer-label", x: MARGIN.left + COLUMN.x - 34, y: labelY(top, bottom, sensors.map(y)), text: text(l.name) + ": " + value }) : null,
        svg("title", { text: text(l.name) + ", " + formatDepth(l.depth) + " cm: " + text(label.name) + " " + value }),
      ]),
    );
  }
  for (const depth of sensors) {
    const at = y(depth);
    chart.appendChild(
      svg("g", { class: "sensor-depth", "data-depth": depth }, [
        svg("line", { x1: MARGIN.left, x2: WIDTH - 100, y1: at, y2: at }),
        svg("text", { class: "sensor-label", x: WIDTH - 96, y: at + 4, text: "sensor " + formatNumber(depth) + " cm" }),
      ]),
    );
  }
  return chart;
}
