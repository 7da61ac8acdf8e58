// The status line (what the map is doing) and the notes under it (warnings that are not errors).
// Status belongs to the active layer or tool (docs/map.md): each layer and tool writes under its own
// name; the line shows the active one's, and a layer's own row in the layer list shows its own. A tool
// (drawing an area) is active while it is in use, then the layer that was active before is again.
import { $, el, unique } from "./dom.js";

const statusNode = $("status");
const notesNode = $("status-notes");
const byOwner = new Map();
const rowNodes = new Map();
let active = null;
const listeners = [];

function show(message, kind) {
  statusNode.textContent = message;
  statusNode.className = "status status-" + (kind || "info");
}

/**
 * Say what the map is doing. `owner` (a layer kind or a tool): the line shows it only while that owner is
 * active; its layer row shows it always. Without an owner (an error of the page itself), the line shows it.
 */
export function setStatus(message, kind, owner) {
  if (owner) {
    byOwner.set(owner, { message, kind });
    const row = rowNodes.get(owner);
    if (row) {
      row.textContent = message;
      row.className = "layer-state status-" + (kind || "info");
    }
    if (owner !== active) return;
  }
  show(message, kind);
}

/** The node of a layer's own row where its status is written. */
export function statusRow(owner, node) {
  rowNodes.set(owner, node);
  const last = byOwner.get(owner);
  if (last) node.textContent = last.message;
}

/** Make `owner` the active layer or tool; the line shows its last status. Returns the one active before. */
export function setActive(owner) {
  const before = active;
  active = owner;
  const last = byOwner.get(owner);
  if (last) show(last.message, last.kind);
  for (const listener of listeners) listener(owner, before);
  return before;
}
export const activeOwner = () => active;
/** Called with (active, before) whenever the active layer or tool changes. */
export function onActiveChange(listener) {
  listeners.push(listener);
}

const whereNode = $("where");

/**
 * Where the last search or place list took the map ("Showing Greene County, Iowa"), or a search's problem; "" clears it.
 * `action` ({label, run}): a button after the words (e.g. "Look up the Clarion soil series").
 */
export function setWhere(message, kind, action) {
  whereNode.textContent = message || "";
  if (message && action) {
    const button = el("button", { type: "button", class: "where-action", text: action.label });
    button.addEventListener("click", () => action.run());
    whereNode.append(" ", button);
  }
  whereNode.hidden = !message;
  whereNode.className = "where where-" + (kind || "info");
}

/** Notes by source (basemap, catalog, pedons, …); each source replaces its own list. */
const notesBySource = new Map();

export function setNotes(source, notes) {
  notesBySource.set(source, notes.slice());
  renderNotes();
}

export function addNote(source, note) {
  setNotes(source, (notesBySource.get(source) || []).concat([note]));
}

function renderNotes() {
  const all = unique([].concat(...notesBySource.values()));
  notesNode.textContent = "";
  if (all.length === 0) {
    notesNode.hidden = true;
    return;
  }
  notesNode.hidden = false;
  notesNode.appendChild(el("summary", { text: "Notes (" + all.length + ")" }));
  notesNode.appendChild(el("ul", null, all.map((w) => el("li", { text: w }))));
}
