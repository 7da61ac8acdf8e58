// The status line (what the map is doing) and the notes under it (warnings that are not errors).
import { $, el, unique } from "./dom.js";

const statusNode = $("status");
const notesNode = $("status-notes");

export function setStatus(message, kind) {
  statusNode.textContent = message;
  statusNode.className = "status status-" + (kind || "info");
}

const whereNode = $("where");

/** Where the last search or place list took the map ("Showing Greene County, Iowa"), or a search's problem; "" clears it. */
export function setWhere(message, kind) {
  whereNode.textContent = message || "";
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
