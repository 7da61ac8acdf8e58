/**
 * Rendered-body reuse (docs/decisions.md#http-caching): a body sent again is not serialized again.
 *
 * - JSON of a cache hit: an entity tag and stored_at name everything a data body is made of except its
 *   `cache` metadata (hit, stored_at, age_seconds), which grows with the answer's age while the tag
 *   stays (conditional.ts). So a hit's JSON is kept around `cache` once and the current metadata
 *   spliced in: no normalization or serialization per request; the bytes are rebuilt at most once per
 *   second of age. Only answers whose body was checked to carry exactly `cacheMetadata(cached, now)`
 *   are kept, and never stale ones (their warning names this moment's upstream failure).
 * - A table (CSV) carries no age: it is rendered once per tag (not for stale answers either).
 *
 * Each body sent again says so by a name of its exact bytes, under which compression.ts keeps its
 * encodings.
 */
import { cacheMetadata, type DataAnswer } from "../answer";
import { Lru } from "../lru";
import { LARGE_BODY_CHARS, type EncodedBodies } from "./compression";
import { isLarge, splitAroundInSlices, stringifyInSlices } from "./sliced-json";

/** A body as the pipeline sends it. */
export interface RenderedBody {
  payload: string | Blob;
  /** Length in characters (compared with COMPRESS_MIN_BYTES). */
  chars: number;
  /** The name of exactly these bytes when they will be sent again (their encodings are kept under it). */
  name?: string;
  /** The bytes, when the payload is a Blob (to encode them). */
  bytes?: () => Uint8Array;
  /** Until when (ms) these are the bytes of the answer (its age_seconds turns then), when they are kept. */
  until?: number;
}

/** A cache hit's JSON: UTF-8 before and after the `cache` value, and the current rendering. */
interface RenderedHit {
  head: Uint8Array;
  tail: Uint8Array;
  /** Characters of head and tail. */
  chars: number;
  /** The `cache` JSON of the current rendering (for an answer `age` seconds old), and the rendering as a Blob (sent without a copy). */
  meta: string;
  age: number;
  blob: Blob;
}

