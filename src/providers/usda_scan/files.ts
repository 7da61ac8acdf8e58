/**
 * The source files of the offline snapshot (docs/decisions.md#usda-scan), read once at build time:
 * AWDB's station metadata as soilDB wrote it (RFC 4180 CSV, `NA` for missing), the NWCC station
 * inventory (padded cells, trailing comma, two blank lines first) and ISMN's "header_values" series
 * files (bare-CR line ends; data lines of 4 or 5 tokens).
 */

/** RFC 4180 rows: quoted fields may hold commas and doubled quotes; unquoted `NA` is null. */
export function csvRows(text: string): (string | null)[][] {
  const rows: (string | null)[][] = [];
  let row: (string | null)[] = [];
  let field = "";
  let quoted = false;
  let wasQuoted = false;
  const endField = () => {
    row.push(!wasQuoted && field === "NA" ? null : field);
    field = "";
    wasQuoted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') (quoted = true), (wasQuoted = true);
    else if (c === ",") endField();
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endField();
      if (row.length > 1 || row[0] !== "") rows.push(row);
      row = [];
    } else field += c;
  }
  if (field !== "" || row.length > 0) {
    endField();
    rows.push(row);
  }
  return rows;
}

/** Rows as {header: cell}, the header row first. */
export function csvRecords(text: string): Record<string, string | null>[] {
  const [header, ...rows] = csvRows(text);
  if (!header) return [];
  const names = header.map((h) => (h ?? "").trim());
  return rows.map((cells) => Object.fromEntries(names.map((name, i) => [name, cells[i] ?? null])));
}

/** The NWCC inventory: blank lines before the header, padded cells, a trailing empty column. */
export function inventoryRecords(text: string): Record<string, string>[] {
  const lines = text.split(/\r\n|\n|\r/).filter((line) => line.trim() !== "");
  const [header, ...rows] = lines;
  if (!header) return [];
  const names = header.split(",").map((h) => h.trim());
  return rows.map((line) => {
    const cells = line.split(",");
    return Object.fromEntries(names.filter((n) => n !== "").map((name, i) => [name, (cells[i] ?? "").trim()]));
  });
}

export interface IsmnHeader {
  network: string;
  station: string;
  latitude: number;
  longitude: number;
  elevationM: number;
  depthFromM: number;
  depthToM: number;
  sensor: string;
}

/** What the file name says: ISMN's variable, exact depths and request window. */
export interface IsmnName {
  network: string;
  station: string;
  variable: string;
  depthFromM: number;
  depthToM: number;
  sensor: string;
}

/** `SCAN_SCAN_Abrams_sm_0.050800_0.050800_Hydraprobe-Analog-(2.5-Volt)_20070101_20131231.stm` */
export function ismnName(file: string): IsmnName | null {
  const m = /^([^_]+)_([^_]+)_(.+)_(sm|ts|su|sweq|ta|p)_(-?[0-9.]+)_(-?[0-9.]+)_(.+)_(\d{8})_(\d{8})\.stm$/.exec(file);
  if (!m) return null;
  return { network: m[2]!, station: m[3]!, variable: m[4]!, depthFromM: Number(m[5]), depthToM: Number(m[6]), sensor: m[7]! };
}

export interface IsmnValue {
  /** ms since epoch, UTC (ISMN distributes UTC). */
  t: number;
  value: number;
  /** The ISMN flag and, on 5-token lines, the provider's flag, as written. */
  flags: string;
}

export interface IsmnFile {
  header: IsmnHeader;
  values: IsmnValue[];
  /** Lines that did not read as a data line (counted, not guessed at). */
  skipped: number;
}

/** One header_values file: split on CR (the files have no LF), header first, then `date time value flag [flag]`. */
export function readIsmn(text: string): IsmnFile {
  const lines = text.split(/\r\n|\r|\n/);
  const head = (lines[0] ?? "").trim().split(/\s+/);
  if (head.length < 9) throw new Error(`the ISMN header has ${head.length} fields, not 9`);
  const header: IsmnHeader = {
    network: head[0]!,
    station: head[2]!,
    latitude: Number(head[3]),
    longitude: Number(head[4]),
    elevationM: Number(head[5]),
    depthFromM: Number(head[6]),
    depthToM: Number(head[7]),
    sensor: head.slice(8).join(" "),
  };
  const values: IsmnValue[] = [];
  let skipped = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") continue;
    const tokens = line.split(/\s+/);
    const date = /^(\d{4})\/(\d{2})\/(\d{2})$/.exec(tokens[0] ?? "");
    const time = /^(\d{2}):(\d{2})$/.exec(tokens[1] ?? "");
    const value = Number(tokens[2]);
    if (!date || !time || (tokens.length !== 4 && tokens.length !== 5) || !Number.isFinite(value)) {
      skipped++;
      continue;
    }
    const t = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]), Number(time[1]), Number(time[2]));
    values.push({ t, value, flags: tokens.slice(3).join(" ") });
  }
  return { header, values, skipped };
}

/** A station name as both sources spell it: letters and digits, lower case ("AAMU-JTG" = "AAMU-jtg"). */
export const nameKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * The modification time of each member of a zip archive, by the member's file name (its last path
 * segment), from the central directory. DOS times carry no zone: written as UTC, to the 2 seconds DOS
 * keeps (docs/decisions.md#retrieved-at). A file that is not a zip gives an empty map.
 */
export function zipMemberTimes(bytes: Uint8Array): Map<string, string> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const times = new Map<string, string>();
  // The end-of-central-directory record: its signature within the last 64 KB + 22 bytes (a comment may follow it).
  let end = -1;
  for (let at = bytes.byteLength - 22; at >= Math.max(0, bytes.byteLength - 65_557); at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) return times;
  const entries = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  for (let i = 0; i < entries && at + 46 <= bytes.byteLength && view.getUint32(at, true) === 0x02014b50; i++) {
    const [time, date] = [view.getUint16(at + 12, true), view.getUint16(at + 14, true)];
    const [nameLength, extra, comment] = [view.getUint16(at + 28, true), view.getUint16(at + 30, true), view.getUint16(at + 32, true)];
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    const ms = Date.UTC((date >> 9) + 1980, ((date >> 5) & 15) - 1, date & 31, time >> 11, (time >> 5) & 63, (time & 31) * 2);
    if (!name.endsWith("/") && Number.isFinite(ms)) times.set(name.split("/").pop()!, new Date(ms).toISOString().replace(".000Z", "Z"));
    at += 46 + nameLength + extra + comment;
  }
  return times;
}
