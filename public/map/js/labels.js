// Names on the map: US states from STATE_LABEL_MIN_ZOOM, counties from COUNTY_LABEL_MIN_ZOOM (gazetteer.js,
// the packaged us-atlas outlines). Only the names whose label point is in view are drawn, so a view holds
// a few dozen labels at most. Labels are text nodes in a non-interactive pane.
/* global L */
import { COUNTY_LABEL_MIN_ZOOM, STATE_LABEL_MIN_ZOOM } from "./config.js";
import { el } from "./dom.js";
import { counties, states } from "./gazetteer.js";
import { addNote } from "./status.js";
import { describeError } from "./api.js";

function label(place, className, pane) {
  const icon = L.divIcon({ className: "place-label " + className, html: el("span", { text: place.name }), iconSize: null });
  return L.marker(place.label, { icon, pane, interactive: false, keyboard: false });
}

export function addPlaceLabels(map, state) {
  map.createPane("labels").style.zIndex = "420";
  const layer = L.layerGroup().addTo(map);
  let stateList = null;
  let countyList = null;
  let loadingCounties = false;

  function draw() {
    layer.clearLayers();
    const zoom = map.getZoom();
    const view = map.getBounds().pad(0.05);
    let drawn = 0;
    if (stateList && zoom >= STATE_LABEL_MIN_ZOOM) {
      for (const s of stateList) {
        if (view.contains(s.label)) {
          layer.addLayer(label(s, zoom >= COUNTY_LABEL_MIN_ZOOM ? "state-label state-label-far" : "state-label", "labels"));
          drawn++;
        }
      }
    }
    if (zoom >= COUNTY_LABEL_MIN_ZOOM) {
      if (countyList) {
        for (const c of countyList) {
          if (view.contains(c.label)) {
            layer.addLayer(label(c, "county-label", "labels"));
            drawn++;
          }
        }
      } else if (!loadingCounties) {
        loadingCounties = true;
        counties()
          .then((list) => {
            countyList = list;
            draw();
          })
          .catch((error) => addNote("basemap", "County names could not be loaded (" + describeError(error) + ")."));
      }
    }
    state.placeLabels = drawn;
  }

  states()
    .then((list) => {
      stateList = list;
      draw();
    })
    .catch((error) => addNote("basemap", "State names could not be loaded (" + describeError(error) + ")."));
  map.on("moveend", draw);
  return { layer };
}
