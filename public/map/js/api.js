// The API client: every URL the page asks Loam for is built here, and every answer is read by getJson.

/** key=value pairs; a comma-separated value keeps its commas (properties=ph,clay; bbox=w,s,e,n). */
export function query(params) {
  return Object.keys(params)
    .filter((key) => params[key] !== undefined && params[key] !== null)
    .map((key) => encodeURIComponent(key) + "=" + String(params[key]).split(",").map(encodeURIComponent).join(","))
    .join("&");
}

/** GET JSON from Loam. Non-2xx answers throw an Error with the ErrorResponse message. */
export async function getJson(url, signal) {
  let response;
  try {
    response = await fetch(url, { signal, headers: { accept: "application/json" } });
  } catch (networkError) {
    if (isAbort(networkError)) throw networkError;
    throw new Error("Could not reach Loam: " + (networkError && networkError.message ? networkError.message : String(networkError)));
  }
  const body = await response.text();
  let parsed = null;
  try {
    parsed = body ? JSON.parse(body) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const apiError = parsed && parsed.error && typeof parsed.error === "object" ? parsed.error : null;
    const error = new Error(apiError && typeof apiError.message === "string" ? apiError.message : "HTTP " + response.status + " " + response.statusText);
    error.status = response.status;
    error.requestId = apiError && typeof apiError.request_id === "string" ? apiError.request_id : response.headers.get("x-request-id");
    throw error;
  }
  if (parsed === null || typeof parsed !== "object") throw new Error("Loam sent an answer that is not JSON.");
  return parsed;
}

export function describeError(error) {
  const parts = [error && error.message ? error.message : String(error)];
  if (error && error.status) parts.push("(HTTP " + error.status + (error.requestId ? ", request id " + error.requestId : "") + ")");
  return parts.join(" ");
}

export function isAbort(error) {
  return Boolean(error && error.name === "AbortError");
}

// ---- URLs

export const urls = {
  properties: () => "/v1/properties",
  /** The map's layers: one per provider with a map layer, its kind, endpoint and coverage (GET /v1/layers). */
  layers: () => "/v1/layers",
  /** A soil series description (GET /v1/series/{name}); the series page shows it at seriesPage(name). */
  series: (name) => "/v1/series/" + encodeURIComponent(name),
  seriesPage: (name) => "/series?name=" + encodeURIComponent(name),
  providers: () => "/v1/providers",
  /** Pedons in a box [w, s, e, n]. */
  pedons: (box, limit) => "/v1/pedons?" + query({ bbox: box.join(","), limit }),
  pedon: (key, properties) => "/v1/pedons/" + encodeURIComponent(key) + (properties && properties.length ? "?" + query({ properties: properties.join(",") }) : ""),
  rawPedon: (provider, key) => "/v1/providers/" + encodeURIComponent(provider) + "/raw/pedons/" + encodeURIComponent(key),
  /** params: latitude, longitude, properties (comma-separated). */
  location: (params) => "/v1/soil/location?" + query(params),
  /** Every source's evidence at a point, side by side (GET /v1/soil/evidence): latitude, longitude, properties, format. */
  evidence: (params) => "/v1/soil/evidence?" + query(params),
  rawLocation: (provider, params) => "/v1/providers/" + encodeURIComponent(provider) + "/raw/location?" + query(params),
  /**
   * Map-unit polygons in a box (GET /v1/soil/mapunits?bbox=…, a GeoJSON FeatureCollection); with
   * `property`, `method` and depths each feature carries a `summary` {value, category, unit}.
   */
  mapUnits: (box, options) => "/v1/soil/mapunits?" + query(Object.assign({ bbox: box.join(",") }, options || {})),
  /** One map unit with its components and, with `properties`, its summaries (GET /v1/soil/mapunits/{key}). */
  mapUnit: (key, options) => "/v1/soil/mapunits/" + encodeURIComponent(key) + (options ? "?" + query(options) : ""),
  /** Geochemistry sample sites in a box, with one element's result each (GET /v1/geochem/sites). */
  geochemSites: (box, options) => "/v1/geochem/sites?" + query(Object.assign({ bbox: box ? box.join(",") : null }, options || {})),
  /** The sites nearest a point, nearest first, each with distance_km. */
  geochemNear: (lat, lon, limit, property) => "/v1/geochem/sites?" + query({ near: lat + "," + lon, limit, property }),
  geochemSite: (siteId) => "/v1/geochem/sites/" + encodeURIComponent(siteId),
  rawGeochemSite: (provider, siteId) => "/v1/providers/" + encodeURIComponent(provider) + "/raw/sites/" + encodeURIComponent(siteId),
  /** The report of an area of interest (GET /v1/soil/aoi): polygon as WKT, properties, method, depths. */
  aoi: (params) => "/v1/soil/aoi?" + query(params),
  /** A modeled grid, one property and depth (GET /v1/soil/modeled/grid): cells, box and legend classes. */
  grid: (params) => "/v1/soil/modeled/grid?" + query({ property: params.property, depth: params.depth }),
  /** Modeled values at a point (GET /v1/soil/modeled): latitude, longitude, properties. */
  modeled: (params) => "/v1/soil/modeled?" + query(params),
  /** Sensor stations (GET /v1/stations, GeoJSON, up to 1000 a page, `next` for the rest). */
  stations: (limit) => "/v1/stations?" + query({ limit }),
  station: (triplet) => "/v1/stations/" + encodeURIComponent(triplet),
  /** A station's series: element, depth_cm, interval, start, end. */
  stationSeries: (triplet, params) => "/v1/stations/" + encodeURIComponent(triplet) + "/series?" + query(params),
};

/** The same URL asking for CSV (`format=csv`; the routes in src/tables answer it). */
export function csvOf(url) {
  return url + (url.includes("?") ? "&" : "?") + "format=csv";
}
