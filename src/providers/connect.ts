/**
 * Providers joined to their transports and the cache: the one way a feature gets an upstream answer
 * (provider query → cache → the provider's transport → the query's decoder).
 */
import { LoamError, withProvider } from "../errors";
import type { CachedAnswer, UpstreamCache } from "../upstream/cache";
import type { QueryKind, SourceDescription, Transport } from "../upstream/transport";
import type { ConnectContext, OperationalProvider } from "./provider";

export interface Connected {
  /** The answer to one of the provider's queries, through the cache. Errors name the provider. */
  ask<P, A>(provider: OperationalProvider, query: QueryKind<P, A>, params: P): Promise<CachedAnswer<A>>;
  /** Where a provider reads (for warnings and provenance). */
  sourceOf(provider: OperationalProvider): SourceDescription;
}

export interface ConnectOptions extends ConnectContext {
  cache: UpstreamCache;
  /** Wraps each transport once, e.g. to count upstream calls. */
  instrument?: (transport: Transport) => Transport;
}

export function connectProviders(providers: readonly OperationalProvider[], options: ConnectOptions): Connected {
  const transports = new Map<string, Transport>();
  for (const provider of providers) {
    const transport = provider.connect(options);
    transports.set(provider.id, options.instrument ? options.instrument(transport) : transport);
  }
  const transportOf = (provider: OperationalProvider): Transport => {
    const transport = transports.get(provider.id);
    if (!transport) throw new Error(`Provider '${provider.id}' is not connected.`);
    return transport;
  };
  return {
    async ask(provider, query, params) {
      const transport = transportOf(provider);
      try {
        return await options.cache.get(
          provider.id,
          `${query.kind}:${query.key(params)}`,
          async () => {
            const payload = await transport.fetch(query, params);
            return { payload, answer: query.decode(payload) };
          },
          (payload) => query.decode(payload),
          transport.ttlSeconds,
        );
      } catch (error) {
        throw error instanceof LoamError ? withProvider(error, provider.id) : error;
      }
    },
    sourceOf: (provider) => transportOf(provider).describe(),
  };
}
