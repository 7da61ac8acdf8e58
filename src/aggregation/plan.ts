/**
 * Planning and computing map-unit summaries with NRCS's rules (docs/decisions.md#summaries): which
 * property takes which method, a map unit read once per cache entry, and its summaries. Shared by the
 * features that summarize (the summary and map-unit routes, the polygon collection, areas and points),
 * so none of them imports another.
 */
import type { Static } from "elysia";
import { ValidationError } from "../errors";
import type { DataDeps } from "../answer";
import type { CachedAnswer } from "../upstream/cache";
import type { SourceDescription } from "../upstream/transport";
import type { MapUnitData, MapUnitRole, PointProvider } from "../providers/provider";
import { PerObject } from "../lru";
import { summarize } from "./aggregate";
import type { DepthInterval } from "../domain/component";
import { assertMethodFits, defaultMethod, SUMMARY_METHODS, type SummaryMethod } from "./methods";
import type { SummaryProperty } from "../domain/summary-property";
import type { PropertySummary } from "./model";
import { DEFAULT_SUMMARY_OPTIONS, type SummaryOptions } from "./options";

/** A mapped-location provider that serves whole map units. */
export type MapUnitProvider = PointProvider & { mapUnits: MapUnitRole };

/** One summary to compute: the property and the method it takes. */
export interface PlannedSummary {
  property: SummaryProperty;
  method: SummaryMethod;
}

export interface SummaryPlan {
  summaries: PlannedSummary[];
  depth: DepthInterval;
  /** Which components count (docs/decisions.md#summary-options). */
  options: SummaryOptions;
  /** Requested ids summaries cannot answer (planned properties, lab-only ones): a warning, not an error. */
  unsupported: string[];
}

/** The `method` parameter: empty for each property's default, else one of the methods. */
export function parseMethod(raw: string): SummaryMethod | null {
  const name = raw.trim();
  if (name === "") return null;
  const method = SUMMARY_METHODS.find((m) => m === name);
  if (!method) {
    throw new ValidationError(`Query parameter 'method' must be one of ${SUMMARY_METHODS.join(", ")}; got '${name.slice(0, 40)}'.`);
  }
  return method;
}

/**
 * What to compute, checked before any upstream call: an explicit method that does not fit a property
 * is a ValidationError (422) naming both. `available` is the provider's `mapUnits.properties`.
 */
export function planSummaries(
  available: readonly SummaryProperty[],
  properties: readonly string[],
  method: SummaryMethod | null,
  depth: DepthInterval,
  options: SummaryOptions = DEFAULT_SUMMARY_OPTIONS,
): SummaryPlan {
  const summaries: PlannedSummary[] = [];
  const unsupported: string[] = [];
  for (const id of properties) {
    const property = available.find((p) => p.id === id);
    if (!property) {
      unsupported.push(id);
      continue;
    }
    if (method !== null) assertMethodFits(property, method);
    summaries.push({ property, method: method ?? defaultMethod(property) });
  }
  return { summaries, depth, options, unsupported };
}

export interface LoadedMapUnit {
  cached: CachedAnswer<unknown>;
  /** Null when the provider knows no map unit of this key. */
  mapUnit: MapUnitData | null;
  source: SourceDescription;
}

/** Each cache entry's map unit, read once: every hit of an entry gets the same decoded answer. */
const readMapUnits = new PerObject<object, MapUnitData | null>();

/** One map unit through the cache; the key must have passed `provider.mapUnits.checkKey`. */
export async function loadMapUnit(deps: DataDeps, provider: MapUnitProvider, mapUnitKey: string): Promise<LoadedMapUnit> {
  const role = provider.mapUnits;
  const cached = await deps.connected.ask(provider, role.query, { mapUnitKey: role.checkKey(mapUnitKey) });
  const source = deps.connected.sourceOf(provider);
  const read = () => role.read(cached.answer, { source, storedAt: cached.storedAt });
  const answer: unknown = cached.answer;
  const mapUnit = typeof answer === "object" && answer !== null ? readMapUnits.of(answer, `${provider.id}|${cached.source}|${cached.storedAt}`, read) : read();
  return { cached, source, mapUnit };
}

/** Each map unit's summaries per plan, made once per read map unit (docs/decisions.md#derived-once). */
const summariesOf = new PerObject<MapUnitData, Static<typeof PropertySummary>[]>();

/** The key of everything a plan's summaries depend on. */
const planInputs = (plan: SummaryPlan) =>
  `${plan.summaries.map((s) => `${s.property.id}:${s.method}`).join(",")}|${plan.depth.top_cm}-${plan.depth.bottom_cm}|${JSON.stringify(plan.options)}`;

/**
 * The summaries of a plan for one map unit, each with its source. Pure; made once per map unit read from
 * a cache entry and plan, so a repeat computes nothing: callers must not change what it returns.
 */
export function summarizeMapUnit(mapUnit: MapUnitData, plan: SummaryPlan): Static<typeof PropertySummary>[] {
  return summariesOf.of(mapUnit, planInputs(plan), () => summarizeNow(mapUnit, plan));
}

function summarizeNow(mapUnit: MapUnitData, plan: SummaryPlan): Static<typeof PropertySummary>[] {
  return plan.summaries.map(({ property, method }) => ({
    ...summarize(mapUnit.components, property, method, plan.depth, plan.options),
    source: {
      provider: mapUnit.provider,
      organization: mapUnit.source.organization,
      retrieved_at: mapUnit.source.retrieved_at,
      original_property_name: `${property.table}.${property.column}`,
      citation: mapUnit.source.citation,
      source_url: mapUnit.source.source_url,
    },
  }));
}

/**
 * One map unit's summaries by key, through the cache: null when the key is unknown. The building block
 * for per-feature summaries (e.g. a map layer's polygons); `plan` comes from `planSummaries`.
 */
export async function summarizeByKey(
  deps: DataDeps,
  provider: MapUnitProvider,
  mapUnitKey: string,
  plan: SummaryPlan,
): Promise<{ loaded: LoadedMapUnit; mapUnit: MapUnitData; summaries: Static<typeof PropertySummary>[] } | null> {
  const loaded = await loadMapUnit(deps, provider, mapUnitKey);
  if (loaded.mapUnit === null) return null;
  return { loaded, mapUnit: loaded.mapUnit, summaries: summarizeMapUnit(loaded.mapUnit, plan) };
}

