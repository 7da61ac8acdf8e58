/**
 * usda_scan: USDA-NRCS Soil Climate Analysis Network stations and their soil moisture and soil
 * temperature series (role `site_series`, docs/decisions.md#usda-scan). Snapshot mode reads the
 * tables its own snapshot step imported (./snapshot.ts); live mode (LOAM_UPSTREAM=sda) asks the AWDB
 * REST API at SCAN_URL (./awdb.ts).
 */
import { settingOf } from "../../config";
import { roundDerived } from "../../domain/precision";
import { stationPart } from "../site-series";
import { publicUrl } from "../../upstream/public-url";
import type { SourceDescription } from "../../upstream/transport";
import type { ConnectContext, StationProvider, StationSeriesParams, StationSeriesReading } from "../provider";
import { offlineSnapshot } from "../connect";
import { AWDB_ELEMENTS, awdbTransport, PROVISIONAL_DAYS } from "./awdb";
import { AWDB_CITATION, ISMN_CITATION, SCAN_CATALOG_RECORD, SCAN_CITATION, SCAN_DOCUMENTATION_URL, SCAN_ORGANIZATION, SCAN_PROVIDER_ID, SCAN_SETTING } from "./catalog";
import { NEAREST_STATIONS, ONE_STATION, reachesProvisional, STATION_SERIES, STATIONS_IN_BOX } from "./queries";
import { reading, type SeriesAnswer, type StationsAnswer } from "./records";
import { SCAN_SNAPSHOT } from "./snapshot";

/** SCAN's standard sensor depths: 2, 4, 8, 20 and 40 inches, in cm. */
const DEPTHS_CM = [5.08, 10.16, 20.32, 50.8, 101.6];
const ELEMENTS = ["soil_moisture", "soil_temperature"];

const STATION_WARNINGS = ["A station measures its own site: its values are not representative of a field, a map unit or a box around it."];
const SNAPSHOT_NOTE =
  "Served from Loam's offline snapshot: the metadata of every active SCAN station as AWDB gave them (via soilDB), the NWCC station inventory's and the ISMN file headers' differing values, and ISMN's redistribution of three hourly series; not a live AWDB answer.";

const TRANSFORMATIONS = {
  fraction: { operation: "convert_volumetric_fraction_to_percent", from_unit: "m3/m3", to_unit: "% vol", formula: "soil_moisture (% vol) = value (m3/m3) x 100" },
  fahrenheit: { operation: "convert_fahrenheit_to_celsius", from_unit: "degF", to_unit: "°C", formula: "soil_temperature (°C) = (value (°F) - 32) x 5 / 9, result rounded to 4 significant digits" },
};

/**
 * What ISMN's flags mean, where known: C and D from ISMN's quality-control documentation (the flagit
 * package of TU Wien, Dorigo et al. 2013); U and the provider's M are documented in no source Loam read
 * (docs/decisions.md#usda-scan).
 */
const ISMN_FLAG_FIELDS = [
  "ISMN quality flag as reported (several joined by commas). Per ISMN's quality control (Dorigo et al. 2013, Vadose Zone Journal 12(3), doi:10.2136/vzj2012.0097): C = exceeding the plausible geophysical range (C01 below 0 m3/m3, C02 above 0.60 m3/m3, C03 above the saturation point from HWSD); D = questionable or dubious (D01 negative in-situ soil temperature, D02 negative in-situ air temperature, D03 negative GLDAS soil temperature, D04 rise without in-situ precipitation, D05 rise without GLDAS precipitation, D06 spike, D07 negative break, D08 positive break, D09 constant low values after a negative break, D10 saturated plateau); G = good. 'U' is not documented in any source Loam read.",
  "The data provider's flag as reported (M on every line that has one; absent on some lines); its meaning is not documented in the ISMN files or any source Loam read.",
];
const AWDB_FLAG_FIELDS = ["AWDB qcFlag as reported", "AWDB qaFlag as reported"];

