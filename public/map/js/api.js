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
  rawPedon: (provider, key) => "/v1/providers/" + encodeURIComponent(provider) + "/raw/pedons/" + encodeURIComponent(key),
  /** params: latitude, longitude, properties (comma-separated). */
  location: (params) => "/v1/soil/location?" + query(params),
  /** Every source's evidence at a point, side by side (GET /v1/soil/evidence): latitude, longitude, properties, format. */
  evidence: (params) => "/v1/soil/evidence?" + query(params),
  rawLocation: (provider, params) => "/v1/providers/" + encodeURIComponent(provider) + "/raw/location?" + query(params),
  rawGeochemSite: (provider, siteId) => "/v1/providers/" + encodeURIComponent(provider) + "/raw/sites/" + encodeURIComponent(siteId),
  /** The report of an area of interest (GET /v1/soil/aoi): polygon as WKT, properties, method, depths. */
  aoi: (params) => "/v1/soil/aoi?" + query(params),
};

// ---- a layer's own URLs: what GET /v1/layers (or an answer's link) says, never a path written here

/**
 * A URL Loam gave (a layer's `endpoint`, an answer's link), which may already name its provider
 * (`?provider=<id>`, docs/decisions.md#provider-links), with `params` set: a parameter of the URL that
 * `params` names is replaced, null or undefined leaves it out.
 */
export function withParams(href, params) {
  const [path, search] = String(href).split("?");
  const kept = (search || "").split("&").filter((pair) => pair && !Object.prototype.hasOwnProperty.call(params || {}, decodeURIComponent(pair.split("=")[0])));
  const added = query(params || {});
  const all = added ? kept.concat([added]) : kept;
  return path + (all.length ? "?" + all.join("&") : "");
}

/** A layer's `detail_endpoint` ("/v1/stations/{station_triplet}", perhaps with `?provider=`) for one key, with `params`. */
export function detailOf(template, key, params) {
  return withParams(String(template).replace(/\{[^}]+\}/, encodeURIComponent(key)), params || {});
}

/** The same URL asking for CSV (`format=csv`; the routes in src/tables answer it). */
export function csvOf(url) {
  return url + (url.includes("?") ? "&" : "?") + "format=csv";
}
