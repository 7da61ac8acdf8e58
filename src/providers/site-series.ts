/** Stations and their sensor time series (`site_series`, GET /v1/stations...): a sites part with a series query. Part of the provider contract (./provider.ts, docs/architecture.md#providers). */
import type { Static } from "elysia";
import type { QueryKind, SourceDescription } from "../upstream/transport";
import type { SeriesPoint, StationReading, StationSource } from "../domain/station";
import type { Transformation } from "../catalog/model";
import type { OperationalBase } from "./base";
import { pageOf } from "../domain/site-page";
import type { SitesBoxParams, SitesNearParams, SitesPart } from "./sites";

// ---- site series: stations and their sensor time series (GET /v1/stations...) ---------------------
// (docs/decisions.md#site-series; kept in its own block)

export interface StationKeyParams {
  /** A key that passed the provider's `key.parse`. */
  station: string;
}

/** One series of a station: an element at a depth, over a range of instants. */
export interface StationSeriesParams {
  station: string;
  /** A property id the provider serves. */
  element: string;
  depthCm: number;
  /** Which sensor of this element at this depth (1 = primary). */
  ordinal: number;
  /** The range asked for, ms since epoch, start inclusive, end exclusive. */
  startMs: number;
  endMs: number;
  /** The station's standard-time clock, hours from UTC (a source keeping that clock reads the range in it). */
  utcOffsetHours: number;
}

/**
 * How often a source reports a series' values (docs/decisions.md#series-interval): the site-series
 * shape serves the native interval as reported and derives only coarser ones (daily means of hourly values).
 */
export type SeriesInterval = "hourly" | "daily";

/** A series answer read: its values in the served unit, and what they are. */
export interface StationSeriesReading {
  /** The clock the source's times are on: hours from UTC and its name in words (a day of `daily` is a day of this clock). */
  clock: { utcOffsetHours: number; name: string };
  unit: string;
  values: SeriesPoint[];
  /** What each position of a value's `flags` is. */
  flagFields: string[];
  /** The conversion from the source's unit, when there is one. */
  transformation: Static<typeof Transformation> | null;
  /** The provider's own warnings (what the source holds when it holds nothing here, provisional values, ...). */
  warnings: string[];
  /** Every reference these values ask users to cite (e.g. the network and the archive that redistributes it). */
  citations: string[];
  /** Values the source sent that its transport dropped as not finite numbers (1e309: JSON cannot carry them); the shape counts them in its warning. */
  notFinite?: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface StationProvider<A = any, S = any> extends OperationalBase {
  readonly role: "site_series";
  /** Stations are sites (SitesPart, keyed by the provider's station key): `key`, `inBox`, `nearest`, `one`, `page`, `where`. */
  readonly stations: SitesPart<StationReading, A, string, SitesBoxParams, SitesNearParams, StationKeyParams> & {
    /** The property ids its series measure, and the depths (cm) its sensors stand at. */
    elements: readonly string[];
    depthsCm: readonly number[];
    /** The interval its source reports values at (a value's `t` is the start of its hour or day). */
    nativeInterval: SeriesInterval;
    /** The stations of an answer, in its order. */
    read(answer: A): StationReading[];
    series: QueryKind<StationSeriesParams, S>;
    /** Hours from UTC of the clock this source's series of a station are on (a bare date of a range is a day of it). */
    seriesClock(source: SourceDescription, station: StationReading): number;
    readSeries(answer: S, params: StationSeriesParams, now: number): StationSeriesReading;
    /** Where an answer's data came from; `citations` of a series reading are added to it. */
    source(source: SourceDescription, retrievedAt: string, citations: readonly string[]): StationSource;
    /** When an answer was read from the source (the snapshot build, or the live answer). */
    retrievedAt(answer: A | S, source: SourceDescription, storedAt: number): string;
    /** The warnings every station answer of this provider carries. */
    warnings(source: SourceDescription): string[];
    /** The first station of an answer as the source wrote it, for the raw endpoint. */
    raw(answer: A): Record<string, unknown>;
    rawNotes: readonly string[];
  };
}

/** A station provider's part. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type StationPart<A = any, S = any> = StationProvider<A, S>["stations"];

/** The members of a station part that have a default (`stationPart`): a provider writes them only where it differs. */
type Defaulted = "page" | "where" | "seriesClock" | "retrievedAt" | "warnings" | "rawNotes";

/** A station part as a provider writes it: the defaulted members optional. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type StationPartInput<A = any, S = any> = Omit<StationPart<A, S>, Defaulted> & Partial<Pick<StationPart<A, S>, Defaulted>>;

/**
 * A station part with the defaults filled in: a page is the first `limit` stations `read` gives, keyed by
 * triplet; a station is where its reading says; series on UTC; retrieved when the answer was stored; no
 * warnings or raw notes of its own. (The one value of this file: provider folders import it from here.)
 */
export function stationPart<A, S>(part: StationPartInput<A, S>): StationPart<A, S> {
  return {
    page: (answer, limit) => pageOf(part.read(answer), limit, (s) => s.properties.station_triplet),
    where: (s) => [s.longitude, s.latitude],
    seriesClock: () => 0,
    retrievedAt: (_answer, _source, storedAt) => new Date(storedAt).toISOString(),
    warnings: () => [],
    rawNotes: [],
    ...part,
  };
}
