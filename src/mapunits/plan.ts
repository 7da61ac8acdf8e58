/**
 * The summary parameters of the polygon collections, read once for both routes that take them
 * (GET /v1/soil/mapunits and the OGC `mapunits` items): POLYGON_SUMMARY_PARAMETERS in, a checked
 * summary plan out. A new summary option is one more parameter there and one more line here.
 */
import { ValidationError } from "../errors";
import { checkDepthInterval } from "../answer";
import { clip } from "../errors";
import { parseProperties } from "../catalog/properties-param";
import type { PointProvider } from "../providers/provider";
import { parseMethod, planSummaries, type SummaryPlan } from "../aggregation/plan";
import { summaryOptions } from "../aggregation/options";

export interface PolygonSummaryParams {
  property: string;
  properties: string;
  method: string;
  depth_top_cm: number;
  depth_bottom_cm: number;
  include_minors?: string;
  miscellaneous_areas?: string;
}

export interface PolygonSummaries {
  plan: SummaryPlan | null;
  /** The one property of `property` (its features carry `summary`), else null. */
  property: string | null;
  /** Every summarized property id, in order. */
  properties: string[];
  /** The method for every property: the explicit one, or the one property's default; null otherwise. */
  method: string | null;
}

export function readPolygonSummaries(read: PolygonSummaryParams, provider: PointProvider): PolygonSummaries {
  checkDepthInterval(read.depth_top_cm, read.depth_bottom_cm);
  const single = read.property.trim();
  const list = read.properties.trim();
  if (single !== "" && list !== "") throw new ValidationError("Give 'property' or 'properties', not both.");
  const method = parseMethod(read.method);
  const requested = single !== "" ? [single] : list !== "" ? parseProperties(list) : [];
  if (requested.length === 0) {
    if (method !== null) throw new ValidationError("Query parameter 'method' needs a 'property' (or 'properties') to summarize.");
    return { plan: null, property: null, properties: [], method: null };
  }
  if (!provider.mapUnits) throw new ValidationError(`Provider '${provider.id}' has no map-unit summaries; leave out 'property' and 'properties'.`, provider.id);
  const plan = planSummaries(provider.mapUnits.properties, requested, method, { top_cm: read.depth_top_cm, bottom_cm: read.depth_bottom_cm }, summaryOptions(read));
  if (plan.unsupported.length > 0) {
    throw new ValidationError(
      single !== ""
        ? `Query parameter 'property' must be a property map-unit summaries answer (GET /v1/properties); got '${clip(single)}'.`
        : `Query parameter 'properties' names ${plan.unsupported.map((id) => `'${id}'`).join(", ")}, which map-unit summaries do not answer; they answer ${provider.mapUnits.properties.map((p) => p.id).join(", ")}.`,
    );
  }
  const methods = [...new Set(plan.summaries.map((s) => s.method))];
  return {
    plan,
    property: single !== "" ? plan.summaries[0]!.property.id : null,
    properties: plan.summaries.map((s) => s.property.id),
    method: method ?? (methods.length === 1 ? methods[0]! : null),
  };
}
