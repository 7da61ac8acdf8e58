// A station's daily series as inline SVG built with DOM calls: the daily mean as a line, the day's
// hourly min–max as a band behind it, time along x, the value axis from zero (docs/map.md). A day the
// source did not report is a gap: the line and the band stop and start again, nothing is drawn across.
import { formatNumber, svg, text } from "../dom.js";
import { niceTicks } from "./depth.js";

const WIDTH = 360;
const HEIGHT = 228;
const MARGIN = { top: 26, right: 12, bottom: 44, left: 40 };
const DAY_MS = 86_400_000;
const isNumber = (x) => typeof x === "number" && isFinite(x);

/** Runs of consecutive days (a step over 1.5 days starts a new run: the days between were not reported). */
function runsOf(points) {
  const runs = [];
  let run = [];
  for (const p of points) {
    if (run.length && p.t - run[run.length - 1].t > 1.5 * DAY_MS) {
      runs.push(run);
      run = [];
    }
    run.push(p);
  }
  if (run.length) runs.push(run);
  return runs;
}

/** values: the series answer's items ({time, value, min, max}); label: {name, unit, title}. */
export function seriesChart(values, label) {
  const points = values
    .map((v) => ({ t: Date.parse(v.time), value: v.value, min: isNumber(v.min) ? v.min : v.value, max: isNumber(v.max) ? v.max : v.value }))
    .filter((p) => isFinite(p.t) && isNumber(p.value))
    .sort((a, b) => a.t - b.t);
  const chart = svg("svg", { class: "series-chart", viewBox: "0 0 " + WIDTH + " " + HEIGHT, width: WIDTH, height: HEIGHT, role: "img", "aria-label": label.title }, [svg("title", { text: label.title })]);
  if (!points.length) return chart;
  const t0 = points[0].t, t1 = Math.max(points[points.length - 1].t, t0 + DAY_MS);
  const top = Math.max(...points.map((p) => p.max), 0);
  const ticks = niceTicks(0, top > 0 ? top : 1, 4);
  const hi = Math.max(ticks[ticks.length - 1], top) || 1;
  const plotW = WIDTH - MARGIN.left - MARGIN.right, plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const r = (v) => Number(v.toFixed(2));
  const x = (t) => r(MARGIN.left + ((t - t0) / (t1 - t0)) * plotW);
  const y = (v) => r(MARGIN.top + plotH - (v / hi) * plotH);
  chart.setAttribute("data-y-from", "0");
  chart.setAttribute("data-y-to", String(hi));

  const axes = svg("g", { class: "axes" });
  for (const v of ticks) {
    axes.appendChild(svg("line", { class: "grid", x1: MARGIN.left, x2: MARGIN.left + plotW, y1: y(v), y2: y(v) }));
    axes.appendChild(svg("text", { class: "tick tick-y", "data-value": v, x: MARGIN.left - 5, y: y(v) + 4, "text-anchor": "end", text: formatNumber(v) }));
  }
  const firstYear = new Date(t0).getUTCFullYear(), lastYear = new Date(t1).getUTCFullYear();
  const every = Math.max(1, Math.ceil((lastYear - firstYear + 1) / 7));
  for (let year = firstYear; year <= lastYear + 1; year += every) {
    const t = Date.UTC(year, 0, 1);
    if (t < t0 || t > t1) continue;
    axes.appendChild(svg("line", { class: "grid", x1: x(t), x2: x(t), y1: MARGIN.top, y2: MARGIN.top + plotH }));
    axes.appendChild(svg("text", { class: "tick tick-x", x: x(t), y: HEIGHT - 26, "text-anchor": "middle", text: String(year) }));
  }
  axes.appendChild(svg("line", { class: "axis", x1: MARGIN.left, x2: MARGIN.left + plotW, y1: y(0), y2: y(0) }));
  axes.appendChild(svg("line", { class: "axis", x1: MARGIN.left, x2: MARGIN.left, y1: MARGIN.top, y2: MARGIN.top + plotH }));
  axes.appendChild(svg("text", { class: "axis-label", x: MARGIN.left, y: 14, text: text(label.name) + (label.unit ? " (" + label.unit + ")" : "") }));
  axes.appendChild(svg("text", { class: "axis-label axis-label-x", x: MARGIN.left + plotW / 2, y: HEIGHT - 6, "text-anchor": "middle", text: "Date (UTC); band: the day's hourly min–max" }));
  chart.appendChild(axes);

  const runs = runsOf(points);
  const band = runs.map((run) => "M" + run.map((p) => x(p.t) + "," + y(p.max)).join("L") + "L" + run.slice().reverse().map((p) => x(p.t) + "," + y(p.min)).join("L") + "Z").join("");
  const line = runs.map((run) => "M" + run.map((p) => x(p.t) + "," + y(p.value)).join("L")).join("");
  chart.appendChild(svg("path", { class: "series-band", d: band }));
  chart.appendChild(svg("path", { class: "series-line", d: line, "data-runs": runs.length, "data-points": points.length }));
  return chart;
}
