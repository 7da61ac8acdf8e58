/**
 * usda_scan's part of the offline snapshot (docs/decisions.md#usda-scan): the step that imports every
 * SCAN station's metadata (AWDB via soilDB, with the NWCC inventory's and the ISMN headers' differing
 * values kept) and the ISMN series into `usda_scan_*` tables, and the readers that answer from them in
 * the JSON both transports send (./records.ts). Nothing of a request reaches SQL but checked numbers and keys.
 */
import type { Database } from "bun:sqlite";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { unzipSync } from "fflate";
import { UpstreamError } from "../../errors";
import { nearestByGeodesic } from "../../geometry/geodesic";
import { tableExists, type DatasetInfo } from "../../upstream/snapshot-schema";
import { Payload } from "../../upstream/transport";
import type { ImportFormat, SnapshotStep, SitesBoxParams, StationKeyParams, SitesNearParams, StationSeriesParams } from "../provider";
import { SCAN_PROVIDER_ID, SOURCE_AWDB, SOURCE_INVENTORY, SOURCE_ISMN } from "./catalog";
import { blockReader, BLOCK_TABLE, createBlockTable, storeBlocks } from "./blocks";
import { csvRecords, inventoryRecords, ismnName, nameKey, readIsmn, zipMemberTimes } from "./files";
import { endDateOf, type OtherAccount, seriesPayload, type SeriesAnswer, type StationRecord, type StationsAnswer } from "./records";

/** 3: the values stored by series and month, packed and compressed (./blocks.ts), no longer a row each. */
export const SCAN_LAYOUT = "3";
const METADATA = "scan/metadata/soilDB_station-metadata.csv";
const INVENTORY = "scan/metadata/nwcc_inventory.csv";
const ISMN_DIR = "scan/ismn";
/** The ISMN download the series files were extracted from: its members' times date them (datasets/scan/README.md). */
const ISMN_ZIP = "scan/ismn/Data_header_values.zip";

/** ISMN's variable names → property id, source unit and served unit. */
const ISMN_VARIABLES: Record<string, { element: string; sourceUnit: string; unit: string }> = {
  sm: { element: "soil_moisture", sourceUnit: "m3/m3", unit: "% vol" },
  ts: { element: "soil_temperature", sourceUnit: "degC", unit: "°C" },
};

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const num = (cell: string | null | undefined): number | null => (cell === null || cell === undefined || cell.trim() === "" || !Number.isFinite(Number(cell)) ? null : Number(cell));

function createTables(db: Database): void {
  db.run(`CREATE TABLE IF NOT EXISTS usda_scan_station (station_id INTEGER NOT NULL, triplet TEXT PRIMARY KEY, latitude REAL NOT NULL, longitude REAL NOT NULL, record TEXT NOT NULL)`);
  db.run(`CREATE INDEX IF NOT EXISTS usda_scan_station_order ON usda_scan_station (station_id, triplet)`);
  db.run(
    `CREATE TABLE IF NOT EXISTS usda_scan_series (series_id INTEGER PRIMARY KEY, triplet TEXT NOT NULL, element TEXT NOT NULL, depth_cm REAL NOT NULL, ordinal INTEGER NOT NULL, source_unit TEXT NOT NULL, file TEXT NOT NULL, file_time TEXT, first_ms INTEGER, last_ms INTEGER, count INTEGER NOT NULL)`,
  );
  createBlockTable(db);
}

function inventoryAccount(row: Record<string, string>): OtherAccount {
  const account: OtherAccount = { source: SOURCE_INVENTORY };
  const elev = num(row["elev"]);
  const lat = num(row["lat"]);
  const lon = num(row["lon"]);
  const offset = num(row["gmt_offset"]);
  if (elev !== null) account.elevation_ft = elev;
  if (lat !== null) account.latitude = lat;
  if (lon !== null) account.longitude = lon;
  // The cells are padded text ("  30.30"): their decimals, not the number's, say how the inventory rounds.
  const written = ((row["lat"] ?? "").trim().split(".")[1] ?? "").length;
  if (lat !== null) account.coordinate_decimals = written;
  if (row["start_date"]) account.begin_date = row["start_date"];
  // The inventory writes hours west of UTC as a positive number (6.0 = UTC-6).
  if (offset !== null) account.utc_offset = offset === 0 ? 0 : -offset;
  return account;
}

