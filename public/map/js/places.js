// Where the data is: the places of DATA_PLACES (config.js) as a list to jump to (in the toolbar, or the
// phone's menu) and, on views zoomed out below PLACE_MAX_ZOOM, as labelled outlines on the map, so the
// first screen says where pedons and soil polygons exist.
/* global L */
import { DATA_PLACES, PLACE_MAX_ZOOM } from "./config.js";
import { $, el } from "./dom.js";

const boundsOf = (place) => L.latLngBounds([place.box[1], place.box[0]], [place.box[3], place.box[2]]);

/**
 * onJump(place) is called when the user picks a place (list or map); it moves the map. onOverview(bounds)
 * shows every place of the conterminous US at once (their outlines and names).
 */
export function setUpPlaces(map, state, onJump, onOverview) {
  const list = $("places-list");
  const lower48 = DATA_PLACES.filter((p) => p.lon < -66 && p.lon > -125 && p.lat > 24 && p.lat < 50);
  const overview = el("button", { type: "button", class: "place-button place-overview", "data-place": "overview", title: "Kansas and Iowa on one map, each place outlined and named" }, ["All places (overview)"]);
  overview.addEventListener("click", () => onOverview(lower48.reduce((all, p) => all.extend(boundsOf(p)), boundsOf(lower48[0]))));
  list.appendChild(el("li", null, [overview]));
  for (const place of DATA_PLACES) {
    const button = el("button", { type: "button", class: "place-button place-" + place.kind, "data-place": place.id, title: place.detail }, [place.label]);
    button.addEventListener("click", () => onJump(place));
    list.appendChild(el("li", null, [button]));
  }

  // Above the pedons' canvas (450), so a dot takes its click; outlines take none (a pedon inside stays clickable).
  map.createPane("places").style.zIndex = "460";
  const renderer = L.svg({ pane: "places" });
  const layer = L.layerGroup();
  for (const place of DATA_PLACES) {
    const bounds = boundsOf(place);
    const outline = L.rectangle(bounds, { pane: "places", renderer, className: "place-outline place-outline-" + place.kind, weight: 2, fill: true, fillOpacity: 0.12, interactive: false });
    // Tiny areas (a few hundred metres) would vanish at country scale: a labelled dot marks them too.
    const dot = L.circleMarker(bounds.getCenter(), { pane: "places", renderer, radius: 7, className: "place-dot place-dot-" + place.kind, weight: 2, fillOpacity: 0.9 });
    const side = place.labelSide || "right";
    // A text node, as every tooltip (a string would be inserted as HTML: docs/decisions.md#pages-text).
    dot.bindTooltip(el("span", { text: place.label }), { permanent: true, direction: side, className: "place-tooltip", offset: [side === "left" ? -8 : 8, 0] });
    dot.on("click", (event) => {
      L.DomEvent.stop(event);
      onJump(place);
    });
    layer.addLayer(outline).addLayer(dot);
  }
  const update = () => {
    const show = map.getZoom() < PLACE_MAX_ZOOM;
    if (show && !map.hasLayer(layer)) layer.addTo(map);
    if (!show && map.hasLayer(layer)) layer.remove();
    state.placesShown = show;
  };
  map.on("zoomend", update);
  map.whenReady(update);
  return { layer };
}

/** The view a place opens: its own centre and zoom (Kansas pedons: a view within the pedon box limits). */
export function placeView(place) {
  return { center: [place.lat, place.lon], zoom: place.zoom };
}
