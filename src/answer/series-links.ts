/**
 * The links other answers (map-unit components, pedons) carry to a series description, from the
 * registry's series provider (docs/decisions.md#series). Shared by the features, so it lives in the
 * answer room rather than in the series feature: features never import each other.
 */
import type { DataDeps } from "./index";
import type { Ask, SeriesKeyer, SeriesLinker, SeriesProvider } from "../providers/provider";
import { Memo } from "../lru";
import { VERSION } from "../version";
import type { SeriesLink } from "../domain/series";

/** What the answers keep of a series provider: its keyer (name → key of a description) and the links made from it. */
interface Kept {
  key: SeriesKeyer;
  link: SeriesLinker;
}

const NO_LINKS: SeriesLinker = () => null;

/**
 * What links a name to its series description, from the registry's series provider: links nothing
 * when there is none, and never fails the answer that asks (docs/decisions.md#series).
 */
export function seriesLinker(deps: DataDeps, provider: SeriesProvider | undefined = deps.registry.defaultFor("series")): SeriesLinker | Promise<SeriesLinker> {
  if (!provider) return NO_LINKS;
  // The kept linker is handed over at once (every location and pedon answer asks for it).
  return linkers.get(deps.connected)?.get(provider.id)?.link ?? readLinker(deps, provider).then((kept) => kept.link);
}

/** The provider's keyer and links, kept once read. */
function keptOf(deps: DataDeps, provider: SeriesProvider): Kept | Promise<Kept> {
  return linkers.get(deps.connected)?.get(provider.id) ?? readLinker(deps, provider);
}

async function readLinker(deps: DataDeps, provider: SeriesProvider): Promise<Kept> {
  // A linker whose list was read is kept per connected provider: the list a transport answers never
  // changes (a snapshot's series, or none for live), and asking the cache for it again on every
  // location and pedon answer cost a second cache lookup per request. A failed read is not kept.
  let failed = false;
  const ask: Ask = (query, params) =>
    deps.connected.ask(provider, query, params).catch((error: unknown) => {
      failed = true;
      throw error;
    });
  const key = await provider.series.linker(ask);
  // A link of another series provider than the default names it, so following it answers for it (docs/decisions.md#provider-links).
  const named = deps.registry.defaultFor("series") === provider ? "" : `?provider=${encodeURIComponent(provider.id)}`;
  const kept: Kept = {
    key,
    link: (name) => {
      const found = key(name);
      return found === null ? null : { name, url: `${seriesPath(found)}${named}` };
    },
  };
  if (!failed) {
    let byProvider = linkers.get(deps.connected);
    if (!byProvider) linkers.set(deps.connected, (byProvider = new Map()));
    byProvider.set(provider.id, kept);
  }
  return kept;
}

/** The path of a series description (GET /v1/series/{name}); the key is the provider's, written as one path segment. */
export const seriesPath = (key: string): string => `/v1/series/${encodeURIComponent(key)}`;

/** What the registry's series provider calls its descriptions, for the warnings below. */
const describedAs = (deps: DataDeps): string => deps.registry.defaultFor("series")?.series.describedAs ?? "series description";

/** Kept linkers, per app (its connected providers) and series provider. */
const linkers = new WeakMap<object, Map<string, Kept>>();

/**
 * The taxonomic class the current series description gives (e.g. "Fine-silty, mixed, superactive,
 * mesic Typic Hapludalfs"), for a linked name; null when there is no series provider, no description,
 * or the source cannot be asked: the check it serves never fails the answer that asks.
 */
export async function seriesTaxonomicClass(deps: DataDeps, name: string, provider: SeriesProvider | undefined = deps.registry.defaultFor("series")): Promise<string | null> {
  if (!provider) return null;
  try {
    // The name as the provider's linker keys it (a component's or pedon's name, not a path segment of the route).
    const key = (await keptOf(deps, provider)).key(name);
    if (key === null) return null;
    const source = deps.connected.sourceOf(provider);
    // A snapshot never changes while Loam serves it: its classes are kept by key, with no lookup at all.
    const kept = source.kind === "snapshot" ? snapshotClasses.get(`${provider.id}|${key}`) : undefined;
    if (kept !== undefined) return kept;
    const ask: Ask = (query, params) => deps.connected.ask(provider, query, params);
    const described = await provider.series.describe(ask, key, source, VERSION);
    // Parsing a description (its Munsell colours included) costs far more than the cached lookup: the
    // class is kept per stored answer (a new answer has a new digest).
    const found = taxonomicClasses.of(`${provider.id}|${key}|${described.cached.digest}`, () => described.body().series.taxonomic_class);
    if (source.kind === "snapshot" && snapshotClasses.size < 4096) snapshotClasses.set(`${provider.id}|${key}`, found);
    return found;
  } catch {
    return null;
  }
}

/** Taxonomic classes of the descriptions read, by provider, key and stored answer's digest. */
const taxonomicClasses = new Memo<string, string | null>(512);
/** Snapshot classes by provider and key (a snapshot holds a few hundred descriptions; bounded all the same). */
const snapshotClasses = new Map<string, string | null>();

/** The great group of a Soil Taxonomy class: its last word, lower case ("... Typic Hapludalfs" → hapludalfs). */
export function greatGroupOf(taxonomicClass: string): string | null {
  const words = taxonomicClass.trim().replace(/\.$/, "").split(/\s+/);
  const last = words[words.length - 1];
  return last ? last.toLowerCase() : null;
}