function stationRecord(row: Record<string, string | null>, inventory: Record<string, string> | undefined): StationRecord {
  return {
    triplet: row["stationTriplet"]!,
    station_id: row["Site"]!,
    name: row["Name"] ?? null,
    network: row["Network"]!,
    state: row["stateCode"] ?? null,
    county: row["countyName"] ?? null,
    huc: row["HUC"] ?? null,
    elevation_ft: num(row["Elevation_ft"]),
    latitude: Number(row["Latitude"]),
    longitude: Number(row["Longitude"]),
    data_time_zone: num(row["dataTimeZone"]),
    begin_date: row["beginDate"] ? row["beginDate"].slice(0, 10) : null,
    end_date: endDateOf(row["endDate"] ?? null),
    pedon_key: row["pedlabsampnum"] ?? null,
    source: SOURCE_AWDB,
    sensors: [],
    held: [],
    others: inventory ? [inventoryAccount(inventory)] : [],
    raw: row,
  };
}

/** Every SCAN station of the metadata files under `dataDir` (AWDB via soilDB, the NWCC inventory's values beside). */
function metadataStations(dataDir: string): Map<string, StationRecord> {
  const inventory = new Map<string, Record<string, string>>();
  const inventoryPath = join(dataDir, INVENTORY);
  if (existsSync(inventoryPath)) for (const row of inventoryRecords(readFileSync(inventoryPath, "latin1"))) if (row["network"] === "scan") inventory.set(row["station id"]!, row);
  const records = new Map<string, StationRecord>();
  const metadataPath = join(dataDir, METADATA);
  if (!existsSync(metadataPath)) return records;
  for (const row of csvRecords(readFileSync(metadataPath, "utf8"))) {
    if (row["Network"] !== "SCAN" || !row["stationTriplet"] || !row["Site"]) continue;
    records.set(row["stationTriplet"], stationRecord(row, inventory.get(row["Site"])));
  }
  return records;
}

/** The stations the snapshot holds; the data folder's metadata when it holds none yet (an import into a new snapshot). */
function heldStations(db: Database, dataDir: string): Map<string, StationRecord> {
  const rows = db.query<{ record: string }, []>("SELECT record FROM usda_scan_station").all();
  if (rows.length === 0) return metadataStations(dataDir);
  return new Map(rows.map((r) => {
    const record = JSON.parse(r.record) as StationRecord;
    return [record.triplet, record];
  }));
}

/**
 * One ISMN file into the series tables and its station's record; a series of the same station, element
 * and depth held already is replaced (a newer ISMN download). A warning instead when it matches no station.
 */
