// Loam map page: laboratory pedons for the current view (/v1/pedons), a pedon's layers
// (/v1/pedons/{key}) and the mapped soil survey at a clicked point (/v1/soil/location).
//
// Rules this file keeps:
// - Everything that comes from the API is written as text (textContent, createElement), never as HTML.
// - No request leaves Loam's origin: Leaflet, the TopoJSON outlines and topojson-client are served by
//   Loam itself; there is no tile server.
// - The page's Content-Security-Policy allows only 'self' for scripts, styles and connections: no inline
//   script, no style attribute in markup (Leaflet's own element styles are set through the CSSOM).
/* global L, topojson */
(function () {
  "use strict";

  // ---------------------------------------------------------------- constants

  /** API limits for /v1/pedons (docs/decisions.md#limits). */
  var MAX_SIDE_DEGREES = 5;
  var MAX_AREA_SQUARE_DEGREES = 4;
  var PEDON_LIMIT = 500;
  var MOVE_DEBOUNCE_MS = 300;

  /** The snapshot's laboratory coverage: KSSL pedons in Kansas. */
  var KANSAS = L.latLngBounds([36.99, -102.05], [40.0, -94.6]);

  var LAB_PROVIDER = "usda_kssl";
  var SURVEY_PROVIDER = "usda_ssurgo";
  var PEDON_PROPERTIES = ["ph", "organic_carbon", "clay", "sand", "silt", "cec"];
  var LOCATION_PROPERTIES = ["ph", "organic_matter", "clay", "sand", "silt"];

  /** Column headings when no observation of a property came back (name, unit). */
  var FALLBACK_LABELS = {
    ph: ["pH (1:1 water)", "pH"],
    organic_carbon: ["Organic carbon", "% (by weight)"],
    organic_matter: ["Organic matter", "% (by weight)"],
    clay: ["Clay", "%"],
    sand: ["Sand", "%"],
    silt: ["Silt", "%"],
    cec: ["CEC, NH4OAc pH 7", "cmol(+)/kg"],
  };

  /** Short column headings; the full property name is the heading's title and is listed under the table. */
  var SHORT_LABELS = { ph: "pH", organic_carbon: "OC", organic_matter: "OM", clay: "Clay", sand: "Sand", silt: "Silt", cec: "CEC" };

  var PEDON_STYLE = { radius: 6, color: "#3b2415", weight: 1.5, fillColor: "#d0782c", fillOpacity: 0.9 };
  var SELECTED_STYLE = { radius: 9, color: "#111111", weight: 3, fillColor: "#ffd43b", fillOpacity: 1 };

  var PEDON_CAVEAT =
    "Pedon coordinates are provider records whose accuracy varies, especially for older pedons. " +
    "A pedon is a point: it is not representative of the surrounding area, field, soil series or map unit without further evidence.";

  // ---------------------------------------------------------------- small helpers

  var $ = function (id) {
    return document.getElementById(id);
  };

  /** Build an element. `text` becomes textContent; other keys become attributes; children are nodes or strings (text). */
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        var value = attrs[key];
        if (value === undefined || value === null || value === false) return;
        if (key === "text") node.textContent = String(value);
        else if (key === "class") node.className = value;
        else node.setAttribute(key, value === true ? "" : String(value));
      });
    }
    (children || []).forEach(function (child) {
      if (child === null || child === undefined || child === false) return;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function text(value) {
    return value === null || value === undefined || value === "" ? "—" : String(value);
  }

  function round6(x) {
    return Math.round(x * 1e6) / 1e6;
  }

  function clamp(x, lo, hi) {
    return Math.min(hi, Math.max(lo, x));
  }

  /** A number as text without binary floating-point noise (2.3274000000000004 → 2.3274). */
  function formatNumber(value) {
    if (typeof value !== "number" || !isFinite(value)) return text(value);
    return String(Number(value.toPrecision(12)));
  }

  function formatDepth(depth) {
    if (!depth) return "—";
    var top = depth.top_cm, bottom = depth.bottom_cm;
    if ((top === null || top === undefined) && (bottom === null || bottom === undefined)) return "not recorded";
    return text(top === null || top === undefined ? "?" : formatNumber(top)) + "–" + text(bottom === null || bottom === undefined ? "?" : formatNumber(bottom));
  }

  function unique(list) {
    var seen = new Set();
    return list.filter(function (item) {
      if (typeof item !== "string" || seen.has(item)) return false;
      seen.add(item);
      return true;
    });
  }

  function query(params) {
    return Object.keys(params)
      .map(function (key) {
        return encodeURIComponent(key) + "=" + String(params[key]).split(",").map(encodeURIComponent).join(",");
      })
      .join("&");
  }

  /** GET JSON from Loam. Non-2xx answers throw an Error with the ErrorResponse message. */
  function getJson(url, signal) {
    return fetch(url, { signal: signal, headers: { accept: "application/json" } }).then(
      function (response) {
        return response.text().then(function (body) {
          var parsed = null;
          try {
            parsed = body ? JSON.parse(body) : null;
          } catch (ignored) {
            parsed = null;
          }
          if (!response.ok) {
            var apiError = parsed && parsed.error && typeof parsed.error === "object" ? parsed.error : null;
            var error = new Error(apiError && typeof apiError.message === "string" ? apiError.message : "HTTP " + response.status + " " + response.statusText);
            error.status = response.status;
            error.requestId = apiError && typeof apiError.request_id === "string" ? apiError.request_id : response.headers.get("x-request-id");
            throw error;
          }
          if (parsed === null || typeof parsed !== "object") throw new Error("Loam sent an answer that is not JSON.");
          return parsed;
        });
      },
      function (networkError) {
        if (networkError && networkError.name === "AbortError") throw networkError;
        throw new Error("Could not reach Loam: " + (networkError && networkError.message ? networkError.message : String(networkError)));
      },
    );
  }

  function describeError(error) {
    var parts = [error && error.message ? error.message : String(error)];
    if (error && error.status) parts.push("(HTTP " + error.status + (error.requestId ? ", request id " + error.requestId : "") + ")");
    return parts.join(" ");
  }

  function isAbort(error) {
    return error && error.name === "AbortError";
  }

  // ---------------------------------------------------------------- status line

  var statusNode = $("status");

  function setStatus(message, kind) {
    statusNode.textContent = message;
    statusNode.className = "status status-" + (kind || "info");
  }

  // ---------------------------------------------------------------- the map

  /** State for tests and the curious: the map, the pedon layer, and what the last view request did. */
  window.loam = { map: null, pedonLayer: null, lastBbox: null, lastPedonCount: null, pedonState: "pending", basemapState: "loading" };

  var map = L.map("map", {
    preferCanvas: true,
    minZoom: 2,
    maxZoom: 18,
    maxBounds: L.latLngBounds([-90, -180], [90, 180]),
    maxBoundsViscosity: 1,
    worldCopyJump: false,
    keyboard: true,
  });
  window.loamMap = map;

  // Panes, bottom to top: land fill, county lines, state and country lines, pedons. (Leaflet sets the
  // z-index through the CSSOM, which the CSP permits.)
  [["land", "230"], ["counties", "240"], ["borders", "250"], ["pedons", "450"]].forEach(function (pane) {
    map.createPane(pane[0]).style.zIndex = pane[1];
  });
  var renderers = {
    land: L.canvas({ pane: "land", padding: 0.3 }),
    counties: L.canvas({ pane: "counties", padding: 0.3 }),
    borders: L.canvas({ pane: "borders", padding: 0.3 }),
  };
  var pedonRenderer = L.canvas({ pane: "pedons", padding: 0.2, tolerance: 3 });

  map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
  map.attributionControl.addAttribution("Outlines: Natural Earth, US Census Bureau");
  map.attributionControl.addAttribution("Soil data: USDA-NRCS (SSURGO, NCSS KSSL)");
  L.control.scale({ position: "bottomright", imperial: false }).addTo(map);

  // ---- basemap: country and US state (and, on request, county) outlines drawn locally

  var landLayer = L.layerGroup().addTo(map);
  var countryBorders = L.layerGroup().addTo(map);
  var stateBorders = L.layerGroup().addTo(map);
  var countyBorders = L.layerGroup();

  function outline(geometry, pane, style) {
    return L.geoJSON(geometry, {
      renderer: renderers[pane],
      pane: pane,
      interactive: false,
      style: function () {
        return style;
      },
    });
  }

  function loadTopology(url) {
    return getJson(url).then(function (topology) {
      if (!topology || topology.type !== "Topology") throw new Error(url + " is not TopoJSON");
      return topology;
    });
  }

  var basemapProblems = [];
  function basemapFailed(what) {
    return function (error) {
      basemapProblems.push(what + " could not be loaded (" + describeError(error) + ").");
      renderNotes();
    };
  }

  // Fetched in parallel, drawn in order: the opaque land fill first, borders over it.
  var worldLoad = loadTopology("/map/data/countries-50m.json");
  var statesLoad = loadTopology("/map/data/us-states-10m.json");
  worldLoad
    .then(function (world) {
      outline(topojson.feature(world, world.objects.land), "land", { stroke: true, color: "#6f6558", weight: 0.8, fill: true, fillColor: "#f3eee4", fillOpacity: 1 }).addTo(landLayer);
      outline(topojson.mesh(world, world.objects.countries, function (a, b) { return a !== b; }), "borders", { color: "#6f6558", weight: 1.2, fill: false }).addTo(countryBorders);
    })
    .catch(basemapFailed("Country outlines"))
    .then(function () {
      return statesLoad;
    })
    .then(function (us) {
      outline(topojson.mesh(us, us.objects.states, function (a, b) { return a !== b; }), "borders", { color: "#8c7f70", weight: 1, fill: false, dashArray: "4 3" }).addTo(stateBorders);
    })
    .catch(basemapFailed("US state outlines"))
    .then(function () {
      window.loam.basemapState = basemapProblems.length ? "incomplete" : "ready";
    });

  // County lines (us-atlas, ~240 kB compressed) orient the eye in the lab coverage; they are fetched the
  // first time the view is zoomed in far enough, and drawn only from COUNTY_MIN_ZOOM on.
  var COUNTY_MIN_ZOOM = 6;
  var countyLines = null;
  var countiesLoading = null;
  function updateCounties() {
    if (!map.hasLayer(countyBorders) || map.getZoom() < COUNTY_MIN_ZOOM) {
      if (countyLines) countyBorders.removeLayer(countyLines);
      return;
    }
    if (countyLines) {
      countyBorders.addLayer(countyLines);
      return;
    }
    if (countiesLoading) return;
    countiesLoading = loadTopology("/map/data/us-counties-10m.json")
      .then(function (us) {
        countyLines = outline(topojson.mesh(us, us.objects.counties, function (a, b) { return a !== b && ((a.id / 1000) | 0) === ((b.id / 1000) | 0); }), "counties", { color: "#b9ad9c", weight: 0.7, fill: false });
        updateCounties();
        window.loam.countiesState = "ready";
      })
      .catch(function (error) {
        countiesLoading = null;
        basemapFailed("US county outlines")(error);
      });
  }
  countyBorders.addTo(map);
  map.on("zoomend overlayadd overlayremove", updateCounties);

  L.control
    .layers(null, { "Country borders": countryBorders, "US state borders": stateBorders, "US county borders (zoom 6+)": countyBorders }, { position: "topright", collapsed: true })
    .addTo(map);

  // ---- legend

  var Legend = L.Control.extend({
    options: { position: "bottomleft" },
    onAdd: function () {
      var box = el("div", { class: "legend", role: "group", "aria-label": "Legend" });
      box.appendChild(el("p", { class: "legend-title", text: "Legend" }));
      var rows = [
        ["legend-dot legend-pedon", "Laboratory pedon (KSSL, observed point)"],
        ["legend-dot legend-selected", "Selected pedon"],
        ["legend-pin", "Queried point (SSURGO mapped survey)"],
        ["legend-line legend-state", "US state border"],
        ["legend-line legend-county", "US county border (zoom 6+)"],
        ["legend-line legend-country", "Country border / coast"],
      ];
      rows.forEach(function (row) {
        box.appendChild(el("div", { class: "legend-row" }, [el("span", { class: row[0], "aria-hidden": "true" }), el("span", { text: row[1] })]));
      });
      L.DomEvent.disableClickPropagation(box);
      return box;
    },
  });
  new Legend().addTo(map);

  // ---- cursor coordinates

  var Coordinates = L.Control.extend({
    options: { position: "bottomright" },
    onAdd: function () {
      this._node = el("div", { class: "cursor-coordinates", "aria-hidden": "true", text: "" });
      return this._node;
    },
  });
  var cursor = new Coordinates().addTo(map);
  map.on("mousemove", function (event) {
    var p = event.latlng.wrap();
    cursor._node.textContent = p.lat.toFixed(5) + ", " + p.lng.toFixed(5);
  });
  map.on("mouseout", function () {
    cursor._node.textContent = "";
  });

  // ---------------------------------------------------------------- notes (warnings that are not errors)

  var notesNode = $("status-notes");
  var pedonWarnings = [];

  function renderNotes() {
    var all = unique(basemapProblems.concat(pedonWarnings));
    notesNode.textContent = "";
    if (all.length === 0) {
      notesNode.hidden = true;
      return;
    }
    notesNode.hidden = false;
    notesNode.appendChild(el("summary", { text: "Notes (" + all.length + ")" }));
    notesNode.appendChild(
      el(
        "ul",
        null,
        all.map(function (w) {
          return el("li", { text: w });
        }),
      ),
    );
  }

  // ---------------------------------------------------------------- pedons in view

  var pedonLayer = L.layerGroup().addTo(map);
  window.loam.map = map;
  window.loam.pedonLayer = pedonLayer;
  var markersByKey = new Map();
  var selectedKey = null;
  var pedonController = null;
  var pedonSequence = 0;
  var moveTimer = null;
  var zoomMessage = $("zoom-message");
  var zoomDetail = $("zoom-detail");
  var pedonSelect = $("pedon-select");

  /** The visible box as the API wants it: [w, s, e, n], clamped to valid ranges, 6 decimals. */
  function viewBox() {
    var b = map.getBounds();
    return [round6(clamp(b.getWest(), -180, 180)), round6(clamp(b.getSouth(), -90, 90)), round6(clamp(b.getEast(), -180, 180)), round6(clamp(b.getNorth(), -90, 90))];
  }

  function boxProblem(box) {
    var width = box[2] - box[0], height = box[3] - box[1];
    if (!(width > 0) || !(height > 0)) return "empty";
    if (width > MAX_SIDE_DEGREES || height > MAX_SIDE_DEGREES || width * height > MAX_AREA_SQUARE_DEGREES) {
      return "This view is " + width.toFixed(1) + "° × " + height.toFixed(1) + "° (" + (width * height).toFixed(1) + " square degrees); " +
        "pedons are listed for boxes of at most " + MAX_SIDE_DEGREES + "° a side and " + MAX_AREA_SQUARE_DEGREES + " square degrees.";
    }
    return null;
  }

  function clearPedons() {
    pedonLayer.clearLayers();
    markersByKey = new Map();
    fillPedonSelect([]);
  }

  function scheduleLoad() {
    window.loam.pedonState = "pending";
    clearTimeout(moveTimer);
    moveTimer = setTimeout(loadPedons, MOVE_DEBOUNCE_MS);
  }

  function loadPedons() {
    if (pedonController) pedonController.abort();
    pedonController = null;
    var sequence = ++pedonSequence;
    var box = viewBox();
    window.loam.lastBbox = box;
    var problem = boxProblem(box);
    if (problem) {
      clearPedons();
      pedonWarnings = [];
      renderNotes();
      window.loam.pedonState = "zoom";
      if (problem === "empty") {
        zoomMessage.hidden = true;
        setStatus("The view lies outside valid coordinates; pan back to the map.", "warn");
        return;
      }
      zoomDetail.textContent = problem;
      zoomMessage.hidden = false;
      setStatus("Zoom in to see pedons. " + problem, "warn");
      return;
    }
    zoomMessage.hidden = true;
    var controller = new AbortController();
    pedonController = controller;
    setStatus("Loading pedons in this view…", "busy");
    window.loam.pedonState = "loading";
    var url = "/v1/pedons?" + query({ bbox: box.join(","), limit: PEDON_LIMIT });
    getJson(url, controller.signal)
      .then(function (collection) {
        if (sequence !== pedonSequence) return;
        var features = Array.isArray(collection.features) ? collection.features : [];
        renderPedons(features);
        pedonWarnings = Array.isArray(collection.warnings) ? collection.warnings : [];
        renderNotes();
        var n = markersByKey.size;
        if (collection.truncated === true) {
          setStatus("Showing " + n + " pedon" + (n === 1 ? "" : "s") + "; more exist in this view — zoom in", "warn");
        } else if (n === 0) {
          setStatus("No laboratory pedons in this view. Click the map for the mapped soil survey at a point.", "info");
        } else {
          setStatus("Showing " + n + " laboratory pedon" + (n === 1 ? "" : "s") + " in this view. Click one for its layers.", "info");
        }
        window.loam.lastPedonCount = n;
        window.loam.pedonState = "ready";
      })
      .catch(function (error) {
        if (isAbort(error) || sequence !== pedonSequence) return;
        clearPedons();
        setStatus("Pedons could not be loaded: " + describeError(error), "error");
        window.loam.pedonState = "error";
      });
  }

  function renderPedons(features) {
    pedonLayer.clearLayers();
    markersByKey = new Map();
    var listed = [];
    features.forEach(function (feature) {
      if (!feature || !feature.geometry || feature.geometry.type !== "Point") return;
      var coordinates = feature.geometry.coordinates;
      var lon = Number(coordinates[0]), lat = Number(coordinates[1]);
      if (!isFinite(lat) || !isFinite(lon)) return;
      var properties = feature.properties || {};
      var key = String(properties.pedon_key !== undefined && properties.pedon_key !== null ? properties.pedon_key : feature.id);
      if (markersByKey.has(key)) return;
      var marker = L.circleMarker([lat, lon], Object.assign({ renderer: pedonRenderer, pane: "pedons", bubblingMouseEvents: false }, key === selectedKey ? SELECTED_STYLE : PEDON_STYLE));
      marker.pedonKey = key;
      marker.pedonFeature = feature;
      marker.bindTooltip(function () {
        return el("span", null, [el("strong", { text: key }), properties.name ? " " + String(properties.name) : ""]);
      }, { direction: "top", offset: [0, -6] });
      marker.on("click", function (event) {
        // Leaflet reports a small circle marker's own centre as the event's containerPoint; use the mouse's.
        var at = event.originalEvent ? map.mouseEventToContainerPoint(event.originalEvent) : null;
        openPedon(nearestPedon(at) || key, false);
      });
      marker.addTo(pedonLayer);
      markersByKey.set(key, marker);
      listed.push({ key: key, name: properties.name });
    });
    var selected = selectedKey && markersByKey.get(selectedKey);
    if (selected) selected.bringToFront();
    fillPedonSelect(listed);
  }

  /** Overlapping markers: the canvas reports the topmost; open the one whose centre is nearest the click. */
  function nearestPedon(containerPoint) {
    if (!containerPoint) return null;
    var best = null, bestDistance = Infinity;
    markersByKey.forEach(function (marker, key) {
      var d = map.latLngToContainerPoint(marker.getLatLng()).distanceTo(containerPoint);
      if (d <= marker.getRadius() + 4 && d < bestDistance) {
        best = key;
        bestDistance = d;
      }
    });
    return best;
  }

  function fillPedonSelect(listed) {
    pedonSelect.textContent = "";
    pedonSelect.appendChild(el("option", { value: "", text: listed.length ? "Choose one of " + listed.length + "…" : "(none in view)" }));
    listed.forEach(function (item) {
      pedonSelect.appendChild(el("option", { value: item.key, text: item.key + (item.name ? " — " + item.name : "") }));
    });
    pedonSelect.disabled = listed.length === 0;
    pedonSelect.value = selectedKey && markersByKey.has(selectedKey) ? selectedKey : "";
  }

  pedonSelect.addEventListener("change", function () {
    if (pedonSelect.value) openPedon(pedonSelect.value, true);
  });

  function highlight(key) {
    if (selectedKey && markersByKey.has(selectedKey)) markersByKey.get(selectedKey).setStyle(PEDON_STYLE).setRadius(PEDON_STYLE.radius);
    selectedKey = key;
    if (key && markersByKey.has(key)) {
      var marker = markersByKey.get(key);
      marker.setStyle(SELECTED_STYLE).setRadius(SELECTED_STYLE.radius);
      marker.bringToFront();
    }
    if (pedonSelect.value !== (key || "")) pedonSelect.value = key && markersByKey.has(key) ? key : "";
  }

  map.on("moveend", function () {
    scheduleLoad();
    writeHash();
  });

  $("zoom-in-button").addEventListener("click", function () {
    map.setZoom(Math.min(map.getMaxZoom(), map.getZoom() + 2));
  });

  // ---------------------------------------------------------------- side panel

  var panel = $("panel");
  var panelTitle = $("panel-title");
  var panelBody = $("panel-body");
  var detailController = null;
  var pointMarker = null;

  /** Open the panel for something at `latlng`; keep that place in sight when the map narrows. */
  function openPanel(title, focus, latlng) {
    var wasHidden = panel.hidden;
    panelTitle.textContent = title;
    panelBody.textContent = "";
    panel.hidden = false;
    if (wasHidden) map.invalidateSize({ pan: false });
    if (latlng) {
      var size = map.getSize();
      map.panInside(latlng, { padding: [Math.min(120, size.x / 4), Math.min(80, size.y / 4)] });
    }
    if (focus) {
      panelTitle.setAttribute("tabindex", "-1");
      panelTitle.focus();
    }
  }

  function closePanel() {
    if (detailController) detailController.abort();
    detailController = null;
    highlight(null);
    removePointMarker();
    panel.hidden = true;
    map.invalidateSize({ pan: false });
    map.getContainer().focus();
  }

  $("panel-close").addEventListener("click", closePanel);
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !panel.hidden) closePanel();
  });

  function startDetail() {
    if (detailController) detailController.abort();
    detailController = new AbortController();
    return detailController;
  }

  function panelMessage(message, kind) {
    panelBody.textContent = "";
    panelBody.appendChild(el("p", { class: "panel-message panel-" + (kind || "info"), text: message }));
  }

  function removePointMarker() {
    if (pointMarker) pointMarker.remove();
    pointMarker = null;
  }

  function section(title, children, extraClass) {
    return el("section", { class: "panel-section" + (extraClass ? " " + extraClass : "") }, [el("h3", { text: title })].concat(children));
  }

  function definitionList(rows) {
    var dl = el("dl", { class: "facts" });
    rows.forEach(function (row) {
      if (!row) return;
      dl.appendChild(el("dt", { text: row[0] }));
      dl.appendChild(el("dd", null, [typeof row[1] === "string" ? row[1] : row[1]]));
    });
    return dl;
  }

  function warningList(warnings, className) {
    return el(
      "ul",
      { class: "warnings " + (className || "") },
      warnings.map(function (w) {
        return el("li", { text: w });
      }),
    );
  }

  function links(items) {
    return el(
      "p",
      { class: "api-links" },
      items.map(function (item) {
        return el("a", { href: item[1], target: "_blank", rel: "noopener", text: item[0] });
      }),
    );
  }

  /** Column headings (name and unit) for each requested property, from the observations that came back. */
  function columnLabels(properties, observations) {
    var labels = {};
    observations.forEach(function (o) {
      var id = o && o.property && o.property.id;
      if (id && !labels[id]) labels[id] = [text(o.property.name), text(o.unit)];
    });
    return properties.map(function (id) {
      var name = labels[id] ? labels[id][0] : (FALLBACK_LABELS[id] || [id])[0];
      return { id: id, short: SHORT_LABELS[id] || name, name: name, unit: labels[id] ? labels[id][1] : (FALLBACK_LABELS[id] || [id, ""])[1] };
    });
  }

  function headerRow(columns) {
    return el(
      "tr",
      null,
      [el("th", { scope: "col", class: "col-depth" }, ["Depth", el("span", { class: "unit", text: "cm" })]), el("th", { scope: "col", class: "col-horizon", text: "Horizon" })].concat(
        columns.map(function (c) {
          return el("th", { scope: "col", class: "col-value", title: c.name + ", " + c.unit }, [el("abbr", { title: c.name, text: c.short }), el("span", { class: "unit", text: c.unit })]);
        }),
      ),
    );
  }

  /** "pH = pH (1:1 water); OC = Organic carbon; …" for the headings that are abbreviated. */
  function columnKey(columns) {
    return "Columns: " + columns.map(function (c) {
      return c.short === c.name ? c.name + " (" + c.unit + ")" : c.short + " = " + c.name + " (" + c.unit + ")";
    }).join("; ") + ".";
  }

  // ---- pedon detail

  function openPedon(key, focus) {
    highlight(key);
    removePointMarker();
    var marker = markersByKey.get(key);
    openPanel("Pedon " + key, focus, marker ? marker.getLatLng() : null);
    panelMessage("Loading laboratory layers…", "busy");
    var controller = startDetail();
    var feature = marker ? marker.pedonFeature : null;
    var url = "/v1/pedons/" + encodeURIComponent(key) + "?" + query({ properties: PEDON_PROPERTIES.join(",") });
    getJson(url, controller.signal)
      .then(function (detail) {
        if (controller !== detailController) return;
        renderPedon(key, detail, feature);
      })
      .catch(function (error) {
        if (isAbort(error) || controller !== detailController) return;
        panelMessage("The pedon could not be loaded: " + describeError(error), "error");
      });
  }

  function renderPedon(key, detail, feature) {
    var props = (feature && feature.properties) || {};
    var location = detail.location || {};
    var lat = typeof location.latitude === "number" ? location.latitude : feature ? feature.geometry.coordinates[1] : null;
    var lon = typeof location.longitude === "number" ? location.longitude : feature ? feature.geometry.coordinates[0] : null;
    var accuracy = typeof location.horizontal_accuracy_m === "number" ? "± " + formatNumber(location.horizontal_accuracy_m) + " m as recorded" : "accuracy not recorded";
    var layers = Array.isArray(detail.layers) ? detail.layers.slice() : [];
    layers.sort(function (a, b) {
      var at = a && a.depth && typeof a.depth.top_cm === "number" ? a.depth.top_cm : Infinity;
      var bt = b && b.depth && typeof b.depth.top_cm === "number" ? b.depth.top_cm : Infinity;
      return at - bt;
    });
    var allObservations = [];
    layers.forEach(function (layer) {
      (Array.isArray(layer.observations) ? layer.observations : []).forEach(function (o) {
        allObservations.push(o);
      });
    });

    panelBody.textContent = "";
    panelBody.appendChild(
      definitionList([
        ["Pedon key", text(detail.pedon_key || key)],
        props.name ? ["Sampled as", text(props.name)] : null,
        props.pedlabsampnum && String(props.pedlabsampnum) !== String(detail.pedon_key || key) ? ["Lab sample no.", text(props.pedlabsampnum)] : null,
        props.upedonid ? ["User pedon id", text(props.upedonid)] : null,
        ["Provider", text(detail.provider || LAB_PROVIDER) + (detail.data_kind ? " (" + detail.data_kind + ")" : "")],
        ["Coordinates", lat === null || lon === null ? "not recorded" : formatNumber(lat) + ", " + formatNumber(lon) + " (WGS84; " + accuracy + ")"],
      ]),
    );
    panelBody.appendChild(el("p", { class: "caveat", text: PEDON_CAVEAT }));

    // Layer table: depth, designation, then each property with its unit.
    var columns = columnLabels(PEDON_PROPERTIES, allObservations);
    var derivedNotes = [];
    var table = el("table", { class: "data-table", id: "pedon-layers" });
    table.appendChild(el("caption", { text: "Laboratory layers (" + layers.length + ")" }));
    table.appendChild(el("thead", null, [headerRow(columns)]));
    var tbody = el("tbody");
    layers.forEach(function (layer) {
      var byProperty = {};
      (Array.isArray(layer.observations) ? layer.observations : []).forEach(function (o) {
        if (o && o.property && o.property.id && !byProperty[o.property.id]) byProperty[o.property.id] = o;
      });
      var row = el("tr", { "data-layer-key": text(layer.layer_key) }, [
        el("th", { scope: "row", class: "col-depth", text: formatDepth(layer.depth) }),
        el("td", { class: "col-horizon", text: text(layer.horizon_designation) }),
      ]);
      columns.forEach(function (c) {
        row.appendChild(labCell(byProperty[c.id], derivedNotes));
      });
      tbody.appendChild(row);
    });
    table.appendChild(tbody);
    if (layers.length === 0) {
      panelBody.appendChild(el("p", { class: "panel-message", text: "No laboratory layers overlap the requested depth interval." }));
    } else {
      panelBody.appendChild(el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": "Laboratory layers of pedon " + key }, [table]));
    }
    var legendNotes = [columnKey(columns), "— = not reported. A value beginning with < or > is a censored result, shown as reported (never as its limit)."];
    unique(derivedNotes).forEach(function (note) {
      legendNotes.push(note);
    });
    panelBody.appendChild(el("div", { class: "table-notes" }, legendNotes.map(function (n) { return el("p", { text: n }); })));

    var warnings = unique((Array.isArray(detail.warnings) ? detail.warnings : []).concat(
      allObservations.reduce(function (acc, o) {
        return acc.concat(Array.isArray(o.warnings) ? o.warnings : []);
      }, []),
    ));
    if (warnings.length) panelBody.appendChild(section("Warnings", [warningList(warnings)]));
    if (detail.citation) panelBody.appendChild(section("Source", [el("p", { class: "citation", text: String(detail.citation) + (detail.retrieved_at ? " Retrieved " + String(detail.retrieved_at) + "." : "") })]));
    panelBody.appendChild(
      links([
        ["Pedon JSON", "/v1/pedons/" + encodeURIComponent(key)],
        ["Raw provider table", "/v1/providers/" + encodeURIComponent(LAB_PROVIDER) + "/raw/pedons/" + encodeURIComponent(key)],
      ]),
    );
  }

  /** One lab value: censored results as reported ("<0.05"), never as their limit. */
  function labCell(observation, derivedNotes) {
    if (!observation) return el("td", { class: "col-value missing", text: "—", title: "not reported" });
    var censored = observation.value === null || observation.value === undefined || (observation.value_qualifier !== null && observation.value_qualifier !== undefined);
    var shown = censored ? (observation.reported_value !== null && observation.reported_value !== undefined && observation.reported_value !== "" ? String(observation.reported_value) : "censored") : formatNumber(observation.value);
    var cell = el("td", { class: "col-value" + (censored ? " censored" : ""), title: observation.measurement_method || null }, [shown]);
    if (censored && typeof observation.reporting_limit === "number") cell.setAttribute("title", "Censored result; reporting limit " + formatNumber(observation.reporting_limit));
    if (observation.data_kind === "derived") {
      cell.appendChild(el("sup", { class: "derived-mark", text: "d", title: "derived, not measured" }));
      derivedNotes.push("d = derived, not a direct measurement" + (observation.property && observation.property.name ? " (" + observation.property.name + ")" : "") + (observation.measurement_method ? ": " + observation.measurement_method : "."));
    }
    return cell;
  }

  // ---- mapped survey at a point

  function queryPoint(lat, lon, focus) {
    highlight(null);
    removePointMarker();
    pointMarker = L.marker([lat, lon], { keyboard: false, interactive: false, alt: "Queried point", title: "Queried point" }).addTo(map);
    openPanel("Mapped soil survey at " + formatNumber(lat) + ", " + formatNumber(lon), focus, L.latLng(lat, lon));
    panelMessage("Looking up the mapped soil survey at this point…", "busy");
    var controller = startDetail();
    var params = { latitude: lat, longitude: lon, properties: LOCATION_PROPERTIES.join(",") };
    getJson("/v1/soil/location?" + query(params), controller.signal)
      .then(function (answer) {
        if (controller !== detailController) return;
        renderLocation(lat, lon, answer, params);
      })
      .catch(function (error) {
        if (isAbort(error) || controller !== detailController) return;
        panelMessage("The mapped survey could not be loaded: " + describeError(error), "error");
      });
  }

  function renderLocation(lat, lon, answer, params) {
    var observations = Array.isArray(answer.observations) ? answer.observations : [];
    var mapUnits = Array.isArray(answer.map_units) ? answer.map_units : [];
    // Warnings every observation carries (the mapped-survey warning) go to the top; the rest go with
    // their component (e.g. "minor component"), and the response's own warnings to the end.
    var observationWarnings = unique(
      observations.reduce(function (acc, o) {
        return acc.concat(Array.isArray(o.warnings) ? o.warnings : []);
      }, []),
    ).filter(function (w) {
      return observations.every(function (o) {
        return Array.isArray(o.warnings) && o.warnings.indexOf(w) >= 0;
      });
    });
    var responseWarnings = unique(Array.isArray(answer.warnings) ? answer.warnings : []).filter(function (w) {
      return observationWarnings.indexOf(w) < 0;
    });

    panelBody.textContent = "";
    panelBody.appendChild(
      definitionList([
        ["Point", formatNumber(lat) + ", " + formatNumber(lon) + " (WGS84)"],
        ["Data kind", text(answer.data_kind || "mapped_survey")],
        ["Provider", SURVEY_PROVIDER],
      ]),
    );
    if (observationWarnings.length) panelBody.appendChild(warningList(observationWarnings, "survey-warning"));

    if (observations.length === 0) {
      panelBody.appendChild(el("p", { class: "panel-message panel-warn", text: mapUnits.length ? "The map unit here has no horizon values for the requested properties." : "No mapped survey data at this point." }));
    }

    var columns = columnLabels(LOCATION_PROPERTIES, observations);
    var groups = groupByMapUnit(observations);
    mapUnits.forEach(function (unit) {
      panelBody.appendChild(mapUnitSection(unit, groups[unit.map_unit_key] || [], columns, observationWarnings));
      delete groups[unit.map_unit_key];
    });
    // Observations whose map unit was not in map_units (should not happen; shown rather than dropped).
    Object.keys(groups).forEach(function (mapUnitKey) {
      var first = groups[mapUnitKey][0] && groups[mapUnitKey][0].survey_context;
      panelBody.appendChild(mapUnitSection(first || { map_unit_key: mapUnitKey }, groups[mapUnitKey], columns, observationWarnings));
    });

    if (responseWarnings.length) panelBody.appendChild(section("Warnings", [warningList(responseWarnings)]));
    var citations = unique(
      observations.map(function (o) {
        return o && o.source ? o.source.citation : null;
      }),
    );
    if (citations.length) {
      panelBody.appendChild(section("Source", citations.map(function (c) { return el("p", { class: "citation", text: c }); })));
    }
    var raw = { latitude: params.latitude, longitude: params.longitude, properties: params.properties };
    panelBody.appendChild(
      links([
        ["Location JSON", "/v1/soil/location?" + query(params)],
        ["Raw provider answer", "/v1/providers/" + encodeURIComponent(SURVEY_PROVIDER) + "/raw/location?" + query(raw)],
      ]),
    );
  }

  function groupByMapUnit(observations) {
    var groups = {};
    observations.forEach(function (o) {
      var key = o && o.survey_context ? String(o.survey_context.map_unit_key) : "";
      (groups[key] = groups[key] || []).push(o);
    });
    return groups;
  }

  function mapUnitSection(unit, observations, columns, shownAbove) {
    var box = el("section", { class: "panel-section map-unit" });
    box.appendChild(el("h3", null, ["Map unit ", el("span", { class: "symbol", text: text(unit.map_unit_symbol) }), ": " + text(unit.map_unit_name)]));
    box.appendChild(
      definitionList([
        ["Map unit key", text(unit.map_unit_key)],
        ["Survey area", text(unit.area_symbol)],
      ]),
    );
    // Components, largest share first.
    var components = {};
    var order = [];
    observations.forEach(function (o) {
      var c = o.survey_context;
      if (!components[c.component_key]) {
        components[c.component_key] = { context: c, horizons: {}, horizonOrder: [], warnings: [] };
        order.push(c.component_key);
      }
      var component = components[c.component_key];
      (Array.isArray(o.warnings) ? o.warnings : []).forEach(function (w) {
        if (shownAbove.indexOf(w) < 0) component.warnings.push(w);
      });
      if (!component.horizons[c.horizon_key]) {
        component.horizons[c.horizon_key] = { name: c.horizon_name, depth: o.depth, values: {} };
        component.horizonOrder.push(c.horizon_key);
      }
      var horizon = component.horizons[c.horizon_key];
      if (o.property && !horizon.values[o.property.id]) horizon.values[o.property.id] = o;
    });
    order.sort(function (a, b) {
      var pa = components[a].context.component_percent, pb = components[b].context.component_percent;
      return (typeof pb === "number" ? pb : -1) - (typeof pa === "number" ? pa : -1);
    });
    if (order.length === 0) box.appendChild(el("p", { class: "panel-message", text: "No component horizon values for the requested properties in this map unit." }));
    order.forEach(function (componentKey) {
      var component = components[componentKey];
      var c = component.context;
      var percent = typeof c.component_percent === "number" ? formatNumber(c.component_percent) + " % of the map unit" : "share not recorded";
      box.appendChild(el("h4", { class: "component" }, [text(c.component_name) + " — " + percent, el("span", { class: "key", text: " (component key " + text(componentKey) + ")" })]));
      var componentWarnings = unique(component.warnings);
      if (componentWarnings.length) box.appendChild(warningList(componentWarnings, "component-warnings"));
      var table = el("table", { class: "data-table component-horizons" });
      table.appendChild(el("caption", { text: "Horizons of " + text(c.component_name) + ": representative values" }));
      table.appendChild(el("thead", null, [headerRow(columns)]));
      var tbody = el("tbody");
      var horizonKeys = component.horizonOrder.slice().sort(function (a, b) {
        var da = component.horizons[a].depth, db = component.horizons[b].depth;
        return (da && typeof da.top_cm === "number" ? da.top_cm : Infinity) - (db && typeof db.top_cm === "number" ? db.top_cm : Infinity);
      });
      horizonKeys.forEach(function (horizonKey) {
        var horizon = component.horizons[horizonKey];
        var row = el("tr", null, [el("th", { scope: "row", class: "col-depth", text: formatDepth(horizon.depth) }), el("td", { class: "col-horizon", text: text(horizon.name) })]);
        columns.forEach(function (column) {
          row.appendChild(surveyCell(horizon.values[column.id]));
        });
        tbody.appendChild(row);
      });
      table.appendChild(tbody);
      box.appendChild(el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": "Horizons of " + text(c.component_name) }, [table]));
    });
    if (order.length) box.appendChild(el("div", { class: "table-notes" }, [el("p", { text: columnKey(columns) }), el("p", { text: "Small figures: the low–high typical values of the component horizon (not a statistical interval). — = not reported." })]));
    return box;
  }

  function surveyCell(observation) {
    if (!observation) return el("td", { class: "col-value missing", text: "—", title: "not reported" });
    var cell = el("td", { class: "col-value", title: observation.measurement_method || null }, [formatNumber(observation.value)]);
    var u = observation.uncertainty || {};
    if (typeof u.lower === "number" || typeof u.upper === "number") {
      cell.appendChild(el("span", { class: "range", text: (typeof u.lower === "number" ? formatNumber(u.lower) : "?") + "–" + (typeof u.upper === "number" ? formatNumber(u.upper) : "?"), title: u.method || null }));
    }
    if (observation.data_kind === "derived" || (Array.isArray(observation.transformations) && observation.transformations.length)) {
      cell.appendChild(el("sup", { class: "derived-mark", text: "d", title: "derived or converted; see the JSON for the transformation" }));
    }
    return cell;
  }

  map.on("click", function (event) {
    var p = event.latlng.wrap();
    queryPoint(round6(clamp(p.lat, -90, 90)), round6(clamp(p.lng, -180, 180)), false);
  });

  $("point-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var lat = Number($("point-lat").value), lon = Number($("point-lon").value);
    if (!isFinite(lat) || !isFinite(lon) || lat < -90 || lat > 90 || lon < -180 || lon > 180) {
      setStatus("Enter a latitude from -90 to 90 and a longitude from -180 to 180.", "error");
      return;
    }
    map.setView([lat, lon], Math.max(map.getZoom(), 14));
    queryPoint(round6(lat), round6(lon), true);
  });

  // ---------------------------------------------------------------- view in the URL (#zoom/lat/lon)

  function readHash() {
    var m = /^#(\d{1,2})\/(-?\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)$/.exec(window.location.hash);
    if (!m) return null;
    var zoom = Number(m[1]), lat = Number(m[2]), lon = Number(m[3]);
    if (zoom < 2 || zoom > 18 || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
    return { zoom: zoom, center: [lat, lon] };
  }

  function writeHash() {
    var c = map.getCenter();
    var hash = "#" + map.getZoom() + "/" + c.lat.toFixed(5) + "/" + c.lng.toFixed(5);
    if (window.location.hash !== hash) window.history.replaceState(null, "", hash);
  }


  var start = readHash();
  if (start) map.setView(start.center, start.zoom);
  else map.fitBounds(KANSAS, { padding: [24, 24] });
  updateCounties();
})();
