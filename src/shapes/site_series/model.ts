/**
 * Models of the station routes of any `site_series` provider (docs/decisions.md#site-series):
 * GET /v1/stations, GET /v1/stations/{station_triplet}, GET /v1/stations/{station_triplet}/series and
 * GET /v1/providers/{provider_id}/raw/stations/{station_triplet}.
 */
import { t, type Static } from "elysia";
import { Type } from "@sinclair/typebox";
import { BBOX_PATTERN, CacheMetadata, CURSOR_PARAMETER, FORMAT_PARAMETER, closed, nullable, queryInteger, queryNumber, envelope } from "../../domain/model";
import { distanceKm, notRepresentative, siteFeature } from "../sites/model";
import { SourceDisagreement, StationProperties, StationSensor, StationSource } from "../../domain/station";
import { Transformation } from "../../catalog/model";

export const DEFAULT_STATION_LIMIT = 100;
export const MAX_STATION_LIMIT = 1000;
export const MAX_NEAR_STATIONS = 100;
export const WHOLE_WORLD = "-180,-90,180,90";
/** The most of a series one request returns (docs/decisions.md#site-series). */
export const MAX_HOURLY_DAYS = 366;
export const MAX_DAILY_DAYS = 7305;

const PROVIDER_PARAMETER = {
  provider: t.Optional(
    t.String({ maxLength: 60, default: "", description: "A site_series provider (GET /v1/providers lists them); default the registry's first provider of site series." }),
  ),
};

// ---- GET /v1/stations ----------------------------------------------------------------------------

export const StationsQueryParams = t.Object({
  bbox: t.Optional(
    t.String({
      maxLength: 200,
      default: WHOLE_WORLD,
      pattern: BBOX_PATTERN,
      description: "min_lon,min_lat,max_lon,max_lat: WGS84 decimal degrees, southwest corner first, min < max; any size inside WGS84; default the whole range (every station, page by page). Not together with near.",
      examples: ["-100,35,-94,40"],
    }),
  ),
  near: t.Optional(t.String({ maxLength: 100, default: "", description: "latitude,longitude: the stations nearest this point, nearest first, each with distance_km, instead of a box; no cursor." })),
  limit: t.Optional(queryInteger({ minimum: 1, maximum: MAX_STATION_LIMIT, default: DEFAULT_STATION_LIMIT, description: `Most stations per page, 1 to ${MAX_STATION_LIMIT} (with near: 1 to ${MAX_NEAR_STATIONS}).` })),
  ...CURSOR_PARAMETER,
  ...PROVIDER_PARAMETER,
  ...FORMAT_PARAMETER,
});

export const StationsQuery = t.Object(
  {
    bbox: nullable(t.Array(t.Number(), { minItems: 4, maxItems: 4 })),
    near: nullable(t.Array(t.Number(), { minItems: 2, maxItems: 2, description: "[latitude, longitude]" })),
    limit: Type.Integer(),
    cursor: nullable(t.String()),
  },
  { ...closed, title: "StationsQuery" },
);

export const StationFeatureProperties = t.Object(
  {
    ...StationProperties.properties,
    representative_of_bbox: notRepresentative("a station measures its own site."),
    distance_km: distanceKm(),
  },
  { ...closed, title: "StationFeatureProperties" },
);

export const StationFeature = siteFeature(t.String({ description: "The station triplet." }), StationFeatureProperties, "StationFeature");
export type StationFeature = Static<typeof StationFeature>;

export const StationCollection = t.Object(
  {
    type: t.Literal("FeatureCollection"),
    provider: t.String(),
    query: StationsQuery,
    cache: CacheMetadata,
    truncated: t.Boolean(),
    next: nullable(t.String({ description: "Path of the next page; null on the last page and for near." })),
    warnings: t.Array(t.String()),
    features: t.Array(StationFeature),
  },
  { ...closed, title: "StationCollection", description: "RFC 7946 FeatureCollection of sensor stations in station-id order (near: by distance)." },
);
export type StationCollection = Static<typeof StationCollection>;

// ---- GET /v1/stations/{station_triplet} ----------------------------------------------------------

export const StationParams = t.Object(
  { station_triplet: t.String({ description: "stationId:stateCode:networkCode, e.g. 2092:KS:SCAN.", examples: ["2092:KS:SCAN"], maxLength: 40 }) },
  { noValidate: true },
);
export const StationQueryParams = t.Object({ ...PROVIDER_PARAMETER });

