/** Values at a point by property and depth (`point_values`, GET /v1/soil/modeled), and the part a mapped survey's point shares. Part of the provider contract (./provider.ts, docs/architecture.md#providers). */
import type { Static } from "elysia";
import type { QueryKind } from "../upstream/transport";
import type { DataKind, GridObservation, Observation } from "../domain/observation";
import type { AnswerContext, OperationalBase } from "./base";

// ---- values at a point by property and depth (the `point_values` shape) ---------------------------
// (docs/architecture.md#shapes; mapped_location's `point` and point_values' `pointValues` each extend PointValuesPart)

/** One depth interval of a provider's fixed depths (e.g. SoilGrids' 0-5 cm). */
export interface ValueDepth {
  label: string;
  top: number;
  bottom: number;
}

/** What a point_values query asks: the point, the properties (canonical ids it serves) and the depth interval (cm); the provider picks its depths overlapping it. */
export interface PointValuesParams {
  latitude: number;
  longitude: number;
  properties: string[];
  depthTop: number;
  depthBottom: number;
}

export interface PointValuesContext extends AnswerContext, PointValuesParams {}

/**
 * A point answer read: one observation per property and depth with a value, each carrying its context (what
 * the value is: survey_context, grid_context, sample_context), and the provider's own warnings.
 */
export interface PointValuesReading<O extends Static<typeof Observation> = Static<typeof Observation>> {
  /** Of the kind its role gives (a mapped survey's SoilObservation, a raster's GridObservation), so each route's model names one kind. */
  observations: O[];
  warnings: string[];
}

/**
 * The `point_values` shape: what every provider of values at a WGS84 point declares, whatever its role.
 * `P` is what its query is asked with (the point alone, or the point with the properties and depths), `A`
 * its answer. Each role's part adds its normalizer to observations (`normalize` for mapped_location, `read`
 * for point_values); the generic service (src/shapes/point_values/service.ts) asks, reads and wraps the
 * answer through these members only. An observation's `value` is the provider's central statistic and
 * `uncertainty` its interval; other statistics live in its context (docs/decisions.md#point-values-uncertainty).
 */
export interface PointValuesPart<P, A> {
  /** What its values are (the answer's data_kind): mapped_survey for a mapped soil survey, modeled for a model's predictions, observed for samples. */
  dataKind: Static<typeof DataKind>;
  /** What a user must know about every value it serves, said on its raw answers too (e.g. survey values are not a lab observation at the point). */
  note: string;
  query: QueryKind<P, A>;
}

/** One raster layer as a map draws it: its grid, and its values in the served unit (null: no data). */
export interface GridLayer {
  property: string;
  depth: ValueDepth;
  /** The statistic the layer holds (mean, Q0.5, ...). */
  statistic: string;
  unit: string;
  crs: string;
  /** [longitude, latitude] of the top-left corner of the top-left cell. */
  origin: [number, number];
  /** Cell width and height in degrees (both positive; rows run southwards). */
  cellSize: [number, number];
  width: number;
  height: number;
  /** Row-major from the top-left cell; null where the layer has no data. */
  values: (number | null)[];
  /** The layer's own provenance: citation, licence, where it came from, when. */
  citation: string;
  license: { name: string; url: string };
  sourceUrl: string;
  retrievedAt: string;
  warnings: string[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface PointValuesProvider<A = any, G = any> extends OperationalBase {
  readonly role: "point_values";
  /** Its values at a point (PointValuesPart): asked with the properties and depths, read to observations with their context (a model's grid cell: grid_context). */
  readonly pointValues: PointValuesPart<PointValuesParams, A> & {
    /** What its raw answer holds when read from the offline snapshot (said on the raw route then); absent: a generic sentence. */
    offlineNote?: string;
    /** The properties asked when a request names none (at most eight). */
    defaultProperties: string;
    read(answer: A, context: PointValuesContext): PointValuesReading<Static<typeof GridObservation>>;
    /** Its layers as grids a map can draw, when it holds any (GET /v1/soil/modeled/grid). */
    grid?: {
      query: QueryKind<Record<string, never>, G>;
      /** The layers an answer holds, as property and depth label. */
      layers(answer: G): { property: string; depth: string }[];
      read(answer: G, property: string, depth: string, context: AnswerContext): GridLayer | null;
    };
  };
}
