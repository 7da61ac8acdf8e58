// Draw an area of interest and see its report (GET /v1/soil/aoi): a rectangle by two clicks (opposite
// corners) or a polygon by clicks on its corners (finished by a click on the first corner, a double
// click or the Finish button). Clicks, not drags, so that a finger and a mouse draw alike. While a tool
// is active, map clicks belong to it (main.js asks `active()` before answering a click).
/* global L */
import { getJson, urls } from "./api.js";
import { AOI } from "./config.js";
import { $ } from "./dom.js";
import { renderAoi } from "./panels/aoi.js";
import { setActive, setStatus, setWhere } from "./status.js";

/** The tool's name as an owner of the status line: while drawing, the line is its instruction (status.js). */
const TOOL = "aoi";

const SHAPE = { color: "#1a4f8b", weight: 3, dashArray: "6 4", fillColor: "#1a73e8", fillOpacity: 0.08 };

/** A ring of [lon, lat] as WKT (closed; 6 decimals: about 0.1 m). */
export function polygonWkt(ring) {
  const closed = ring.concat([ring[0]]);
  return "POLYGON((" + closed.map(([lon, lat]) => round(lon) + " " + round(lat)).join(", ") + "))";
}
const round = (x) => String(Math.round(x * 1e6) / 1e6);

/** ctx: {map, state, panel, choice() → {property, method, depthTopCm, depthBottomCm}, beforeDetail(), onStart() (closes the phone's menu)}. */
export function setUpAoi(ctx) {
  const { map, state, panel } = ctx;
  map.createPane("aoi").style.zIndex = "470";
  const renderer = L.svg({ pane: "aoi" });
  const drawn = L.layerGroup().addTo(map);
  let mode = null;
  let corners = [];
  let preview = null;
  const buttons = { rectangle: $("aoi-rectangle"), polygon: $("aoi-polygon") };
  const finish = $("aoi-finish");
  const cancel = $("aoi-cancel");
  state.aoiState = "idle";

  let before = null;
  function setMode(next) {
    // Drawing makes the tool the active owner of the status line; stopping gives it back to the layer that had it.
    if (next !== null && mode === null) before = setActive(TOOL);
    if (next === null && mode !== null) setActive(before);
    mode = next;
    corners = [];
    if (preview) preview.remove();
    preview = null;
    for (const [name, button] of Object.entries(buttons)) button.setAttribute("aria-pressed", String(mode === name));
    finish.hidden = mode !== "polygon";
    cancel.hidden = mode === null;
    map.getContainer().classList.toggle("drawing", mode !== null);
    if (mode === null) map.doubleClickZoom.enable();
    else map.doubleClickZoom.disable();
    state.aoiMode = mode;
  }

  function start(next) {
    if (ctx.onStart) ctx.onStart();
    ctx.beforeDetail();
    panel.close(false);
    drawn.clearLayers();
    setMode(next);
    setWhere("");
    setStatus(next === "rectangle" ? "Draw a rectangle: click one corner, then the opposite corner." : "Draw a polygon: click each corner; click the first corner again, double-click or press Finish to close it.", "info", TOOL);
  }

  function drawPreview(pointer) {
    if (preview) preview.remove();
    const points = corners.concat(pointer ? [pointer] : []);
    if (mode === "rectangle" && points.length === 2) preview = L.rectangle(L.latLngBounds(points[0], points[1]), Object.assign({ renderer, pane: "aoi", interactive: false }, SHAPE));
    else if (points.length >= 2) preview = L.polyline(points, Object.assign({ renderer, pane: "aoi", interactive: false }, SHAPE));
    else preview = points.length ? L.circleMarker(points[0], { renderer, pane: "aoi", radius: 4, color: SHAPE.color, interactive: false }) : null;
    if (preview) preview.addTo(map);
  }

  function close() {
    if (mode === "polygon" && corners.length >= 3) report(corners.map((c) => [c.lng, c.lat]));
    else setStatus("A polygon needs at least three corners: click another corner.", "warn", TOOL);
  }

  /** The map clicked while a tool is active: a corner. */
  function click(latlng) {
    const p = latlng.wrap();
    if (mode === "rectangle") {
      corners.push(p);
      if (corners.length === 2) {
        const b = L.latLngBounds(corners[0], corners[1]);
        report([[b.getWest(), b.getSouth()], [b.getEast(), b.getSouth()], [b.getEast(), b.getNorth()], [b.getWest(), b.getNorth()]]);
      } else drawPreview(null);
      return;
    }
    if (corners.length >= 3) {
      const first = map.latLngToContainerPoint(corners[0]);
      if (first.distanceTo(map.latLngToContainerPoint(p)) < 12) return close();
    }
    corners.push(p);
    drawPreview(null);
  }

  /** Ask for the report of `ring` ([lon, lat] corners, not closed) and show it. */
  async function report(ring) {
    setMode(null);
    drawn.clearLayers();
    const shape = L.polygon(ring.map(([lon, lat]) => [lat, lon]), Object.assign({ renderer, pane: "aoi", interactive: false, className: "aoi-shape" }, SHAPE)).addTo(drawn);
    const choice = ctx.choice();
    const params = {
      polygon: polygonWkt(ring),
      properties: AOI.properties.join(","),
      method: choice.method,
      depth_top_cm: choice.depthTopCm,
      depth_bottom_cm: choice.depthBottomCm,
    };
    const url = urls.aoi(params);
    state.aoiUrl = url;
    state.aoiState = "loading";
    setWhere("");
    const opening = {
      heading: "Area of interest",
      focus: false,
      latlng: null,
      // The map narrowed (or a sheet rose) for the report: keep the whole area in sight.
      opened: () => panel.fit(shape.getBounds(), map.getZoom()),
      loading: "Measuring the map units in the area…",
      failure: "The area's report could not be made",
    };
    const shown = await panel.detail(opening, async (mine) => {
      const answer = await getJson(url, mine.signal);
      if (panel.current(mine)) renderAoi(panel.body, answer, url);
    });
    if (shown === "shown") state.aoiState = "ready";
    else if (shown === "failed") state.aoiState = "error";
  }

  buttons.rectangle.addEventListener("click", () => start("rectangle"));
  buttons.polygon.addEventListener("click", () => start("polygon"));
  finish.addEventListener("click", close);
  cancel.addEventListener("click", () => {
    setMode(null);
    setWhere("");
  });
  map.on("mousemove", (event) => {
    if (mode && corners.length) drawPreview(event.latlng.wrap());
  });
  map.on("dblclick", () => {
    if (mode === "polygon") close();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && mode) setMode(null);
  });

  return {
    /** True while a drawing tool takes the map's clicks. */
    active: () => mode !== null,
    click,
    /** Remove the drawn area (its report's panel closed, or the map moved elsewhere). */
    clear() {
      drawn.clearLayers();
      if (mode) setMode(null);
    },
    report,
  };
}
