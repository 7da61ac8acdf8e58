/**
 * The offline transport: answers each provider query from the snapshot SQLite file, through the
 * query's `snapshot` form (a reader prepared once per file, in the provider's folder). A reader
 * answers in the shape its query's decoder reads: for the SDA providers' tabular queries, typed rows
 * whose SDA JSON is rendered only for a raw body (docs/decisions.md#decode-once).
 */
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { LoamError, UpstreamError } from "../errors";
import { IDENTITY_KEY, infoIdentity, readSnapshotInfo, SURVEY_AREA_DATASETS } from "./snapshot-schema";
import { SnapshotFile } from "./snapshot-file";

// The providers' readers name the opened file by this module, the snapshot transport's.
export { SnapshotFile };
import { formOf, type Payload, type QueryKind, type SnapshotForm, type SourceDescription, type Transport } from "./transport";

/** What a client reads when the snapshot cannot answer (the SQLite error goes to the log). */
export const SNAPSHOT_QUERY_FAILED = "The offline snapshot failed to answer this query. The failure was logged; please retry later or report it with the request id.";


/** The labels of a snapshot's datasets, in one order whatever file holds them (a mirror's too): by kind (SSURGO areas before lab collections), then id. */
export function coverageOf(datasets: readonly { kind: string; id: string; label: string }[]): string[] {
  return [...datasets].sort((a, b) => b.kind.localeCompare(a.kind) || a.id.localeCompare(b.id)).map((d) => d.label);
}

export class SnapshotTransport implements Transport {
  readonly kind = "snapshot" as const;
  private readonly file: SnapshotFile;
  private readonly readers = new Map<SnapshotForm<never>, (params: never) => Payload>();
  private readonly description: SourceDescription;

  constructor(readonly path: string) {
    if (!existsSync(path)) throw new Error(`Snapshot database not found at ${path}; build it with 'npm run snapshot:build'.`);
    let db: Database | null = null;
    try {
      db = new Database(path, { readonly: true });
      const info = readSnapshotInfo(db);
      this.file = new SnapshotFile(db);
      this.description = {
        kind: "snapshot",
        location: path,
        builtAt: info.values.get("updated_at") ?? info.values.get("built_at"),
        coverage: coverageOf(info.datasets),
        datasets: info.datasets.map((d) => ({ kind: d.kind, id: d.id, label: d.label, bbox: d.bbox ?? null })),
        // Stored by the build or import that wrote the file; a file from before 0.6.0 has it computed from the same rows (docs/decisions.md#snapshot-identity).
        identity: `snapshot:${info.values.get(IDENTITY_KEY) ?? infoIdentity(db)}`,
        // Each survey area with its polygons' box, as its importer stated it (for the "no map unit here" / "outside this snapshot" warnings).
        areas: info.datasets.flatMap((d) => (d.kind === SURVEY_AREA_DATASETS && d.bbox ? [{ symbol: d.id, bbox: d.bbox }] : [])).sort((a, b) => a.symbol.localeCompare(b.symbol)),
      };
    } catch (error) {
      db?.close();
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`Snapshot database ${path} is corrupt or not a Loam snapshot (${reason}); rebuild it with 'npm run snapshot:build'.`);
    }
  }

  async fetch<P>(query: QueryKind<P, unknown>, params: P): Promise<Payload> {
    const form = formOf<SnapshotForm<P>, P>(query, "snapshot", "offline snapshot");
    try {
      let reader = this.readers.get(form as SnapshotForm<never>) as ((params: P) => Payload) | undefined;
      if (!reader) {
        reader = form.prepare(this.file);
        this.readers.set(form as SnapshotForm<never>, reader as (params: never) => Payload);
      }
      return reader(params);
    } catch (error) {
      if (error instanceof LoamError) throw error;
      // SQLite's text names Loam's storage, not the request: the client gets a fixed message, the log the detail.
      throw new UpstreamError(SNAPSHOT_QUERY_FAILED).withDetail(`snapshot query ${query.kind} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  describe(): SourceDescription {
    return this.description;
  }

  close(): void {
    this.file.db.close();
  }
}
