/**
 * The contract between a provider and the place its data comes from (docs/architecture.md#providers).
 *
 * A transport answers a provider's logical query with an opaque payload: the upstream's own text
 * (SDA's JSON, an HTTPS JSON document), or a value read from the snapshot (for SDA-shaped queries,
 * typed rows whose SDA JSON is rendered only when asked for: docs/decisions.md#decode-once). It
 * never interprets what it fetched beyond telling a complete answer from a failure; the provider's
 * query decodes the payload.
 * Failures are the typed upstream errors of `src/errors.ts`; a transport never returns a partial answer.
 */
import type { SnapshotFile } from "./snapshot-file";
import { UpstreamError } from "../errors";

/**
 * What a transport hands back and what the cache stores: text, with its parsed JSON when the transport
 * had it anyway; or a value made in memory that is already its query's answer (the snapshot's typed
 * rows: docs/decisions.md#decode-once), with the text the cache stores for it.
 */
export class Payload {
  private constructor(
    private textForm: string | undefined,
    private jsonForm: unknown,
    private readonly made?: { value: object; tag: string; text: () => string; stored: () => string },
    /** Text a cache store kept (`stored()` of the payload it was given); an upstream's text never is. */
    private readonly kept = false,
  ) {}

  static ofText(text: string): Payload {
    return new Payload(text, undefined);
  }

  /** Text that was parsed already (the parse is not repeated). */
  static parsed(text: string, json: unknown): Payload {
    return new Payload(text, json);
  }

  /** A payload built in memory (the snapshot): serialized only when it is stored. */
  static ofJson(json: unknown): Payload {
    return new Payload(undefined, json);
  }

  /**
   * A value that is its query's answer already (the decoder takes it as it is); `stored` is the text
   * the cache keeps for it, after its `tag` (which no upstream's text begins with: SDA's is JSON), and
   * `text` the upstream's own text, made only if someone asks for it. The decoder reads the stored
   * text back with `storedValue(tag)`.
   */
  static ofValue(value: object, forms: { tag: string; text: () => string; stored: () => string }): Payload {
    return new Payload(undefined, undefined, { value, ...forms });
  }

  /** What a cache store kept: the only text a decoder may read as a stored form of a made value. */
  static fromStore(text: string): Payload {
    return new Payload(text, undefined, undefined, true);
  }

  /**
   * The stored form of a made value, after its `tag`: only from text a cache store kept, never from
   * an upstream's text (which is read as the upstream's, whatever it begins with); else undefined.
   */
  storedValue(tag: string): string | undefined {
    if (!this.kept) return undefined;
    const text = this.text();
    return text.startsWith(tag) ? text.slice(tag.length) : undefined;
  }

  text(): string {
    return (this.textForm ??= this.made ? this.made.text() : JSON.stringify(this.jsonForm));
  }

  /** The payload parsed as JSON (throws SyntaxError when it is not JSON). */
  json(): unknown {
    if (this.jsonForm === undefined) this.jsonForm = JSON.parse(this.made ? this.text() : (this.textForm ?? "null"));
    return this.jsonForm;
  }

  /** The value of `ofValue`; undefined for a payload of text or JSON. */
  value(): object | undefined {
    return this.made?.value;
  }

  /** The text the cache stores and digests: the upstream's text, or the stored form of a made value. */
  stored(): string {
    return this.made ? this.made.tag + this.made.stored() : this.text();
  }
}

/**
 * One logical query of a provider: what it asks (its forms, one per transport that can answer it), what
 * the answer must carry, and how its payload is read. Declared in the provider's folder
 * (docs/decisions.md#providers); the transports only read the form they know.
 */
export interface QueryKind<P, A> {
  /** Unique within its provider; with the provider id and `key(params)` it names a cache entry. */
  readonly kind: string;
  /** Columns the answer carries, in order; an answer with other columns is refused (docs/decisions.md#column-check). */
  readonly columns: readonly string[];
  /** A stable text of the parameters. */
  key(params: P): string;
  /** The query in each transport's terms, e.g. `sda` (T-SQL text) or `snapshot` (a reader over the snapshot file). */
  readonly forms: QueryForms<P>;
  /**
   * The payload as the provider's final, typed answer (decoded once per cache entry and kept in the
   * memory cache: docs/decisions.md#decode-once); throws UpstreamError when it is not one. A decoder
   * of a large answer may be asynchronous, to give the event loop back between slices of its work.
   */
  decode(payload: Payload): A | Promise<A>;
  /** The answer as the raw endpoint shows it: the upstream's own JSON, unmodified. */
  raw(answer: A): Record<string, unknown>;
  /**
   * This answer's own lifetime, when it depends on what is asked (recent sensor values are provisional
   * and kept an hour, older ones longer: docs/decisions.md#cache); undefined: the transport's. Applies to
   * a remote transport only: a snapshot never changes while it is served.
   */
  ttlSeconds?(params: P, now: number): number | undefined;
}

