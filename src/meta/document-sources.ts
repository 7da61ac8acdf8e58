/**
 * The sources the OpenAPI document's own texts name (docs/decisions.md#provider-words), read from the
 * registry: each operational provider's short name, and the default provider of each endpoint family
 * whose routes answer from one role.
 */
import type { DocumentSources } from "../http/openapi";
import type { ProviderRole } from "../providers/provider";
import type { Registry } from "../providers/registry";

/** Endpoint family (src/http/endpoint-families.ts) → the role its routes answer from. */
const FAMILY_ROLES: Readonly<Record<string, ProviderRole>> = { soil: "mapped_location", pedons: "lab_pedons", series: "series", geochem: "sample_sites" };

export function documentSources(registry: Registry): DocumentSources {
  const families: Record<string, string> = {};
  for (const [family, role] of Object.entries(FAMILY_ROLES)) {
    const provider = registry.defaultFor(role);
    if (provider) families[family] = provider.shortName;
  }
  return { names: registry.operational.map((p) => p.shortName), families };
}