function addIsmnFile(db: Database, records: Map<string, StationRecord>, { file, text, time }: IsmnText, warnings: string[], log: (line: string) => void): boolean {
  const name = ismnName(file);
  const variable = name ? ISMN_VARIABLES[name.variable] : undefined;
  if (!name || !variable) {
    warnings.push(`usda_scan: ${file} is not an ISMN series Loam reads (soil moisture sm or soil temperature ts); skipped.`);
    return false;
  }
  const series = readIsmn(text());
  // ISMN names stations its own way (AAMU-jtg, AdamsRanch#1): matched by name and position.
  const station = [...records.values()].find((r) => nameKey(r.name ?? "") === nameKey(name.station) && Math.abs(r.latitude - series.header.latitude) < 0.1 && Math.abs(r.longitude - series.header.longitude) < 0.1);
  if (!station) {
    warnings.push(`usda_scan: no SCAN station matches the ISMN station ${name.station} (${file}); skipped.`);
    return false;
  }
  if (series.skipped > 0) warnings.push(`usda_scan: ${series.skipped} lines of ${file} did not read as data lines; skipped.`);
  const depthCm = Math.round(name.depthFromM * 100 * 1000) / 1000;
  const same = (e: { element: string; depth_cm: number | null }) => e.element === variable.element && e.depth_cm !== null && Math.abs(e.depth_cm - depthCm) < 0.01;
  for (const old of db.query<{ series_id: number }, [string, string, number]>("SELECT series_id FROM usda_scan_series WHERE triplet = ? AND element = ? AND abs(depth_cm - ?) < 0.01").all(station.triplet, variable.element, depthCm)) {
    db.query(`DELETE FROM ${BLOCK_TABLE} WHERE series_id = ?`).run(old.series_id);
    db.query("DELETE FROM usda_scan_series WHERE series_id = ?").run(old.series_id);
  }
  station.sensors = station.sensors.filter((s) => !same(s));
  station.held = station.held.filter((h) => !same(h));
  const first = series.values[0]?.t ?? null;
  const last = series.values[series.values.length - 1]?.t ?? null;
  const { series_id } = db
    .query("INSERT INTO usda_scan_series (triplet, element, depth_cm, ordinal, source_unit, file, file_time, first_ms, last_ms, count) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?) RETURNING series_id")
    // retrieved_at of a series is its file's date (the download's member time), not the import's (docs/decisions.md#retrieved-at).
    .get(station.triplet, variable.element, depthCm, variable.sourceUnit, file, time, first, last, series.values.length) as { series_id: number };
  storeBlocks(db, series_id, series.values.map((v) => ({ t: v.t / 1000, value: v.value, flags: v.flags })));
  station.sensors.push({
    element: variable.element,
    source_element: name.variable,
    depth_cm: depthCm,
    ordinal: 1,
    unit: variable.unit,
    source_unit: variable.sourceUnit,
    start: first === null ? null : iso(first),
    end: last === null ? null : iso(last),
    instrument: name.sensor,
  });
  station.held.push({ element: variable.element, depth_cm: depthCm, start: first === null ? null : iso(first), end: last === null ? null : iso(last), values: series.values.length });
  const ismn = { source: SOURCE_ISMN, elevation_m: series.header.elevationM, latitude: series.header.latitude, longitude: series.header.longitude };
  if (!station.others.some((o) => JSON.stringify(o) === JSON.stringify(ismn))) station.others.push(ismn);
  log(`imported ${series.values.length} ISMN values of ${station.triplet}`);
  return true;
}

/** Write the station records back, and the one dataset that says what the tables hold now. */
function saveStations(db: Database, records: Map<string, StationRecord>, source: string): DatasetInfo[] {
  const insertStation = db.prepare("INSERT OR REPLACE INTO usda_scan_station (station_id, triplet, latitude, longitude, record) VALUES (?, ?, ?, ?, ?)");
  db.transaction(() => {
    for (const r of records.values()) insertStation.run(Number(r.station_id), r.triplet, r.latitude, r.longitude, JSON.stringify(r));
  })();
  insertStation.finalize();
  const stations = db.query<{ n: number }, []>("SELECT count(*) AS n FROM usda_scan_station").get()?.n ?? 0;
  const series = db.query<{ n: number }, []>("SELECT count(*) AS n FROM usda_scan_series").get()?.n ?? 0;
  if (stations === 0) return [];
  return [{ kind: SCAN_PROVIDER_ID, id: "scan", label: `SCAN: ${stations} stations' metadata (AWDB via soilDB), ${series} ISMN hourly series`, vintage: null, source } as DatasetInfo];
}

/** Fill usda_scan_* from LOAM_DATA_DIR/scan (read-only). */
function importScan(db: Database, dataDir: string, log: (line: string) => void): { datasets: DatasetInfo[]; warnings: string[] } {
  createTables(db);
  if (!existsSync(join(dataDir, METADATA))) return { datasets: [], warnings: [`usda_scan: ${METADATA} not found; the snapshot holds no SCAN station.`] };
  log("importing SCAN station metadata");
  const records = metadataStations(dataDir);
  const warnings: string[] = [];
  const ismnDir = join(dataDir, ISMN_DIR);
  const files = existsSync(ismnDir) ? readdirSync(ismnDir).filter((f) => f.endsWith(".stm")).sort() : [];
  // The loose files were extracted from the download beside them: its members' times date them.
  const zipPath = join(dataDir, ISMN_ZIP);
  const times = existsSync(zipPath) ? zipMemberTimes(new Uint8Array(readFileSync(zipPath))) : new Map<string, string>();
  for (const file of files) addIsmnFile(db, records, { file, text: () => readFileSync(join(ismnDir, file), "latin1"), time: times.get(file) ?? null }, warnings, log);
  return { datasets: saveStations(db, records, METADATA), warnings };
}

