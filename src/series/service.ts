/**
 * Series descriptions: a series key → the series provider's description (cache → transport) → the
 * answer, with provenance and warnings. Works with any provider of role `series`; knows nothing of HTTP.
 * Also the links other answers carry to a description (`seriesLinks`).
 */
import { cacheMetadata, describeCache, sourceWarnings, type DataAnswer, type DataDeps } from "../answer";
import type { Ask, OperationalProvider, SeriesProvider } from "../providers/provider";
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

/**
 * Links to the descriptions of `names` from the default series provider: empty when there is none,
 * and never a failure of the answer that asks (docs/decisions.md#series).
 */
export async function seriesLinks(deps: DataDeps, names: readonly (string | null)[]): Promise<Map<string, SeriesLink>> {
  const provider = deps.registry.defaultFor("series");
  const wanted = [...new Set(names.filter((n): n is string => typeof n === "string" && n !== ""))];
  if (!provider || wanted.length === 0) return new Map();
  return provider.series.links(askOf(deps, provider), wanted);
}
