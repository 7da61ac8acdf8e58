/** Series descriptions (`series`, GET /v1/series/{name}) and the links other answers carry to them. Part of the provider contract (./provider.ts, docs/architecture.md#providers). */
import type { QueryKind, SourceDescription } from "../upstream/transport";
import type { SeriesBody, SeriesLink } from "../domain/series";
import type { CachedAnswer } from "../upstream/cache";
import type { OperationalBase } from "./base";

// ---- series descriptions (GET /v1/series/{name}; links from components and pedons) ---------------

export interface SeriesKeyParams {
  /** A series key: the name upper-cased, words joined by `_` (NEW_CAMBRIA). */
  key: string;
}

/** One of the provider's own queries through the cache (`connected.ask` bound to the provider). */
export type Ask = <P, A>(query: QueryKind<P, A>, params: P) => Promise<CachedAnswer<A>>;

export type SeriesLinker = (name: string) => SeriesLink | null;

/** A provider's side of a link: the key of the description it holds for a name, else null (the answer room writes the link). */
export type SeriesKeyer = (name: string) => string | null;

export interface DescribedSeries {
  /** The cached description (its freshness is the answer's). */
  cached: CachedAnswer<unknown>;
  /** The answer body without `cache`. */
  body(): SeriesBody;
}

export interface SeriesProvider extends OperationalBase {
  readonly role: "series";
  readonly series: {
    /** What its descriptions are called in served text: the route's summary, the link checks' warnings ("Official Series Description"). */
    describedAs: string;
    /** The names it keys, in words (the route's document of `name` and of its 422), and a name it describes (the document's example). */
    names: { syntax: string; example: string };
    /** The key of a series name, or a ValidationError (422) saying what a series name looks like. */
    keyOf(name: string): string;
    /** The description of a series key; NotFoundError (404) when the source has none. */
    describe(ask: Ask, key: string, source: SourceDescription, apiVersion: string): Promise<DescribedSeries>;
    /**
     * The key of a series name's description: null for a name with no description (or that is not a
     * series name). Never fails an answer: when the source cannot be asked, it keys nothing. The link's
     * path is the series route's, written by the answer room (src/answer/series-links.ts), not the provider.
     */
    linker(ask: Ask): Promise<SeriesKeyer>;
  };
}