/** An ISMN file: its name, its text when read, and its date. */
interface IsmnText {
  file: string;
  text: () => string;
  /** Its member time in ISMN's zip (UTC ISO), what dates the series; null for a loose file of unknown date. */
  time: string | null;
}

const isZip = (path: string) => /\.zip$/i.test(path) && statSync(path).isFile();

/**
 * The .stm files of a path: the file, every one under a folder (ISMN unpacks to <network>/<station>/),
 * or every one in ISMN's download zip (read from the zip, never unpacked to disk).
 */
function stmFiles(path: string): IsmnText[] {
  if (isZip(path)) {
    const zip = readFileSync(path);
    const times = zipMemberTimes(new Uint8Array(zip));
    const entries = unzipSync(zip, { filter: (entry) => entry.name.endsWith(".stm") });
    return Object.entries(entries)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, bytes]) => ({ file: basename(name), text: () => Buffer.from(bytes).toString("latin1"), time: times.get(basename(name)) ?? null }));
  }
  // A loose file's modification time may be anything (a copy, a checkout): no date rather than a wrong one.
  if (!statSync(path).isDirectory()) return [{ file: basename(path), text: () => readFileSync(path, "latin1"), time: null }];
  return readdirSync(path).sort().flatMap((name) => {
    const child = join(path, name);
    return statSync(child).isDirectory() || isZip(child) ? stmFiles(child) : name.endsWith(".stm") ? stmFiles(child) : [];
  });
}

/** The names of the .stm files a path holds, without reading them (a zip's central directory). */
function stmNames(path: string): string[] {
  if (!isZip(path)) return stmFiles(path).map((f) => f.file);
  const names: string[] = [];
  unzipSync(readFileSync(path), { filter: (entry) => (entry.name.endsWith(".stm") && names.push(basename(entry.name)), false) });
  return names;
}

export const ISMN_FORMATS: readonly ImportFormat[] = [
  {
    name: "ISMN .stm",
    description:
      "ISMN station files in the 'header + values' format (<network>_<network>_<station>_<sm|ts>_<depth>_<depth>_<sensor>_<start>_<end>.stm): files, a folder of them, or ISMN's download zip; any SCAN station, soil moisture and soil temperature, any depth (other networks' files are skipped)",
  },
];

export const SCAN_SNAPSHOT: SnapshotStep = {
  layout: SCAN_LAYOUT,
  create: createTables,
  import: importScan,
  formats: ISMN_FORMATS,
  formatOf: (path) => (existsSync(path) && stmNames(path).some((f) => ismnName(f) !== null) ? ISMN_FORMATS[0]!.name : null),
  async importFiles(db, paths, { dataDir, log }) {
    createTables(db);
    const records = heldStations(db, dataDir);
    if (records.size === 0) throw new Error(`ISMN files are matched to SCAN stations by the station metadata (${METADATA} in the data folder ${dataDir}); none found`);
    const warnings: string[] = [];
    for (const path of paths) for (const file of stmFiles(path)) addIsmnFile(db, records, file, warnings, log);
    return { datasets: saveStations(db, records, "loam import"), warnings };
  },
};

// ---- the readers ---------------------------------------------------------------------------------

interface Readers {
  box: (p: SitesBoxParams) => Payload;
  near: (p: SitesNearParams) => Payload;
  one: (p: StationKeyParams) => Payload;
  series: (p: StationSeriesParams) => Payload;
}

const readers = new WeakMap<Database, Readers>();

