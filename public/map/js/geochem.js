// The geochemistry layer and its panel (USGS Data Series 801, provider usgs_geochem): sites of the view
// coloured by one element (layers/geochem.js), a site's element table (panels/geochem.js), and the nearest
// sites in a point's panel. Shown only when /v1/providers lists usgs_geochem as operational; otherwise the
// controls say that this instance does not serve it.
import { csvOf, describeError, getJson, isAbort, urls } from "./api.js";
import { GEOCHEM } from "./config.js";
import { $, el } from "./dom.js";
import { createGeochemLayer } from "./layers/geochem.js";
import { viewBox } from "./map.js";
import { appendNearestSites, renderSite } from "./panels/geochem.js";
import { setStatus } from "./status.js";

/** ctx: {map, state, panel, catalog (promise), beforeDetail()}. */
export function setUpGeochem(ctx) {
  const { map, state, panel } = ctx;
  const layer = createGeochemLayer(map, (siteId, latlng) => openSite(siteId, latlng));
  state.geochem = layer;
  state.geochemState = "off";
  const toggle = $("geo-toggle");
  const select = $("geo-element");
  const say = (message) => ($("geo-state").textContent = message);
  const choice = { element: GEOCHEM.element };
  let provider = null;
  let controller = null;

  const exportLinks = (url) => {
    const geojson = $("geo-geojson"), csv = $("geo-csv");
    geojson.hidden = csv.hidden = !url;
    if (url) {
      geojson.setAttribute("href", url);
      csv.setAttribute("href", csvOf(url));
    }
  };

  const ready = ctx.catalog.then((catalog) => {
    provider = catalog.provider(GEOCHEM.provider);
    if (!provider || provider.operational !== true) {
      toggle.disabled = select.disabled = true;
      $("geo-controls").hidden = true;
      say("Geochemistry sites are not served by this instance (provider " + GEOCHEM.provider + " is not operational).");
      state.geochemState = "unavailable";
      return null;
    }
    const elements = Array.isArray(provider.supported_properties) ? provider.supported_properties : [GEOCHEM.element];
    select.textContent = "";
    for (const id of elements) select.appendChild(el("option", { value: id, text: catalog.property(id).name }));
    select.value = elements.includes(choice.element) ? choice.element : elements[0];
    choice.element = select.value;
    return catalog;
  });

  async function load() {
    if (controller) controller.abort();
    controller = null;
    if (!toggle.checked) {
      layer.clear();
      layer.layer.remove();
      exportLinks(null);
      say("");
      state.geochemState = "off";
      return;
    }
    const catalog = await ready;
    if (!catalog) return;
    layer.layer.addTo(map);
    const mine = new AbortController();
    controller = mine;
    const url = urls.geochemSites(viewBox(map), { property: choice.element, limit: GEOCHEM.limit });
    state.geochemState = "loading";
    say("Loading geochemistry sites…");
    try {
      const collection = await getJson(url, mine.signal);
      if (mine !== controller) return;
      const property = catalog.property(choice.element);
      const withUnit = (collection.features || []).find((f) => f.properties && f.properties.unit);
      const drawn = layer.show(collection, { name: property.name, unit: withUnit ? withUnit.properties.unit : property.unit });
      state.geochemUrl = url;
      state.geochemDrawn = drawn;
      state.geochemState = "ready";
      exportLinks(drawn.count ? url : null);
      say(drawn.count === 0 ? "No geochemistry site in view." : drawn.count + " site" + (drawn.count === 1 ? "" : "s") + " in view" + (collection.truncated ? " (the first " + drawn.count + ": zoom in for all)" : "") + (drawn.censored ? ", " + drawn.censored + " below the reporting limit" : "") + ".");
    } catch (error) {
      if (isAbort(error) || mine !== controller) return;
      layer.clear();
      exportLinks(null);
      say("");
      setStatus("Geochemistry sites could not be loaded: " + describeError(error), "error");
      state.geochemState = "error";
    }
  }

  async function openSite(siteId, latlng) {
    ctx.beforeDetail();
    layer.highlight(siteId);
    panel.open("Geochemistry site " + siteId, false, latlng || null);
    panel.message("Loading the site's elements…", "busy");
    const mine = panel.start();
    try {
      const answer = await getJson(urls.geochemSite(siteId), mine.signal);
      if (panel.current(mine)) renderSite(panel.body, siteId, answer);
    } catch (error) {
      if (isAbort(error) || !panel.current(mine)) return;
      panel.message("The site could not be loaded: " + describeError(error), "error");
    }
  }

  toggle.addEventListener("change", load);
  select.addEventListener("change", () => {
    choice.element = select.value;
    load();
  });
  map.on("moveend", () => {
    if (toggle.checked) load();
  });

  return {
    /** Resolves true when this instance serves the geochemistry sites. */
    available: ready.then(Boolean),
    /** Switch the layer on (the places list's entry). */
    show() {
      toggle.checked = true;
      return load();
    },
    deselect: () => layer.highlight(null),
    openSite,
    /** In a point's panel: the nearest sites, when the provider is served. */
    async nearest(body, lat, lon, signal) {
      const catalog = await ready;
      if (!catalog) return;
      await appendNearestSites(body, lat, lon, choice.element, signal, (siteId, latlng) => {
        openSite(siteId, latlng);
      });
    },
  };
}
