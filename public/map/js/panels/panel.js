// The side panel: one detail at a time (a pedon, the survey at a point, a map unit). Opening a new
// detail aborts the request of the previous one.
import { describeError, isAbort } from "../api.js";
import { $, el } from "../dom.js";

export function createPanel(map, onClose, onOpen) {
  const panel = $("panel");
  const title = $("panel-title");
  const body = $("panel-body");
  let controller = null;

  /** Keep `latlng` in sight in the map beside (or above) the panel: the panel never covers the map. */
  function reveal(latlng) {
    const size = map.getSize();
    map.panInside(latlng, { padding: [Math.min(120, size.x / 4), Math.min(80, size.y / 4)], animate: false });
  }

  /** Show `bounds` whole. */
  function fit(bounds, maxZoom) {
    map.fitBounds(bounds, { animate: false, padding: [30, 30], maxZoom });
  }

  /** Open the panel for something at `latlng`; keep that place in sight when the map narrows. */
  function open(heading, focus, latlng) {
    const wasHidden = panel.hidden;
    title.textContent = heading;
    body.textContent = "";
    panel.hidden = false;
    if (onOpen) onOpen();
    // Measured now (not only when the observer reports): the reveal below needs the narrowed size.
    if (wasHidden) map.invalidateSize({ pan: false });
    if (latlng) reveal(latlng);
    if (focus) {
      title.setAttribute("tabindex", "-1");
      title.focus();
    }
  }

  /** Close the panel (a no-op when it is closed); `focusMap` false when the close is part of a move elsewhere. */
  function close(focusMap) {
    if (controller) controller.abort();
    controller = null;
    if (panel.hidden) return;
    onClose();
    panel.hidden = true;
    map.invalidateSize({ pan: false });
    if (focusMap !== false) map.getContainer().focus();
  }

  /** A fresh AbortController for the detail about to load; the previous one is aborted. */
  function start() {
    if (controller) controller.abort();
    controller = new AbortController();
    return controller;
  }

  /** Whether `c` still belongs to the detail on show (answers of replaced details are dropped). */
  const current = (c) => c === controller;

  function message(text, kind) {
    body.textContent = "";
    body.appendChild(el("p", { class: "panel-message panel-" + (kind || "info"), text }));
  }

  /**
   * Open the panel on one detail and load it: `heading`, `focus` and `latlng` as `open`; `opened()` runs
   * once the panel is open; `loading` is said until `load(controller)` settles. `load` fills the panel,
   * checking `current(controller)` after each wait of its own. An abort or a detail replaced meanwhile is
   * dropped; a failure is said as "<failure>: <why>". Resolves "shown", "failed" or "dropped".
   */
  async function detail({ heading, focus, latlng, opened, loading, failure }, load) {
    open(heading, focus, latlng);
    if (opened) opened();
    message(loading, "busy");
    const mine = start();
    try {
      await load(mine);
      return current(mine) ? "shown" : "dropped";
    } catch (error) {
      if (isAbort(error) || !current(mine)) return "dropped";
      message(failure + ": " + describeError(error), "error");
      return "failed";
    }
  }

  $("panel-close").addEventListener("click", () => close(true));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !panel.hidden) close(true);
  });

  return {
    body,
    open,
    close,
    reveal,
    fit,
    detail,
    current,
  };
}