export function snapshotScan(db: Database): Readers {
  const kept = readers.get(db);
  if (kept) return kept;
  if (!tableExists(db, "usda_scan_station")) {
    throw new UpstreamError("The offline snapshot holds no SCAN stations (it was built before usda_scan): rebuild it with 'npm run snapshot:build'.", SCAN_PROVIDER_ID);
  }
  const built = db.query<{ value: string }, []>("SELECT value FROM snapshot_info WHERE key = 'built_at'").get();
  const retrievedAt = built?.value ?? new Date(0).toISOString();
  const box = db.query<{ record: string }, [number, number, number, number, number, number, string, number]>(
    "SELECT record FROM usda_scan_station WHERE longitude BETWEEN ? AND ? AND latitude BETWEEN ? AND ? AND (station_id > ? OR (station_id = ? AND triplet > ?)) ORDER BY station_id, triplet LIMIT ?",
  );
  const one = db.query<{ record: string }, [string]>("SELECT record FROM usda_scan_station WHERE triplet = ?");
  const findSeries = db.query<{ series_id: number; source_unit: string; ordinal: number; file_time: string | null }, [string, string, number]>(
    "SELECT series_id, source_unit, ordinal, file_time FROM usda_scan_series WHERE triplet = ? AND element = ? AND abs(depth_cm - ?) < 0.01 ORDER BY ordinal",
  );
  const heldAll = db.query<{ triplet: string; element: string; depth_cm: number; first_ms: number | null; last_ms: number | null; count: number }, []>(
    "SELECT triplet, element, depth_cm, first_ms, last_ms, count FROM usda_scan_series ORDER BY triplet, element, depth_cm",
  );
  if (!tableExists(db, BLOCK_TABLE)) {
    throw new UpstreamError("The offline snapshot holds SCAN series in an older layout: rebuild it with 'npm run snapshot:build', or import the ISMN files again into a new snapshot.", SCAN_PROVIDER_ID);
  }
  const values = blockReader(db);
  const held = heldAll.all().map((s) => ({
    station_triplet: s.triplet,
    element: s.element,
    depth_cm: s.depth_cm,
    start: s.first_ms === null ? null : iso(s.first_ms),
    end: s.last_ms === null ? null : iso(s.last_ms),
    values: s.count,
  }));
  // About 200 stations: read and parsed once per snapshot file, for the nearest-station ranking.
  const everyStation = db
    .query<{ record: string }, []>("SELECT record FROM usda_scan_station ORDER BY station_id, triplet")
    .all()
    .map((r) => JSON.parse(r.record) as StationRecord);
  const answer = (records: StationRecord[]) => Payload.ofJson({ stations: records, retrieved_at: retrievedAt } satisfies StationsAnswer);
  const stations = (rows: { record: string }[]) => answer(rows.map((r) => JSON.parse(r.record) as StationRecord));
  const made: Readers = {
    box: ({ bbox: [w, s, e, n], after, limit }) => {
      const [afterId, afterTriplet] = after === null ? [-1, ""] : [Number(after.split(":")[0]), after];
      return stations(box.all(w, e, s, n, afterId, afterId, afterTriplet, limit + 1));
    },
    near: ({ latitude, longitude, limit }) => {
      // Every distance is computed, nearest first (ties by station order).
      const ranked = nearestByGeodesic(everyStation, latitude, longitude, limit, (r) => [r.latitude, r.longitude]).map(({ item, km }) => ({ ...item, distance_km: Math.round(km * 1000) / 1000 }));
      return answer(ranked);
    },
    one: ({ station }) => stations(one.all(station)),
    series: (p) => {
      const found = findSeries.all(p.station, p.element, p.depthCm);
      const chosen = found.find((s) => s.ordinal === p.ordinal);
      const rows = chosen ? values(chosen.series_id, Math.floor(p.startMs / 1000), Math.ceil(p.endMs / 1000)) : [];
      const answer: SeriesAnswer = {
        origin: "ismn",
        source_unit: chosen?.source_unit ?? "m3/m3",
        utc_offset_hours: 0,
        values: rows.map((r) => [r.t * 1000, r.value, r.flags]),
        held,
        found: chosen !== undefined,
        other_ordinals: found.filter((s) => s.ordinal !== p.ordinal).map((s) => s.ordinal),
        retrieved_at: chosen?.file_time ?? retrievedAt,
      };
      return seriesPayload(answer);
    },
  };
  readers.set(db, made);
  return made;
}
