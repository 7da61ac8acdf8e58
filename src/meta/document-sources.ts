/**
 * The sources the OpenAPI document's own texts name (docs/decisions.md#provider-words), read from the
 * registry: each operational provider's short name, and the providers of each endpoint family whose
 * routes answer from one role (its default first).
 */
import type { DocumentSources } from "../http/openapi";
import { FAMILIES } from "../http/endpoint-families";
import type { ProviderRole } from "../providers/provider";
import type { Registry } from "../providers/registry";

export function documentSources(registry: Registry): DocumentSources {
  const families: Record<string, string> = {};
  // Each family's role is in the family table, beside its names (src/http/endpoint-families.ts).
  for (const [family, entry] of Object.entries(FAMILIES)) {
    // Typed here: a role the table misspells fails to compile (http/ cannot name the provider roles).
    const role: ProviderRole | undefined = "role" in entry ? entry.role : undefined;
    // Every provider of the role, the default first (registry order), so a second one is named as well.
    const names = role ? registry.operational.filter((p) => p.role === role).map((p) => p.shortName) : [];
    if (names.length > 0) families[family] = names.join(", ");
  }
  return { names: registry.operational.map((p) => p.shortName), families, observations: observationModels(registry) };
}

/**
 * The one kind of observation a route answers with, where the served providers give one
 * (docs/decisions.md#typed-observations): the point query's providers are mapped surveys (the spec's
 * data_kind mapped_survey), each observation the spec's SoilObservation with survey_context, on the location
 * route and in the evidence route's survey entries (which carry the location route's observations). A registry
 * that also serves another kind there (samples at sites) keeps the union of every kind.
 */
function observationModels(registry: Registry): Record<string, string> {
  const mapped = registry.operational.filter((p) => p.role === "mapped_location");
  return mapped.length > 0 && mapped.every((p) => p.role === "mapped_location" && p.point.dataKind === "mapped_survey") ? { LocationResponse: "SoilObservation", SurveyEvidence: "SoilObservation" } : {};
}
