/**
 * Series descriptions: a series key → the series provider's description (cache → transport) → the
 * answer, with provenance and warnings. Works with any provider of role `series`; knows nothing of HTTP.
 * Also the links other answers carry to a description (`seriesLinker`, `componentSeries`).
 */
import { cacheMetadata, describeCache, sourceWarnings, type DataAnswer, type DataDeps } from "../answer";
import type { Ask, OperationalProvider, SeriesLinker, SeriesProvider } from "../providers/provider";
import { VERSION } from "../version";
import type { SeriesLink, SeriesResponse } from "./model";

const askOf =
  (deps: DataDeps, provider: OperationalProvider): Ask =>
  (query, params) =>
    deps.connected.ask(provider, query, params);

export async function seriesDescription(deps: DataDeps, provider: SeriesProvider, key: string): Promise<DataAnswer<SeriesResponse>> {
  const source = deps.connected.sourceOf(provider);
  const described = await provider.series.describe(askOf(deps, provider), key, source, VERSION);
  const cache = describeCache(described.cached, deps.cacheTtlSeconds);
  return {
    key: `series|${provider.id}|${key}`,
    cache,
    body: () => {
      const body = described.body();
      // The provider states its own snapshot provenance; the shared snapshot note speaks of SDA exports.
      const shared = source.kind === "snapshot" ? [] : sourceWarnings(source, cache);
      return { ...body, cache: cacheMetadata(cache, deps.now()), warnings: [...body.warnings, ...shared] };
    },
  };
}

const NO_LINKS: SeriesLinker = () => null;

/**
 * What links a name to its series description, from the registry's series provider: links nothing
 * when there is none, and never fails the answer that asks (docs/decisions.md#series).
 */
export function seriesLinker(deps: DataDeps): SeriesLinker | Promise<SeriesLinker> {
  const provider = deps.registry.defaultFor("series");
  if (!provider) return NO_LINKS;
  // The kept linker is handed over at once (every location and pedon answer asks for it).
  return linkers.get(deps.connected)?.get(provider.id) ?? readLinker(deps, provider);
}

async function readLinker(deps: DataDeps, provider: SeriesProvider): Promise<SeriesLinker> {
  // A linker whose list was read is kept per connected provider: the list a transport answers never
  // changes (a snapshot's series, or none for live), and asking the cache for it again on every
  // location and pedon answer cost a second cache lookup per request. A failed read is not kept.
  let failed = false;
  const ask: Ask = (query, params) =>
    deps.connected.ask(provider, query, params).catch((error: unknown) => {
      failed = true;
      throw error;
    });
  const link = await provider.series.linker(ask);
  if (!failed) {
    let byProvider = linkers.get(deps.connected);
    if (!byProvider) linkers.set(deps.connected, (byProvider = new Map()));
    byProvider.set(provider.id, link);
  }
  return link;
}

/** Kept linkers, per app (its connected providers) and series provider. */
const linkers = new WeakMap<object, Map<string, SeriesLinker>>();

/** Component kinds that name a soil series (SSURGO compkind); a miscellaneous area or a family does not. */
const SERIES_KINDS = new Set(["series", "taxadjunct"]);

/** A map-unit component's link: only a Series or Taxadjunct component is a series. */
export function componentSeries(link: SeriesLinker, component: { component_name: string; component_kind: string | null }): SeriesLink | null {
  return component.component_kind !== null && SERIES_KINDS.has(component.component_kind.toLowerCase()) ? link(component.component_name) : null;
}
