import type { LogicalQuery } from "./queries";
import type { UpstreamAnswer } from "./table";

/**
 * Where provider data comes from (DESIGN §2): USDA Soil Data Access, or the embedded snapshot.
 * Failures are thrown as the typed upstream errors of `src/errors.ts`; a source never returns
 * a partial answer.
 */
export interface UpstreamSource {
  readonly kind: "snapshot" | "sda";
  run(query: LogicalQuery): Promise<UpstreamAnswer>;
  /** Human-readable facts for warnings, e.g. the snapshot's build date and coverage. */
  describe(): SourceDescription;
  close?(): void;
}

export interface SourceDescription {
  kind: "snapshot" | "sda";
  /** SDA: the endpoint; snapshot: the database file. */
  location: string;
  /** Snapshot only: when it was built (ISO date-time). */
  builtAt?: string;
  /** Snapshot only: survey areas and lab collections it holds, e.g. "SSURGO IA073 (2020-06-10)". */
  coverage?: string[];
}
