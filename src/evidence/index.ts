/** GET /v1/soil/evidence: every source's evidence at one point, side by side (docs/decisions.md#evidence). */
import { Elysia } from "elysia";
import { documentedRoute, UPSTREAM_ERRORS } from "../http/openapi";
import { strictQuery } from "../http/query";
import type { Send } from "../http/response";
import { checkDepthInterval, type DataDeps } from "../answer";
import { effectivePoint } from "../shapes/point_values/service";
import { EvidenceQueryParams, EvidenceResponse } from "./model";
import { EVIDENCE_NEAREST, EVIDENCE_RADIUS_KM, evidenceAtPoint } from "./service";
import { EVIDENCE_TABLE } from "./table";

export interface EvidenceRouteDeps extends DataDeps {
  send: Send;
}

const evidenceQuery = strictQuery(EvidenceQueryParams);

export function evidence(deps: EvidenceRouteDeps) {
  return new Elysia({ name: "loam.evidence" }).get(
    "/v1/soil/evidence",
    async ({ query, request, set }) => {
      const read = evidenceQuery.queryOf(query);
      // The point query's bounds and refusals: the same schema pieces, the same interval check and property reader.
      checkDepthInterval(read.depth_top_cm, read.depth_bottom_cm);
      const effective = { ...effectivePoint(read, {}, read.properties), radius_km: EVIDENCE_RADIUS_KM, nearest: EVIDENCE_NEAREST };
      return deps.send(await evidenceAtPoint(deps, effective), request, set, EVIDENCE_TABLE);
    },
    {
      transform: evidenceQuery.transform,
      query: EvidenceQueryParams,
      ...documentedRoute({
        operationId: "getSoilEvidence",
        tag: "soil",
        summary: "Every source's evidence at one WGS84 point, side by side",
        description: `Each registered source at the point, keyed by provider id: the mapped survey's map unit and components, the modeled cell's values with their interval, the nearest lab pedons, geochemistry sample sites and sensor stations within ${EVIDENCE_RADIUS_KM} km (at most ${EVIDENCE_NEAREST} each, geodesic distance), and the series descriptions of the survey's components; each keeps its own provider, data_kind, provenance and warnings. Then per property a comparison on the GlobalSoilMap depths (0-5, 5-15, 15-30, 30-60, 60-100, 100-200 cm, clipped to the interval): the survey's component-weighted value, the model's mean and interval, the nearest pedon's depth-weighted value, each with its distance and how it was derived, never averaged across sources. A source whose upstream fails or whose budget is spent is left out with a warning naming it; the rest answers. Example: /v1/soil/evidence?latitude=41.944131&longitude=-94.359608&properties=clay,ph`,
        ok: [EvidenceResponse, "The sources' evidence, the comparison, cache metadata and warnings."],
        errors: {
          422: ["ErrorResponse", "A parameter violates its rules (code validation_error); the message names the parameter and the rule."],
          ...UPSTREAM_ERRORS,
          502: ["ErrorResponse", "No source could answer, and the first failed (code upstream_error or upstream_unreachable, naming it); retryable. A source that fails while others answer is left out with a warning (200)."],
          503: ["ErrorResponse", "No source could answer, and the first's upstream call budget is spent (code upstream_budget_exhausted; see Retry-After) or Loam was too busy to finish its exchange (code internal_error); retryable."],
          504: ["ErrorResponse", "No source could answer, and the first gave no complete answer in time (code upstream_timeout, naming it); retryable."],
        },
        etag: true,
        csv: "one row per source, property and depth",
      }),
    },
  );
}
