/**
 * What a provider is to the rest of Loam (docs/architecture.md#providers): one object per provider
 * folder, behind this interface, one file per shape (docs/architecture.md#providers: what a provider of
 * each shape writes; the fixture providers of test/fixtures are the shortest templates). Features ask the registry for "the provider of this role" and use
 * only what its role declares; they never name SSURGO or KSSL.
 *
 * A provider declares:
 * - its catalog record and aliases (GET /v1/providers);
 * - its column table: which upstream column answers which canonical property, in what unit, with
 *   what meaning and method column (the SELECTs, the normalizer and `supported_properties` are
 *   generated from it, docs/decisions.md#column-tables);
 * - its logical queries (`QueryKind`: columns, one form per transport, decoder);
 * - how it reaches its upstream (`connect`: the shared snapshot or SDA transport, or its own);
 * - what its role needs (a point answer normalized to observations; pedons in a box and one pedon).
 */
import type { ProviderBase } from "./base";
import type { PointProvider } from "./mapped";
import type { PedonProvider } from "./pedons";
import type { SeriesProvider } from "./descriptions";
import type { SampleSiteProvider } from "./sample-sites";
import type { PointValuesProvider } from "./point-values";
import type { StationProvider } from "./site-series";

// The contract, one file per shape: what every provider declares (base), and each role's part.
export type * from "./base";
export type * from "./sites";
export type * from "./mapped";
export type * from "./pedons";
export type * from "./descriptions";
export type * from "./sample-sites";
export type * from "./point-values";
export type * from "./site-series";

export type ProviderRole = Provider["role"];

/** Listed in the catalog; serves no data yet. */
export interface PlannedProvider extends ProviderBase {
  readonly role: "planned";
}

export type Provider = PointProvider | PedonProvider | SeriesProvider | SampleSiteProvider | PointValuesProvider | StationProvider | PlannedProvider;
export type OperationalProvider = Exclude<Provider, PlannedProvider>;
