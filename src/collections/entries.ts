/**
 * The collections of the OGC API - Features endpoint (docs/decisions.md#ogc-api-features), as a table
 * of entries: each says what it is (id, title, description, its flat fields) and how to read it (its
 * extent, a page of items after a cursor's key, one item by id). The routes know only this contract;
 * the collections are derived per registered provider (table.ts `collectionsOf`).
 */
import type { CacheDescriptor, DataDeps } from "../answer";
import type { Bbox } from "../domain/bbox";
import type { TimeRange } from "../domain/time-range";
import type { FlatField } from "./flat-fields";
import type { DataExtent } from "../providers/provider";

/** Flat feature properties: strings and numbers (and null), which GDAL, QGIS and Shapefile keep as typed fields. */
export type FlatProperties = Record<string, string | number | null>;

export type ItemGeometry =
  | { type: "Point"; coordinates: number[] }
  | { type: "Polygon"; coordinates: number[][][] }
  | { type: "MultiPolygon"; coordinates: number[][][][] };

export interface Item {
  type: "Feature";
  /** The collection's key: a string, or an integer where the source's key is one (a DS 801 SiteID, as on /v1). */
  id: string | number;
  geometry: ItemGeometry;
  properties: FlatProperties;
}

/**
 * One page of items, in the collection's key order. Its items and warnings are made on demand: a
 * cached page's body is rendered once, so a cached request or a 304 never builds them (docs/decisions.md#derived-once).
 */
export interface ItemsPage {
  /** The page's items; `origin` makes their links absolute (OGC clients follow links as given). */
  features: (origin: string) => Item[];
  /** The key the next page starts after; null on the last page. */
  nextAfter: string | null;
  cache: CacheDescriptor;
  warnings: () => string[];
  /** Names what else the page is made of (e.g. the map units its summaries came from); "" when nothing. */
  stamp: string;
  /** How many features the query matches, every page together, where counting is cheap; null where it is not (numberMatched is then left out). */
  matched: number | null;
}

/** The items query as read (src/collections/model.ts ItemsQueryParams, defaults applied). */
export type ItemParams = Readonly<Record<string, string | number>>;

/** A checked items query: what its cursors are bound to, and how to read a page of it. */
export interface ItemsQuery {
  /** Members of the cursor binding besides the collection and the box (e.g. provider, properties). */
  binding: Record<string, unknown>;
  page(after: string | null, limit: number): Promise<ItemsPage>;
}

/** A collection's title and description (its fields are appended to the description where it is served). */
export interface CollectionText {
  title: string;
  description: string;
}

export interface CollectionEntry {
  id: string;
  /**
   * Its title and description, in the words of the registry's provider it serves (its shortName and
   * record): generic code never names a source itself (docs/decisions.md#provider-words).
   */
  text(deps: DataDeps): CollectionText;
  /** The collection's own query parameters besides bbox, limit and cursor (documented in OpenAPI). */
  parameters: readonly string[];
  /** The flat fields of its items (flat-fields.ts: derived from the /v1 model of the same features), for the collection's description and its queryables. */
  fields: Readonly<Record<string, FlatField>>;
  /** The GeoJSON geometry types of its items (OGC API - Features Part 3 `geometry-*` formats). */
  geometry: readonly ("point" | "polygon" | "multipolygon")[];
  /** The spatial extent of the data. */
  extent(deps: DataDeps): Promise<DataExtent>;
  /** A sentence the description adds from the data (what of the source is not a feature here), or null. */
  note?(deps: DataDeps): Promise<string | null>;
  /**
   * The temporal extent of the data, [first, last] as RFC 3339 date-times (OGC 17-069r4), when its
   * features are dated; last null when it is open (a station still reporting). A collection that has it
   * takes `datetime`: its query is given the interval.
   */
  interval?(deps: DataDeps): Promise<[string, string | null] | null>;
  /**
   * Check the request (a request without bbox asks for the whole world) and the collection's own parameters: a bad
   * one is a BadRequestError or ValidationError naming it (400 on /ogc). `time` is the `datetime`
   * interval (null: none), given only to a collection with `interval`.
   */
  query(deps: DataDeps, bbox: Bbox, params: ItemParams, time: TimeRange | null): ItemsQuery;
  /** One item by id (with the collection's own parameters); null when there is none. */
  item(deps: DataDeps, id: string, params: ItemParams): Promise<{ feature: (origin: string) => Item; cache: CacheDescriptor; warnings: () => string[]; stamp: string } | null>;
}

/**
 * The provider one collection serves (collections are derived per provider: table.ts), its collection id,
 * and what a link of its items adds to reach that provider on /v1 (`?provider=<id>`; "" for its role's default).
 */
export interface ServedBy<P> {
  id: string;
  provider: P;
  linkQuery: string;
}
