// A sensor-station layer (kind "stations" of GET /v1/layers, one per provider of the kind; the page names
// no provider) and its panel. Every station is read once (all pages of the entry's endpoint, 1000 a
// page, a few hundred) and drawn as a triangle (layers/stations.js); a click opens the station's panel
// (panels/station.js): its facts, its sources' disagreements, its series as a chart and its lab pedon's
// layers beside the sensor depths. Every URL is the entry's or a link of the station's answer
// (docs/decisions.md#map-layers), so a second provider's layer draws and opens its own stations.
import { describeError, detailOf, getJson, isAbort, withParams } from "./api.js";
import { el } from "./dom.js";
import { STATION_SERIES } from "./config.js";
import { createStationLayer, KIND } from "./layers/stations.js";
import { renderStation, renderStationPedon, renderStationSeries } from "./panels/station.js";
import { setStatus } from "./status.js";

/** Pages of stations read at most (1000 each). */
const MAX_PAGES = 20;

/**
 * ctx: {map, state, panel, catalog (promise), beforeDetail(), property(), report(name, value)}; entry: a
 * GET /v1/layers entry of kind "stations" with the page's `key` for it (main.js).
 */
export function setUpStations(ctx, entry) {
  const { map, panel, report } = ctx;
  const layer = createStationLayer(map, (triplet, latlng) => openStation(triplet, latlng), entry.key);
  report("stations", layer);
  report("openStation", (triplet) => openStation(triplet, null));
  report("stationsState", "off");
  const say = (message, kind) => setStatus(message, kind || "info", entry.key);
  let visible = false;

  let all = null;
  function stations() {
    if (!all) {
      all = (async () => {
        const features = [];
        let url = withParams(entry.endpoint, { limit: 1000 });
        for (let page = 0; url && page < MAX_PAGES; page++) {
          const answer = await getJson(url);
          features.push(...(answer.features || []));
          url = typeof answer.next === "string" ? answer.next : null;
        }
        return features;
      })();
      all.catch(() => (all = null));
    }
    return all;
  }

  async function load() {
    if (!visible) {
      layer.clear();
      layer.layer.remove();
      say("");
      report("stationsState", "off");
      return;
    }
    report("stationsState", "loading");
    say("Loading the sensor stations…", "busy");
    try {
      const features = await stations();
      if (!visible) return;
      layer.layer.addTo(map);
      const drawn = layer.show(features);
      report("stationsDrawn", drawn);
      report("stationsState", "ready");
      say(drawn.count + " sensor stations, " + drawn.withSeries + " with a series held here (dark outline). Click one for its series.");
    } catch (error) {
      if (isAbort(error)) return;
      say("The sensor stations could not be loaded: " + describeError(error), "error");
      report("stationsState", "error");
    }
  }

  async function openStation(triplet, latlng) {
    ctx.beforeDetail();
    layer.highlight(triplet);
    const opening = { heading: "Sensor station " + triplet, focus: false, latlng: latlng || null, loading: "Loading the station…", failure: "The station could not be loaded" };
    await panel.detail(opening, async (mine) => {
      const answer = await getJson(detailOf(entry.detail_endpoint, triplet), mine.signal);
      if (!panel.current(mine)) return;
      const parts = renderStation(panel.body, answer, entry);
      const properties = answer.station && answer.station.properties ? answer.station.properties : {};
      const held = Array.isArray(properties.series_offline) && properties.series_offline.length ? properties.series_offline[0] : null;
      const sensor = held || (Array.isArray(answer.sensors) && answer.sensors[0]) || STATION_SERIES;
      const params = { element: sensor.element, depth_cm: sensor.depth_cm, interval: "daily" };
      // The years held offline; a station without them asks the API's default range, whose warning says what is held.
      if (held && held.start && held.end) Object.assign(params, { start: String(held.start).slice(0, 10), end: String(held.end).slice(0, 10) });
      const catalog = await ctx.catalog;
      // The station's own links name its provider and the pedon's (docs/decisions.md#provider-links).
      const pedonHref = answer.links && answer.links.pedon && answer.links.pedon.href;
      const seriesUrl = withParams(answer.links.series, Object.assign({}, params, { start: params.start || null, end: params.end || null }));
      await Promise.all([
        getJson(seriesUrl, mine.signal).then(
          (series) => panel.current(mine) && renderStationSeries(parts.series, series, seriesUrl),
          (error) => !isAbort(error) && panel.current(mine) && parts.series.appendChild(errorLine("The series could not be loaded: " + describeError(error))),
        ),
        pedonHref
          ? getJson(withParams(pedonHref, { properties: ctx.property() }), mine.signal).then(
              (pedon) => panel.current(mine) && renderStationPedon(parts.pedon, pedon, answer, ctx.property(), catalog),
              (error) => !isAbort(error) && panel.current(mine) && parts.pedon.appendChild(errorLine("The linked pedon could not be loaded: " + describeError(error))),
            )
          : Promise.resolve(renderStationPedon(parts.pedon, null, answer, ctx.property(), catalog)),
      ]);
      if (panel.current(mine)) report("stationPanel", triplet);
    });
  }

  return {
    kind: KIND,
    entry,
    setVisible(on) {
      visible = Boolean(on);
      return load();
    },
    visible: () => visible,
    deselect: () => layer.highlight(null),
    openStation,
    /** The stations drawn (for the list of what is in view). */
    items: () => layer.items(),
    /** Every station (a promise of GeoJSON features), read once: the search looks names, ids and triplets up in it. */
    features: stations,
    /** The stations' box [w, s, e, n] (the coverage list flies there). */
    async extent() {
      const features = await stations();
      const points = features.filter((f) => f && f.geometry && f.geometry.type === "Point").map((f) => f.geometry.coordinates);
      if (!points.length) return null;
      return [Math.min(...points.map((p) => p[0])), Math.min(...points.map((p) => p[1])), Math.max(...points.map((p) => p[0])), Math.max(...points.map((p) => p[1]))];
    },
  };
}

const errorLine = (message) => el("p", { class: "panel-message panel-error", text: message });