function converter(sourceUnit: string): { convert: (v: number) => number; unit: string; transformation: StationSeriesReading["transformation"] } {
  if (sourceUnit === "m3/m3") return { convert: (v) => roundDerived(v * 100), unit: "% vol", transformation: TRANSFORMATIONS.fraction };
  if (sourceUnit === "degF") return { convert: (v) => roundDerived(((v - 32) * 5) / 9), unit: "°C", transformation: TRANSFORMATIONS.fahrenheit };
  if (sourceUnit === "degC") return { convert: (v) => v, unit: "°C", transformation: null };
  return { convert: (v) => v, unit: "% vol", transformation: null };
}

const describeHeld = (answer: SeriesAnswer) =>
  answer.held.map((h) => `${h.element} at ${h.depth_cm} cm for ${h.station_triplet} (${h.start?.slice(0, 10)} to ${h.end?.slice(0, 10)}, ${h.values} hourly values)`).join("; ");

/** The dielectric sensors' caveat (the catalog's limitation), on every soil-moisture series. */
const CALIBRATION =
  "SCAN measures soil moisture with dielectric sensors (the snapshot's series: Stevens Hydraprobe, analog 2.5 V, as ISMN names it), calibrated for typical mineral soils: in soils unlike the calibration (high clay or organic matter, salinity) the volumetric water content may be biased.";

function seriesWarnings(answer: SeriesAnswer, p: StationSeriesParams, now: number): string[] {
  const what = `${p.element} at ${p.depthCm} cm${p.ordinal === 1 ? "" : ` (sensor ${p.ordinal})`} of ${p.station}`;
  const warnings: string[] = [];
  if (p.element === "soil_moisture") warnings.push(CALIBRATION);
  if (answer.origin === "ismn") {
    if (!answer.found) {
      warnings.push(
        `The offline snapshot holds no ${what}: it holds only ${describeHeld(answer)}. Run Loam in live mode (LOAM_UPSTREAM=sda, with SCAN_URL reaching the AWDB REST API) to ask AWDB for this series.`,
      );
    }
    warnings.push("Times are UTC: ISMN distributes its files in UTC (the files do not state it). A daily value of these is a UTC day; NRCS's own daily values use the station's standard-time day (AWDB dataTimeZone), so they differ.");
    warnings.push("Flags are served as ISMN reports them (flag_fields says what C and D mean); the meaning of ISMN's 'U' flag is not documented in any source Loam read.");
  } else {
    if (!answer.found) warnings.push(`AWDB reports no ${what} in the range asked (the station may have no such sensor, or none then).`);
    warnings.push(`Times are the station's standard time (AWDB dataTimeZone ${p.utcOffsetHours}, no daylight saving), written with that offset.`);
    if (reachesProvisional(p.endMs, now)) {
      warnings.push(`Values of the last ${PROVISIONAL_DAYS} days are provisional (not yet quality-controlled by NRCS) and may change; this answer is kept for an hour only.`);
    }
  }
  if (answer.other_ordinals.length > 0) warnings.push(`Other sensors measure ${p.element} at ${p.depthCm} cm at this station: sensor ${answer.other_ordinals.join(", ")} (ask with sensor=).`);
  return warnings;
}

function readSeries(answer: SeriesAnswer, p: StationSeriesParams, now: number): StationSeriesReading {
  // A series the source does not hold has no values to convert: its unit is the element's own.
  const { convert, unit, transformation } = answer.found ? converter(answer.source_unit) : { ...converter(""), unit: AWDB_ELEMENTS[p.element]?.unit ?? "" };
  const ismn = answer.origin === "ismn";
  const offset = answer.utc_offset_hours;
  return {
    clock: ismn ? { utcOffsetHours: 0, name: "UTC (as ISMN distributes its files)" } : { utcOffsetHours: offset, name: `the station's standard time (UTC${offset < 0 ? "" : "+"}${offset}, AWDB dataTimeZone; no daylight saving)` },
    unit,
    values: answer.values.map(([t, value, flags]) => ({ t, value: convert(value), flags: flags === "" ? [] : flags.split(" ") })),
    flagFields: ismn ? ISMN_FLAG_FIELDS : AWDB_FLAG_FIELDS,
    transformation,
    warnings: seriesWarnings(answer, p, now),
    citations: ismn ? [SCAN_CITATION, ISMN_CITATION] : [SCAN_CITATION, AWDB_CITATION],
    notFinite: answer.not_finite ?? 0,
  };
}

