/**
 * Every provider Loam knows, in catalog order: one registration line each (docs/architecture.md#providers).
 * `createApp({ providers })` may serve another list (tests add a fixture provider this way).
 */
import type { SettingDeclaration } from "../config";
import type { OperationalProvider, Provider, ProviderRole, SnapshotStep } from "./provider";
import { usdaSsurgo } from "./usda_ssurgo";
import { usdaKssl } from "./usda_kssl";
import { usdaOsd } from "./usda_osd";
import { usgsGeochem } from "./usgs_geochem";
import { isricSoilgrids } from "./isric_soilgrids";
import { usdaScan } from "./usda_scan";
import { PLANNED_PROVIDERS } from "./planned";

export const DEFAULT_PROVIDERS: readonly Provider[] = [usdaSsurgo, usdaKssl, usdaOsd, usgsGeochem, isricSoilgrids, usdaScan, ...PLANNED_PROVIDERS];

/**
 * The provider a route of this role answers from when a request names none: the role's first provider
 * in DEFAULT_PROVIDERS (so the spec's defaults, usda_ssurgo and usda_kssl, are declared by the order above).
 * The routes' models show it as their parameter's default; at run time `Registry.defaultFor` decides.
 */
export function defaultProviderId(role: ProviderRole): string {
  const provider = DEFAULT_PROVIDERS.find((p) => p.role === role);
  if (!provider) throw new Error(`No registered provider of role '${role}'.`);
  return provider.id;
}

export interface Registry {
  readonly all: readonly Provider[];
  /** The provider of an id or alias (case-sensitive); undefined when unknown. */
  find(idOrAlias: string): Provider | undefined;
  /** The first operational provider of a role: the default when a request names none. */
  defaultFor<R extends ProviderRole>(role: R): Extract<Provider, { role: R }> | undefined;
  /** Providers that answer data requests. */
  readonly operational: readonly OperationalProvider[];
}

export function createRegistry(providers: readonly Provider[] = DEFAULT_PROVIDERS): Registry {
  const byName = new Map<string, Provider>();
  for (const provider of providers) {
    for (const name of [provider.id, ...provider.aliases]) {
      if (byName.has(name)) throw new Error(`Provider name '${name}' is registered twice.`);
      byName.set(name, provider);
    }
  }
  const operational = providers.filter((p): p is OperationalProvider => p.role !== "planned");
  return {
    all: providers,
    operational,
    find: (idOrAlias) => byName.get(idOrAlias),
    defaultFor: <R extends ProviderRole>(role: R) => providers.find((p): p is Extract<Provider, { role: R }> => p.role === role),
  };
}

/** Every configuration variable the providers declare, for the one config reader and --help. */
export function providerSettings(providers: readonly Provider[] = DEFAULT_PROVIDERS): SettingDeclaration[] {
  return providers.flatMap((provider) => provider.settings ?? []);
}

/** The providers' own snapshot steps, in registry order (the snapshot build runs each). */
export function snapshotSteps(providers: readonly Provider[] = DEFAULT_PROVIDERS): { id: string; step: SnapshotStep }[] {
  return providers.flatMap((provider) => ("snapshot" in provider && provider.snapshot ? [{ id: provider.id, step: provider.snapshot }] : []));
}
