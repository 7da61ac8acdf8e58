/** Laboratory pedons (`lab_pedons`, GET /v1/pedons...): a sites part with a pedon's detail. Part of the provider contract (./provider.ts, docs/architecture.md#providers). */
import type { Static } from "elysia";
import type { QueryKind, SourceDescription } from "../upstream/transport";
import type { LabLayer, PedonFeature } from "../domain/lab";
import type { PedonKey } from "../domain/pedon-key";
import type { AnswerContext, BboxParams, OperationalBase } from "./base";
import type { SitesBoxParams, SitesNearParams, SitesPart } from "./sites";

export interface PedonParams {
  pedonKey: PedonKey;
}

/** The pedons in a box nearest a point (measured there by the source's own approximate order), at most `limit`. */
export interface NearestParams {
  latitude: number;
  longitude: number;
  bbox: [number, number, number, number];
  limit: number;
}

export interface PedonDetailContext extends AnswerContext {
  properties: string[];
  depthTop: number;
  depthBottom: number;
}

export interface PedonDetail {
  pedonKey: string;
  /** The name the pedon was sampled as (else its correlated name); null when it has none. */
  name: string | null;
  location: { latitude: number | null; longitude: number | null; horizontal_accuracy_m: null };
  citation: string;
  sourceUrl: string;
  retrievedAt: string;
  layers: Static<typeof LabLayer>[];
  /** The bottom of the pedon's deepest layer, cm; null when no layer has depths. */
  deepestBottomCm: number | null;
  /** The Soil Taxonomy great group the pedon was classified in (KSSL samp_taxgrtgroup); null where not recorded. */
  greatGroup: string | null;
  warnings: string[];
  /** Warnings that follow the shared source warnings (e.g. how a snapshot dates this provider's data). */
  afterSourceWarnings: string[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface PedonProvider<B = any, D = any> extends OperationalBase {
  readonly role: "lab_pedons";
  /**
   * Pedons are sites (SitesPart): its `key` syntax, `inBox` (features in pedon-key order; `page` says
   * whether more than `limit` exist), `one` (the pedon's layers: an answer of its own, `D`), `where`, `extent`.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly pedons: SitesPart<Static<typeof PedonFeature>, any, PedonKey, SitesBoxParams, SitesNearParams, PedonParams> & {
    /** The great group each listed pedon was sampled as, by pedon key (the list's series-link check); absent where the bbox answer does not say. */
    greatGroups?(answer: B): Map<string, string | null>;
    /**
     * How many located pedons a box holds, where the provider can count cheaply: only through the
     * transports its query has a form for (the OGC collection's numberMatched).
     */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    count?: { query: QueryKind<Pick<BboxParams, "bbox">, any>; read(answer: any): number; /** The source's pedons with no site coordinates (in no box). */ unlocated?(answer: any): number };
    /** What an empty box says about this provider's coverage ("" when nothing to add). */
    coverageNote(source: SourceDescription): string;
    notFoundMessage(key: PedonKey, source: SourceDescription): string;
    detail(answer: D, context: PedonDetailContext): PedonDetail;
    /** The name and great group the pedon was sampled as, read without normalizing its layers (series-link check). */
    sampledAs(answer: D): { name: string | null; greatGroup: string | null };
    /**
     * Where the source can: the pedons in a box nearest a point with their layers, in one query; the list
     * (an answer `page` reads, nearest first) and one pedon's answer (what `detail` reads) are read out of
     * it, so a caller that needs both (the evidence route) makes one upstream call (docs/decisions.md#evidence).
     */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    nearestWithLayers?: { query: QueryKind<NearestParams, any>; list(answer: any): B; one(answer: any, pedonKey: string): D };
    /** The raw endpoint's own notes about what the fixed query reads. */
    rawNotes: readonly string[];
  };
}
