/**
 * The OGC `stations` collection (and one per other site_series provider): the sensor stations of one
 * provider, as points with flat typed properties (docs/decisions.md#ogc-api-features, #site-series). It
 * never names a provider: table.ts hands it each registered one. A station is dated by its
 * operating period, [begin_date, end_date or open while it reports], read as UTC days; `datetime`
 * selects the stations whose period meets the interval (the period, not the series' values).
 */
import type { DataDeps } from "../answer";
import { flatStation, stationsPage, stationWarnings, type FlatStationFeature, type FlatStationsPage } from "../shapes/site_series/service";
import type { Bbox } from "../domain/bbox";
import type { StationReading } from "../domain/station";
import type { StationProvider } from "../providers/provider";
import { sitesCollection, WALK_PAGE } from "./sites-entry";
import { StationFeatureProperties } from "../shapes/site_series/model";
import { daysRange, intersects, type TimeRange } from "../domain/time-range";
import { flatFields } from "./flat-fields";
import type { Item, ServedBy } from "./entries";


/**
 * Whether a station's operating period [begin_date, end_date] (UTC days; no end date: still reporting)
 * meets the interval. A station without a begin date has no known period, so no interval selects it.
 */
function operatingIn(station: FlatStationFeature, time: TimeRange): boolean {
  const { begin_date: begin, end_date: end } = station.properties;
  if (begin === null) return false;
  return intersects(daysRange(begin, end), time);
}

/** Every station of the box in the provider's order, walked in pages of WALK_PAGE (each a cached answer of the provider). */
async function walkBox(deps: DataDeps, provider: StationProvider, bbox: Bbox): Promise<{ stations: FlatStationFeature[]; pages: FlatStationsPage[] }> {
  const pages: FlatStationsPage[] = [];
  let after: string | null = null;
  do {
    const page: FlatStationsPage = await stationsPage(deps, { bbox, after, limit: WALK_PAGE }, provider);
    pages.push(page);
    after = page.nextAfter;
  } while (after !== null);
  return { stations: pages.flatMap((p) => p.features), pages };
}

/** Where the page after `after` starts in the walked stations: after that station, or (when it has gone from the source) after its place in the provider's order. */
async function startOf(deps: DataDeps, provider: StationProvider, bbox: Bbox, stations: FlatStationFeature[], after: string | null): Promise<number> {
  if (after === null) return 0;
  const at = stations.findIndex((s) => s.id === after);
  if (at >= 0) return at + 1;
  // stationsPage checks the key (a ValidationError: 400 on /ogc) and gives the first station after it.
  const [following] = (await stationsPage(deps, { bbox, after, limit: 1 }, provider)).features;
  const index = following === undefined ? -1 : stations.findIndex((s) => s.id === following.id);
  return index < 0 ? stations.length : index;
}

function item(station: FlatStationFeature): Item {
  return { type: "Feature", id: station.id, geometry: { type: "Point", coordinates: [...station.coordinates] }, properties: { ...station.properties } };
}

/** The collection of one site_series provider's stations (collections are derived per provider: table.ts). */
export const stationsCollection = ({ id, provider, linkQuery }: ServedBy<StationProvider>) => sitesCollection<StationReading, StationProvider>({
  id,
  text: ({ shortName, record }) => ({
    title: `${shortName} soil-climate sensor stations`,
    description: `Sensor stations of the ${record.name}, as points (WGS84), in station-id order, keyed by station triplet. datetime selects the stations whose operating period (begin_date to end_date, open while reporting; UTC days) meets it, not series values. A station's series: GET /v1/stations/{station_triplet}/series${linkQuery}.`,
  }),
  parameters: [],
  // The /v1 station's model; the series the snapshot holds (an array there) is one text field here.
  fields: flatFields(StationFeatureProperties, ["representative_of_bbox", "series_offline"], {
    series_offline: { type: "string", nullable: false, description: "The series Loam's offline snapshot holds for the station, as element@depth start/end, separated by '; ' (empty: none)." },
  }),
  sites: () => ({ provider, part: provider.stations }),
  // A station is dated by its operating period: begin and end days, open while it reports.
  days: ({ properties: p }) => ({ first: p.begin_date, last: p.end_date }),
  item: (reading) => item(flatStation(reading)),
  readOne: ({ provider }, answer) => provider.stations.read(answer)[0] ?? null,
  warnings: (deps, { provider }, _cached, cache) => stationWarnings(deps, provider, cache),
  // The page walks the box to select by operating period (`datetime`) and count the matches.
  query(deps, bbox, _params, time) {
    return {
      binding: {},
      async page(after, limit) {
        // One walk over the box (the SCAN network is one page of 1000) finds the page and counts the matches on the way.
        const { stations, pages } = await walkBox(deps, provider, bbox);
        const selects = (s: FlatStationFeature) => time === null || operatingIn(s, time);
        const following = stations.slice(await startOf(deps, provider, bbox, stations, after)).filter(selects);
        const kept = following.slice(0, limit);
        const more = following.length > limit;
        const [first] = pages;
        return {
          features: () => kept.map(item),
          nextAfter: more ? kept[kept.length - 1]!.id : null,
          matched: time === null ? stations.length : stations.filter(selects).length,
          cache: first!.cache,
          warnings: () => first!.warnings,
          // The walk's other pages are cache entries of their own.
          stamp: pages.slice(1).map((p) => p.cache.digest).join(","),
        };
      },
    };
  },
});
