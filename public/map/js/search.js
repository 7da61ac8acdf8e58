// The search box (docs/map.md#search): coordinates ("41.944, -94.3596"), the places of this snapshot as GET
// /v1/layers names them ("IA073", "Majuro"), sensor stations by name, id or triplet ("Abrams", "2092",
// "2092:KS:SCAN"; GET /v1/stations, read once), pedons by lab sample number ("04N0873"), geochemistry sites by
// id ("2731"), US states, counties ("Greene County, Iowa", "greene ia") and places of 1,000 or more people
// ("Topeka", "Ames, Iowa"; GeoNames), answered from files Loam serves (gazetteer.js), then soil series.
// A series is asked for only when the words say so ("Clarion series") or the user takes the offer of a
// one-word search ("Look up the Clarion soil series"): the API has no list of series, so a lookup on every
// search would be a guess (a 404 for most words; docs/decisions.md#map-search). Nothing leaves Loam's origin.
import { detailOf, getJson, urls } from "./api.js";
import { $ } from "./dom.js";
import { findCities, findCounties, findState, splitCountyState } from "./gazetteer.js";
import { setWhere } from "./status.js";

const COORDINATES = /^\s*(-?\d+(?:\.\d+)?)\s*[,;\s]\s*(-?\d+(?:\.\d+)?)\s*$/;
/** A series name as OSD spells them: letters, spaces, hyphens and apostrophes (the route's own check refuses others). */
const SERIES_NAME = /^[A-Za-z][A-Za-z' -]{1,40}$/;

/** A pedon's lab sample number (KSSL pedlabsampnum, as GET /v1/pedons/{key} takes it). */
const PEDON_KEY = /^[0-9]{2}[A-Z][0-9A-Z]{4}$/i;
/** A station triplet ("2092:KS:SCAN") or a whole number (a station id, else a geochemistry site id). */
const TRIPLET = /^\s*(\d+):([A-Z]{2}):([A-Z]+)\s*$/i;
const WHOLE = /^\s*([1-9]\d{0,9})\s*$/;
const SERIES_WORD = /^\s*(?:(.+?)\s+series|series\s+(.+?))\s*$/i;

/**
 * Where the search looks beyond its files: stations() (a promise of the station layer's features, or null
 * when no layer declares stations); pedons and sites: the GET /v1/layers entries whose detail endpoint a
 * key is looked up at (null: no such layer). Known once the layers are read.
 */
let sources = { stations: () => null, pedons: null, sites: null };
let sourcesSet;
const sourcesKnown = new Promise((resolve) => (sourcesSet = resolve));
export function setSearchSources(more) {
  sources = Object.assign({}, sources, more);
  sourcesSet();
}

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

/** The station named by `query`: its triplet, its id, or its name (whole, or the start of it). */
async function findStation(query) {
  const list = sources.stations();
  if (!list) return null;
  const features = (await list).filter((f) => f && f.geometry && f.geometry.type === "Point" && f.properties);
  const q = fold(query);
  const triplet = TRIPLET.exec(query);
  const whole = WHOLE.exec(query);
  const name = (f) => fold(f.properties.name || "");
  const found =
    (triplet && features.find((f) => fold(f.properties.station_triplet) === q)) ||
    (whole && features.find((f) => String(f.properties.station_triplet).split(":")[0] === whole[1])) ||
    (!whole && q.length >= 3 && (features.find((f) => name(f) === q) || features.find((f) => name(f).startsWith(q)))) ||
    null;
  if (!found) return null;
  const [lon, lat] = found.geometry.coordinates;
  return { kind: "station", triplet: String(found.properties.station_triplet), name: String(found.properties.name || ""), lat, lon };
}

/** A lookup by a well-formed id: the answer, or null when the API has none (404). */
async function lookUp(url) {
  try {
    return await getJson(url);
  } catch (error) {
    if (error && error.status === 404) return null;
    throw error;
  }
}

/**
 * What `text` names: {kind: "point", lat, lon} | {kind: "place", place} | {kind: "station", triplet, name, lat,
 * lon} | {kind: "pedon", key, lat, lon} | {kind: "site", id, lat, lon} | {kind: "series", name, answer,
 * counties} | {kind: "area", name, bounds} | {kind: "city", name, lat, lon} | {kind: "none", message}.
 */
export async function resolve(text) {
  const query = String(text || "").trim();
  if (!query) return { kind: "none", message: "Type coordinates (lat, lon), a place (Topeka, Greene County, Iowa), a station (Abrams, 2092), a pedon (04N0873), a site id, or a soil series (Clarion series)." };
  const m = COORDINATES.exec(query);
  if (m) {
    const lat = Number(m[1]), lon = Number(m[2]);
    if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return { kind: "none", message: "Coordinates are latitude (-90 to 90), longitude (-180 to 180), in that order." };
    return { kind: "point", lat, lon };
  }
  const asked = SERIES_WORD.exec(query);
  if (asked) return seriesOrNone(asked[1] || asked[2], await findCounties(asked[1] || asked[2]));
  const place = findPlace(query);
  if (place) return { kind: "place", place };
  const station = await findStation(query);
  if (station) return station;
  if (PEDON_KEY.test(query)) {
    await sourcesKnown;
    const pedon = sources.pedons ? await lookUp(detailOf(sources.pedons.detail_endpoint, query.toUpperCase())) : null;
    const where = pedon && pedon.location;
    if (where && typeof where.latitude === "number") return { kind: "pedon", key: String(pedon.pedon_key || query.toUpperCase()), lat: where.latitude, lon: where.longitude };
    return { kind: "none", message: "No pedon " + query.toUpperCase() + " here." };
  }
  const whole = WHOLE.exec(query);
  if (whole) {
    await sourcesKnown;
    const site = sources.sites ? await lookUp(detailOf(sources.sites.detail_endpoint, whole[1])) : null;
    if (site && site.site && typeof site.site.latitude === "number") return { kind: "site", id: String(site.site.site_id), lat: site.site.latitude, lon: site.site.longitude };
    return { kind: "none", message: "No station or geochemistry site numbered " + whole[1] + " here." };
  }
  const state = await findState(query);
  if (state) return { kind: "area", name: state.name, bounds: state.bounds };
  const [counties, cities] = await Promise.all([findCounties(query), findCities(query)]);
  if (counties.length === 1) return { kind: "area", name: counties[0].name + " County, " + counties[0].state, bounds: counties[0].bounds, series: seriesOffer(query) };
  if (cities.length) return { kind: "city", name: cities[0].name + ", " + cities[0].state, lat: cities[0].lat, lon: cities[0].lon, others: cities.length - 1, series: seriesOffer(query) };
  if (counties.length > 1) {
    const where = counties.map((c) => c.state).sort().join(", ");
    return { kind: "none", message: counties.length + " counties are named " + counties[0].name + " (" + where + "): add the state, as in “" + counties[0].name + " County, " + counties[0].state + "”." };
  }
  return Object.assign(nothing(query), { series: seriesOffer(query) });
}

const nothing = (query) => ({ kind: "none", message: "Nothing named “" + query + "” here: the search knows coordinates, US places, counties and states, sensor stations, pedons, geochemistry sites, soil series (“Clarion series”), and the places of this snapshot." });

/** The series a one-word name could be (looked up only if the user asks: the offer's button), or null. */
const seriesOffer = (query) => (SERIES_NAME.test(query.trim()) && !/\s/.test(query.trim()) ? query.trim() : null);

async function seriesOrNone(name, counties) {
  const series = await findSeries(name);
  return series ? { kind: "series", name: name.trim(), answer: series, counties } : nothing(name);
}

/** handlers: one per kind resolve answers (point, place, station, pedon, site, series, area, city); each moves the map or opens a panel. */
export function setUpSearch(state, handlers) {
  const form = $("search-form");
  const input = $("search-input");
  const submit = (text) => {
    input.value = text;
    form.requestSubmit();
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    state.searchState = "searching";
    // The last search's line (a "Nothing named …" above all) is stale from now on.
    setWhere("");
    const found = await resolve(input.value).catch((error) => ({ kind: "none", message: "The search failed: " + (error && error.message ? error.message : String(error)) }));
    state.lastSearch = { kind: found.kind, name: found.name, id: found.place ? found.place.id : found.triplet || found.key || found.id };
    // A name that could also be a soil series: the lookup is offered, not guessed.
    const offer = found.series ? { label: "Look up the " + found.series + " soil series", run: () => submit(found.series + " series") } : undefined;
    if (found.kind === "none") setWhere(found.message, "warn", offer);
    else if (handlers[found.kind]) await handlers[found.kind](found, offer);
    state.searchState = "done";
  });
}