/**
 * The current class of a series' description when its great group differs from the recorded one
 * (a lower-case great group, as `greatGroupOf` gives it); null when they agree or cannot be compared
 * (docs/decisions.md#series-classification). Every class check below asks this one.
 */
async function differingClass(deps: DataDeps, name: string, recorded: string | null): Promise<string | null> {
  return differs(await seriesTaxonomicClass(deps, name), recorded);
}

/** `differingClass` once the current class is known. */
function differs(current: string | null, recorded: string | null): string | null {
  const described = current ? greatGroupOf(current) : null;
  return current && described !== null && described !== recorded ? current : null;
}

/**
 * The current classes of the distinct names a list links, asked once each and at the same time: a
 * list of 1,000 pedons names far fewer series, and asking them one after another made the list wait
 * on each lookup in turn.
 */
async function classesOf(deps: DataDeps, names: Iterable<string>): Promise<Map<string, string | null>> {
  const distinct = [...new Set(names)];
  const classes = await Promise.all(distinct.map((name) => seriesTaxonomicClass(deps, name)));
  return new Map(distinct.map((name, i) => [name, classes[i] ?? null]));
}

/**
 * A pedon's series link says what it was sampled as, not that it fits the series: when the pedon's
 * recorded great group differs from the one the current description gives, the answer says so
 * (docs/decisions.md#series-classification). Null when they agree or cannot be compared.
 */
export async function seriesClassificationWarning(deps: DataDeps, link: SeriesLink | null, greatGroup: string | null): Promise<string | null> {
  if (!link || !greatGroup) return null;
  const current = await differingClass(deps, link.name, greatGroup.trim().toLowerCase());
  if (current === null) return null;
  return `The pedon was sampled as ${link.name} and classified as ${greatGroup} (samp_taxgrtgroup), while the current ${describedAs(deps)} of ${link.name} (${link.url}) gives ${current}: the pedon may not fit the series as now defined (or the series was reclassified); the link names what it was sampled as.`;
}

/**
 * The list's check (docs/decisions.md#series-classification): the pedons whose recorded great group
 * differs from the one their linked series' current description gives, in one warning naming each.
 */
export async function listClassificationWarning(deps: DataDeps, pedons: readonly { key: string; link: SeriesLink | null; greatGroup: string | null }[]): Promise<string | null> {
  const checked = pedons.flatMap(({ key, link, greatGroup }) => (link && greatGroup ? [{ key, link, greatGroup }] : []));
  const classes = await classesOf(deps, checked.map((p) => p.link.name));
  const differing: string[] = [];
  for (const { key, link, greatGroup } of checked) {
    const current = differs(classes.get(link.name) ?? null, greatGroup.trim().toLowerCase());
    if (current !== null) differing.push(`${key} (sampled as ${link.name}, classified as ${greatGroup}; the current description gives ${current})`);
  }
  if (differing.length === 0) return null;
  return `Pedon(s) ${differing.join("; ")} link the series they were sampled as, whose current ${describedAs(deps)} classes them differently: such a pedon may not fit the series as now defined (or the series was reclassified); the link names what it was sampled as (GET /v1/pedons/{pedon_key} says the same).`;
}

/**
 * A map-unit component links its series, but the survey's class of the component may be an older name
 * than the series' current description gives (MH936: Typic Troporthents where the series now reads
 * Udorthents): where the great groups differ, one warning per series and class names the components
 * (docs/decisions.md#series-classification).
 */
export async function componentClassificationWarnings(
  deps: DataDeps,
  components: readonly { component_key: string; component_name: string; taxonomic_class: string | null; series: SeriesLink | null }[],
): Promise<string[]> {
  const checked = components.flatMap((c) => (c.series && c.taxonomic_class ? [{ key: c.component_key, link: c.series, recorded: c.taxonomic_class }] : []));
  const classes = await classesOf(deps, checked.map((c) => c.link.name));
  const groups = new Map<string, { link: SeriesLink; recorded: string; current: string; keys: string[] }>();
  for (const { key: componentKey, link, recorded } of checked) {
    const current = differs(classes.get(link.name) ?? null, greatGroupOf(recorded));
    if (current === null) continue;
    const key = `${link.name}|${recorded}`;
    const group = groups.get(key) ?? { link, recorded, current, keys: [] };
    group.keys.push(componentKey);
    groups.set(key, group);
  }
  return [...groups.values()].map(
    ({ link, recorded, current, keys }) =>
      `Component(s) ${link.name} (${keys.join(", ")}) are classed as ${recorded} in the survey, while the current ${describedAs(deps)} of ${link.name} (${link.url}) gives ${current}: the survey's class may be an older name (Soil Taxonomy has since renamed or reclassified it); the series link names the series, not that the component's recorded class is current.`,
  );
}

/** Component kinds that name a soil series (SSURGO compkind); a miscellaneous area or a family does not. */
const SERIES_KINDS = new Set(["series", "taxadjunct"]);

/** A map-unit component's link: only a Series or Taxadjunct component is a series. */
export function componentSeries(link: SeriesLinker, component: { component_name: string; component_kind: string | null }): SeriesLink | null {
  return component.component_kind !== null && SERIES_KINDS.has(component.component_kind.toLowerCase()) ? link(component.component_name) : null;
}