/**
 * The query's form for the transport that reads forms of `name`, or that transport's 502 naming the
 * query it cannot answer (`transport`: how the message names it; `provider`: whose transport it is).
 */
export function formOf<F, P = unknown>(query: QueryKind<P, unknown>, name: string, transport: string, provider?: string): F {
  const form = query.forms[name];
  if (form === undefined) throw new UpstreamError(`The ${transport} cannot answer the ${query.kind} query.`, provider);
  return form as F;
}

/** Per-transport forms of a query. A transport of a provider's own adds its own form (any name). */
export interface QueryForms<P> {
  /** Soil Data Access: the T-SQL text (no comments: docs/decisions.md#sda-sql). */
  sda?: (params: P) => string;
  /** The offline snapshot: prepares a reader once per snapshot file. */
  snapshot?: SnapshotForm<P>;
  [form: string]: unknown;
}

/** A snapshot reader: `prepare` runs once per opened snapshot, the returned function once per query. */
export interface SnapshotForm<P> {
  prepare(snapshot: SnapshotFile): (params: P) => Payload;
  /**
   * A mirror of several snapshot files (docs/decisions.md#national-mirror) asks only the files that may
   * hold an answer: those holding datasets of this kind (`DatasetInfo.kind`), and of those, when `reach`
   * gives the box [w, s, e, n] the query reads, the ones whose datasets' boxes meet it. Absent: every file.
   */
  readonly datasets?: string;
  reach?(params: P): Box | undefined;
  /**
   * The one answer of the answers of the files asked (two or more, in the mirror's file order), shaped
   * as one file's answer: rows put together, re-ordered and cut to the query's limit as one file would.
   */
  merge?(answers: Payload[], params: P): Payload;
}

/** [west, south, east, north], degrees. */
export type Box = readonly [number, number, number, number];

/** A dataset of the snapshot as the source describes it: who imported it, its id and label, its box when stated. */
interface SourceDataset {
  kind: string;
  id: string;
  label: string;
  bbox: [number, number, number, number] | null;
}

export interface SourceDescription {
  /** snapshot, sda, or a provider's own transport name. */
  kind: string;
  /** SDA: the endpoint; snapshot: the database file. */
  location: string;
  /** Snapshot only: when it was built (ISO date-time). */
  builtAt?: string;
  /** Snapshot only: survey areas and lab collections it holds, e.g. "SSURGO IA073 (2020-06-10)". */
  coverage?: string[];
  /** Snapshot only: every dataset it holds, by the kind its importer wrote (DatasetInfo), with its box when stated. */
  datasets?: SourceDataset[];
  /** Snapshot only: the survey areas it holds, each with the box [w, s, e, n] of its polygons (src/domain/coverage.ts). */
  areas?: { symbol: string; bbox: [number, number, number, number] }[];
  /**
   * What makes this source's answers its own (snapshot: the identity its build stored, docs/decisions.md#snapshot-identity); part of every
   * cache key and entity tag, so an answer is never served under another source's provenance
   * (docs/decisions.md#cache). Default: kind and location (SDA: its URL).
   */
  identity?: string;
}

/** The source identity of `description` (see SourceDescription.identity). */
export function sourceIdentity(description: SourceDescription): string {
  return description.identity ?? `${description.kind}:${description.location}`;
}

export interface Transport {
  readonly kind: string;
  fetch<P>(query: QueryKind<P, unknown>, params: P): Promise<Payload>;
  /** Facts for warnings and /metrics. */
  describe(): SourceDescription;
  /**
   * How long this transport's answers stay fresh in the cache, when it is not CACHE_TTL_SECONDS: a
   * source that changes slowly (e.g. series descriptions, revised every few years) may keep its answers
   * longer (docs/decisions.md#cache). CACHE_TTL_SECONDS=0 still stores nothing.
   */
  readonly ttlSeconds?: number;
  close?(): void;
}
