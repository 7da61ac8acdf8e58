/**
 * GET /v1/stations, GET /v1/stations/{station_triplet}, GET /v1/stations/{station_triplet}/series and
 * GET /v1/providers/{provider_id}/raw/stations/{station_triplet}: any site_series provider
 * (docs/decisions.md#site-series). The default provider is the registry's, never named here.
 */
import { Elysia } from "elysia";
import { documentedRoute, PLANNED_PROVIDER_ERROR, UPSTREAM_ERRORS } from "../../http/openapi";
import { parsedQuery, strictQuery, type QueryOf } from "../../http/query";
import { nextPageHref, setNextLink } from "../../http/paging";
import type { Send } from "../../http/response";
import { representationOf } from "../../http/negotiate";
import { ValidationError } from "../../errors";
import type { DataDeps } from "../../answer";
import { otherProviders } from "../../answer/providers";
import { boxOrNear } from "../../domain/bbox";
import { stationCollectionTable, SERIES_TABLE } from "./table";
import { retrievedAt } from "../../domain/retrieved-at";
import {
  MAX_NEAR_STATIONS,
  rawStationParams,
  RawStationResponse,
  StationSeriesQueryParams,
  StationSeriesResponse,
  StationCollection,
  StationParams,
  StationQueryParams,
  StationResponse,
  StationsQueryParams,
} from "./model";
import { rawStation, station, stationKey, stationProvider, stations, type EffectiveStationsQuery } from "./service";
import { stationSeries } from "./series";

export interface StationRouteDeps extends DataDeps {
  send: Send;
}



const stationsQuery = strictQuery(StationsQueryParams);
const stationQuery = strictQuery(StationQueryParams);
const seriesQuery = strictQuery(StationSeriesQueryParams);

function effectiveStationsQuery(read: QueryOf<typeof StationsQueryParams>, request: Request): EffectiveStationsQuery {
  return {
    ...boxOrNear(read, parsedQuery(request.url).values.has("bbox"), "stations", MAX_NEAR_STATIONS),
    limit: read.limit,
    cursor: read.cursor === "" ? null : read.cursor,
  };
}

/** The `provider` a request names ("": the registry's default); given but empty is a 422, as on the other routes. */
function providerName(read: string, request: Request): string {
  if (read === "" && parsedQuery(request.url).values.has("provider")) throw new ValidationError("Query parameter 'provider' must not be empty; omit it for the default provider of site series.");
  return read;
}

const STATION_404 = ["ErrorResponse", "No station with this triplet in the provider's source (code not_found), or an unknown provider (code unknown_provider)."] as const;

/** The refusals of a route about one station (its record, its raw record). */
const ONE_STATION_ERRORS = {
  404: STATION_404,
  409: PLANNED_PROVIDER_ERROR,
  422: ["ErrorResponse", "A malformed station triplet, or a provider that does not serve stations (code validation_error)."],
  ...UPSTREAM_ERRORS,
} as const;