const JSON_ENTRIES = 128;
/** Holds the largest answer (a 32 MiB polygon page), so its hits cost no rendering (docs/decisions.md#polygon-budget). */
const JSON_BYTES = 96_000_000;
/** How far a large kept body's `age_seconds` may lag before it is rendered (and encoded) again. */
const LARGE_AGE_STEP_SECONDS = 60;
const utf8 = new TextEncoder();

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** `JSON.stringify(body)` cut around the value of its top-level `key`, or null when there is none. */
export function splitAround(body: Record<string, unknown>, key: string): [head: string, tail: string] | null {
  let head = "{";
  let tail = "";
  let found = false;
  let first = true;
  for (const [name, value] of Object.entries(body)) {
    const json = JSON.stringify(value) as string | undefined;
    if (json === undefined) continue; // as JSON.stringify leaves out undefined and functions
    const prefix = `${first ? "" : ","}${JSON.stringify(name)}:`;
    first = false;
    if (name === key) {
      head += prefix;
      found = true;
    } else if (found) tail += prefix + json;
    else head += prefix + json;
  }
  return found ? [head, `${tail}}`] : null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function ageSeconds(cache: { storedAt: number }, now: number): number {
  return Math.max(0, Math.floor((now - cache.storedAt) / 1000));
}

/** The JSON of data answers, each hit's kept per tag and stored_at (one tag may name bodies fetched at different times: SDA's retrieved_at is the fetch time). */
export class JsonBodies {
  private readonly hits = new Lru<string, RenderedHit>(JSON_ENTRIES, JSON_BYTES);

  constructor(
    private readonly now: () => number,
    private readonly encoded: EncodedBodies,
  ) {}

  /** The body to send; a large one (docs/decisions.md#polygon-budget) is serialized in slices, so it comes as a promise the first time. */
  of<T>(answer: DataAnswer<T>, etag: string): RenderedBody | Promise<RenderedBody> {
    const reused = this.reused(answer, etag);
    if (reused !== null) return reused;
    const body = answer.body();
    return isLarge(body) ? stringifyInSlices(body as Record<string, unknown>).then((text) => ({ payload: text, chars: text.length })) : plain(body);
  }

  /** A cache hit's body from its rendering (made on first use); null when the answer is not one to reuse. */
  private reused<T>(answer: DataAnswer<T>, etag: string): RenderedBody | Promise<RenderedBody> | null {
    const cache = answer.cache;
    if (!cache.hit || cache.stale) return null;
    const key = `${etag}|${cache.storedAt}`;
    let entry = this.hits.get(key);
    const at = this.now();
    if (!entry) {
      const body = answer.body();
      if (isLarge(body)) return this.firstRendering(cache, body as Record<string, unknown>, key, at);
      const meta = JSON.stringify(cacheMetadata(cache, at));
      const parts = isPlainObject(body) && JSON.stringify(body.cache) === meta ? splitAround(body, "cache") : null;
      if (!parts) return plain(body);
      const [head, tail] = parts;
      const bytes = { head: utf8.encode(head), tail: utf8.encode(tail) };
      entry = { ...bytes, chars: head.length + tail.length, meta, age: ageSeconds(cache, at), blob: new Blob([concat(bytes.head, utf8.encode(meta), bytes.tail)]) };
      this.hits.set(key, entry, entry.head.byteLength + entry.tail.byteLength + entry.blob.size);
    } else {
      // A rendered hit's metadata (a hit, stored at the entry's time) changes only with its age in seconds;
      // a large one is rendered (and encoded) again at most once a minute of age, its age_seconds lagging.
      const age = ageSeconds(cache, at);
      const step = entry.chars > LARGE_BODY_CHARS ? LARGE_AGE_STEP_SECONDS : 1;
      if (age < entry.age || age - entry.age >= step) {
        const meta = JSON.stringify(cacheMetadata(cache, at));
        this.encoded.forget(`${key}|${entry.age}`);
        entry.age = age;
        if (meta !== entry.meta) {
          entry.meta = meta;
          entry.blob = new Blob([concat(entry.head, utf8.encode(meta), entry.tail)]);
          this.hits.reweigh(key, entry.head.byteLength + entry.tail.byteLength + entry.blob.size);
        }
      }
    }
    return sent(entry, key, renderedUntil(cache, entry));
  }

  /** The first rendering of a large hit, serialized in slices (the event loop given back between them), then kept like any other. */
  private async firstRendering(cache: DataAnswer<unknown>["cache"], body: Record<string, unknown>, key: string, at: number): Promise<RenderedBody> {
    const meta = JSON.stringify(cacheMetadata(cache, at));
    const parts = JSON.stringify(body.cache) === meta ? await splitAroundInSlices(body, "cache") : null;
    if (!parts) {
      const text = await stringifyInSlices(body);
      return { payload: text, chars: text.length };
    }
    const [head, tail] = parts;
    const bytes = { head: utf8.encode(head), tail: utf8.encode(tail) };
    const entry: RenderedHit = { ...bytes, chars: head.length + tail.length, meta, age: ageSeconds(cache, at), blob: new Blob([concat(bytes.head, utf8.encode(meta), bytes.tail)]) };
    this.hits.set(key, entry, entry.head.byteLength + entry.tail.byteLength + entry.blob.size);
    return sent(entry, key, renderedUntil(cache, entry));
  }
}

/** When a kept rendering is rendered again: at the next second of age, a large one's at the next minute. */
function renderedUntil(cache: { storedAt: number }, entry: RenderedHit): number {
  const step = entry.chars > LARGE_BODY_CHARS ? LARGE_AGE_STEP_SECONDS : 1;
  return cache.storedAt + (entry.age + step) * 1000;
}

/** A kept rendering as sent: its bytes named, so their encodings are kept too. */
function sent(entry: RenderedHit, key: string, until: number): RenderedBody {
  const { head, tail, meta } = entry;
  return { payload: entry.blob, chars: entry.chars + meta.length, name: `${key}|${entry.age}`, bytes: () => concat(head, utf8.encode(meta), tail), until };
}

function plain(body: unknown): RenderedBody {
  const text = JSON.stringify(body);
  return { payload: text, chars: text.length };
}

/**
 * How a route's answer reads as a table (docs/architecture.md#tables). A route that has one passes
 * it to `send`; the pipeline then negotiates JSON or CSV and renders the body it chose. `render`
 * must not read the body's `cache.hit` or `cache.age_seconds` (they change under one entity tag, and
 * a table is kept per tag).
 */
export interface CsvTable<T> {
  /** RFC 4180 text of the body (src/tables). */
  render: (body: T) => string;
  /** The download's file name; characters outside [0-9A-Za-z._-] become `_`. */
  fileName: (body: T) => string;
}

/** A table rendered: its text and download name. */
export interface RenderedTable {
  text: string;
  fileName: string;
  /** The tag, when the table is kept (its encodings are kept under it). */
  name?: string;
}

const TABLE_ENTRIES = 64;
const TABLE_CHARS = 16_000_000;

const safeFileName = (name: string) => name.replace(/[^0-9A-Za-z._-]+/g, "_").slice(0, 120);

/** Tables rendered once per tag, unless stale (a stale answer's warning names this moment's failure). */
export class TableBodies {
  private readonly tables = new Lru<string, RenderedTable>(TABLE_ENTRIES, TABLE_CHARS);

  of<T>(answer: DataAnswer<T>, tag: string, table: CsvTable<T>): RenderedTable {
    const stale = answer.cache.stale;
    const found = stale ? undefined : this.tables.get(tag);
    if (found) return found;
    const body = answer.body();
    const rendered: RenderedTable = { text: table.render(body), fileName: safeFileName(table.fileName(body)), ...(stale ? {} : { name: tag }) };
    if (!stale) this.tables.set(tag, rendered, rendered.text.length);
    return rendered;
  }
}