export const StationLinks = t.Object(
  {
    pedon: nullable(
      t.Object(
        { pedon_key: t.String(), provider: t.String(), href: t.String({ examples: ["/v1/pedons/04N0873"] }) },
        { ...closed, title: "StationPedonLink", description: "The laboratory pedon characterised at the station, linked only when the lab provider holds it." },
      ),
    ),
    survey: t.Object(
      {
        href: t.String({ description: "The mapped survey at the station's point.", examples: ["/v1/soil/location?latitude=37.1313&longitude=-97.0859"] }),
        map_unit_name: nullable(t.String({ description: "The map unit at the point, when the mapped-location provider has one there." })),
      },
      { ...closed, title: "StationSurveyLink" },
    ),
    series: t.String({ description: "The station's series route (add element, depth_cm, interval, start, end)." }),
  },
  { ...closed, title: "StationLinks" },
);

export const StationResponse = envelope(
  "StationResponse",
  {
    provider: t.String(),
    data_kind: t.Literal("observed"),
    query: t.Object({ station_triplet: t.String() }, { ...closed, title: "StationQuery" }),
    station: StationFeature,
    sensors: t.Array(StationSensor, { description: "The station's sensors where the source names them (the snapshot: the series it holds)." }),
    disagreements: t.Array(SourceDisagreement, { description: "Facts the sources give differently: which value is served, and the others." }),
    links: StationLinks,
    source: StationSource,
  },
);
export type StationResponse = Static<typeof StationResponse>;

// ---- GET /v1/stations/{station_triplet}/series --------------------------------------------------

export const StationSeriesQueryParams = t.Object({
  element: t.String({ maxLength: 60, description: "The property measured (a property id or alias), e.g. soil_moisture, soil_temperature.", examples: ["soil_moisture"] }),
  depth_cm: queryNumber({
    minimum: 0,
    maximum: 1000,
    description:
      "The sensor depth, cm (e.g. 5.08, 10.16, 20.32, 50.8, 101.6 = 2, 4, 8, 20, 40 in; GET /v1/stations/{station_triplet} lists a station's). A depth within 1.27 cm (half an inch) of a sensor depth is read as that depth, with a warning (5 → 5.08).",
    examples: [5.08],
  }),
  interval: t.Optional(
    t.UnionEnum(["native", "hourly", "daily"], {
      default: "native",
      description:
        "native (default): the values as the provider's source reports them (its native_interval: SCAN hourly); hourly: hourly values, from a source that reports them; daily: per day the values a daily source reports, or, from an hourly source, the mean of the hours reported with their count, min, max and flags (derived).",
    }),
  ),
  start: t.Optional(t.String({ maxLength: 40, default: "", description: "First instant: YYYY-MM-DD (midnight on the series' clock) or an ISO 8601 date-time with Z or an offset; default: end minus 7 days (hourly) or 365 days (daily).", examples: ["2010-07-01"] })),
  end: t.Optional(
    t.String({ maxLength: 40, default: "", description: "Last instant, inclusive: YYYY-MM-DD (the whole day) or a date-time; default now (to the hour).", examples: ["2010-07-07"] }),
  ),
  sensor: t.Optional(queryInteger({ minimum: 1, maximum: 9, default: 1, description: "Which sensor of the element at this depth (1 = primary)." })),
  ...PROVIDER_PARAMETER,
  ...FORMAT_PARAMETER,
});

export const StationSeriesQuery = t.Object(
  {
    station_triplet: t.String(),
    element: t.String(),
    depth_cm: t.Number(),
    sensor: Type.Integer(),
    interval: t.UnionEnum(["hourly", "daily"], { description: "The interval served (native resolved)." }),
    start: t.String({ format: "date-time" }),
    end: t.String({ format: "date-time", description: "Inclusive: the range's last instant (to the second), so sending it back as `end` asks the same values." }),
  },
  { ...closed, title: "StationSeriesQuery", description: "The effective query: an alias resolved, the depth the nearest sensor's, the range as instants on the series' clock." },
);

export const StationHourlyValue = t.Object(
  {
    time: t.String({ format: "date-time", description: "ISO 8601 with the clock's offset." }),
    value: t.Number(),
    unit: t.String(),
    flags: t.Array(t.String(), { description: "The source's flag fields as reported (see flag_fields); fewer when the source gave fewer." }),
  },
  { ...closed, title: "StationHourlyValue" },
);

