// DOM and formatting helpers. Everything that comes from the API is written as text (textContent,
// createTextNode), never as HTML: these builders have no innerHTML path.

export const $ = (id) => document.getElementById(id);

/** Build an element. `text` becomes textContent; other keys become attributes; children are nodes or strings (text). */
export function el(tag, attrs, children) {
  return fill(document.createElement(tag), attrs, children);
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** The same for SVG elements (createElementNS): charts and legend scales are inline SVG. */
export function svg(tag, attrs, children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

function fill(node, attrs, children) {
  if (attrs) {
    for (const key of Object.keys(attrs)) {
      const value = attrs[key];
      if (value === undefined || value === null || value === false) continue;
      if (key === "text") node.textContent = String(value);
      else if (key === "class") node.setAttribute("class", value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children || []) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

export function text(value) {
  return value === null || value === undefined || value === "" ? "—" : String(value);
}

export function round6(x) {
  return Math.round(x * 1e6) / 1e6;
}

export function clamp(x, lo, hi) {
  return Math.min(hi, Math.max(lo, x));
}

/** A number as text without binary floating-point noise (2.3274000000000004 → 2.3274). */
export function formatNumber(value) {
  if (typeof value !== "number" || !isFinite(value)) return text(value);
  return String(Number(value.toPrecision(12)));
}

/**
 * The precision the API documents (docs/decisions.md#precision: four significant digits) applied to
 * display: a value reported with more digits (KSSL clay 35.154017) is shown to four significant digits
 * (35.15), never with fewer integer digits, and never with more digits than reported (5.1 stays 5.1). The
 * value as reported stays in the JSON, the CSV and the cell's title (`asReported`).
 */
export const DISPLAY_SIGNIFICANT_DIGITS = 4;
export function displayNumber(value) {
  if (typeof value !== "number" || !isFinite(value)) return text(value);
  if (value === 0) return "0";
  const decimals = Math.max(0, DISPLAY_SIGNIFICANT_DIGITS - 1 - Math.floor(Math.log10(Math.abs(value))));
  return formatNumber(Number(value.toFixed(decimals)));
}
/** "as reported: 35.154017" when the display rounds the value, else null. */
export function asReported(value, reported) {
  const full = reported !== undefined && reported !== null && reported !== "" ? String(reported) : formatNumber(value);
  return displayNumber(value) !== formatNumber(value) ? "as reported: " + full : null;
}

const missing = (x) => x === null || x === undefined;

export function formatDepth(depth) {
  if (!depth) return "—";
  const top = depth.top_cm, bottom = depth.bottom_cm;
  if (missing(top) && missing(bottom)) return "not recorded";
  return text(missing(top) ? "?" : formatNumber(top)) + "–" + text(missing(bottom) ? "?" : formatNumber(bottom));
}

/** The strings of `list`, each once, in first-seen order. */
export function unique(list) {
  const seen = new Set();
  return list.filter((item) => {
    if (typeof item !== "string" || seen.has(item)) return false;
    seen.add(item);
    return true;
  });
}

export const asArray = (value) => (Array.isArray(value) ? value : []);
