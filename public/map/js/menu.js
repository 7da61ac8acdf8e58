// The phone's menu: below PHONE_QUERY's width the toolbar (places, point form, soil-map controls, links)
// is one drawer between the header and the map, opened and closed by the Menu button; the map shrinks to
// make room (map.js re-measures it) and is never covered. On wide screens the toolbar is the side panel.
import { PHONE_QUERY } from "./config.js";
import { $ } from "./dom.js";

/** `onLayout()` is called right after the drawer opens or closes (the map's box changed). */
export function setUpMenu(onLayout) {
  const button = $("menu-toggle");
  const drawer = $("controls");
  const phone = window.matchMedia(PHONE_QUERY);
  const set = (open) => {
    document.body.classList.toggle("menu-open", open);
    button.setAttribute("aria-expanded", String(open));
    button.textContent = open ? "Close menu" : "Menu";
    if (onLayout) onLayout();
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
  // Leaving the phone layout: the drawer is the side panel again (the map re-measures itself).
  phone.addEventListener("change", () => set(false));
  set(false);
  return {
    close: () => set(false),
  };
}
