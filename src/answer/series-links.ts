/**
 * The links other answers (map-unit components, pedons) carry to a series description, from the
 * registry's series provider (docs/decisions.md#series). Shared by the features, so it lives in the
 * answer room rather than in the series feature: features never import each other.
 */
import type { DataDeps } from "./index";
import type { Ask, SeriesLinker, SeriesProvider } from "../providers/provider";
import type { SeriesLink } from "../domain/series";

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
