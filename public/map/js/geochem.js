// The sample-site layer (kind "sites" of GET /v1/layers: geochemistry sites) and its panel: sites of the
// view coloured by one element (layers/geochem.js), a site's element table (panels/geochem.js), and the
// nearest sites in a point's panel. The provider is the one /v1/layers declares for this kind; the page
// names none. The element's colour classes are fixed from every site of the dataset (national
// quantiles), computed once per element from the full collection and kept (docs/map.md).
import { csvOf, describeError, getJson, isAbort, urls } from "./api.js";
import { GEOCHEM } from "./config.js";
import { $, el } from "./dom.js";
import { createGeochemLayer, KIND } from "./layers/geochem.js";
import { classifyQuantiles } from "./layers/colour.js";
import { emptyBox, viewBox } from "./map.js";
import { appendNearestSites, renderSite } from "./panels/geochem.js";
import { setStatus } from "./status.js";

/** Every site's result for an element (all pages of the full collection, no bbox), once per element. */
const nationalValues = new Map();
function allValues(element) {
  if (!nationalValues.has(element)) {
    const read = async () => {
      const values = [];
      let url = urls.geochemSites(null, { property: element, limit: GEOCHEM.limit });
      for (let page = 0; url && page < 50; page++) {
        const answer = await getJson(url);
        for (const f of answer.features || []) if (f.properties && typeof f.properties.value === "number" && isFinite(f.properties.value)) values.push(f.properties.value);
        url = typeof answer.next === "string" ? answer.next : null;
      }
      return values;
    };
    const pending = read();
    // A failure is not kept: the next view asks again.
    pending.catch(() => nationalValues.delete(element));
    nationalValues.set(element, pending);
  }
  return nationalValues.get(element);
}

/** The fixed classes of an element: quantiles of every site's value (colour.js), with their count. */
export async function nationalClasses(element) {
  const values = await allValues(element);
  return Object.assign(classifyQuantiles(values), { count: values.length });
}

/** ctx: {map, state, panel, catalog (promise), beforeDetail()}; entry: the GET /v1/layers entry of kind "sites". */
export function setUpGeochem(ctx, entry) {
  const { map, state, panel } = ctx;
  const layer = createGeochemLayer(map, (siteId, latlng) => openSite(siteId, latlng));
  state.geochem = layer;
  state.geochemState = "off";
  const select = $("geo-element");
  const say = (message, kind) => setStatus(message, kind || "info", KIND);
  const choice = { element: GEOCHEM.element };
  let visible = false;
  let controller = null;
  $("geo-controls").hidden = false;

  const exportLinks = (url) => {
    const geojson = $("geo-geojson"), csv = $("geo-csv");
    geojson.hidden = csv.hidden = !url;
    if (url) {
      geojson.setAttribute("href", url);
      csv.setAttribute("href", csvOf(url));
    }
  };

  const ready = ctx.catalog.then((catalog) => {
    const elements = entry.properties.length ? entry.properties : [GEOCHEM.element];
    select.textContent = "";
    for (const id of elements) select.appendChild(el("option", { value: id, text: catalog.property(id).name }));
    select.value = elements.includes(choice.element) ? choice.element : elements[0];
    choice.element = select.value;
    return catalog;
  });

  async function load() {
    if (controller) controller.abort();
    controller = null;
    if (!visible) {
      layer.clear();
      layer.layer.remove();
      exportLinks(null);
      say("");
      state.geochemState = "off";
      return;
    }
    const catalog = await ready;
    layer.layer.addTo(map);
    const mine = new AbortController();
    controller = mine;
    const element = choice.element;
    if (emptyBox(viewBox(map))) return;
    const url = urls.geochemSites(viewBox(map), { property: element, limit: GEOCHEM.limit });
    state.geochemState = "loading";
    say("Loading geochemistry sites…", "busy");
    try {
      const [collection, classes] = await Promise.all([getJson(url, mine.signal), nationalClasses(element)]);
      if (mine !== controller) return;
      const property = catalog.property(element);
      const withUnit = (collection.features || []).find((f) => f.properties && f.properties.unit);
      const drawn = layer.show(collection, { name: property.name, unit: withUnit ? withUnit.properties.unit : property.unit }, classes);
      state.geochemUrl = url;
      state.geochemDrawn = drawn;
      state.geochemClasses = classes.classes;
      state.geochemState = "ready";
      exportLinks(drawn.count ? url : null);
      say(drawn.count === 0 ? "No geochemistry site in view." : drawn.count + " geochemistry site" + (drawn.count === 1 ? "" : "s") + " in view" + (collection.truncated ? " (the first " + drawn.count + ": zoom in for all)" : "") + (drawn.censored ? ", " + drawn.censored + " below the reporting limit" : "") + ". Click one for its elements.");
    } catch (error) {
      if (isAbort(error) || mine !== controller) return;
      layer.clear();
      exportLinks(null);
      say("Geochemistry sites could not be loaded: " + describeError(error), "error");
      state.geochemState = "error";
    }
  }

  async function openSite(siteId, latlng) {
    ctx.beforeDetail();
    layer.highlight(siteId);
    const opening = { heading: "Geochemistry site " + siteId, focus: false, latlng: latlng || null, loading: "Loading the site's elements…", failure: "The site could not be loaded" };
    await panel.detail(opening, async (mine) => {
      const answer = await getJson(urls.geochemSite(siteId), mine.signal);
      if (panel.current(mine)) renderSite(panel.body, siteId, answer, choice.element);
    });
  }

  select.addEventListener("change", () => {
    choice.element = select.value;
    load();
  });
  map.on("moveend", () => {
    if (visible) load();
  });

  return {
    kind: KIND,
    /** Show or hide the layer (the layer list's checkbox). */
    setVisible(on) {
      visible = Boolean(on);
      return load();
    },
    visible: () => visible,
    deselect: () => layer.highlight(null),
    openSite,
    /** The sites drawn (for the list of what is in view). */
    items: () => layer.items(),
    /** In a point's panel: the nearest sites. */
    async nearest(body, lat, lon, signal) {
      await ready;
      await appendNearestSites(body, lat, lon, choice.element, signal, (siteId, latlng) => {
        openSite(siteId, latlng);
      });
    },
  };
}
