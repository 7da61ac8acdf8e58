/**
 * The spec's raw route (GET /v1/providers/{provider_id}/raw/location) belongs to the point query's
 * feature, but a provider of another shape may answer it too (docs/architecture.md#shapes): that
 * shape's feature hands the route a delegate for its role, and the route asks it for the answer. The
 * route keeps the spec's validation; neither feature imports the other, and no provider is named.
 */
import type { DataAnswer } from "./index";
import type { OperationalProvider, ProviderRole } from "../providers/provider";

/** The effective raw query (the spec's LocationQuery: defaults applied, ids resolved). */
export interface RawLocationQuery {
  latitude: number;
  longitude: number;
  providers: string[];
  properties: string[];
  depth_top_cm: number;
  depth_bottom_cm: number;
}

export interface RawLocationDelegate {
  /** The role whose providers it answers for. */
  role: Exclude<ProviderRole, "planned">;
  /** What the role serves in the raw wrapper, for the route's description of a refusal. */
  answer(provider: OperationalProvider, query: RawLocationQuery): Promise<DataAnswer<unknown>>;
}
