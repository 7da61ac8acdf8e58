// "In view": every data symbol on screen as a button (docs/map.md), so a keyboard reaches and opens what a
// mouse clicks: pedons, geochemistry sites, sensor stations. Polygons and grid cells are opened by "Open
// the soil at the map's centre" (the arrow keys move the map under it). The box is the map's own bounds,
// measured on every layout change (map.js keepMeasured), so "in view" is what is on screen; state.inView
// holds it and the counts for tests and the curious.
import { $, el } from "./dom.js";
import { symbolOf, viewBox } from "./map.js";

/** A keyboard user goes on in the detail just opened: its heading takes the focus. */
function focusDetail() {
  const title = $("panel-title");
  if ($("panel").hidden) return;
  title.setAttribute("tabindex", "-1");
  title.focus();
}

/** Buttons listed per layer; past this the list says how many more there are (zoom in to list them). */
const MAX_LISTED = 40;

/**
 * sources: registered with `add({kind, label, visible(), items()})`, items: [{key, name, latlng, open()}].
 * onCentre(latlng): what a click at the centre would do.
 */
export function setUpInView(map, state, onCentre) {
  const sources = [];
  const count = $("in-view-count");
  const lists = $("in-view-lists");
  let timer = null;

  function refresh() {
    timer = null;
    const bounds = map.getBounds();
    const counts = {};
    const parts = [];
    lists.textContent = "";
    for (const source of sources) {
      if (!source.visible()) continue;
      const items = source.items().filter((item) => bounds.contains(item.latlng));
      counts[source.kind] = items.length;
      parts.push(items.length + " " + source.label(items.length));
      if (!items.length) continue;
      items.sort((a, b) => String(a.name).localeCompare(String(b.name)));
      const list = el("ul", { class: "in-view-list", "data-kind": source.kind, "aria-label": source.label(2) + " in view" });
      for (const item of items.slice(0, MAX_LISTED)) {
        const button = el("button", { type: "button", class: "in-view-item", "data-key": item.key }, [symbolOf(source.kind), el("span", { text: item.name })]);
        button.addEventListener("click", () => {
          item.open();
          focusDetail();
        });
        list.appendChild(el("li", null, [button]));
      }
      lists.appendChild(el("h3", { text: source.label(2) }));
      lists.appendChild(list);
      if (items.length > MAX_LISTED) lists.appendChild(el("p", { class: "in-view-more", text: items.length - MAX_LISTED + " more: zoom in to list them." }));
    }
    count.textContent = parts.length ? parts.join(", ") + " in view." : "No layer with symbols is shown.";
    state.inView = { bbox: viewBox(map), counts, size: map.getSize() };
  }

  const schedule = () => {
    if (timer === null) timer = setTimeout(refresh, 60);
  };
  map.on("moveend resize layeradd layerremove", schedule);
  $("open-centre").addEventListener("click", () => onCentre(map.getCenter()));
  return {
    add(source) {
      sources.push(source);
      schedule();
    },
    refresh: schedule,
  };
}
