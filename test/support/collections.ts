/**
 * The OGC collections a registry's providers make, derived here from the registry by the rule of
 * docs/decisions.md#provider-links (not from src/collections, which it checks): one per operational
 * provider of map-unit polygons, laboratory pedons, sample sites and sensor stations, in that order of
 * roles; a role's default (its first provider) under the role's collection id, the others after it
 * under their provider ids, in registry order.
 */
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import type { OperationalProvider, Provider } from "../../src/providers/provider";

const ROLE_COLLECTIONS: readonly [string, string, (p: OperationalProvider) => boolean][] = [
  ["mapunits", "mapped_location", (p) => p.role === "mapped_location" && p.mapUnitPolygons !== undefined],
  ["pedons", "lab_pedons", (p) => p.role === "lab_pedons"],
  ["geochem_sites", "sample_sites", (p) => p.role === "sample_sites"],
  ["stations", "site_series", (p) => p.role === "site_series"],
];

export function expectedCollections(providers: readonly Provider[] = DEFAULT_PROVIDERS): string[] {
  const operational = providers.filter((p): p is OperationalProvider => p.role !== "planned");
  return ROLE_COLLECTIONS.flatMap(([id, role, serves]) => {
    const first = operational.find((p) => p.role === role);
    const served = operational.filter(serves);
    return [...served.filter((p) => p === first).map(() => id), ...served.filter((p) => p !== first).map((p) => p.id)];
  });
}
