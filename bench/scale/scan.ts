/**
 * Generated SCAN stations for the scale bench: each a real SCAN station's metadata row (soilDB's CSV)
 * under a synthetic name, site number and triplet (`SYNTH-n`, 9xxxx:ZZ:SCAN), and one ISMN
 * header_values file of ten years of hourly soil moisture at 5 cm, its values the real Abrams
 * station's series repeated in order (2007-2013, then again).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { csvRows, readIsmn } from "../../src/providers/usda_scan/files";

export const SERIES_START = Date.UTC(2010, 0, 1);
export const SERIES_HOURS = 10 * 365 * 24 + 2 * 24; // 2010-2019, two leap days
const SOURCE_FILE = /^SCAN_SCAN_Abrams_sm_.*\.stm$/;

const csvCell = (v: string | null) => (v === null ? "NA" : `"${v.replaceAll('"', '""')}"`);
const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const stamp = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
};

export const stationName = (n: number) => `SYNTH-${n}`;
export const stationTriplet = (n: number) => `${90000 + n}:ZZ:SCAN`;
export const stationShift = (n: number): [number, number] => [((n % 20) - 10) * 0.9, (Math.floor(n / 20) % 11) * 0.9 - 5];

export interface ScanPlan {
  stations: number;
  valuesPerStation: number;
  /** The source values in order (the generated series repeats them from SERIES_START). */
  sourceValues: { value: number; flags: string }[];
  source: { latitude: number; longitude: number };
}

export function writeStations(datasets: string, out: string, stations: number): ScanPlan {
  const scan = join(datasets, "scan");
  const file = readdirSync(join(scan, "ismn")).find((f) => SOURCE_FILE.test(f))!;
  const series = readIsmn(readFileSync(join(scan, "ismn", file), "latin1"));
  const [header, ...rows] = csvRows(readFileSync(join(scan, "metadata", "soilDB_station-metadata.csv"), "utf8"));
  const at = (name: string) => header!.indexOf(name);
  const abrams = rows.find((r) => r[at("Name")]?.toUpperCase() === "ABRAMS" && r[at("Network")] === "SCAN")!;
  mkdirSync(join(out, "metadata"), { recursive: true });
  mkdirSync(join(out, "ismn"), { recursive: true });
  const lines = [header!.map(csvCell).join(",")];
  for (let n = 1; n <= stations; n++) {
    const [dx, dy] = stationShift(n);
    const lat = series.header.latitude + dy;
    const lon = series.header.longitude + dx;
    const row = [...abrams];
    row[at("Name")] = stationName(n);
    row[at("Site")] = String(90000 + n);
    row[at("stationTriplet")] = stationTriplet(n);
    row[at("stateCode")] = "ZZ";
    row[at("Latitude")] = lat.toFixed(5);
    row[at("Longitude")] = lon.toFixed(5);
    row[at("pedlabsampnum")] = null;
    row[at("pedon_key")] = null;
    lines.push(row.map(csvCell).join(","));
    const head = `SCAN       SCAN            ${stationName(n)}            ${lat.toFixed(5)}   ${lon.toFixed(5)}  ${series.header.elevationM.toFixed(2)}    0.05    0.05 ${series.header.sensor}`;
    const body: string[] = [head];
    for (let h = 0; h < SERIES_HOURS; h++) {
      const v = series.values[h % series.values.length]!;
      body.push(`${stamp(SERIES_START + h * 3_600_000)}   ${v.value.toFixed(4)} ${v.flags}`);
    }
    const name = `SCAN_SCAN_${stationName(n)}_sm_0.050800_0.050800_${series.header.sensor}_20100101_20191231.stm`;
    writeFileSync(join(out, "ismn", name), `${body.join("\r")}\r`);
  }
  writeFileSync(join(out, "metadata", "soilDB_station-metadata.csv"), `${lines.join("\n")}\n`);
  return { stations, valuesPerStation: SERIES_HOURS, sourceValues: series.values.map((v) => ({ value: v.value, flags: v.flags })), source: { latitude: series.header.latitude, longitude: series.header.longitude } };
}
