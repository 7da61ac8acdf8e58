/**
 * Every static file Loam serves, by URL. Files are imported `with { type: "file" }` so that
 * `bun build --compile` embeds them in the executable; in development the import is the file's path.
 * Nothing is fetched from a CDN: the pages render with no network.
 */
import swaggerBundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import swaggerCss from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
// An .html import would become an HTMLBundle; `type: "file"` keeps it a plain file path.
import docsHtml from "../../public/docs/index.html" with { type: "file" };
import docsInit from "../../public/docs/init.js" with { type: "file" };
import docsCss from "../../public/docs/docs.css" with { type: "file" };
// The map page (docs/map.md): Leaflet, topojson-client and the TopoJSON outlines are served from here too.
import mapHtml from "../../public/map/index.html" with { type: "file" };
// The page's ES modules (public/map/js/): each one listed here, or the compiled executable lacks it.
import mapJsAoi from "../../public/map/js/aoi.js" with { type: "file" };
import mapJsPanelsAoi from "../../public/map/js/panels/aoi.js" with { type: "file" };
import mapJsApi from "../../public/map/js/api.js" with { type: "file" };
import mapJsCatalog from "../../public/map/js/catalog.js" with { type: "file" };
import mapJsChartsDepth from "../../public/map/js/charts/depth.js" with { type: "file" };
import mapJsChartsProfile from "../../public/map/js/charts/profile.js" with { type: "file" };
import mapJsConfig from "../../public/map/js/config.js" with { type: "file" };
import mapJsDom from "../../public/map/js/dom.js" with { type: "file" };
import mapJsGeochem from "../../public/map/js/geochem.js" with { type: "file" };
import mapJsLayersGeochem from "../../public/map/js/layers/geochem.js" with { type: "file" };
import mapJsPanelsGeochem from "../../public/map/js/panels/geochem.js" with { type: "file" };
import mapJsGazetteer from "../../public/map/js/gazetteer.js" with { type: "file" };
import mapJsLabels from "../../public/map/js/labels.js" with { type: "file" };
import mapJsMenu from "../../public/map/js/menu.js" with { type: "file" };
import mapJsPlaces from "../../public/map/js/places.js" with { type: "file" };
import mapJsSearch from "../../public/map/js/search.js" with { type: "file" };
import mapJsLayersColour from "../../public/map/js/layers/colour.js" with { type: "file" };
import mapJsLayersMapunits from "../../public/map/js/layers/mapunits.js" with { type: "file" };
import mapJsLayersPedons from "../../public/map/js/layers/pedons.js" with { type: "file" };
import mapJsMain from "../../public/map/js/main.js" with { type: "file" };
import mapJsMap from "../../public/map/js/map.js" with { type: "file" };
import mapJsMapunits from "../../public/map/js/mapunits.js" with { type: "file" };
import mapJsPanelsLocation from "../../public/map/js/panels/location.js" with { type: "file" };
import mapJsPanelsMapunit from "../../public/map/js/panels/mapunit.js" with { type: "file" };
import mapJsPanelsPanel from "../../public/map/js/panels/panel.js" with { type: "file" };
import mapJsPanelsParts from "../../public/map/js/panels/parts.js" with { type: "file" };
import mapJsPanelsPedon from "../../public/map/js/panels/pedon.js" with { type: "file" };
import mapJsStatus from "../../public/map/js/status.js" with { type: "file" };
import mapJsGrid from "../../public/map/js/grid.js" with { type: "file" };
import mapJsLayersGrid from "../../public/map/js/layers/grid.js" with { type: "file" };
import mapJsPanelsModeled from "../../public/map/js/panels/modeled.js" with { type: "file" };
import mapJsStations from "../../public/map/js/stations.js" with { type: "file" };
import mapJsLayersStations from "../../public/map/js/layers/stations.js" with { type: "file" };
import mapJsLayersPoints from "../../public/map/js/layers/points.js" with { type: "file" };
import mapJsPanelsStation from "../../public/map/js/panels/station.js" with { type: "file" };
import mapJsChartsSeries from "../../public/map/js/charts/series.js" with { type: "file" };
import mapJsChartsSensorDepth from "../../public/map/js/charts/sensor-depth.js" with { type: "file" };
import mapJsSeriesPage from "../../public/map/js/series-page.js" with { type: "file" };
import mapSeriesCss from "../../public/map/series.css" with { type: "file" };
// The series page (GET /v1/series/{name} as a page, opened from the map's profile sketches).
import seriesHtml from "../../public/series/index.html" with { type: "file" };
import mapCss from "../../public/map/map.css" with { type: "file" };
import mapFavicon from "../../public/map/favicon.svg" with { type: "file" };
import leafletJs from "leaflet/dist/leaflet.js" with { type: "file" };
import leafletCss from "leaflet/dist/leaflet.css" with { type: "file" };
import leafletLayers from "leaflet/dist/images/layers.png" with { type: "file" };
import leafletLayers2x from "leaflet/dist/images/layers-2x.png" with { type: "file" };
import leafletMarker from "leaflet/dist/images/marker-icon.png" with { type: "file" };
import leafletMarker2x from "leaflet/dist/images/marker-icon-2x.png" with { type: "file" };
import leafletShadow from "leaflet/dist/images/marker-shadow.png" with { type: "file" };
import topojsonClient from "topojson-client/dist/topojson-client.min.js" with { type: "file" };
import worldCountries from "world-atlas/countries-50m.json" with { type: "file" };
import usStates from "us-atlas/states-10m.json" with { type: "file" };
import usCounties from "us-atlas/counties-10m.json" with { type: "file" };

