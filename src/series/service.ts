/**
 * Series descriptions: a series key → the series provider's description (cache → transport) → the
 * answer, with provenance and warnings. Works with any provider of role `series`; knows nothing of HTTP.
 */
import { cacheMetadata, describeCache, sourceWarnings, type DataAnswer, type DataDeps } from "../answer";
import type { Ask, OperationalProvider, SeriesProvider } from "../providers/provider";
import { VERSION } from "../version";
import type { SeriesResponse } from "../domain/series";

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
