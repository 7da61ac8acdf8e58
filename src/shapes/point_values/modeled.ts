/**
 * GET /v1/soil/modeled's way through the point_values shape (docs/architecture.md#shapes): a point_values
 * provider is asked for the served properties at its depths overlapping the interval (none served: a 422,
 * there is nothing to ask upstream), method=weighted_average derives one observation per property, and
 * its raw answer says what an offline payload is.
 */
import type { Static } from "elysia";
import { staleWarnings, unsupportedWarnings, type DataAnswer, type DataDeps } from "../../answer";
import type { RawLocationQuery } from "../../answer/raw-location";
import { ValidationError } from "../../errors";
import type { PointValuesProvider, PointValuesReading } from "../../providers/provider";
import type { GridObservation } from "../../domain/observation";
import type { ModeledQuery, ModeledResponse } from "./model";
import { AVERAGE_WARNING, weightedAverages } from "./average";
import { rawValuesAtPoint, valuesAtPoint, type PointQuery, type PointValuesRoute } from "./service";

/** The raw route's word on a snapshot answer of a provider that says nothing more of its own. */
const OFFLINE_RAW_NOTE = "In snapshot mode this payload is what the offline snapshot holds for the point, not a live answer.";

export type EffectiveModeledQuery = Static<typeof ModeledQuery>;

/** The asked properties the provider serves; none is a 422 (nothing to ask upstream). */
function servedOf(provider: PointValuesProvider, properties: readonly string[]): string[] {
  const served = new Set(provider.columns.map((c) => c.property));
  const asked = properties.filter((p) => served.has(p));
  if (asked.length === 0) {
    throw new ValidationError(`Query parameter 'properties' names none of the properties ${provider.id} serves (${[...served].join(", ")}).`, provider.id);
  }
  return asked;
}

/** The route's query and the raw route's (the spec's LocationQuery, no method: answered as method=none). */
type ModeledRouteQuery = PointQuery & { method?: EffectiveModeledQuery["method"] };

const MODELED: PointValuesRoute<PointValuesProvider, ModeledRouteQuery, PointValuesReading<Static<typeof GridObservation>>, object> = {
  name: "modeled",
  path: "/v1/soil/modeled",
  seam: (provider) => ({ part: provider.pointValues, params: (asked) => asked, read: (answer, context) => provider.pointValues.read(answer, context) }),
  asked: (provider, query) => servedOf(provider, query.properties),
  derive: (reading, query) => {
    if (query.method !== "weighted_average") return null;
    const averaged = weightedAverages(reading.observations, query.depth_top_cm, query.depth_bottom_cm);
    return { observations: averaged.observations, warnings: [AVERAGE_WARNING, ...averaged.warnings] };
  },
  sourceWarnings: (_source, cache) => staleWarnings(cache),
  rawWarnings: (provider, query, source, cache) => [
    ...(source.kind === "snapshot" ? [provider.pointValues.offlineNote ?? OFFLINE_RAW_NOTE] : []),
    ...unsupportedWarnings(provider, query.properties),
    ...staleWarnings(cache),
  ],
};

export function modeledAtPoint(deps: DataDeps, provider: PointValuesProvider, query: EffectiveModeledQuery): Promise<DataAnswer<Static<typeof ModeledResponse>>> {
  return valuesAtPoint(deps, provider, MODELED, query);
}

/** The spec's raw wrapper around the provider's own answer (offline: the cells and the clips' metadata). */
export function rawModeled(deps: DataDeps, provider: PointValuesProvider, query: RawLocationQuery): Promise<DataAnswer<unknown>> {
  return rawValuesAtPoint(deps, provider, MODELED, query);
}
