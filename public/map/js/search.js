// The search box: coordinates ("41.944, -94.3596"), the places of this snapshot as GET /v1/layers names
// them ("IA073", "Majuro", "Kansas lab pedons"), soil series (GET /v1/series/{name}: "Clarion" is the
// series before Clarion County, PA), US states ("Iowa") and counties ("Greene County, Iowa", "Greene
// County Iowa", "Greene Co, IA", "greene ia"), answered from the packaged outlines (gazetteer.js);
// nothing leaves Loam's origin.
import { getJson, urls } from "./api.js";
import { $ } from "./dom.js";
import { findCounties, findState, splitCountyState } from "./gazetteer.js";
import { setWhere } from "./status.js";

const COORDINATES = /^\s*(-?\d+(?:\.\d+)?)\s*[,;\s]\s*(-?\d+(?:\.\d+)?)\s*$/;
/** A series name as OSD spells them: letters, spaces, hyphens and apostrophes (the route's own check refuses others). */
const SERIES_NAME = /^[A-Za-z][A-Za-z' -]{1,40}$/;

let places = [];
/** The coverage list's places (places.js), searched by id and by any word of their label. */
export function setSearchPlaces(list) {
  places = list.slice();
}

const fold = (s) => String(s).toLowerCase().replace(/\s+/g, " ").trim();

/** The place named by `query`: its id ("ia073"), its whole label, a label starting with it, or a whole word of its full label ("majuro"). */
function findPlace(query) {
  const q = fold(query);
  const words = (text) => fold(text).split(/[^a-z0-9]+/).filter(Boolean);
  return (
    places.find((p) => fold(p.id) === q || fold(p.label) === q) ||
    (q.length >= 3 ? places.find((p) => fold(p.label).startsWith(q)) : null) ||
    (q.length >= 4 && /^[a-z]+$/.test(q) ? places.find((p) => words(p.detail).includes(q)) : null) ||
    null
  );
}

/** The series named `name`, or null (a 404 and any failure: the search goes on to counties). */
async function findSeries(name) {
  if (!SERIES_NAME.test(name)) return null;
  try {
    const answer = await getJson(urls.series(name.trim()));
    return answer && answer.series ? answer : null;
  } catch {
    return null;
  }
}

/**
 * What `text` names: {kind: "point", lat, lon} | {kind: "place", place} | {kind: "series", name, answer,
 * counties} | {kind: "area", name, bounds} | {kind: "none", message}.
 */
export async function resolve(text) {
  const query = String(text || "").trim();
  if (!query) return { kind: "none", message: "Type coordinates (lat, lon), a county (Greene County, Iowa), a state, a soil series (Clarion) or a place of this snapshot (IA073, Majuro)." };
  const m = COORDINATES.exec(query);
  if (m) {
    const lat = Number(m[1]), lon = Number(m[2]);
    if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return { kind: "none", message: "Coordinates are latitude (-90 to 90), longitude (-180 to 180), in that order." };
    return { kind: "point", lat, lon };
  }
  const place = findPlace(query);
  if (place) return { kind: "place", place };
  const state = await findState(query);
  if (state) return { kind: "area", name: state.name, bounds: state.bounds };
  // A name with a state ("greene ia") or a county word ("Greene County") is a place; a bare name may be a series.
  const bare = !splitCountyState(query).stateGiven && !/\b(county|co|cnty|parish|borough)\b/i.test(query);
  const [series, found] = await Promise.all([bare ? findSeries(query) : null, findCounties(query)]);
  // A series first: the county of the same name is offered beside it.
  if (series) return { kind: "series", name: query, answer: series, counties: found };
  if (found.length === 1) return { kind: "area", name: found[0].name + " County, " + found[0].state, bounds: found[0].bounds };
  if (found.length > 1) {
    const where = found.map((c) => c.state).sort().join(", ");
    return { kind: "none", message: found.length + " counties are named " + found[0].name + " (" + where + "): add the state, as in “" + found[0].name + " County, " + found[0].state + "”." };
  }
  return { kind: "none", message: "Nothing named “" + query + "” here: the search knows coordinates, US states and counties, soil series, and the places of this snapshot." };
}

/** handlers: point(lat, lon), place(place), series(name, answer, counties), area(name, bounds); each moves the map or opens a panel. */
export function setUpSearch(state, handlers) {
  const form = $("search-form");
  const input = $("search-input");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    state.searchState = "searching";
    const found = await resolve(input.value).catch((error) => ({ kind: "none", message: "The search failed: " + (error && error.message ? error.message : String(error)) }));
    state.lastSearch = found.kind === "area" ? { kind: "area", name: found.name } : found.kind === "place" ? { kind: "place", id: found.place.id } : found.kind === "series" ? { kind: "series", name: found.name } : { kind: found.kind };
    if (found.kind === "point") handlers.point(found.lat, found.lon);
    else if (found.kind === "place") await handlers.place(found.place);
    else if (found.kind === "series") handlers.series(found.name, found.answer, found.counties);
    else if (found.kind === "area") handlers.area(found.name, found.bounds);
    else setWhere(found.message, "warn");
    state.searchState = "done";
  });
}
