/**
 * Run a provider query by its kind name on a transport and decode the answer, as the app does
 * without the cache: `runQuery(transport, { kind: "ssurgo_point", latitude, longitude })`.
 */
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import type { SdaAnswer } from "../../src/upstream/sda/payload";
import type { QueryKind, Transport } from "../../src/upstream/transport";

export type LogicalQuery = { kind: string } & Record<string, unknown>;

/** Every query kind of the default providers, by name. */
export function queryKind(kind: string): QueryKind<Record<string, unknown>, SdaAnswer> {
  for (const provider of DEFAULT_PROVIDERS) {
    if (provider.role === "planned") continue;
    const query = provider.queries[kind];
    if (query) return query as unknown as QueryKind<Record<string, unknown>, SdaAnswer>;
  }
  throw new Error(`no provider declares the query kind '${kind}'`);
}

export async function runQuery(transport: Transport, { kind, ...params }: LogicalQuery): Promise<SdaAnswer> {
  const query = queryKind(kind);
  return query.decode(await transport.fetch(query, params));
}

/** The T-SQL a logical query sends to Soil Data Access. */
export function sqlFor({ kind, ...params }: LogicalQuery): string {
  const form = queryKind(kind).forms.sda;
  if (!form) throw new Error(`the ${kind} query has no SDA form`);
  return form(params);
}
