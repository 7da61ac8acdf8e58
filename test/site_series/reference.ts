/**
 * The tests' own readers of datasets/scan (not the production decoder): the ISMN files split on
 * CR into tokens, and the station metadata CSV split on commas outside quotes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR } from "../support/server";

const SCAN = join(DATA_DIR, "scan");

export interface RefLine {
  /** "2007-01-01T00:00:00Z" */
  time: string;
  /** m3/m3 as written */
  raw: number;
  flags: string[];
}

/** The ISMN file of a station name (AAMU-jtg, Abrams, AdamsRanch#1): its header tokens and data lines. */
export function ismn(station: string): { header: string[]; lines: RefLine[] } {
  const file = readdirSync(join(SCAN, "ismn")).find((f) => f.startsWith(`SCAN_SCAN_${station}_sm_`))!;
  const [head, ...rest] = readFileSync(join(SCAN, "ismn", file), "latin1").split("\r");
  const lines = rest
    .map((line) => line.trim().split(/\s+/))
    .filter((tokens) => tokens.length >= 4)
    .map(([date, time, value, ...flags]) => ({ time: `${date!.replace(/\//g, "-")}T${time}:00Z`, raw: Number(value), flags }));
  return { header: head!.trim().split(/\s+/), lines };
}

/** % vol of a line as a user would compute it (m3/m3 x 100, to the file's 4 decimals of m3/m3). */
export const percent = (raw: number) => Math.round(raw * 100 * 100) / 100;

/** The station metadata CSV rows as {column: cell}, quotes removed, NA as null. */
export function metadata(): Record<string, string | null>[] {
  const [header, ...rows] = readFileSync(join(SCAN, "metadata", "soilDB_station-metadata.csv"), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((line) => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.filter((c) => c !== "").map((c) => c.replace(/,$/, "")));
  const cell = (c: string) => (c === "NA" ? null : c.startsWith('"') ? c.slice(1, -1).replace(/""/g, '"') : c);
  return rows.map((cells) => Object.fromEntries(header!.map((h, i) => [cell(h)!, cell(cells[i] ?? "")])));
}

/** The NWCC inventory row of a station id. */
export function inventory(stationId: string): Record<string, string> {
  const lines = readFileSync(join(SCAN, "metadata", "nwcc_inventory.csv"), "latin1").split("\r\n").filter((l) => l.trim() !== "");
  const header = lines[0]!.split(",").map((h) => h.trim());
  const row = lines.slice(1).map((l) => l.split(",").map((c) => c.trim())).find((cells) => cells[1] === stationId)!;
  return Object.fromEntries(header.map((h, i) => [h, row[i]!]));
}
