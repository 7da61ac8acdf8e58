/**
 * What a provider is to the rest of Loam (docs/architecture.md#providers): one object per provider
 * folder, behind this interface. Features ask the registry for "the provider of this role" and use
 * only what its role declares; they never name SSURGO or KSSL.
 *
 * A provider declares:
 * - its catalog record and aliases (GET /v1/providers);
 * - its column table: which upstream column answers which canonical property, in what unit, with
 *   what meaning and method column (the SELECTs, the normalizer and `supported_properties` are
 *   generated from it, docs/decisions.md#column-tables);
 * - its logical queries (`QueryKind`: columns, one form per transport, decoder);
 * - how it reaches its upstream (`connect`: the shared snapshot or SDA transport, or its own);
 * - what its role needs (a point answer normalized to observations; pedons in a box and one pedon).
 */
import type { Static } from "elysia";
import type { Config, SettingDeclaration } from "../config";
import type { Database } from "bun:sqlite";
import type { DatasetInfo } from "../upstream/snapshot-schema";
import type { ProviderRecord } from "../catalog/model";
import type { QueryKind, SourceDescription, Transport } from "../upstream/transport";
import type { DataKind, MapUnitSummary, Observation } from "../domain/observation";
import type { LabLayer, PedonFeature } from "../domain/lab";
import type { SeriesBody, SeriesLink } from "../domain/series";
import type { GeochemObservation, GeochemSource } from "../domain/sample-site";
import type { SampleSite } from "../domain/sample-site";
import type { CachedAnswer } from "../upstream/cache";
import type { SummaryComponent } from "../domain/component";
import type { SummaryProperty } from "../domain/summary-property";
import type { PedonKey } from "../domain/pedon-key";
import type { CallBudget } from "../upstream/call-budget";
import type { SeriesPoint, StationReading, StationSource } from "../domain/station";
import type { Transformation } from "../catalog/model";
import type { MappedScope } from "../domain/coverage";

/** Which endpoint family a provider serves. */
export type ProviderRole = Provider["role"];

/** One row of a provider's column table, in the form every provider shares. */
export interface PropertyColumn {
  /** Canonical property id (GET /v1/properties). */
  property: string;
  /** Upstream table and column that answer it. */
  table: string;
  column: string;
  /** The canonical unit of the served value (the vocabulary's standard_unit). */
  unit: string;
  /** What the column holds, in words. */
  meaning: string;
  /** The column holding the method code of this result, or null where the upstream has none. */
  methodColumn: string | null;
}

/** The transports Loam opened for the configured upstream, shared by the providers that read them. */
export interface SharedUpstreams {
  /** The offline snapshot (a SnapshotTransport in production). */
  snapshot?: Transport;
  /** Soil Data Access (an SdaTransport in production). */
  sda?: Transport;
}

export interface ConnectContext {
  config: Config;
  upstreams: SharedUpstreams;
  /** The app's clock (ms since epoch), for a transport that keeps what it fetched for a while. */
  now?: () => number;
  /**
   * Upstream call budgets shared by every worker and instance (docs/decisions.md#upstream-call-budget):
   * a transport whose upstream asks for fair use spends one unit before each call.
   */
  callBudget?: CallBudget;
}

interface ProviderBase {
  readonly id: string;
  /** Other names accepted wherever the id is; answers always name the id. */
  readonly aliases: readonly string[];
  readonly record: ProviderRecord;
  /**
   * The short name served text written by generic code calls it by (a collection's title, an OpenAPI tag,
   * a warning): "SSURGO", "KSSL". Generic code never writes a provider's name itself (docs/decisions.md#provider-words).
   */
  readonly shortName: string;
  /** Its own configuration variables (e.g. a <PROVIDER>_URL): checked at start by the one config reader, listed by --help. */
  readonly settings?: readonly SettingDeclaration[];
}

/** What a provider's snapshot step adds: datasets to list in the coverage, warnings to report. */
export interface ImportResult {
  datasets: DatasetInfo[];
  warnings: string[];
}

/** A download format `loam import <provider>` reads (docs/your-region.md): listed by `loam import --help` and in refusals. */
export interface ImportFormat {
  /** Short name, e.g. "WSS download". */
  readonly name: string;
  /** What the user points at, e.g. "a Web Soil Survey .zip or its unpacked folder (one area, many, a state's)". */
  readonly description: string;
}

/** Where an import runs: the data folder (for reference tables an import needs, e.g. a colour table) and the progress sink. */
export interface ImportContext {
  readonly dataDir: string;
  log(line: string): void;
}

