/**
 * GET /v1/soil/evidence (docs/decisions.md#evidence): every source the registry serves, asked at one
 * point at the same time through its own feature's service (./sources.ts), side by side, and the
 * comparison on the standard depths (./comparison.ts). A source whose upstream fails or whose budget
 * is spent is left out with a warning naming it, and the rest answers; its refusal is no answer to
 * keep, so the whole answer's lifetime is then 0. Knows nothing of HTTP: it returns a DataAnswer.
 */
import type { CacheDescriptor, DataAnswer, DataDeps } from "../answer";
import { cacheMetadata } from "../answer";
import { combinedCache } from "../answer/whole-table";
import { LoamError } from "../errors";
import type { MapUnitProvider } from "../aggregation/plan";
import type { OperationalProvider } from "../providers/provider";
import { VERSION } from "../version";
import { compare, noInputs } from "./comparison";
import type { EffectiveEvidenceQuery, EvidenceResponse, SourceEvidence } from "./model";
import { model, pedons, sampleSites, sensorStations, seriesDescriptions, survey, type Gathered } from "./sources";

/** How far the located sources are searched, km, and how many of each are listed. */
export const EVIDENCE_RADIUS_KM = 50;
export const EVIDENCE_NEAREST = 3;

const EVIDENCE_WARNING =
  "Each source answers for what it describes (a map unit's components, a model's grid cell, a pedon, a sample site or a station at its own distance); the values are set side by side, never averaged across sources, and each cell says how it was derived.";

type Outcome = { provider: OperationalProvider; gathered: Gathered } | { provider: OperationalProvider; leftOut: string; error: LoamError };

/** A source that cannot answer now (its upstream failed or timed out, its budget is spent) is left out; anything else is the request's error. */
async function settle(provider: OperationalProvider, gather: () => Promise<Gathered>): Promise<Outcome> {
  try {
    return { provider, gathered: await gather() };
  } catch (error) {
    if (error instanceof LoamError && error.status >= 500) return { provider, leftOut: `${provider.id} (${provider.shortName}) is left out of this answer: ${error.message}`, error };
    throw error;
  }
}

/**
 * Every registered provider of each role the route covers, in the registry's order, with the gatherer
 * that asks it: each provider is first-class, not only the role's default (docs/decisions.md#provider-links).
 */
function gatherers(deps: DataDeps, query: EffectiveEvidenceQuery): { provider: OperationalProvider; run: () => Promise<Gathered> }[] {
  const out: { provider: OperationalProvider; run: () => Promise<Gathered> }[] = [];
  for (const provider of deps.registry.operational) {
    switch (provider.role) {
      case "mapped_location":
        out.push({ provider, run: () => survey(deps, provider, query) });
        break;
      case "point_values":
        out.push({ provider, run: () => model(deps, provider, query) });
        break;
      case "lab_pedons":
        out.push({ provider, run: () => pedons(deps, provider, query) });
        break;
      case "sample_sites":
        out.push({ provider, run: () => sampleSites(deps, provider, query) });
        break;
      case "site_series":
        out.push({ provider, run: () => sensorStations(deps, provider, query) });
        break;
      case "series":
        break; // asked after the survey, whose components it describes
    }
  }
  return out;
}

export async function evidenceAtPoint(deps: DataDeps, query: EffectiveEvidenceQuery): Promise<DataAnswer<EvidenceResponse>> {
  const outcomes = await Promise.all(gatherers(deps, query).map(({ provider, run }) => settle(provider, run)));
  // The series descriptions describe the first survey's (registry order) map unit at the point.
  const surveys = outcomes.filter((o) => o.provider.role === "mapped_location");
  const mapUnit = surveys.map((o) => ("gathered" in o ? (o.gathered.mapUnit ?? null) : null)).find((m) => m !== null) ?? null;
  const surveyLeftOut = surveys.length > 0 && surveys.every((o) => "leftOut" in o);
  const described = deps.registry.operational.filter((p) => p.role === "series");
  outcomes.push(...(await Promise.all(described.map((provider) => settle(provider, () => seriesDescriptions(deps, provider, mapUnit, surveyLeftOut))))));
  // No source could answer (the series descriptions only describe the survey's components): there is no
  // evidence to set side by side, so the request fails as its first source did (502/503/504 naming it).
  const failed = outcomes.find((o) => "error" in o);
  if (failed && "error" in failed && !outcomes.some((o) => "gathered" in o && o.provider.role !== "series")) throw failed.error;
  // The registry's order, whichever finished first.
  const order = deps.registry.operational.map((p) => p.id);
  outcomes.sort((a, b) => order.indexOf(a.provider.id) - order.indexOf(b.provider.id));

  const sources: Record<string, SourceEvidence> = {};
  const inputs = noInputs();
  const caches: CacheDescriptor[] = [];
  const leftOut: string[] = [];
  for (const outcome of outcomes) {
    if ("leftOut" in outcome) {
      leftOut.push(outcome.leftOut);
      continue;
    }
    const { provider, gathered } = outcome;
    sources[provider.id] = gathered.evidence;
    caches.push(...gathered.caches);
    if (gathered.mapUnit && "mapUnits" in provider && provider.mapUnits) inputs.surveys.push({ provider: provider as MapUnitProvider, mapUnit: gathered.mapUnit });
    if (gathered.modeled) inputs.models.push({ provider, observations: gathered.modeled });
    if (gathered.pedon) inputs.pedons.push({ provider, ...gathered.pedon });
    if (gathered.evidence.role === "sample_sites") inputs.sites.push({ provider, sites: gathered.evidence.sites });
  }
  const cache = combined(deps, caches, leftOut.length > 0);
  const comparison = compare(query, inputs);
  return {
    key: `evidence|${JSON.stringify(query)}|${outcomes.filter((o) => "leftOut" in o).map((o) => o.provider.id).join(",")}`,
    cache,
    body: () => ({
      api_version: VERSION,
      status: "experimental" as const,
      query,
      sources,
      comparison,
      cache: cacheMetadata(cache, deps.now()),
      warnings: [EVIDENCE_WARNING, ...leftOut],
    }),
  };
}

/** The answers behind the body as one descriptor; a left-out source makes it not worth keeping (lifetime 0). */
function combined(deps: DataDeps, caches: readonly CacheDescriptor[], partial: boolean): CacheDescriptor {
  const now = deps.now();
  const base: CacheDescriptor =
    caches.length === 0
      ? { source: "none", digest: "none", hit: true, storedAt: now, stale: false, staleBecause: undefined, ttlSeconds: deps.cacheTtlSeconds, upstreamMs: 0 }
      : combinedCache(caches, deps.cacheTtlSeconds);
  return partial ? { ...base, ttlSeconds: 0 } : base;
}