export interface Asset {
  path: string;
  type: string;
}

const JS = "text/javascript; charset=utf-8";
const CSS = "text/css; charset=utf-8";
const HTML = "text/html; charset=utf-8";
const JSON_TYPE = "application/json; charset=utf-8";
const PNG = "image/png";
const SVG = "image/svg+xml";
/** A JSON or HTML import typed by TypeScript as its content; with `type: "file"` it is the file's path. */
const filePath = (imported: unknown) => imported as string;

/** URL path → file. Pages (HTML) and the scripts, styles and data they load. */
export const ASSETS: Record<string, Asset> = {
  "/docs": { path: docsHtml as unknown as string, type: HTML },
  "/docs/init.js": { path: docsInit, type: JS },
  "/docs/docs.css": { path: docsCss, type: CSS },
  "/docs/assets/swagger-ui-bundle.js": { path: swaggerBundle, type: JS },
  "/docs/assets/swagger-ui.css": { path: swaggerCss, type: CSS },
  "/": { path: filePath(mapHtml), type: HTML },
  "/map": { path: filePath(mapHtml), type: HTML },
  "/map/js/aoi.js": { path: mapJsAoi, type: JS },
  "/map/js/grid.js": { path: mapJsGrid, type: JS },
  "/map/js/layers/grid.js": { path: mapJsLayersGrid, type: JS },
  "/map/js/panels/modeled.js": { path: mapJsPanelsModeled, type: JS },
  "/map/js/stations.js": { path: mapJsStations, type: JS },
  "/map/js/layers/stations.js": { path: mapJsLayersStations, type: JS },
  "/map/js/layers/points.js": { path: mapJsLayersPoints, type: JS },
  "/map/js/panels/station.js": { path: mapJsPanelsStation, type: JS },
  "/map/js/charts/series.js": { path: mapJsChartsSeries, type: JS },
  "/map/js/charts/sensor-depth.js": { path: mapJsChartsSensorDepth, type: JS },
  "/map/js/panels/aoi.js": { path: mapJsPanelsAoi, type: JS },
  "/map/js/api.js": { path: mapJsApi, type: JS },
  "/map/js/catalog.js": { path: mapJsCatalog, type: JS },
  "/map/js/charts/depth.js": { path: mapJsChartsDepth, type: JS },
  "/map/js/charts/profile.js": { path: mapJsChartsProfile, type: JS },
  "/map/js/config.js": { path: mapJsConfig, type: JS },
  "/map/js/dom.js": { path: mapJsDom, type: JS },
  "/map/js/gazetteer.js": { path: mapJsGazetteer, type: JS },
  "/map/js/geochem.js": { path: mapJsGeochem, type: JS },
  "/map/js/layers/geochem.js": { path: mapJsLayersGeochem, type: JS },
  "/map/js/panels/geochem.js": { path: mapJsPanelsGeochem, type: JS },
  "/map/js/labels.js": { path: mapJsLabels, type: JS },
  "/map/js/menu.js": { path: mapJsMenu, type: JS },
  "/map/js/places.js": { path: mapJsPlaces, type: JS },
  "/map/js/search.js": { path: mapJsSearch, type: JS },
  "/map/js/layers/colour.js": { path: mapJsLayersColour, type: JS },
  "/map/js/layers/mapunits.js": { path: mapJsLayersMapunits, type: JS },
  "/map/js/layers/pedons.js": { path: mapJsLayersPedons, type: JS },
  "/map/js/main.js": { path: mapJsMain, type: JS },
  "/map/js/map.js": { path: mapJsMap, type: JS },
  "/map/js/mapunits.js": { path: mapJsMapunits, type: JS },
  "/map/js/panels/location.js": { path: mapJsPanelsLocation, type: JS },
  "/map/js/panels/mapunit.js": { path: mapJsPanelsMapunit, type: JS },
  "/map/js/panels/panel.js": { path: mapJsPanelsPanel, type: JS },
  "/map/js/panels/parts.js": { path: mapJsPanelsParts, type: JS },
  "/map/js/panels/pedon.js": { path: mapJsPanelsPedon, type: JS },
  "/map/js/status.js": { path: mapJsStatus, type: JS },
  "/map/js/series-page.js": { path: mapJsSeriesPage, type: JS },
  "/map/series.css": { path: mapSeriesCss, type: CSS },
  "/series": { path: filePath(seriesHtml), type: HTML },
  "/map/map.css": { path: mapCss, type: CSS },
  "/map/favicon.svg": { path: mapFavicon, type: SVG },
  // Browsers ask for /favicon.ico when a page (e.g. /docs) names no icon; answer with Loam's icon, not a 404.
  "/favicon.ico": { path: mapFavicon, type: SVG },
  "/map/vendor/leaflet/leaflet.js": { path: leafletJs, type: JS },
  // leaflet.css refers to images/*.png relative to itself.
  "/map/vendor/leaflet/leaflet.css": { path: leafletCss, type: CSS },
  "/map/vendor/leaflet/images/layers.png": { path: leafletLayers, type: PNG },
  "/map/vendor/leaflet/images/layers-2x.png": { path: leafletLayers2x, type: PNG },
  "/map/vendor/leaflet/images/marker-icon.png": { path: leafletMarker, type: PNG },
  "/map/vendor/leaflet/images/marker-icon-2x.png": { path: leafletMarker2x, type: PNG },
  "/map/vendor/leaflet/images/marker-shadow.png": { path: leafletShadow, type: PNG },
  "/map/vendor/topojson-client.min.js": { path: topojsonClient, type: JS },
  // Natural Earth 1:50m countries and land (world-atlas); US Census states and counties (us-atlas).
  "/map/data/countries-50m.json": { path: filePath(worldCountries), type: JSON_TYPE },
  "/map/data/us-states-10m.json": { path: filePath(usStates), type: JSON_TYPE },
  "/map/data/us-counties-10m.json": { path: filePath(usCounties), type: JSON_TYPE },
};

