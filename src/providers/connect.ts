/**
 * Providers joined to their transports and the cache: the one way a feature gets an upstream answer
 * (provider query → cache → the provider's transport → the query's decoder).
 */
import { LoamError, UpstreamBudgetError, withProvider } from "../errors";
import { currentRequest } from "../request-scope";
import { withBreaker, type BreakerOptions } from "../upstream/breaker";
import type { CachedAnswer, UpstreamCache } from "../upstream/cache";
import { sourceIdentity, type QueryKind, type SourceDescription, type Transport } from "../upstream/transport";
import type { ConnectContext, OperationalProvider, SharedUpstreams } from "./provider";

export interface Connected {
  /** The answer to one of the provider's queries, through the cache. Errors name the provider. */
  ask<P, A>(provider: OperationalProvider, query: QueryKind<P, A>, params: P): Promise<CachedAnswer<A>>;
  /** Where a provider reads (for warnings and provenance). */
  sourceOf(provider: OperationalProvider): SourceDescription;
}

/**
 * The offline snapshot when that is what Loam opened (no Soil Data Access, and the shared transport is a
 * snapshot), else none: a provider whose live source is its own reads the snapshot offline and its own
 * transport otherwise (docs/decisions.md#providers).
 */
export function offlineSnapshot(upstreams: SharedUpstreams): Transport | undefined {
  return !upstreams.sda && upstreams.snapshot?.kind === "snapshot" ? upstreams.snapshot : undefined;
}

export interface ConnectOptions extends ConnectContext {
  cache: UpstreamCache;
  /** Wraps each transport once, e.g. to count upstream calls. */
  instrument?: (transport: Transport) => Transport;
  /** Told of each breaker's openings and fast failures (src/upstream/breaker.ts). */
  onBreakerEvent?: BreakerOptions["onEvent"];
}

/**
 * Remote upstream calls one request may make (docs/decisions.md#upstream-budget). Each call after the
 * first also spends one unit of the client's rate budget, so a request that fans out (a box of many
 * uncached map units) costs what the calls cost the shared public service.
 */
export const MAX_UPSTREAM_CALLS_PER_REQUEST = 64;

/** Count one remote call against the current request's budget and its client's rate budget. */
async function spendUpstreamCall(): Promise<void> {
  const scope = currentRequest();
  if (!scope) return;
  scope.upstreamCalls += 1;
  if (scope.upstreamCalls > MAX_UPSTREAM_CALLS_PER_REQUEST) {
    throw new UpstreamBudgetError(
      `This request needs more than ${MAX_UPSTREAM_CALLS_PER_REQUEST} upstream queries, the most Loam makes for one request; the answers fetched so far are cached, so repeating the request goes further. Narrow the bbox or ask for fewer map units.`,
    );
  }
  if (scope.upstreamCalls > 1 && scope.charge && !(await scope.charge())) {
    throw new UpstreamBudgetError(
      "This request's upstream queries spent the client's rate budget (each upstream query after the first counts as one request); retry after the rate-limit window resets.",
    );
  }
}

export function connectProviders(providers: readonly OperationalProvider[], options: ConnectOptions): Connected {
  const transports = new Map<string, Transport>();
  // One wrapper per underlying transport, so providers that share one (SDA) share its breaker.
  const wrapped = new Map<Transport, Transport>();
  for (const provider of providers) {
    const transport = provider.connect(options);
    let ready = wrapped.get(transport);
    if (!ready) {
      const counted = options.instrument ? options.instrument(transport) : transport;
      // A remote upstream gets a circuit breaker; the snapshot is a local file that fails in
      // microseconds, so failing fast would save nothing (docs/decisions.md#circuit-breaker).
      ready = transport.kind === "snapshot" ? counted : withBreaker(counted, { onEvent: options.onBreakerEvent });
      wrapped.set(transport, ready);
    }
    transports.set(provider.id, ready);
  }
  const transportOf = (provider: OperationalProvider): Transport => {
    const transport = transports.get(provider.id);
    if (!transport) throw new Error(`Provider '${provider.id}' is not connected.`);
    return transport;
  };
  const clock = options.now ?? Date.now;
  /** The lifetime of one answer: the query's own for these parameters (remote transports only), else the transport's. */
  const lifetimeOf = <P, A>(transport: Transport, query: QueryKind<P, A>, params: P): number | undefined =>
    (transport.kind !== "snapshot" ? query.ttlSeconds?.(params, clock()) : undefined) ?? transport.ttlSeconds;
  async function load<P, A>(provider: OperationalProvider, transport: Transport, source: string, name: string, query: QueryKind<P, A>, params: P): Promise<CachedAnswer<A>> {
    try {
      return await options.cache.get(
        provider.id,
        source,
        name,
        async () => {
          // A local snapshot read costs the shared services nothing: only remote calls are counted.
          if (transport.kind !== "snapshot") await spendUpstreamCall();
          const payload = await transport.fetch(query, params);
          return { payload, answer: await query.decode(payload) };
        },
        (payload) => query.decode(payload),
        lifetimeOf(transport, query, params),
      );
    } catch (error) {
      throw error instanceof LoamError ? withProvider(error, provider.id) : error;
    }
  }
  return {
    ask<P, A>(provider: OperationalProvider, query: QueryKind<P, A>, params: P): Promise<CachedAnswer<A>> {
      try {
        const transport = transportOf(provider);
        const source = sourceIdentity(transport.describe());
        const name = `${query.kind}:${query.key(params)}`;
        // A fresh answer remembered in memory is handed over at once: no async call, no store read.
        const kept = options.cache.remembered<A>(provider.id, source, name, lifetimeOf(transport, query, params));
        return kept ? Promise.resolve(kept) : load(provider, transport, source, name, query, params);
      } catch (error) {
        return Promise.reject(error instanceof LoamError ? withProvider(error, provider.id) : error);
      }
    },
    sourceOf: (provider) => transportOf(provider).describe(),
  };
}
