/**
 * A sensor station (the `site_series` shape, docs/decisions.md#site-series): where it stands, its
 * sensors, the lab pedon characterised at it, and where its sources disagree. Providers of the shape
 * build these; the stations feature serves them. Nothing here names a provider.
 */
import { t, type Static } from "elysia";
import { Type } from "@sinclair/typebox";
import { closed, nullable } from "./model";

/** A series a source holds for a station: its element (a property id), depth and period. */
export const StationSeriesHeld = t.Object(
  {
    element: t.String({ examples: ["soil_moisture"] }),
    depth_cm: t.Number({ examples: [5.08] }),
    start: nullable(t.String({ format: "date-time", description: "The first value held (ISO 8601 with offset)." })),
    end: nullable(t.String({ format: "date-time", description: "The last value held (ISO 8601 with offset)." })),
    values: nullable(Type.Integer({ minimum: 0, description: "How many values are held; null when the source does not say." })),
  },
  { ...closed, title: "StationSeriesHeld" },
);
export type StationSeriesHeld = Static<typeof StationSeriesHeld>;

export const StationProperties = t.Object(
  {
    station_triplet: t.String({ examples: ["2092:KS:SCAN"], description: "stationId:stateCode:networkCode." }),
    station_id: t.String({ examples: ["2092"] }),
    name: nullable(t.String({ examples: ["Abrams"] })),
    network: t.String({ examples: ["SCAN"] }),
    state: nullable(t.String({ examples: ["KS"] })),
    county: nullable(t.String({ examples: ["Cowley"] })),
    elevation_m: nullable(t.Number({ description: "From the source's feet (elevation_ft), x 0.3048, to 0.1 m." })),
    elevation_ft: nullable(t.Number({ description: "The source's own value, feet." })),
    data_time_zone: nullable(t.Number({ description: "Hours from UTC of the station's standard-time data clock (no daylight saving), e.g. -6." })),
    begin_date: nullable(t.String({ format: "date", description: "When the station began reporting (YYYY-MM-DD)." })),
    end_date: nullable(t.String({ format: "date", description: "When it stopped; null while active (the source writes 2100-01-01)." })),
    huc: nullable(t.String({ description: "Hydrologic unit code, leading zeros kept." })),
    pedon_key: nullable(
      t.String({
        description:
          "The laboratory pedon characterised at the station, as a key of GET /v1/pedons/{pedon_key} (the lab's sample number), when known. Not a source's own pedon field of the same name (the raw record's `pedon_key` may be another database's pedon id: the raw route's warnings say which).",
        examples: ["04N0873"],
      }),
    ),
    series_offline: t.Array(StationSeriesHeld, { description: "The series Loam's offline snapshot holds for the station (empty: none; live mode asks the source)." }),
  },
  { ...closed, title: "StationProperties" },
);
export type StationProperties = Static<typeof StationProperties>;

/** One sensor of a station: what it measures, at what depth, which of several at that depth. */
export const StationSensor = t.Object(
  {
    element: t.String({ description: "The property id it measures.", examples: ["soil_moisture"] }),
    source_element: t.String({ description: "The source's element code or variable name.", examples: ["SMS"] }),
    depth_cm: nullable(t.Number({ description: "Depth below the surface, cm (the source's inches x 2.54)." })),
    ordinal: Type.Integer({ minimum: 1, description: "Which sensor of this element at this depth (1 = primary)." }),
    unit: t.String({ description: "The unit Loam serves its values in.", examples: ["% vol"] }),
    source_unit: t.String({ description: "The unit the source stores.", examples: ["m3/m3"] }),
    start: nullable(t.String({ description: "First value (as the source dates it)." })),
    end: nullable(t.String({ description: "Last value (as the source dates it); null while active." })),
    instrument: nullable(t.String({ description: "The instrument, when the source names it." })),
  },
  { ...closed, title: "StationSensor" },
);
export type StationSensor = Static<typeof StationSensor>;

/** A fact two sources give differently: which value the answer serves, and the others. */
export const SourceDisagreement = t.Object(
  {
    field: t.String({ examples: ["elevation"] }),
    served: t.Object({ source: t.String(), value: t.Union([t.Number(), t.String()]), unit: nullable(t.String()) }, { ...closed, title: "ServedValue" }),
    others: t.Array(t.Object({ source: t.String(), value: t.Union([t.Number(), t.String()]), unit: nullable(t.String()) }, { ...closed, title: "OtherValue" })),
    note: t.String(),
  },
  { ...closed, title: "SourceDisagreement" },
);
export type SourceDisagreement = Static<typeof SourceDisagreement>;

/** A station as a provider reads it from one of its answers. */
export interface StationReading {
  properties: StationProperties;
  latitude: number;
  longitude: number;
  sensors: StationSensor[];
  disagreements: SourceDisagreement[];
  /** Nearest-station answers: the geodesic distance on WGS84 from the asked point, km (docs/decisions.md#geometry). */
  distanceKm?: number;
}

/** One value of a series as the source reported it, in the served unit. */
export interface SeriesPoint {
  /** ms since epoch (the instant). */
  t: number;
  value: number;
  /** The source's flag fields, as reported (absent fields left out). */
  flags: string[];
}

/** Where a station answer's data came from: every citation its data asks for. */
export const StationSource = t.Object(
  {
    provider: t.String(),
    organization: t.String(),
    citations: t.Array(t.String(), { description: "Every reference the data asks users to cite (e.g. the network and the redistributing archive)." }),
    source_url: t.String(),
    retrieved_at: t.String({ format: "date-time", description: "When the data were read: the snapshot build, or the live answer." }),
  },
  { ...closed, title: "StationSource" },
);
export type StationSource = Static<typeof StationSource>;

export const STATION_MODELS = { StationSeriesHeld, StationSensor, SourceDisagreement, StationSource };
