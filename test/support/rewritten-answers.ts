/**
 * The snapshot answering in SDA's wire shape, except that one query kind's rows are rewritten: real
 * column names, types and values, arranged as a test needs (many map units, hostile texts, far too
 * many rows). Served to Loam through the fake SDA.
 */
import type { SnapshotTransport } from "../../src/upstream/snapshot";
import { Payload, type Transport } from "../../src/upstream/transport";

export type Rows = (string | null)[][];

/** `rewrite` gets the rows of a `kind` answer and its params, and returns the rows to send (null: the answer as it is). */
export function rewritingRows(snapshot: SnapshotTransport, kind: string, rewrite: (rows: Rows, params: unknown) => unknown[][] | null): Transport {
  return {
    kind: "snapshot",
    describe: () => snapshot.describe(),
    async fetch(query, params) {
      const payload = await snapshot.fetch(query, params);
      if (query.kind !== kind) return payload;
      const [names, metadata, ...rows] = (payload.json() as { Table: Rows }).Table;
      const out = rewrite(rows, params);
      return out === null ? payload : Payload.ofText(JSON.stringify({ Table: [names, metadata, ...out] }));
    },
  };
}