/**
 * A provider's part of the offline snapshot (docs/architecture.md#providers): its own tables, named
 * from its id (`<id>_...`), the step that fills them from the data folder (the build), and the
 * downloads `loam import` adds (docs/decisions.md#import). `layout` is this provider's own layout
 * version, stored in the snapshot, so a change to it rebuilds the snapshot without touching any other
 * provider's.
 */
export interface SnapshotStep {
  readonly layout: string;
  /** Create its tables, empty, when absent: a snapshot holds every provider's tables, imported or not. */
  create?(db: Database): void;
  /** Fill this provider's tables from its part of `dataDir` (read-only). */
  import(db: Database, dataDir: string, log: (line: string) => void): ImportResult | Promise<ImportResult>;
  /** The download formats `loam import` reads for it. */
  readonly formats?: readonly ImportFormat[];
  /** The name of the declared format `path` is in, or null: asked of every path before anything is written. */
  formatOf?(path: string): string | null;
  /**
   * Add the downloads at `paths` (each in a declared format); a newer release of a dataset the snapshot
   * holds replaces it, never sits beside it. Throws on a malformed file: the caller's copy is then dropped.
   */
  importFiles?(db: Database, paths: readonly string[], context: ImportContext): Promise<ImportResult>;
}

/** A provider that answers data requests. */
interface OperationalBase extends ProviderBase {
  readonly columns: readonly PropertyColumn[];
  /** Its logical queries, by kind. */
  readonly queries: Readonly<Record<string, QueryKind<never, unknown>>>;
  /** The transport this provider reads for this configuration. */
  connect(context: ConnectContext): Transport;
  /** Its tables in the offline snapshot and their import step, when it has any of its own. */
  readonly snapshot?: SnapshotStep;
  /**
   * Its coverage places on GET /v1/layers: the kind (DatasetInfo.kind) of the offline snapshot's datasets
   * that are places of its own (a survey area, a lab collection, a raster clip), each with the box its
   * importer states. None when absent: a network spread over a country names no place, and its layer's
   * extent is its OGC collection's (docs/decisions.md#map-layers).
   */
  readonly placeDatasets?: string;
}

/** What answers are built from, beside the upstream answer: where the transport reads. */
export interface AnswerContext {
  source: SourceDescription;
  /** When the upstream answer was stored (ms since epoch). */
  storedAt: number;
}

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
}

/** One map-unit polygon (delineation) of a polygon answer. */
export interface MapUnitPolygon {
  /** The polygon's key in its source (SDA mupolygonkey; the snapshot's row id). */
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

// ---- sites: located records found by box or nearest a point (the `sites` shape) -------------------
// (docs/architecture.md#shapes; pedons, sample sites and stations each extend SitesPart)

/** A page of the sites in a box: key order after `after` (the previous page's last key; null: the first page), at most `limit` + 1 (the extra one says more exist). */
export interface SitesBoxParams {
  bbox: [number, number, number, number];
  after: string | null;
  limit: number;
}

/** The sites nearest a point, nearest first. */
export interface SitesNearParams {
  latitude: number;
  longitude: number;
  limit: number;
}

/**
 * The `sites` shape: located records with a key syntax, found by box (any box, paged by a keyset cursor on
 * the key) or nearest a point, and one by its key. `S` is one site as the role reads it, `A` the answers,
 * `K` the key as a query takes it, `B`/`N` the box and nearest parameters (a role may add its own members),
 * `O` the one-site parameters. The generic service (src/shapes/sites/service.ts) pages, walks, finds
 * the nearest and one site, and measures the extent through these members only.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface SitesPart<S, A = any, K = string, B extends SitesBoxParams = SitesBoxParams, N extends SitesNearParams = SitesNearParams, O = any> {
  /**
   * Its key syntax: a path segment read as a key (null when malformed), the syntax in words for the 422,
   * and `example`, a key the source holds, for the routes' examples (docs/decisions.md#provider-words).
   */
  key: { parse(raw: string): K | null; syntax: string; example: string };
  inBox: QueryKind<B, A>;
  /** Absent when the provider does not find sites by distance. */
  nearest?: QueryKind<N, A>;
  /** One site: its query, the query's parameters for a key, and whether an answer holds the site (none: the caller's 404). */
  one: { query: QueryKind<O, A>; params(key: K): O; found(answer: A): boolean };
  /** The sites of a box or nearest answer asked with `params`, at most `limit` in its order, and where the page ends (its last key). */
  page(answer: A, limit: number, params: B | N): { sites: S[] } & PageEnd;
  /** Where a site is: [longitude, latitude]. */
  where(site: S): [number, number];
  /** The extent of every located site, where the provider has a query for it; absent: the service walks every site. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  extent?: { query: QueryKind<Record<string, never>, any>; read(answer: any): DataExtent };
}

// ---- laboratory pedons (GET /v1/pedons, /v1/pedons/{key}) ------------------------------------------

export interface BboxParams {
  bbox: [number, number, number, number];
  limit: number;
  /**
   * Keyset paging (docs/decisions.md#cursors): only features whose key comes after this one in the
   * collection's order; absent or null from the first. The key of a feature the same query listed.
   */
  after?: string | null;
}