/** A station triplet in any case, answered in AWDB's upper case (2092:ks:scan is 2092:KS:SCAN). */
function parseTriplet(raw: string): string | null {
  const upper = raw.toUpperCase();
  return /^[0-9]{1,8}:[A-Z]{2}:[A-Z]{2,6}$/.test(upper) ? upper : null;
}

export const usdaScan: StationProvider<StationsAnswer, SeriesAnswer> = {
  id: SCAN_PROVIDER_ID,
  aliases: ["scan"],
  role: "site_series",
  record: SCAN_CATALOG_RECORD,
  shortName: "SCAN",
  settings: [SCAN_SETTING],
  snapshot: SCAN_SNAPSHOT,
  columns: [
    { property: "soil_moisture", table: "data", column: "SMS", unit: "% vol", meaning: "Volumetric soil water content (AWDB SMS, pct; ISMN sm, m3/m3 x 100)", methodColumn: null },
    { property: "soil_temperature", table: "data", column: "STO", unit: "°C", meaning: "Soil temperature observed (AWDB STO, degF converted)", methodColumn: null },
  ],
  queries: { inBox: STATIONS_IN_BOX, nearest: NEAREST_STATIONS, station: ONE_STATION, series: STATION_SERIES },
  // As the other file providers: the offline snapshot when that is what Loam opened, else the live API.
  connect({ config, upstreams, now }: ConnectContext) {
    return offlineSnapshot(upstreams) ?? awdbTransport({ url: settingOf(config, SCAN_SETTING), timeoutMs: config.upstreamTimeoutMs, now });
  },
  // A station part: its page (the first `limit` stations read) and where a station is are the shape's defaults (../site-series.ts).
  stations: stationPart({
    key: { parse: parseTriplet, syntax: "a station triplet stationId:stateCode:networkCode, e.g. 2092:KS:SCAN", example: "2092:KS:SCAN" },
    elements: ELEMENTS,
    depthsCm: DEPTHS_CM,
    nativeInterval: "hourly",
    inBox: STATIONS_IN_BOX,
    nearest: NEAREST_STATIONS,
    one: { query: ONE_STATION, params: (station) => ({ station }), found: (answer) => answer.stations.length > 0 },
    read: (answer) => answer.stations.map(reading),
    series: STATION_SERIES,
    // ISMN's files are UTC; AWDB's data run on the station's standard-time clock.
    seriesClock: (source, station) => (source.kind === "snapshot" ? 0 : (station.properties.data_time_zone ?? 0)),
    readSeries,
    source: (source: SourceDescription, retrievedAt, citations) => ({
      provider: SCAN_PROVIDER_ID,
      organization: SCAN_ORGANIZATION,
      citations: [...new Set([SCAN_CITATION, ...(source.kind === "snapshot" ? [ISMN_CITATION] : [AWDB_CITATION]), ...citations])],
      source_url: source.kind === "snapshot" ? SCAN_DOCUMENTATION_URL : publicUrl(source.location),
      retrieved_at: retrievedAt,
    }),
    retrievedAt: (answer, source, storedAt) => (source.kind === "snapshot" ? answer.retrieved_at : new Date(storedAt).toISOString()),
    warnings: (source) => [...STATION_WARNINGS, ...(source.kind === "snapshot" ? [SNAPSHOT_NOTE] : [])],
    raw: (answer) => answer.stations[0]?.raw ?? {},
    rawNotes: [
      "Snapshot: the station's row of AWDB's station metadata as soilDB wrote it ({column: cell}, NA as null; elevation in feet). Live: AWDB's /stations object for the station, unmodified.",
      "The snapshot row's `pedon_key` is soilDB's name for AWDB's `pedonCode`, a NASIS pedon id (2092: 31337); the station's `pedon_key` is the KSSL laboratory sample number (the row's `pedlabsampnum`, 2092: 04N0873), the key of GET /v1/pedons. Same name, two ids.",
    ],
  }),
};
