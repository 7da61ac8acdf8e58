// A sample-site layer (kind "sites" of GET /v1/layers: geochemistry sites, one per provider of the kind)
// and its panel: sites of the view coloured by one element (layers/geochem.js), a site's element table
// (panels/geochem.js), and the nearest sites in a point's panel. Every URL is the entry's (its endpoint,
// its detail endpoint), so a second provider's layer draws and opens its own sites; the page names no
// provider. The element list and the export links are the first site layer's; every site layer colours
// by the element chosen there. The element's colour classes are fixed from every site of the dataset (national
// quantiles), computed once per element from the full collection and kept (docs/map.md).
import { csvOf, describeError, detailOf, getJson, isAbort, withParams } from "./api.js";
import { GEOCHEM } from "./config.js";
import { $, el } from "./dom.js";
import { createGeochemLayer, KIND } from "./layers/geochem.js";
import { classifyQuantiles } from "./layers/colour.js";
import { emptyBox, viewBox } from "./map.js";
import { appendNearestSites, renderSite } from "./panels/geochem.js";
import { setStatus } from "./status.js";

/** Every site's result for an element (all pages of a layer's full collection, no bbox), once per layer and element. */
const nationalValues = new Map();
function allValues(endpoint, element) {
  const kept = endpoint + " " + element;
  if (!nationalValues.has(kept)) {
    const read = async () => {
      const values = [];
      let url = withParams(endpoint, { property: element, limit: GEOCHEM.limit });
      for (let page = 0; url && page < 50; page++) {
        const answer = await getJson(url);
        for (const f of answer.features || []) if (f.properties && typeof f.properties.value === "number" && isFinite(f.properties.value)) values.push(f.properties.value);
        url = typeof answer.next === "string" ? answer.next : null;
      }
      return values;
    };
    const pending = read();
    // A failure is not kept: the next view asks again.
    pending.catch(() => nationalValues.delete(kept));
    nationalValues.set(kept, pending);
  }
  return nationalValues.get(kept);
}

/** The fixed classes of an element in a layer (its endpoint): quantiles of every site's value (colour.js), with their count. */
async function nationalClasses(endpoint, element) {
  const values = await allValues(endpoint, element);
  return Object.assign(classifyQuantiles(values), { count: values.length });
}

/**
 * ctx: {map, state, panel, catalog (promise), beforeDetail(), report(name, value)}; entry: a GET /v1/layers
 * entry of kind "sites" with the page's `key` for it (main.js).
 */
export function setUpGeochem(ctx, entry) {
  const { map, panel, report } = ctx;
  const first = entry.key === KIND;
  const layer = createGeochemLayer(map, (siteId, latlng) => openSite(siteId, latlng), entry.key);
  report("geochem", layer);
  report("geochemState", "off");
  const select = $("geo-element");
  const say = (message, kind) => setStatus(message, kind || "info", entry.key);
  const choice = { element: GEOCHEM.element };
  let visible = false;
  let controller = null;
  $("geo-controls").hidden = false;

  const exportLinks = (url) => {
    if (!first) return;
    const geojson = $("geo-geojson"), csv = $("geo-csv");
    geojson.hidden = csv.hidden = !url;
    if (url) {
      geojson.setAttribute("href", url);
      csv.setAttribute("href", csvOf(url));
    }
  };

  const elements = entry.properties.length ? entry.properties : [GEOCHEM.element];
  const ready = ctx.catalog.then((catalog) => {
    if (!first) {
      if (!elements.includes(choice.element)) choice.element = elements[0];
      return catalog;
    }
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
      report("geochemState", "off");
      return;
    }
    const catalog = await ready;
    layer.layer.addTo(map);
    const mine = new AbortController();
    controller = mine;
    const element = choice.element;
    if (emptyBox(viewBox(map))) return;
    const url = withParams(entry.endpoint, { bbox: viewBox(map).join(","), property: element, limit: GEOCHEM.limit });
    report("geochemState", "loading");
    say("Loading geochemistry sites…", "busy");
    try {
      const [collection, classes] = await Promise.all([getJson(url, mine.signal), nationalClasses(entry.endpoint, element)]);
      if (mine !== controller) return;
      const property = catalog.property(element);
      const withUnit = (collection.features || []).find((f) => f.properties && f.properties.unit);
      const drawn = layer.show(collection, { name: property.name, unit: withUnit ? withUnit.properties.unit : property.unit }, classes);
      report("geochemUrl", url);
      report("geochemDrawn", drawn);
      report("geochemClasses", classes.classes);
      report("geochemState", "ready");
      exportLinks(drawn.count ? url : null);
      say(drawn.count === 0 ? "No geochemistry site in view." : drawn.count + " geochemistry site" + (drawn.count === 1 ? "" : "s") + " in view" + (collection.truncated ? " (the first " + drawn.count + ": zoom in for all)" : "") + (drawn.censored ? ", " + drawn.censored + " below the reporting limit" : "") + ". Click one for its elements.");
    } catch (error) {
      if (isAbort(error) || mine !== controller) return;
      layer.clear();
      exportLinks(null);
      say("Geochemistry sites could not be loaded: " + describeError(error), "error");
      report("geochemState", "error");
    }
  }

  async function openSite(siteId, latlng) {
    ctx.beforeDetail();
    layer.highlight(siteId);
    const opening = { heading: "Geochemistry site " + siteId, focus: false, latlng: latlng || null, loading: "Loading the site's elements…", failure: "The site could not be loaded" };
    await panel.detail(opening, async (mine) => {
      const answer = await getJson(detailOf(entry.detail_endpoint, siteId), mine.signal);
      if (panel.current(mine)) renderSite(panel.body, siteId, answer, choice.element, entry);
    });
  }

  select.addEventListener("change", () => {
    // A layer of another provider keeps its own first element when the chosen one is not among its own.
    choice.element = first || elements.includes(select.value) ? select.value : elements[0];
    load();
  });
  map.on("moveend", () => {
    if (visible) load();
  });

  return {
    kind: KIND,
    entry,
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
      await appendNearestSites(body, lat, lon, choice.element, entry, signal, (siteId, latlng) => {
        openSite(siteId, latlng);
      });
    },
  };
}
