// A property against depth as inline SVG, built with DOM calls (createElementNS via svg()): one step
// per layer, a bar from zero to the layer's value over the layer's depth interval (the value axis starts at zero). Depth grows
// downward, as in a soil profile. Censored and missing values are drawn as empty, dashed steps (a
// censored result is never drawn at its limit). Text from the API goes in as textContent only.
import { displayNumber, formatDepth, formatNumber, svg, text } from "../dom.js";

const WIDTH = 320;
const HEIGHT = 260;
const MARGIN = { top: 34, right: 14, bottom: 8, left: 46 };

/** About `count` round tick values covering [lo, hi]. */
export function niceTicks(lo, hi, count) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) || 10 * power;
  const ticks = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/**
 * The x range: always from zero (docs/map.md), so a bar's length is its value and two charts compare by
 * eye; a negative value (none of the vocabulary's numeric properties has one, but the chart does not
 * assume it) extends the axis below zero.
 */
function valueDomain(values) {
  const lo = Math.min(0, ...values);
  let hi = Math.max(0, ...values);
  if (hi === lo) hi = lo + 1;
  const ticks = niceTicks(lo, hi, 4);
  const spacing = ticks.length > 1 ? ticks[1] - ticks[0] : 1;
  return [Math.floor(lo / spacing) * spacing, Math.ceil(hi / spacing) * spacing];
}

const isNumber = (x) => typeof x === "number" && isFinite(x);

/**
 * steps: [{depth: {top_cm, bottom_cm}, name, observation}] in profile order (observation null when
 * the layer has no value of the property); label: {name, unit, title}. Returns an <svg> whose
 * `.step` groups are the layers that have a depth interval.
 */
export function depthChart(steps, label) {
  const drawn = steps.filter((s) => s.depth && isNumber(s.depth.top_cm) && isNumber(s.depth.bottom_cm) && s.depth.bottom_cm > s.depth.top_cm);
  const valueOf = (s) => (s.observation && isNumber(s.observation.value) && (s.observation.value_qualifier === null || s.observation.value_qualifier === undefined) ? s.observation.value : null);
  const values = drawn.map(valueOf).filter((v) => v !== null);
  const unit = label.unit ? " (" + label.unit + ")" : "";
  const chart = svg("svg", { class: "depth-chart", viewBox: "0 0 " + WIDTH + " " + HEIGHT, width: WIDTH, height: HEIGHT, role: "img", "aria-label": label.title }, [svg("title", { text: label.title })]);
  if (drawn.length === 0) return chart;

  const maxDepth = Math.max(...drawn.map((s) => s.depth.bottom_cm));
  const [lo, hi] = values.length ? valueDomain(values) : [0, 1];
  const plotW = WIDTH - MARGIN.left - MARGIN.right, plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (v) => MARGIN.left + ((v - lo) / (hi - lo)) * plotW;
  const y = (d) => MARGIN.top + (d / maxDepth) * plotH;
  const r = (v) => Number(v.toFixed(2));

  // Grid and axes: values along the top, depth down the left side.
  const axes = svg("g", { class: "axes" });
  for (const t of niceTicks(lo, hi, 4)) {
    axes.appendChild(svg("line", { class: "grid", x1: r(x(t)), x2: r(x(t)), y1: MARGIN.top, y2: MARGIN.top + plotH }));
    axes.appendChild(svg("text", { class: "tick tick-x", x: r(x(t)), y: MARGIN.top - 6, "text-anchor": "middle", text: formatNumber(t) }));
  }
  for (const t of niceTicks(0, maxDepth, 5)) {
    axes.appendChild(svg("line", { class: "grid", x1: MARGIN.left, x2: MARGIN.left + plotW, y1: r(y(t)), y2: r(y(t)) }));
    axes.appendChild(svg("text", { class: "tick tick-y", x: MARGIN.left - 6, y: r(y(t)) + 4, "text-anchor": "end", text: formatNumber(t) }));
  }
  axes.appendChild(svg("line", { class: "axis", x1: MARGIN.left, x2: MARGIN.left + plotW, y1: MARGIN.top, y2: MARGIN.top }));
  axes.appendChild(svg("line", { class: "axis", x1: MARGIN.left, x2: MARGIN.left, y1: MARGIN.top, y2: MARGIN.top + plotH }));
  axes.appendChild(svg("text", { class: "axis-label", x: MARGIN.left + plotW / 2, y: 12, "text-anchor": "middle", text: text(label.name) + unit }));
  axes.appendChild(svg("text", { class: "axis-label", x: 12, y: MARGIN.top + plotH / 2, "text-anchor": "middle", transform: "rotate(-90 12 " + r(MARGIN.top + plotH / 2) + ")", text: "Depth (cm)" }));
  chart.appendChild(axes);

  const stepsGroup = svg("g", { class: "steps" });
  for (const s of drawn) {
    const value = valueOf(s);
    const top = r(y(s.depth.top_cm)), bottom = r(y(s.depth.bottom_cm));
    const where = text(s.name) + ", " + formatDepth(s.depth) + " cm: ";
    if (value === null) {
      const reported = s.observation && s.observation.reported_value ? "censored result " + String(s.observation.reported_value) : "not reported";
      stepsGroup.appendChild(
        svg("g", { class: "step step-missing", "data-top": s.depth.top_cm, "data-bottom": s.depth.bottom_cm }, [
          svg("rect", { x: MARGIN.left, y: top, width: r(plotW), height: r(bottom - top) }),
          svg("title", { text: where + reported }),
        ]),
      );
      continue;
    }
    stepsGroup.appendChild(
      svg("g", { class: "step", "data-value": value, "data-top": s.depth.top_cm, "data-bottom": s.depth.bottom_cm }, [
        svg("rect", { x: r(Math.min(x(0), x(value))), y: top, width: r(Math.abs(x(value) - x(0))), height: r(bottom - top) }),
        svg("line", { class: "step-edge", x1: r(x(value)), x2: r(x(value)), y1: top, y2: bottom }),
        svg("title", { text: where + displayNumber(value) + (label.unit ? " " + label.unit : "") }),
      ]),
    );
  }
  chart.appendChild(stepsGroup);
  return chart;
}