/** A page of a keyset-paged collection: the key of its last listed feature, where the next page starts. */
export interface PageEnd {
  /** More features follow this page. */
  truncated: boolean;
  /** The key of the last feature of this page (null for an empty page). */
  last: string | null;
}

/** The extent of a collection's data: [min_lon, min_lat, max_lon, max_lat], null when it holds nothing. */
export type DataExtent = [number, number, number, number] | null;

export interface PedonParams {
  pedonKey: PedonKey;
}

export interface PedonDetailContext extends AnswerContext {
  properties: string[];
  depthTop: number;
  depthBottom: number;
}

export interface PedonDetail {
  pedonKey: string;
  /** The name the pedon was sampled as (else its correlated name); null when it has none. */
  name: string | null;
  location: { latitude: number | null; longitude: number | null; horizontal_accuracy_m: null };
  citation: string;
  sourceUrl: string;
  retrievedAt: string;
  layers: Static<typeof LabLayer>[];
  /** The bottom of the pedon's deepest layer, cm; null when no layer has depths. */
  deepestBottomCm: number | null;
  /** The Soil Taxonomy great group the pedon was classified in (KSSL samp_taxgrtgroup); null where not recorded. */
  greatGroup: string | null;
  warnings: string[];
  /** Warnings that follow the shared source warnings (e.g. how a snapshot dates this provider's data). */
  afterSourceWarnings: string[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface PedonProvider<B = any, D = any> extends OperationalBase {
  readonly role: "lab_pedons";
  /**
   * Pedons are sites (SitesPart): its `key` syntax, `inBox` (features in pedon-key order; `page` says
   * whether more than `limit` exist), `one` (the pedon's layers: an answer of its own, `D`), `where`, `extent`.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly pedons: SitesPart<Static<typeof PedonFeature>, any, PedonKey, SitesBoxParams, SitesNearParams, PedonParams> & {
    /** The great group each listed pedon was sampled as, by pedon key (the list's series-link check); absent where the bbox answer does not say. */
    greatGroups?(answer: B): Map<string, string | null>;
    /**
     * How many located pedons a box holds, where the provider can count cheaply: only through the
     * transports its query has a form for (the OGC collection's numberMatched).
     */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    count?: { query: QueryKind<Pick<BboxParams, "bbox">, any>; read(answer: any): number };
    /** What an empty box says about this provider's coverage ("" when nothing to add). */
    coverageNote(source: SourceDescription): string;
    notFoundMessage(key: PedonKey, source: SourceDescription): string;
    detail(answer: D, context: PedonDetailContext): PedonDetail;
    /** The name and great group the pedon was sampled as, read without normalizing its layers (series-link check). */
    sampledAs(answer: D): { name: string | null; greatGroup: string | null };
    /** The raw endpoint's own notes about what the fixed query reads. */
    rawNotes: readonly string[];
  };
}

// ---- series descriptions (GET /v1/series/{name}; links from components and pedons) ---------------

export interface SeriesKeyParams {
  /** A series key: the name upper-cased, words joined by `_` (NEW_CAMBRIA). */
  key: string;
}

/** One of the provider's own queries through the cache (`connected.ask` bound to the provider). */
export type Ask = <P, A>(query: QueryKind<P, A>, params: P) => Promise<CachedAnswer<A>>;

export type SeriesLinker = (name: string) => SeriesLink | null;

/** A provider's side of a link: the key of the description it holds for a name, else null (the answer room writes the link). */
export type SeriesKeyer = (name: string) => string | null;

export interface DescribedSeries {
  /** The cached description (its freshness is the answer's). */
  cached: CachedAnswer<unknown>;
  /** The answer body without `cache`. */
  body(): SeriesBody;
}

export interface SeriesProvider extends OperationalBase {
  readonly role: "series";
  readonly series: {
    /** What its descriptions are called in served text: the route's summary, the link checks' warnings ("Official Series Description"). */
    describedAs: string;
    /** The names it keys, in words (the route's document of `name` and of its 422), and a name it describes (the document's example). */
    names: { syntax: string; example: string };
    /** The key of a series name, or a ValidationError (422) saying what a series name looks like. */
    keyOf(name: string): string;
    /** The description of a series key; NotFoundError (404) when the source has none. */
    describe(ask: Ask, key: string, source: SourceDescription, apiVersion: string): Promise<DescribedSeries>;
    /**
     * The key of a series name's description: null for a name with no description (or that is not a
     * series name). Never fails an answer: when the source cannot be asked, it keys nothing. The link's
     * path is the series route's, written by the answer room (src/answer/series-links.ts), not the provider.
     */
    linker(ask: Ask): Promise<SeriesKeyer>;
  };
}

// ---- sample sites (GET /v1/geochem/sites, /v1/geochem/sites/{site_id}) --------------------------------

/** A page of the sites in a box, in site-id order after the keyset position `after` (the last site id of the previous page, as text). */
export interface SiteBoxParams extends SitesBoxParams {
  /** The one element whose result each site carries (a property id), or null. */
  property: string | null;
  /** Only sites collected on these UTC days, inclusive (null: open end); absent: any date (docs/decisions.md#ogc-api-features). */
  days?: { first: string | null; last: string | null };
}

/** The sites nearest a point, nearest first. */
export interface SiteNearParams extends SitesNearParams {
  property: string | null;
}

export interface SiteParams {
  siteId: number;
}

/** One site of an answer, read: where and when it was sampled, and its results. */
export interface SiteReading {
  site: SampleSite;
  /** One per asked element with a result (a number or a censored result), in the provider's order. */
  observations: GeochemObservation[];
  /** Asked elements with no result (no sample, N.S.), by property id. */
  noSample: string[];
  /** The served unit of each asked element, by property id (also of one with no sample). */
  units: Record<string, string>;
  /** Nearest-site answers: the distance from the asked point, km. */
  distanceKm?: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface SampleSiteProvider<A = any> extends OperationalBase {
  readonly role: "sample_sites";
  /** Sample sites are sites (SitesPart, keyed by site id): `page` reads each with the result of the asked `property`. */
  readonly sites: SitesPart<SiteReading, A, number, SiteBoxParams, SiteNearParams, SiteParams> & {
    /** The property ids it serves, in its order (every site answer's default). */
    properties: readonly string[];
    /** How many sites an inBox answer's query matches, every page together; null where counting is not cheap. */
    matched(answer: A): number | null;
    /** The sites of an answer, in its order, with the results of `properties` (ids it serves). */
    read(answer: A, properties: readonly string[]): SiteReading[];
    /** Where an answer's data came from. */
    source(answer: A, source: SourceDescription): GeochemSource;
    /** The warnings every answer of this provider carries (coverage, sampling design, dates). */
    warnings(answer: A, source: SourceDescription): string[];
    /** The first site's row and the unit row, as {column: cell}, for the raw endpoint. */
    raw(answer: A): { row: Record<string, string>; units: Record<string, string> };
    rawNotes: readonly string[];
    /** What the source says of its methods, said once on a site's answer (measurement_method's caveat). */
    methodNote: string;
    /** What its samples are and where it sampled, in the routes' words: "0-5 cm soil", "the conterminous United States". */
    scope: { samples: string; area: string };
  };
}

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
export interface PointValuesReading {
  observations: Static<typeof Observation>[];
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
    read(answer: A, context: PointValuesContext): PointValuesReading;
    /** Its layers as grids a map can draw, when it holds any (GET /v1/soil/modeled/grid). */
    grid?: {
      query: QueryKind<Record<string, never>, G>;
      /** The layers an answer holds, as property and depth label. */
      layers(answer: G): { property: string; depth: string }[];
      read(answer: G, property: string, depth: string, context: AnswerContext): GridLayer | null;
    };
  };
}

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
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface StationProvider<A = any, S = any> extends OperationalBase {
  readonly role: "site_series";
  /** Stations are sites (SitesPart, keyed by the provider's station key): `key`, `inBox`, `nearest`, `one`, `page`, `where`. */
  readonly stations: SitesPart<StationReading, A, string, SitesBoxParams, SitesNearParams, StationKeyParams> & {
    /** The property ids its series measure, and the depths (cm) its sensors stand at. */
    elements: readonly string[];
    depthsCm: readonly number[];
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

/** Listed in the catalog; serves no data yet. */
export interface PlannedProvider extends ProviderBase {
  readonly role: "planned";
}

export type Provider = PointProvider | PedonProvider | SeriesProvider | SampleSiteProvider | PointValuesProvider | StationProvider | PlannedProvider;
export type OperationalProvider = Exclude<Provider, PlannedProvider>;
