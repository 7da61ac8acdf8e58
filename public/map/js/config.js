// Page settings: choices of this page (views, styles, which columns a table shows), not API data.
// Property names and units come from GET /v1/properties (catalog.js).

/**
 * Limits of GET /v1/pedons (its OpenAPI description: bbox at most 5 degrees a side and 4 square
 * degrees, limit 1 to 500). No catalog endpoint serves them, so they are stated here; a view over the
 * limits shows the zoom-in message instead of sending a request the API would refuse with a 422.
 */
export const PEDON_BOX = { maxSideDegrees: 5, maxAreaSquareDegrees: 4 };
export const PEDON_LIMIT = 500;
/** Data endpoints answer at most this many properties per request (`properties` parameter). */
export const MAX_PROPERTIES_PER_REQUEST = 8;

/** Wait this long after the view stops moving before asking for its pedons. */
export const MOVE_DEBOUNCE_MS = 300;

/**
 * The first view (when the URL names none): laboratory pedons around Topeka and Lawrence, Kansas,
 * a box small enough for the pedon limits, so the first screen shows data. If the window makes the
 * fitted view larger than the limits, the map zooms in until it is not (map.js openFirstView).
 */
export const FIRST_VIEW = { south: 38.6, west: -96.4, north: 39.5, east: -95.0 };

/** County lines are drawn from this zoom on. */
export const COUNTY_MIN_ZOOM = 6;

/** Table columns, in order (only those the provider serves are shown). */
export const PEDON_COLUMNS = ["ph", "organic_carbon", "clay", "sand", "silt", "cec"];
export const LOCATION_COLUMNS = ["ph", "organic_matter", "clay", "sand", "silt"];

/** The property a depth chart (and, later, the map-unit choropleth) shows first. */
export const DEFAULT_PROPERTY = "clay";

/** Short column headings; the full property name is the heading's title and is listed under the table. */
export const SHORT_LABELS = { ph: "pH", organic_carbon: "OC", organic_matter: "OM", clay: "Clay", sand: "Sand", silt: "Silt", cec: "CEC", bulk_density: "BD", total_nitrogen: "N", ec: "EC" };

export const PEDON_STYLE = { radius: 6, color: "#3b2415", weight: 1.5, fillColor: "#d0782c", fillOpacity: 0.9 };
export const SELECTED_STYLE = { radius: 9, color: "#111111", weight: 3, fillColor: "#ffd43b", fillOpacity: 1 };

export const PEDON_CAVEAT =
  "Pedon coordinates are provider records whose accuracy varies, especially for older pedons. " +
  "A pedon is a point: it is not representative of the surrounding area, field, soil series or map unit without further evidence.";

/**
 * Map-unit polygons (GET /v1/soil/mapunits?bbox=…; mapunits.js). `enabled` is the switch. Boxes of at
 * most 0.25 degrees a side (the endpoint's limit); the choropleth summarizes `method` over
 * [depthTopCm, depthBottomCm) of DEFAULT_PROPERTY at first, then what the soil-map controls choose.
 */
export const MAP_UNITS = { enabled: true, maxSideDegrees: 0.25, limit: 2000, method: "weighted_average", depthTopCm: 0, depthBottomCm: 30 };

/**
 * The "Go to the soil map" button: the IA073 survey area excerpt (Greene County, Iowa) around the data
 * the API guide's known point in map unit L138B (docs/api.md), at a zoom whose view is far inside the polygon box limit.
 */
export const SOIL_MAP_VIEW = { lat: 41.944131, lon: -94.359608, zoom: 17, label: "IA073 (Iowa)" };

/** Choices of the choropleth: summary properties (GET /v1/properties names them), methods and depth intervals (cm). */
export const CHOROPLETH = {
  properties: ["clay", "sand", "silt", "organic_matter", "ph", "bulk_density", "cec", "available_water_capacity", "available_water_storage", "ksat"],
  methods: ["weighted_average", "dominant_component", "min", "max"],
  depths: [[0, 30], [0, 25], [0, 50], [0, 100], [30, 100], [0, 150]],
};

/**
 * The layers (GET /v1/layers kinds) shown when the page opens, the first of them active; the others are
 * listed, switched off. Which providers exist, and what each covers, comes from GET /v1/layers.
 */
export const LAYERS_SHOWN_FIRST = ["pedons", "survey_polygons"];

/** Human names of the summary methods (GET /v1/soil/mapunits `method`), for legends, menus and tables. */
export const METHOD_NAMES = {
  weighted_average: "weighted average of components",
  dominant_component: "dominant component",
  dominant_condition: "dominant condition",
  min: "least of the components",
  max: "greatest of the components",
};
export const methodName = (id) => METHOD_NAMES[id] || String(id).replace(/_/g, " ");

/** Map-unit symbols are written on the polygons from this zoom on. */
export const MAP_UNIT_LABEL_MIN_ZOOM = 16;
/** State names from this zoom on, county names from COUNTY_LABEL_MIN_ZOOM on; places' markers below PLACE_MAX_ZOOM. */
export const STATE_LABEL_MIN_ZOOM = 4;
export const COUNTY_LABEL_MIN_ZOOM = 8;
export const PLACE_MAX_ZOOM = 12;
/** The layout switches to the phone form (menu, bottom sheet) at this width and below (map.css says the same). */
export const PHONE_QUERY = "(max-width: 760px)";

/** A typed point with a map unit is shown at MAPPED_POINT_ZOOM (its polygons drawn); one without, at UNMAPPED_POINT_ZOOM (county names around it). */
export const MAPPED_POINT_ZOOM = 16;
export const UNMAPPED_POINT_ZOOM = 9;

/** The sample-site layer (geochem.js): the element shown first, sites per request (the API allows 1..1000). */
export const GEOCHEM = { element: "arsenic", limit: 1000 };

/** The area-of-interest report (aoi.js): the properties it weighs by area (the API takes at most 8). */
export const AOI = { properties: ["clay", "sand", "silt", "organic_matter", "ph", "available_water_capacity"] };

/** A station's series asked when the station names no sensor and holds none offline (stations.js). */
export const STATION_SERIES = { element: "soil_moisture", depth_cm: 5.08 };

/** Point layers (stations, sites) are clustered at this zoom and below, in cells of this many pixels (layers/points.js). */
export const CLUSTER = { maxZoom: 6, cellPx: 40 };

/** A place found by the search (GeoNames) is shown at CITY_ZOOM (the town and its surroundings); a found station, pedon or site at SYMBOL_ZOOM at least. */
export const CITY_ZOOM = 10;
export const SYMBOL_ZOOM = 10;
