/**
 * Which provider a request names, the same way on every data route: a `provider` parameter, a
 * `providers` list of exactly one, or a path id. Each route says which providers fit it and how it
 * refuses the others; the order of the checks (unknown, planned, another role) and their statuses
 * are shared (docs/architecture.md#providers).
 */
import { clip, LoamError, ProviderNotOperationalError, UnknownProviderError, ValidationError } from "../errors";
import type { OperationalProvider, Provider, ProviderRole } from "../providers/provider";
import { defaultProviderId, type Registry } from "../providers/registry";


export interface ProviderFit<P extends OperationalProvider> {
  /** Whether the route can use this operational provider. */
  fits(provider: OperationalProvider): provider is P;
  /** The 422 message for an operational provider that does not fit; `fitting` names the registered providers that do. */
  refusal(provider: OperationalProvider, fitting: readonly string[]): string;
  /** The error for a name no provider has; an UnknownProviderError (404) unless the route documents otherwise. */
  unknown?(name: string): LoamError;
}

/**
 * What each role serves and the endpoint that serves it: every refusal of a provider a route cannot
 * use is written from this one table. A new role is one entry here (docs/architecture.md#providers).
 */
export const ROLE_ENDPOINTS: Readonly<Record<Exclude<ProviderRole, "planned">, { serves: string; use: string }>> = {
  mapped_location: { serves: "mapped survey values for a point", use: "GET /v1/soil/location" },
  lab_pedons: { serves: "laboratory pedons", use: "GET /v1/pedons?bbox=..." },
  series: { serves: "series descriptions", use: "GET /v1/series/{name}" },
  sample_sites: { serves: "geochemistry sample sites", use: "GET /v1/geochem/sites?near=latitude,longitude" },
  point_values: { serves: "modeled values for a point", use: "GET /v1/soil/modeled" },
  site_series: { serves: "sensor stations and their time series", use: "GET /v1/stations?bbox=..." },
};

/**
 * A route's fit: the providers of `role` that have what it needs (`has`, default all of them);
 * `wanted` says what the route serves and `where` names the parameter, for the one refusal message.
 */
export function fitFor<R extends keyof typeof ROLE_ENDPOINTS, P extends Extract<OperationalProvider, { role: R }>>(
  role: R,
  wanted: string,
  where: string,
  has: (provider: Extract<OperationalProvider, { role: R }>) => boolean = () => true,
): ProviderFit<P> {
  return {
    fits: (provider): provider is P => provider.role === role && has(provider as Extract<OperationalProvider, { role: R }>),
    refusal: (provider, fitting) => {
      const served = ROLE_ENDPOINTS[provider.role];
      const instead = fitting.length > 0 ? ` (${fitting.join(" and ")} ${fitting.length === 1 ? "serves" : "serve"} it)` : "";
      return provider.role === role
        ? `${where} names '${provider.id}', which serves ${served.serves} but not ${wanted}${instead}.`
        : `${where} names '${provider.id}', which serves ${served.serves}, not ${wanted}${instead}; use ${served.use} for it.`;
    },
  };
}

/** The provider of a name: unknown as `fit.unknown` says, planned 409, one that does not fit 422. */
export function resolveProvider<P extends OperationalProvider>(registry: Registry, name: string, fit: ProviderFit<P>): P {
  const provider = registry.find(name);
  if (provider === undefined) throw fit.unknown ? fit.unknown(name) : new UnknownProviderError(clip(name));
  if (provider.role === "planned") throw new ProviderNotOperationalError(provider.id);
  if (!fit.fits(provider)) throw new ValidationError(fit.refusal(provider, registry.operational.filter((p) => fit.fits(p)).map((p) => p.id)), provider.id);
  return provider;
}

/**
 * The registry's default provider of a role (a request that names none), or a 409 naming the provider
 * a full registry would answer from: a registry without it serves the role no more than a planned one.
 */
export function defaultProvider<R extends ProviderRole>(registry: Registry, role: R): Extract<Provider, { role: R }> {
  const provider = registry.defaultFor(role);
  if (!provider) throw new ProviderNotOperationalError(defaultProviderId(role));
  return provider;
}

/** The one name of a `providers` list: exactly one non-empty item, else a 422. */
export function oneProviderName(raw: string): string {
  const items = raw.split(",").map((item) => item.trim());
  const given = items[0] ?? "";
  if (items.length !== 1 || given === "") {
    throw new ValidationError(`Query parameter 'providers' must name exactly one mapped-location provider (GET /v1/providers lists them); got ${items.length}.`);
  }
  return given;
}

/** The 422 of a `providers` list naming an unknown provider (the list parameters document 422, not 404). */
export const unknownInProviders = (name: string): LoamError =>
  new ValidationError(`Query parameter 'providers' names an unknown provider '${clip(name)}'; GET /v1/providers lists them.`);

/**
 * What a link adds so that following it reaches the provider that answered: `provider=<id>` (after
 * `join`: "?" or "&"), or nothing when that provider is its role's default, so the default's links stay
 * as they were (docs/decisions.md#provider-links).
 */
export function providerQuery(registry: Registry, provider: OperationalProvider, join: "?" | "&" = "?"): string {
  return registry.defaultFor(provider.role)?.id === provider.id ? "" : `${join}provider=${encodeURIComponent(provider.id)}`;
}

/**
 * What a route's text adds about the providers of its role besides the default, each by its short name
 * and how to ask it (` Also: Fixture stations (provider=fixture_stations).`); "" when the default is the
 * only one. Route texts name the default by its short name; this names every other (docs/decisions.md#provider-words).
 */
export function otherProviders(registry: Registry, role: ProviderRole, parameter = "provider", fits: (provider: OperationalProvider) => boolean = () => true): string {
  const first = registry.defaultFor(role);
  const others = registry.operational.filter((p) => p.role === role && p !== first && fits(p));
  return others.length === 0 ? "" : ` Also: ${others.map((p) => `${p.shortName} (${parameter}=${p.id})`).join(", ")}.`;
}

/**
 * The id of a provider's OGC collection: `roleId` (the collection's id clients know, e.g. `stations`)
 * for its role's default, else the provider's own id (docs/decisions.md#provider-links).
 */
export function collectionIdOf(registry: Registry, provider: OperationalProvider, roleId: string): string {
  return registry.defaultFor(provider.role)?.id === provider.id ? roleId : provider.id;
}
