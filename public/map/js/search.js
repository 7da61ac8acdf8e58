// The search box: coordinates ("41.944, -94.3596"), survey areas and places of DATA_PLACES ("IA073"),
// US counties ("Greene County, Iowa", "Greene, IA") and states ("Iowa"), answered from the packaged
// outlines (gazetteer.js); nothing leaves Loam's origin.
import { DATA_PLACES } from "./config.js";
import { $ } from "./dom.js";
import { findCounties, findState } from "./gazetteer.js";
import { setWhere } from "./status.js";

const COORDINATES = /^\s*(-?\d+(?:\.\d+)?)\s*[,;\s]\s*(-?\d+(?:\.\d+)?)\s*$/;

/**
 * What `text` names: {kind: "point", lat, lon} | {kind: "place", place} | {kind: "area", name, bounds}
 * | {kind: "none", message}.
 */
export async function resolve(text) {
  const query = String(text || "").trim();
  if (!query) return { kind: "none", message: "Type coordinates (lat, lon), a county (Greene County, Iowa), a state or a survey area (IA073)." };
  const m = COORDINATES.exec(query);
  if (m) {
    const lat = Number(m[1]), lon = Number(m[2]);
    if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return { kind: "none", message: "Coordinates are latitude (-90 to 90), longitude (-180 to 180), in that order." };
    return { kind: "point", lat, lon };
  }
  const folded = query.toLowerCase();
  const place = DATA_PLACES.find((p) => p.id.toLowerCase() === folded || p.label.toLowerCase() === folded) || DATA_PLACES.find((p) => p.label.toLowerCase().startsWith(folded));
  if (place && (folded.length >= 3 || place.id.toLowerCase() === folded)) return { kind: "place", place };
  const state = await findState(query);
  if (state) return { kind: "area", name: state.name, bounds: state.bounds };
  const found = await findCounties(query);
  if (found.length === 1) return { kind: "area", name: found[0].name + " County, " + found[0].state, bounds: found[0].bounds };
  if (found.length > 1) {
    const where = found.map((c) => c.state).sort().join(", ");
    return { kind: "none", message: found.length + " counties are named " + found[0].name + " (" + where + "): add the state, as in “" + found[0].name + " County, " + found[0].state + "”." };
  }
  return { kind: "none", message: "Nothing named “" + query + "” here: the search knows coordinates, US states and counties, and the survey areas of this snapshot." };
}

/** handlers: point(lat, lon), place(place), area(name, bounds); each moves the map. */
export function setUpSearch(state, handlers) {
  const form = $("search-form");
  const input = $("search-input");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    state.searchState = "searching";
    const found = await resolve(input.value).catch((error) => ({ kind: "none", message: "The search failed: " + (error && error.message ? error.message : String(error)) }));
    state.lastSearch = found.kind === "area" ? { kind: "area", name: found.name } : { kind: found.kind };
    if (found.kind === "point") handlers.point(found.lat, found.lon);
    else if (found.kind === "place") handlers.place(found.place);
    else if (found.kind === "area") handlers.area(found.name, found.bounds);
    else setWhere(found.message, "warn");
    state.searchState = "done";
  });
}
