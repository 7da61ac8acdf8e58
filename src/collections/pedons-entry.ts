/**
 * The OGC `pedons` collection (and one per other lab_pedons provider): the laboratory pedons with site
 * coordinates of one provider, as points with flat properties, built from the sites entry (./sites-entry.ts). Any box
 * inside WGS84 is accepted and paged (docs/decisions.md#ogc-api-features): a page is one keyset query.
 */
import { describeCache, sourceWarnings, type DataDeps } from "../answer";
import { NotFoundError } from "../errors";
import { pedonPage } from "../pedons/service";
import { PedonFeatureProperties, type PedonFeature } from "../domain/lab";
import { oneSite } from "../shapes/sites/service";
import { flatFields } from "./flat-fields";
import { sitesCollection } from "./sites-entry";
import type { PedonProvider } from "../providers/provider";
import type { Static } from "elysia";
import type { Item, ServedBy } from "./entries";
import type { Bbox } from "../domain/bbox";

const POINT_WARNING = "A pedon is a point: not representative of its search box, field, soil series or map unit without further evidence. Coordinates are provider records of varying accuracy.";

function item(f: Static<typeof PedonFeature>, origin: string, linkQuery: string): Item {
  const p = f.properties;
  return {
    type: "Feature",
    id: f.id,
    geometry: f.geometry,
    properties: {
      pedon_key: p.pedon_key,
      pedlabsampnum: p.pedlabsampnum,
      upedonid: p.upedonid,
      name: p.name,
      site_observation_date: p.site_observation_date,
      layer_count: p.layer_count,
      // The pedon's layers and observations, as an absolute link a GIS can open (docs/decisions.md#ogc-api-features).
      detail: `${origin}/v1/pedons/${encodeURIComponent(p.pedon_key)}${linkQuery}`,
    },
  };
}

/** The pedons of the box, counted where the provider's count has a form for this source (the snapshot); else null (docs/decisions.md#ogc-api-features). */
async function matchedIn(deps: DataDeps, provider: PedonProvider, bbox: Bbox): Promise<number | null> {
  const count = provider.pedons.count;
  if (!count || count.query.forms[deps.connected.sourceOf(provider).kind] === undefined) return null;
  const cached = await deps.connected.ask(provider, count.query, { bbox });
  return count.read(cached.answer);
}

/**
 * How many of the provider's pedons have no site coordinates, so are no feature here (counted where the
 * provider counts: the snapshot); null elsewhere or when every pedon is located.
 */
async function unlocatedNote(deps: DataDeps, provider: PedonProvider): Promise<string | null> {
  const count = provider.pedons.count;
  if (!count?.unlocated || count.query.forms[deps.connected.sourceOf(provider).kind] === undefined) return null;
  const cached = await deps.connected.ask(provider, count.query, { bbox: [-180, -90, 180, 90] });
  const [located, unlocated] = [count.read(cached.answer), count.unlocated(cached.answer)];
  if (unlocated === 0) return null;
  return `${unlocated.toLocaleString("en-US")} of the source's ${(located + unlocated).toLocaleString("en-US")} pedons have no site coordinates in the provider's record, so they are not features of this collection (GET /v1/pedons/{pedon_key} answers for each).`;
}

/** The collection of one lab_pedons provider's pedons (collections are derived per provider: table.ts). */
export const pedonsCollection = ({ id, provider, linkQuery }: ServedBy<PedonProvider>) => sitesCollection<Static<typeof PedonFeature>, PedonProvider>({
  id,
  text: ({ shortName, record }) => ({
    title: `${shortName} laboratory pedons`,
    description: `Laboratory pedons of the ${record.name}, with site coordinates (points, WGS84), ordered by pedon key. Each links its layers and lab observations (detail, GET /v1/pedons/{pedon_key}); /v1/pedons/layers gives them as one table per box.`,
  }),
  // The /v1 pedon's model, less its series link (an object), plus the detail link.
  fields: flatFields(PedonFeatureProperties, ["representative_of_bbox", "series"], {
    detail: { type: "string", nullable: false, format: "uri", description: "The pedon's layers and lab observations: GET /v1/pedons/{pedon_key}, an absolute URL." },
  }),
  sites: () => ({ provider, part: provider.pedons }),
  item: (f, origin) => item(f, origin, linkQuery),
  warnings: (deps, { provider }, _cached, cache) => [POINT_WARNING, ...sourceWarnings(deps.connected.sourceOf(provider), cache)],
  matched: (deps, { provider }, bbox) => matchedIn(deps, provider, bbox),
  note: (deps) => unlocatedNote(deps, provider),
  // A pedon's one-site answer is its layers: the detail says where the pedon is, and the box query at that point gives its feature (one shape for both routes).
  async one(deps, id) {
    const key = provider.pedons.key.parse(id);
    if (key === null) return null;
    const detail = await oneSite(deps, provider, provider.pedons, key);
    if (detail === null) return null;
    const source = deps.connected.sourceOf(provider);
    const { location } = provider.pedons.detail(detail.answer, { properties: [], depthTop: 0, depthBottom: 1, source, storedAt: detail.storedAt });
    if (location.latitude === null || location.longitude === null) {
      throw new NotFoundError(`Pedon ${id} has no site coordinates, so it is not a feature of this collection; GET /v1/pedons/${encodeURIComponent(id)} answers for it.`, provider.id);
    }
    const { cached, listed } = await pedonPage(deps, provider, { bbox: [location.longitude, location.latitude, location.longitude, location.latitude], limit: 500, after: null });
    const found = listed.features.find((f) => f.id.toUpperCase() === id.toUpperCase() || f.id === String(key.value));
    if (!found) return null;
    const cache = describeCache(cached, deps.cacheTtlSeconds);
    return { feature: (origin) => item(found, origin, linkQuery), cache, warnings: () => [POINT_WARNING, ...sourceWarnings(source, cache)], stamp: detail.digest };
  },
});
