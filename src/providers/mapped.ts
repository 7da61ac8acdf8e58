/** A mapped survey (`mapped_location`): values at a point with the map units there, one map unit with its components, and map-unit polygons. Part of the provider contract (./provider.ts, docs/architecture.md#providers). */
import type { Static } from "elysia";
import type { QueryKind, SourceDescription } from "../upstream/transport";
import type { MapUnitSummary } from "../domain/observation";
import type { SummaryComponent } from "../domain/component";
import type { SummaryProperty } from "../domain/summary-property";
import type { MappedScope } from "../domain/coverage";
import type { AnswerContext, BboxParams, DataExtent, OperationalBase, PageEnd } from "./base";
import type { PointValuesContext, PointValuesPart, PointValuesReading } from "./point-values";

// ---- mapped values for one point (GET /v1/soil/location; the `point_values` shape) -----------------

export interface PointParams {
  latitude: number;
  longitude: number;
}

/** A component of a map unit at the point, as the point answer lists it (for the location warnings). */
export interface PointComponent {
  component_key: string;
  component_name: string;
  component_kind: string | null;
  component_percent: number | null;
  has_horizon_data: boolean;
}

/** A map unit at the point: the spec's four fields, and (internally) its components. */
export type PointMapUnit = Static<typeof MapUnitSummary> & { components: PointComponent[] };

/** A mapped-location answer read: the shape's reading, and the map units holding the point. */
export interface NormalizedPoint extends PointValuesReading {
  mapUnits: PointMapUnit[];
}

// ---- one map unit with all its components (GET /v1/soil/mapunits/{key}, /v1/soil/summary) ---------

export interface MapUnitParams {
  /** A key that passed the provider's `checkKey`. */
  mapUnitKey: string;
}

/** One map unit as the summaries read it: every component, with or without horizon data. */
export interface MapUnitData {
  provider: string;
  area_symbol: string;
  map_unit_key: string;
  map_unit_symbol: string;
  map_unit_name: string;
  /** Highest percent first (tie: lowest key). */
  components: SummaryComponent[];
  /** Provenance every summary of this map unit carries. */
  /** survey_version: the survey's own version date, as a warning (it is not a retrieval date). */
  source: { organization: string; retrieved_at: string; citation: string; source_url: string; survey_version?: string };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface MapUnitRole<A = any, PA = any> {
  query: QueryKind<MapUnitParams, A>;
  /** The key as it may enter a query, or a ValidationError (422) naming the rule. */
  checkKey(raw: string): string;
  /** Its keys in words for the route's document: what a key is, its pattern where one states it, and a key it holds. */
  keys: { syntax: string; pattern?: string; example: string };
  /** The map unit of an answer; null when the key is unknown (the caller's 404). */
  read(answer: A, context: AnswerContext): MapUnitData | null;
  /** The words of that 404: what the source does not hold, and what it holds where that helps. */
  notFoundMessage(key: string, source: SourceDescription): string;
  /** Map unit keys in an answer of the point query, in its order. */
  keysAtPoint(pointAnswer: PA): string[];
  /** What its summaries can be asked for, built from its column table (docs/decisions.md#column-tables). */
  properties: readonly SummaryProperty[];
  /**
   * Where the source can: every map unit at a point with its components and horizons in one query, the
   * point query's answer and each map unit's read from it, so a caller that needs both (the evidence
   * route) makes one upstream call, not two (docs/decisions.md#evidence).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  atPoint?: { query: QueryKind<PointParams, any>; point(answer: any): PA; mapUnit(answer: any, key: string): A };
}

/** One map-unit polygon (delineation) of a polygon answer. */
export interface MapUnitPolygon {
  /** The polygon's key in its source (SDA mupolygonkey; the snapshot's key made from its survey area: docs/decisions.md#national-mirror). */
  id: string;
  mapUnitKey: string;
  mapUnitSymbol: string | null;
  mapUnitName: string | null;
  areaSymbol: string | null;
  /** Polygons, each [outer ring, ...holes], rings of [lon, lat], wound as RFC 7946 asks. */
  polygons: number[][][][];
}

// The answer types default to `any` so features can hold a provider of any answer type; each
// provider object is declared with its own (e.g. PointProvider<SdaAnswer>).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface PointProvider<A = any> extends OperationalBase {
  readonly role: "mapped_location";
  /**
   * Its values at a point (PointValuesPart): asked by the point alone (one answer holds every property and
   * depth there), normalized to observations with their context (a survey's component horizon:
   * survey_context) and the map units holding the point.
   */
  readonly point: PointValuesPart<PointParams, A> & {
    /** Where it maps, for the no-map-unit reasons and the live coverage sentence (docs/decisions.md#coverage-messages). */
    scope: MappedScope;
    normalize(answer: A, context: PointValuesContext): NormalizedPoint;
  };
  /** Whole map units and their components, for map-unit summaries; absent when the provider has none. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly mapUnits?: MapUnitRole<any, A>;
  /** Map-unit polygons in a box (GET /v1/soil/mapunits?bbox=…), when the provider has them. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly mapUnitPolygons?: MapUnitPolygonRole<any>;
}

/** Map-unit polygons of a provider: their query, whose answer `B` is decoded once (docs/decisions.md#decode-once), and its page. */
export interface MapUnitPolygonRole<B> {
  query: QueryKind<BboxParams, B>;
  /** At most `limit` polygons in the query's order (polygon key); `truncated` when more exist. */
  polygons(answer: B, limit: number): { polygons: MapUnitPolygon[] } & PageEnd;
  /** One polygon by its key (an OGC single item); its answer reads with `polygons` (none: unknown key). */
  byKey: QueryKind<{ key: string }, B>;
  /** A polygon key in its own syntax, as `byKey` takes it; null when malformed (the caller's 404: no such item). */
  polygonKey(raw: string): string | null;
  /** The extent of every polygon the provider holds (GET /ogc/collections/mapunits). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  extent: { query: QueryKind<Record<string, never>, any>; read(answer: any): DataExtent };
  /**
   * Map-unit polygons cut to an area (GET /v1/soil/aoi): each polygon that meets the area, clipped
   * to it, in polygon-key order; parts without area left out.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  inArea?: {
    query: QueryKind<AreaParams, any>;
    polygons(answer: any, limit: number): { polygons: MapUnitPolygon[]; truncated: boolean };
    /** The citation an area report gives its polygons (the source's own wording, with its URL). */
    citation: string;
  };
}

/** An area of interest: one polygon, [outer ring, ...holes], each ring closed, of [lon, lat] (WGS84). */
export interface AreaParams {
  rings: number[][][];
  /** Most polygons to return; the query asks for one more, to tell that more exist. */
  limit: number;
}