export function siteSeries(deps: StationRouteDeps) {
  // The routes' text names the registry's default provider by its own short name (docs/decisions.md#provider-words).
  const network = deps.registry.defaultFor("site_series")?.shortName;
  const others = otherProviders(deps.registry, "site_series");
  const example = deps.registry.defaultFor("site_series")?.stations.key.example ?? "{station_triplet}";
  return new Elysia({ name: "loam.site_series" })
    .get(
      "/v1/stations",
      async ({ query, request, set }) => {
        const read = stationsQuery.queryOf(query);
        const provider = stationProvider(deps, providerName(read.provider, request));
        // A CSV holds every page (docs/decisions.md#csv-whole): read.csv and pandas cannot follow a Link header.
        const { answer, next } = await stations(deps, provider, effectiveStationsQuery(read, request), (cursor) => nextPageHref(request, cursor), representationOf(request) === "csv");
        setNextLink(set.headers, next);
        const source = deps.connected.sourceOf(provider);
        return deps.send(answer, request, set, stationCollectionTable((body) => retrievedAt(source, Date.parse(body.cache.stored_at))));
      },
      {
        transform: stationsQuery.transform,
        query: StationsQueryParams,
        ...documentedRoute({
          operationId: "listStations",
          tag: "stations",
          summary: "Sensor stations in a box, or nearest a point",
          description:
            `An RFC 7946 FeatureCollection of sensor stations${network ? ` (by default ${network})` : ""}: with bbox (any size inside WGS84), the stations in the box in station-id order, at most \`limit\` per page, \`next\` (and the Link header) for the next page; with near=lat,lon, the \`limit\` nearest, each with distance_km. Each station: triplet, name, state, county, elevation (m, and the source's ft), its data clock, begin and end dates, HUC, its lab pedon key and the series the offline snapshot holds. Example: /v1/stations?bbox=-100,35,-94,40${others}`,
          ok: [StationCollection, "Stations (possibly none), whether more follow, cache metadata and warnings."],
          errors: {
            404: ["ErrorResponse", "Unknown provider (code unknown_provider)."],
            409: PLANNED_PROVIDER_ERROR,
            422: [
              "ErrorResponse",
              "A parameter violates its rules (code validation_error): both bbox and near; bbox not four numbers, outside WGS84 or min not less than max; near not latitude,longitude; limit outside 1 to 1000 (1 to 100 with near); a cursor from another query, altered, or with near; a provider that does not serve stations; format not json or csv.",
            ],
            ...UPSTREAM_ERRORS,
          },
          etag: true,
          csv: "one row per station",
        }),
      },
    )
    .get(
      "/v1/stations/:station_triplet",
      async ({ params, query, request, set }) => {
        const provider = stationProvider(deps, providerName(stationQuery.queryOf(query).provider, request));
        const answer = await station(deps, provider, stationKey(provider, params.station_triplet));
        return deps.send(answer, request, set);
      },
      {
        params: StationParams,
        transform: stationQuery.transform,
        query: StationQueryParams,
        ...documentedRoute({
          operationId: "getStation",
          tag: "stations",
          summary: "One sensor station: its sensors, its lab pedon, the survey at its point",
          description:
            `The station, its sensors (element, depth in cm, ordinal, unit, period) where the source names them, the facts its sources give differently (which value is served, and the others), and links: the laboratory pedon characterised at the station (only when the lab provider holds it), the mapped survey at its point, and its series route. Example: /v1/stations/${example}`,
          ok: [StationResponse, "The station, sensors, disagreements, links, provenance, cache metadata and warnings."],
          errors: ONE_STATION_ERRORS,
          etag: true,
        }),
      },
    )
    .get(
      "/v1/stations/:station_triplet/series",
      async ({ params, query, request, set }) => {
        const read = seriesQuery.queryOf(query);
        const provider = stationProvider(deps, providerName(read.provider, request));
        const answer = await stationSeries(deps, provider, stationKey(provider, params.station_triplet), read);
        return deps.send(answer, request, set, SERIES_TABLE);
      },
      {
        params: StationParams,
        transform: seriesQuery.transform,
        query: StationSeriesQueryParams,
        ...documentedRoute({
          operationId: "getStationSeries",
          tag: "stations",
          summary: "A station's time series: values as reported, or daily means",
          description:
            `The values of one element at one depth of one station over a range: at the interval the provider's source reports (native_interval), as reported (time with the clock's offset, value, unit, flags as reported; observed), or, from an hourly source, daily means of each day's reported hours with their count, min, max and every flag they carry (derived). Values the source sends that are not finite, outside the unit's physical bounds, repeated or out of order are dropped or ordered, with a warning. Gaps stay gaps. At most one year of hourly or 20 years of daily values, and one station, element and depth, per request (several stations are several requests). A series the source does not hold is an empty list with a warning naming what it holds. Example: /v1/stations/${example}/series?element=soil_moisture&depth_cm=5.08&start=2010-07-01&end=2010-07-07`,
          ok: [StationSeriesResponse, "The values (possibly none), the clock, unit, conversions, provenance with every citation, cache metadata and warnings."],
          errors: {
            404: STATION_404,
            409: PLANNED_PROVIDER_ERROR,
            422: [
              "ErrorResponse",
              "A malformed station triplet; an element the provider does not measure or a depth more than 1.27 cm from every sensor depth (the message names them); hourly values from a source that reports daily ones; start or end not a date or date-time; start not before end; more than one year hourly or 20 years daily; format not json or csv (code validation_error).",
            ],
            ...UPSTREAM_ERRORS,
          },
          etag: true,
          csv: "one row per time",
        }),
      },
    )
    .get(
      "/v1/providers/:provider_id/raw/stations/:station_triplet",
      async ({ params, request, set }) => {
        const provider = stationProvider(deps, params.provider_id, true);
        const answer = await rawStation(deps, provider, stationKey(provider, params.station_triplet));
        return deps.send(answer, request, set);
      },
      {
        params: rawStationParams(deps.registry.defaultFor("site_series")?.id ?? "site_series"),
        ...documentedRoute({
          operationId: "getRawStation",
          tag: "raw",
          summary: "Untouched upstream record for one station",
          description:
            `The station as its source wrote it (the snapshot's metadata row, or the live API's station object), inside a labelled wrapper. Not normalized; not promised to stay stable. Example: /v1/providers/{provider_id}/raw/stations/${example}`,
          ok: [RawStationResponse, "The raw record in its wrapper."],
          errors: ONE_STATION_ERRORS,
          etag: true,
        }),
      },
    );
}
