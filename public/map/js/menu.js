// The phone's menu: below PHONE_QUERY's width the toolbar (places, point form, soil-map controls, links)
// is one drawer over the map, opened and closed by the Menu button; on wide screens it is always shown.
import { PHONE_QUERY } from "./config.js";
import { $ } from "./dom.js";

export function setUpMenu(map) {
  const button = $("menu-toggle");
  const drawer = $("controls");
  const phone = window.matchMedia(PHONE_QUERY);
  const header = document.querySelector(".loam-header");
  const set = (open) => {
    // The drawer opens under the header, whose height depends on how the statement of what Loam is wraps (CSSOM: allowed by the CSP).
    if (open && phone.matches && header) {
      const bottom = Math.round(header.getBoundingClientRect().bottom);
      drawer.style.top = bottom + "px";
      drawer.style.maxHeight = "calc(100vh - " + (bottom + 8) + "px)";
    } else {
      drawer.style.top = drawer.style.maxHeight = "";
    }
    document.body.classList.toggle("menu-open", open);
    button.setAttribute("aria-expanded", String(open));
    button.textContent = open ? "Close menu" : "Menu";
  };
  button.addEventListener("click", () => {
    const open = !document.body.classList.contains("menu-open");
    set(open);
    if (open) {
      const first = drawer.querySelector("button, select, input, a");
      if (first) first.focus();
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && document.body.classList.contains("menu-open")) {
      set(false);
      button.focus();
    }
  });
  // Leaving the phone layout: the drawer is the toolbar again; the map's size changed either way.
  phone.addEventListener("change", () => {
    set(false);
    map.invalidateSize({ pan: false });
  });
  set(false);
  return {
    close: () => set(false),
  };
}
