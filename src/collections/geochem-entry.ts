/**
 * The OGC `geochem_sites` collection (and one per other sample_sites provider): one provider's sample
 * sites as points with flat typed properties (docs/decisions.md#ogc-api-features). Any box inside WGS84 is
 * accepted and paged by site id (docs/decisions.md#ogc-api-features). With properties=arsenic,lead each site carries, per
 * element, `<id>` (the value, a Real; null when censored or not sampled), `<id>_reported_value` (the
 * file's cell: '<1' for a censored result, 'N.S.' for no sample) and `<id>_unit`: the censored value
 * is never replaced by its limit (docs/decisions.md#geochem).
 */
import type { DataDeps } from "../answer";
import { elements, geochemSiteFlat, geochemSitesPage, type FlatElementResult, type FlatSiteFeature } from "../geochem/service";
import { GeochemSiteFeatureProperties } from "../geochem/model";
import { ValidationError } from "../errors";
import { sitesCollection } from "./sites-entry";
import { flatFields } from "./flat-fields";
import type { SampleSiteProvider, SiteReading } from "../providers/provider";
import type { FlatProperties, Item, ItemParams, ServedBy } from "./entries";
import { daysOf } from "../domain/time-range";

/** At most this many elements per request: each is one page query of the provider. */
const MAX_ELEMENTS = 8;

/** The elements asked for by `properties` (ids or aliases), in the provider's order; none when empty. */
function elementsOf(provider: SampleSiteProvider, params: ItemParams): string[] {
  const raw = String(params.properties ?? "");
  if (raw.trim() === "") return [];
  const ids = elements(provider, raw);
  if (ids.length > MAX_ELEMENTS) throw new ValidationError(`Query parameter 'properties' names ${ids.length} elements; a collection of sample sites takes at most ${MAX_ELEMENTS} per request.`);
  return ids;
}

function item(site: FlatSiteFeature, results: Record<string, FlatElementResult>): Item {
  const p = site.properties;
  const properties: FlatProperties = {
    // An integer, as DS 801's SiteID and /v1/geochem/sites give it (docs/decisions.md#ogc-api-features).
    site_id: p.site_id,
    lab_id: p.lab_id,
    state: p.state,
    collection_date: p.collection_date,
    land_cover_primary: p.land_cover_primary,
    land_cover_secondary: p.land_cover_secondary,
    depth_top_cm: p.depth_top_cm,
    depth_bottom_cm: p.depth_bottom_cm,
  };
  for (const [id, r] of Object.entries(results)) {
    properties[id] = r.value;
    properties[`${id}_reported_value`] = r.reported_value;
    properties[`${id}_unit`] = r.unit;
    // Null alone does not say censored from not sampled (docs/decisions.md#geochem-result-status).
    properties[`${id}_status`] = r.status;
  }
  return { type: "Feature", id: site.id, geometry: { type: "Point", coordinates: [...site.coordinates] }, properties };
}

/** An element's flat result as a page with that property gives it. */
function resultOf(site: FlatSiteFeature): FlatElementResult {
  const p = site.properties;
  return { value: p.value ?? null, reported_value: p.reported_value ?? "N.S.", unit: p.unit ?? "", status: p.result_status ?? "not_sampled" };
}

/** The collection of one sample_sites provider's sites (collections are derived per provider: table.ts). */
export const geochemSitesCollection = ({ id, provider, linkQuery }: ServedBy<SampleSiteProvider>) => sitesCollection<SiteReading, SampleSiteProvider>({
  id,
  text: ({ shortName, record }) => ({
    title: `${shortName} soil geochemistry sample sites`,
    description: `Sample sites of the ${record.name}, as points (WGS84), ordered by site id. Coverage: ${record.coverage} With properties=arsenic,lead (at most 8 elements: ids or aliases, GET /v1/properties) each site carries per element <id> (the value; null when censored or not sampled, never the reporting limit), <id>_reported_value (the file's cell: '<1' censored, 'N.S.' no sample), <id>_unit and <id>_status (measured, censored or not_sampled: null alone does not say which). Every element of a site: GET /v1/geochem/sites/{site_id}${linkQuery}.`,
  }),
  parameters: ["properties"],
  // The /v1 site's model; its depth becomes depth_top_cm and depth_bottom_cm, as the items carry it.
  fields: flatFields(GeochemSiteFeatureProperties, ["representative_of_bbox"]),
  sites: () => ({ provider, part: provider.sites }),
  box: (params) => ({ ...params, property: null }),
  // A site is dated by its collection day.
  days: ({ site }) => (site.collection_date === null ? null : { first: site.collection_date, last: site.collection_date }),
  // Its pages and items carry the asked elements' results, read by the geochem service (below).
  query(deps, bbox, params, time) {
    const properties = elementsOf(provider, params);
    // The sites are dated by day: the interval's UTC days select them (docs/decisions.md#ogc-api-features).
    const days = time === null ? undefined : daysOf(time);
    return {
      binding: { provider: provider.id, properties },
      async page(after, limit) {
        const part = provider.sites;
        const position = after === null ? null : part.key.parse(after);
        if (position === null && after !== null) throw new ValidationError("Query parameter 'cursor' is not a cursor Loam made; start again without it.");
        const sites = await geochemSitesPage(deps, { bbox, after: position, limit, days }, provider);
        // One page query per element, over the same box, position and limit: the same sites in the same order.
        const perElement = await Promise.all(properties.map((property) => geochemSitesPage(deps, { bbox, after: position, limit, property, days }, provider)));
        return {
          features: () =>
            sites.features.map((site, i) => item(site, Object.fromEntries(properties.map((id, k) => [id, resultOf(perElement[k]!.features[i]!)])))),
          nextAfter: sites.nextAfter === null ? null : String(sites.nextAfter),
          matched: sites.matched,
          cache: sites.cache,
          // The provider's warnings say what a site is not representative of, and that totals are not available contents.
          warnings: () => sites.warnings,
          // The element pages are cache entries of their own: their digests name what else the page is made of.
          stamp: perElement.map((p) => p.cache.digest).join(","),
        };
      },
    };
  },
  async one(deps, id, params) {
    const siteId = provider.sites.key.parse(id);
    if (siteId === null) return null;
    const properties = elementsOf(provider, params);
    const found = await geochemSiteFlat(deps, siteId, properties, provider);
    if (found === null) return null;
    return { feature: () => item(found.feature, found.results), cache: found.cache, warnings: () => found.warnings, stamp: "" };
  },
});
