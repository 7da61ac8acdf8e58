// The modeled-grid layer (kind "grid" of GET /v1/layers: SoilGrids in this instance; the page names no
// provider) and its part of a point's panel. One property and depth at a time: the picker lists what the
// grid answer's `layers` says the grid holds; the image and the legend's classes are the API's
// (layers/grid.js, docs/decisions.md#grid-legend). A click inside the grid adds the modeled values at
// the point (the entry's detail endpoint, GET /v1/soil/modeled) to the point's panel, beside the mapped
// survey's (panels/modeled.js). Both URLs are the entry's, never written here (docs/decisions.md#map-layers).
import { describeError, getJson, isAbort, withParams } from "./api.js";
import { $, el } from "./dom.js";
import { createGridLayer, gridBox, KIND } from "./layers/grid.js";
import { renderModeled } from "./panels/modeled.js";
import { setStatus } from "./status.js";

/** SoilGrids' first depth interval: the grid asked first (its answer then lists every layer held). */
const FIRST_DEPTH = "0-5cm";

/** ctx: {map, state, catalog (promise)}; entry: the GET /v1/layers entry of kind "grid". */
export function setUpGrid(ctx, entry) {
  const { map, state } = ctx;
  const layer = createGridLayer(map);
  const select = $("grid-choice");
  const say = (message, kind) => setStatus(message, kind || "info", KIND);
  const choice = { property: entry.properties[0] || "clay", depth: FIRST_DEPTH };
  let visible = false;
  let controller = null;
  let held = null;
  state.gridState = "off";
  $("grid-controls").hidden = false;

  /** One grid answer per choice, kept for the page's life (a failure is not kept). */
  const answers = new Map();
  const gridUrl = ({ property, depth }) => withParams(entry.endpoint, { property, depth });
  function gridOf(property, depth) {
    const key = property + "|" + depth;
    if (!answers.has(key)) {
      const pending = getJson(gridUrl({ property, depth }));
      pending.catch(() => answers.delete(key));
      answers.set(key, pending);
    }
    return answers.get(key);
  }
  /** The first answer: the grid's box (for the coverage list) and the layers it holds (for the picker). */
  const first = gridOf(choice.property, choice.depth);

  async function fillPicker(grid) {
    if (held) return;
    const catalog = await ctx.catalog;
    held = (Array.isArray(grid.layers) ? grid.layers : []).filter((l) => l && typeof l.property === "string" && typeof l.depth === "string");
    select.textContent = "";
    for (const l of held) select.appendChild(el("option", { value: l.property + "|" + l.depth, text: catalog.property(l.property).name + ", " + l.depth.replace("cm", " cm") }));
    select.value = choice.property + "|" + choice.depth;
  }

  async function load() {
    if (controller) controller.abort();
    const mine = (controller = new AbortController());
    if (!visible) {
      layer.clear();
      say("");
      state.gridState = "off";
      return;
    }
    state.gridState = "loading";
    say("Loading the modeled grid…", "busy");
    try {
      const grid = await gridOf(choice.property, choice.depth);
      if (mine !== controller || !visible) return;
      await fillPicker(grid);
      const drawn = layer.show(grid);
      state.gridUrl = gridUrl(choice);
      state.gridDrawn = drawn;
      state.gridState = "ready";
      say(grid.property.name + ", " + grid.depth.label + " (" + grid.data_kind + ", " + grid.width + " × " + grid.height + " cells" + (drawn.noData ? ", " + drawn.noData + " without data" : "") + "). Click a cell for the modeled values there.");
    } catch (error) {
      if (isAbort(error) || mine !== controller) return;
      layer.clear();
      say("The modeled grid could not be loaded: " + describeError(error), "error");
      state.gridState = "error";
    }
  }

  select.addEventListener("change", () => {
    const [property, depth] = select.value.split("|");
    Object.assign(choice, { property, depth });
    load();
  });

  /** The box of a drawn or first grid, or null. */
  async function box() {
    try {
      return gridBox(await first);
    } catch {
      return null;
    }
  }

  return {
    kind: KIND,
    setVisible(on) {
      visible = Boolean(on);
      return load();
    },
    visible: () => visible,
    /** The grid's box [w, s, e, n], from its first answer (the coverage list flies there). */
    extent: box,
    /**
     * In a point's panel: the modeled values at (lat, lon) when the point lies in the grid, as a section
     * returned to the caller (null outside). properties: those the grid holds.
     */
    async pointSection(lat, lon, signal) {
      const b = await box();
      if (!b || lon < b[0] || lon > b[2] || lat < b[1] || lat > b[3]) return null;
      const grid = await first;
      const catalog = await ctx.catalog;
      const properties = [...new Set((grid.layers || []).map((l) => l.property))];
      const params = { latitude: lat, longitude: lon, properties: properties.join(",") || null };
      try {
        const answer = await getJson(withParams(entry.detail_endpoint, params), signal);
        return renderModeled(answer, params, entry, catalog);
      } catch (error) {
        if (isAbort(error)) throw error;
        return el("section", { class: "panel-section modeled-part" }, [el("p", { class: "panel-message panel-error", text: "The modeled values could not be loaded: " + describeError(error) })]);
      }
    },
  };
}