export const StationDailyValue = t.Object(
  {
    time: t.String({ format: "date-time", description: "The day's first instant on the series' clock, with its offset." }),
    date: t.String({ format: "date" }),
    water_year: Type.Integer({ description: "The US water year of the day: water year N runs from October 1 of N-1 to September 30 of N.", examples: [2011] }),
    water_day: Type.Integer({ minimum: 1, maximum: 366, description: "The day's place in its water year (October 1 is 1).", examples: [1] }),
    value: t.Number({
      description: "From an hourly source: the mean of the day's hourly values (derived), rounded to the decimals the readings are written with. From a daily source: the day's value as reported.",
    }),
    unit: t.String(),
    count: nullable(Type.Integer({ minimum: 1, description: "How many hourly values the mean has (24 when complete); null for a value a daily source reports." })),
    min: nullable(t.Number({ description: "The day's lowest hourly value; null for a daily source's value." })),
    max: nullable(t.Number({ description: "The day's highest hourly value; null for a daily source's value." })),
    flags: t.Array(t.String(), {
      description: "A daily source's flags as reported; for a mean, every flag the day's hourly values carry, each once (flagged hours are in the mean: see flag_fields for what the flags mean).",
    }),
  },
  { ...closed, title: "StationDailyValue" },
);

export const StationSeriesResponse = envelope(
  "StationSeriesResponse",
  {
    provider: t.String(),
    data_kind: t.UnionEnum(["observed", "derived"], { description: "observed: values as the source reports them; derived: daily means Loam computed from a finer source's values." }),
    query: StationSeriesQuery,
    station: t.Object({ station_triplet: t.String(), name: nullable(t.String()), data_time_zone: nullable(t.Number()) }, { ...closed, title: "StationSeriesStation" }),
    sensor: t.Union([StationSensor, t.Null()], { description: "The sensor of the series as the station lists it (its instrument where the source names it); null when the source does not list it." }),
    clock: t.Object(
      { utc_offset_hours: t.Number(), name: t.String({ description: "Which clock the times are on (a day of daily values is a day of this clock)." }) },
      { ...closed, title: "StationSeriesClock" },
    ),
    unit: t.String(),
    interval: t.UnionEnum(["hourly", "daily"]),
    native_interval: t.UnionEnum(["hourly", "daily"], { description: "The interval the provider's source reports at; a coarser interval is derived from it." }),
    flag_fields: t.Array(t.String(), {
      description: "What each position of a reported value's flags is, and what the codes mean where known; a daily mean's flags are every flag its hours carry, positions merged.",
    }),
    transformations: t.Array(Transformation, { description: "Conversions from the source's unit, and the daily mean's derivation." }),
    values: t.Union([t.Array(StationHourlyValue), t.Array(StationDailyValue)], { description: "In time order. Gaps stay gaps: an hour (or day) the source did not report has no item." }),
    source: StationSource,
  },
);
export type StationSeriesResponse = Static<typeof StationSeriesResponse>;

// ---- GET /v1/providers/{provider_id}/raw/stations/{station_triplet} -------------------------------

/** The raw route's path parameters; the provider example is the registry's default of the role (a feature never names one). */
export const rawStationParams = (exampleProvider: string) =>
  t.Object(
    {
      provider_id: t.String({ description: "A site_series provider (GET /v1/providers lists them).", examples: [exampleProvider] }),
      station_triplet: t.String({ maxLength: 40, examples: ["2092:KS:SCAN"] }),
    },
    { noValidate: true },
  );

export const RawStationResponse = t.Object(
  {
    provider: t.String(),
    status: t.Literal("experimental"),
    query: t.Object({ station_triplet: t.String() }, { ...closed, title: "RawStationQuery" }),
    retrieved_at: t.String({ format: "date-time" }),
    cache: CacheMetadata,
    upstream_response: t.Record(t.String(), t.Unknown(), { description: "The station as the source wrote it." }),
    warnings: t.Array(t.String()),
  },
  { ...closed, title: "RawStationResponse" },
);
export type RawStationResponse = Static<typeof RawStationResponse>;

export const SITE_SERIES_MODELS = {
  StationsQuery,
  StationFeatureProperties,
  StationFeature,
  StationCollection,
  StationLinks,
  StationResponse,
  StationSeriesQuery,
  StationHourlyValue,
  StationDailyValue,
  StationSeriesResponse,
  RawStationResponse,
};
