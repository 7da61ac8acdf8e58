/** Sample sites (`sample_sites`, GET /v1/geochem/sites...): a sites part read with element results. Part of the provider contract (./provider.ts, docs/architecture.md#providers). */
import type { SourceDescription } from "../upstream/transport";
import type { GeochemObservation, GeochemSource } from "../domain/sample-site";
import type { SampleSite } from "../domain/sample-site";
import type { OperationalBase } from "./base";
import type { SitesBoxParams, SitesNearParams, SitesPart } from "./sites";

// ---- sample sites (GET /v1/geochem/sites, /v1/geochem/sites/{site_id}) --------------------------------

/** A page of the sites in a box, in site-id order after the keyset position `after` (the last site id of the previous page, as text). */
export interface SiteBoxParams extends SitesBoxParams {
  /** The one element whose result each site carries (a property id), or null. */
  property: string | null;
  /** Only sites collected on these UTC days, inclusive (null: open end); absent: any date (docs/decisions.md#ogc-api-features). */
  days?: { first: string | null; last: string | null };
}

/** The sites nearest a point, nearest first. */
export interface SiteNearParams extends SitesNearParams {
  property: string | null;
}

export interface SiteParams {
  siteId: number;
}

/** One site of an answer, read: where and when it was sampled, and its results. */
export interface SiteReading {
  site: SampleSite;
  /** One per asked element with a result (a number or a censored result), in the provider's order. */
  observations: GeochemObservation[];
  /** Asked elements with no result (no sample, N.S.), by property id. */
  noSample: string[];
  /** The served unit of each asked element, by property id (also of one with no sample). */
  units: Record<string, string>;
  /** Nearest-site answers: the distance from the asked point, km. */
  distanceKm?: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface SampleSiteProvider<A = any> extends OperationalBase {
  readonly role: "sample_sites";
  /** Sample sites are sites (SitesPart, keyed by site id): `page` reads each with the result of the asked `property`. */
  readonly sites: SitesPart<SiteReading, A, number, SiteBoxParams, SiteNearParams, SiteParams> & {
    /** The property ids it serves, in its order (every site answer's default). */
    properties: readonly string[];
    /** How many sites an inBox answer's query matches, every page together; null where counting is not cheap. */
    matched(answer: A): number | null;
    /** The sites of an answer, in its order, with the results of `properties` (ids it serves). */
    read(answer: A, properties: readonly string[]): SiteReading[];
    /** Where an answer's data came from. */
    source(answer: A, source: SourceDescription): GeochemSource;
    /** The warnings every answer of this provider carries (coverage, sampling design, dates). */
    warnings(answer: A, source: SourceDescription): string[];
    /** The first site's row and the unit row, as {column: cell}, for the raw endpoint. */
    raw(answer: A): { row: Record<string, string>; units: Record<string, string> };
    rawNotes: readonly string[];
    /** What the source says of its methods, said once on a site's answer (measurement_method's caveat). */
    methodNote: string;
    /** What its samples are and where it sampled, in the routes' words: "0-5 cm soil", "the conterminous United States". */
    scope: { samples: string; area: string };
  };
}
