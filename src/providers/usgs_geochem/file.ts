/**
 * Reading and checking the DS 801 Appendix 2b text (docs/decisions.md#geochem-file): a title and a
 * bracketed legend, the header row, the unit row, then one tab-separated row of 82 cells per site.
 * The same reader serves the snapshot importer and live mode, so both serve the same cells.
 *
 * The checks a file must pass before any cell of it is served (each failure names its check):
 * - header: a row starting `Top5_LabID`, 82 columns, the nine site columns in order, every one of the
 *   44 element columns exactly once;
 * - unit row: right below the header; `Degrees` for the coordinates, `cm` for the depth, and `wt. %` or
 *   `mg/kg` for every element column;
 * - row count: exactly 4,857 site rows, each of 82 cells with a unique integer SiteID and coordinates
 *   (a truncated download fails here).
 */
import { decimal } from "../../decimal";
import { ELEMENTS, elementColumn } from "./elements";

/** The site columns that lead every row, in order. */
export const SITE_COLUMNS = ["Top5_LabID", "SiteID", "StateID", "Latitude", "Longitude", "CollDate", "LandCover1", "LandCover2", "Top5_Depth"] as const;
export const COLUMN_COUNT = 82;
export const SITE_COUNT = 4857;
/** The units an element column may carry. */
export const ELEMENT_UNITS = ["wt. %", "mg/kg"] as const;

export type GeochemCheck = "header" | "unit row" | "row count";

/** A file that fails a check: never served (live mode answers 502 and keeps the last good copy). */
export class GeochemFileError extends Error {
  constructor(
    readonly check: GeochemCheck,
    message: string,
  ) {
    super(`${check} check failed: ${message}`);
    this.name = "GeochemFileError";
  }
}

/** The checked table: the header, the unit row and the site rows as the file has them (strings). */
export interface GeochemTable {
  columns: string[];
  units: string[];
  rows: string[][];
}

const cellsOf = (line: string) => line.replace(/\r$/, "").split("\t");

export function readGeochemText(text: string): GeochemTable {
  const lines = text.split("\n");
  const headerAt = lines.findIndex((line) => line.startsWith("Top5_LabID\t"));
  if (headerAt < 0) throw new GeochemFileError("header", "no header row starting with Top5_LabID");
  const columns = cellsOf(lines[headerAt]!);
  checkHeader(columns);
  const units = cellsOf(lines[headerAt + 1] ?? "");
  checkUnits(columns, units);
  const rows: string[][] = [];
  for (let i = headerAt + 2; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.replace(/[\r\t ]/g, "") === "") continue;
    rows.push(cellsOf(line));
  }
  checkRows(rows);
  return { columns, units, rows };
}

function checkHeader(columns: string[]): void {
  if (columns.length !== COLUMN_COUNT) throw new GeochemFileError("header", `expected ${COLUMN_COUNT} columns, found ${columns.length}`);
  SITE_COLUMNS.forEach((name, i) => {
    if (columns[i] !== name) throw new GeochemFileError("header", `column ${i + 1} should be ${name}, found '${clip(columns[i] ?? "")}'`);
  });
  for (const element of ELEMENTS) {
    const name = elementColumn(element);
    const count = columns.filter((c) => c === name).length;
    if (count !== 1) throw new GeochemFileError("header", `element column ${name} appears ${count} times, expected once`);
  }
}

function checkUnits(columns: string[], units: string[]): void {
  if (units.length !== COLUMN_COUNT) throw new GeochemFileError("unit row", `expected ${COLUMN_COUNT} cells below the header, found ${units.length}`);
  const expect = (name: string, allowed: readonly string[]) => {
    const unit = units[columns.indexOf(name)]!;
    if (!allowed.includes(unit)) throw new GeochemFileError("unit row", `the unit of ${name} is '${clip(unit)}', expected ${allowed.join(" or ")}`);
  };
  expect("Latitude", ["Degrees"]);
  expect("Longitude", ["Degrees"]);
  expect("Top5_Depth", ["cm"]);
  for (const element of ELEMENTS) expect(elementColumn(element), ELEMENT_UNITS);
}

function checkRows(rows: string[][]): void {
  if (rows.length !== SITE_COUNT) throw new GeochemFileError("row count", `expected ${SITE_COUNT} site rows, found ${rows.length}`);
  const seen = new Set<number>();
  rows.forEach((row, i) => {
    const where = `site row ${i + 1}`;
    if (row.length !== COLUMN_COUNT) throw new GeochemFileError("row count", `${where} has ${row.length} cells, expected ${COLUMN_COUNT} (truncated?)`);
    const id = row[1]!;
    if (!/^[1-9][0-9]{0,8}$/.test(id)) throw new GeochemFileError("row count", `${where} has SiteID '${clip(id)}', not a positive integer`);
    if (seen.has(Number(id))) throw new GeochemFileError("row count", `SiteID ${id} appears twice`);
    seen.add(Number(id));
    const lat = decimal(row[3]!);
    const lon = decimal(row[4]!);
    if (lat === null || lon === null || Math.abs(lat) > 90 || Math.abs(lon) > 180) throw new GeochemFileError("row count", `${where} (SiteID ${id}) has no valid coordinates`);
  });
}

const clip = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);
