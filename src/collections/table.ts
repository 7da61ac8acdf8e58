/**
 * The OGC collections Loam serves, derived per provider from the app's registry (docs/decisions.md#ogc-api-features):
 * every registered provider of a sites or polygons role is its own collection, in the order
 * /ogc/collections lists them: by kind below, each role's default provider first under the kind's own id
 * (`mapunits`, `pedons`, `geochem_sites`, `stations`, as clients know them), every other provider of the
 * role under its provider id, in registry order. One line per kind.
 */
import type { Registry } from "../providers/registry";
import type { OperationalProvider, PedonProvider, PointProvider, SampleSiteProvider, StationProvider } from "../providers/provider";
import { collectionIdOf, providerQuery } from "../answer/providers";
import type { CollectionEntry, ServedBy } from "./entries";
import { geochemSitesCollection } from "./geochem-entry";
import { mapUnitsCollection } from "./mapunits-entry";
import { pedonsCollection } from "./pedons-entry";
import { stationsCollection } from "./stations-entry";

/** A kind of collection: the id of its role's default provider's collection, which providers it serves, and its entry. */
interface CollectionKind<P extends OperationalProvider> {
  id: string;
  serves(provider: OperationalProvider): provider is P;
  entry(served: ServedBy<P>): CollectionEntry;
}

const kind = <P extends OperationalProvider>(k: CollectionKind<P>) => k as CollectionKind<OperationalProvider>;

const KINDS: readonly CollectionKind<OperationalProvider>[] = [
  kind({ id: "mapunits", serves: (p): p is PointProvider => p.role === "mapped_location" && p.mapUnitPolygons !== undefined, entry: mapUnitsCollection }),
  kind({ id: "pedons", serves: (p): p is PedonProvider => p.role === "lab_pedons", entry: pedonsCollection }),
  kind({ id: "geochem_sites", serves: (p): p is SampleSiteProvider => p.role === "sample_sites", entry: geochemSitesCollection }),
  kind({ id: "stations", serves: (p): p is StationProvider => p.role === "site_series", entry: stationsCollection }),
];

const derived = new WeakMap<Registry, readonly CollectionEntry[]>();

/** Every collection of a registry's providers, made once per registry. */
export function collectionsOf(registry: Registry): readonly CollectionEntry[] {
  let entries = derived.get(registry);
  if (entries === undefined) {
    entries = KINDS.flatMap((k) => {
      const providers = registry.operational.filter(k.serves);
      const ids = providers.map((provider) => collectionIdOf(registry, provider, k.id));
      // The default's collection first, then the others in registry order.
      const order = providers.map((_, i) => i).sort((a, b) => Number(ids[b] === k.id) - Number(ids[a] === k.id) || a - b);
      return order.map((i) => k.entry({ id: ids[i]!, provider: providers[i]!, linkQuery: providerQuery(registry, providers[i]!) }));
    });
    derived.set(registry, entries);
  }
  return entries;
}
