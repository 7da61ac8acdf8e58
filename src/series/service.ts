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
export async function seriesLinker(deps: DataDeps): Promise<SeriesLinker> {
  const provider = deps.registry.defaultFor("series");
  return provider ? provider.series.linker(askOf(deps, provider)) : NO_LINKS;
}

/** Component kinds that name a soil series (SSURGO compkind); a miscellaneous area or a family does not. */
const SERIES_KINDS = new Set(["series", "taxadjunct"]);

/** A map-unit component's link: only a Series or Taxadjunct component is a series. */
export function componentSeries(link: SeriesLinker, component: { component_name: string; component_kind: string | null }): SeriesLink | null {
  return component.component_kind !== null && SERIES_KINDS.has(component.component_kind.toLowerCase()) ? link(component.component_name) : null;
}
