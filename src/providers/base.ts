/** The members every provider declares whatever its role (id, record, column table, queries, transport, snapshot step), and what pages and extents share. Part of the provider contract (./provider.ts, docs/architecture.md#providers). */
import type { Config, SettingDeclaration } from "../config";
import type { Database } from "bun:sqlite";
import type { DatasetInfo } from "../upstream/snapshot-schema";
import type { ProviderRecord } from "../catalog/model";
import type { QueryKind, SourceDescription, Transport } from "../upstream/transport";
import type { CallBudget } from "../upstream/call-budget";

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

export interface ProviderBase {
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
export interface OperationalBase extends ProviderBase {
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

// ---- paging and extents every located or polygon collection shares --------------------------------

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
