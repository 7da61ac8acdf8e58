/**
 * Strict query-string reading, shared by every route. Elysia's own coercion is lenient (it takes the
 * last of repeated values, reads `0x10` as 16 and an empty string as a number), so each route's
 * TypeBox query schema is applied here first (`strictQuery`, a transform hook), with messages that
 * name the parameter and its rule. The same schema then documents the parameter in OpenAPI and types
 * the handler: every optional query parameter has a default, so `queryOf` gives the handler every
 * parameter, typed from the schema (docs/decisions.md#query-parameters).
 */
import type { Static, TObject, TSchema } from "@sinclair/typebox";
import { ValidationError } from "../errors";
import { requestQuery } from "./request-path";
import { Memo } from "../lru";
import { unknownParameterWarning } from "./unknown-parameters";

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

interface Bounds {
  type?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  maxLength?: number;
  minLength?: number;
  /** A closed list of strings (t.UnionEnum). */
  enum?: readonly (string | number)[];
  /** A number above `maximum` and at most this reads as `maximum` (OGC API - Features' `limit`: docs/decisions.md#rate-budgets). */
  "x-read-as-maximum-up-to"?: number;
}

/** "a number from -90 to 90", "an integer from 1 to 500", "a string of at most 200 characters". */
export function describeRule(schema: Bounds): string {
  if (schema.type === "number" || schema.type === "integer") {
    const noun = schema.type === "integer" ? "an integer" : "a number";
    const low =
      schema.exclusiveMinimum !== undefined ? `greater than ${schema.exclusiveMinimum}` : schema.minimum !== undefined ? `from ${schema.minimum}` : "";
    const upTo = schema["x-read-as-maximum-up-to"];
    if (upTo !== undefined) return `${noun} from ${schema.minimum ?? 1} to ${upTo}`;
    const high =
      schema.exclusiveMaximum !== undefined ? `less than ${schema.exclusiveMaximum}` : schema.maximum !== undefined ? `${low.startsWith("from") ? "to" : "and at most"} ${schema.maximum}` : "";
    return [noun, low, high].filter(Boolean).join(" ");
  }
  if (schema.enum !== undefined) return `one of ${schema.enum.join(", ")}`;
  if (schema.maxLength !== undefined) return `a string of at most ${schema.maxLength} characters`;
  return "a string";
}

function show(raw: string): string {
  return raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
}

function readOne(name: string, raw: string, schema: Bounds): string | number {
  const fail = () => new ValidationError(`Query parameter '${name}' must be ${describeRule(schema)}; got '${show(raw)}'.`);
  if (schema.type === "number" || schema.type === "integer") {
    const trimmed = raw.trim();
    if (!DECIMAL.test(trimmed)) throw fail();
    const value = Number(trimmed);
    if (!Number.isFinite(value)) throw fail();
    if (schema.type === "integer" && !Number.isInteger(value)) throw fail();
    if (schema.minimum !== undefined && value < schema.minimum) throw fail();
    if (schema.maximum !== undefined && value > schema.maximum) {
      const upTo = schema["x-read-as-maximum-up-to"];
      if (upTo !== undefined && value <= upTo) return schema.maximum;
      throw fail();
    }
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) throw fail();
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) throw fail();
    return value;
  }
  if (schema.enum !== undefined && !schema.enum.includes(raw)) throw fail();
  if (schema.maxLength !== undefined && raw.length > schema.maxLength) {
    throw new ValidationError(`Query parameter '${name}' must be at most ${schema.maxLength} characters; got ${raw.length}.`);
  }
  if (schema.minLength !== undefined && raw.length < schema.minLength) {
    throw new ValidationError(`Query parameter '${name}' must not be empty.`);
  }
  return raw;
}

/** A query string as read once: each name's value (the first, as URLSearchParams.get), the pairs in order, and the first name given twice. */
export interface ParsedQuery {
  values: ReadonlyMap<string, string>;
  pairs: readonly (readonly [string, string])[];
  repeated: string | null;
  /** The first name given twice with different values. */
  conflicting: string | null;
}

const NO_QUERY: ParsedQuery = { values: new Map(), pairs: [], repeated: null, conflicting: null };
/** Distinct query strings kept parsed. */
const parsedQueries = new Memo<string, ParsedQuery>(256);

/**
 * The query of a request URL (after `?`, before any `#`), parsed once per distinct query string: the
 * boundary (repeated names), the route's reader and the access log all read it, on every request
 * (docs/decisions.md#hot-path).
 */
export function parsedQuery(url: string): ParsedQuery {
  const text = requestQuery(url);
  return text === "" ? NO_QUERY : parsedQueries.of(text, parse);
}

/** Each request's parse, found by the request itself once the boundary has read it. */
const requestQueries = new WeakMap<Request, ParsedQuery>();

/** The query of a request, parsed once per request (and once per distinct text). */
export function queryOfRequest(request: Request): ParsedQuery {
  let parsed = requestQueries.get(request);
  if (parsed === undefined) requestQueries.set(request, (parsed = parsedQuery(request.url)));
  return parsed;
}

function parse(text: string): ParsedQuery {
  const values = new Map<string, string>();
  const pairs: [string, string][] = [];
  let repeated: string | null = null;
  let conflicting: string | null = null;
  for (const [name, value] of new URLSearchParams(text)) {
    pairs.push([name, value]);
    if (!values.has(name)) values.set(name, value);
    else {
      repeated ??= name;
      if (values.get(name) !== value) conflicting ??= name;
    }
  }
  return { values, pairs, repeated, conflicting };
}

/**
 * Reject any parameter given twice: `?latitude=1&latitude=2` has no single meaning (docs/decisions.md#query-parameters).
 * `sameValueAllowed`: the OGC API routes accept a name given twice with the same value, since GDAL's
 * OAPIF driver appends its connection URL's query to every `next` link it follows (docs/decisions.md#ogc-api-features).
 */
export function rejectRepeated(query: ParsedQuery, sameValueAllowed = false): void {
  const name = sameValueAllowed ? query.conflicting : query.repeated;
  if (name !== null) throw new ValidationError(`Query parameter '${show(name)}' is repeated${sameValueAllowed ? " with different values" : ""}; give it once.`);
}

type QueryProperty = TSchema & Bounds & { default?: string | number };

/**
 * The reader of the parameters a route declares: strict, from the raw URL; unknown parameters are
 * ignored, defaults come from the schema. The schema's parameters are listed once, not per request.
 */
function readerOf(schema: TObject): (request: Request) => StatedQuery {
  const parameters = Object.entries(schema.properties as Record<string, QueryProperty>).map(([name, property]) => ({
    name,
    property,
    required: (schema.required ?? []).includes(name),
  }));
  return (request) => {
    // Repeated parameters were already refused for every API route (boundary.ts).
    const values = queryOfRequest(request).values;
    const read: Record<string, string | number> = {};
    const stated: Record<string, string | number> = {};
    for (const { name, property, required } of parameters) {
      const raw = values.get(name);
      if (raw === undefined) {
        if (required) throw new ValidationError(`Query parameter '${name}' is required: ${describeRule(property)}.`);
        if (property.default !== undefined) read[name] = property.default;
        continue;
      }
      read[name] = stated[name] = readOne(name, raw, property);
    }
    return { read, stated };
  };
}

/** A query as the strict reader read it: every declared parameter (defaults filled in), and those the client gave. */
interface StatedQuery {
  read: Record<string, string | number>;
  stated: Record<string, string | number>;
}

/** The parameters each request gave, as validated by its route's reader (for the pipeline: `format`). */
const statedQueries = new WeakMap<Request, Record<string, string | number>>();

/**
 * The query parameters the client gave, validated by the route's strict reader; undefined on a route
 * without one. The response pipeline takes `format` from here (docs/decisions.md#query-parameters).
 */
export function statedQuery(request: Request): Readonly<Record<string, string | number>> | undefined {
  return statedQueries.get(request);
}

/** The warning naming the parameters a request gave that its route does not read (unknown-parameters.ts). */
const unknownWarnings = new WeakMap<Request, string>();

/** The warning of the request's unknown query parameters (docs/decisions.md#unknown-parameters), or undefined when it gave none. */
export function unknownParametersOf(request: Request): string | undefined {
  // A route without a query schema (a raw record) reads no parameter: every one given is unknown.
  if (!statedQueries.has(request)) {
    const given = [...queryOfRequest(request).values.keys()];
    return unknownParameterWarning(given, []) ?? undefined;
  }
  return unknownWarnings.get(request);
}

/** Every query parameter some route declares (filled as the routes' readers are made, before any request). */
const declared = new Set<string>();

/** Whether a route declares this query parameter (the access log keeps only those: access-log.ts). */
export function isDeclaredParameter(name: string): boolean {
  return declared.has(name);
}

/** A route's query once read: optional parameters have their defaults, so every one is present. */
export type QueryOf<S extends TObject> = Required<Static<S>>;

function defaultsOf(schema: TObject): string[] {
  const properties = schema.properties as Record<string, TSchema & { default?: unknown }>;
  const required = new Set(schema.required ?? []);
  const missing = Object.keys(properties).filter((name) => !required.has(name) && properties[name]!.default === undefined);
  if (missing.length > 0) throw new Error(`Query parameters ${missing.join(", ")} are optional without a default; give each a default.`);
  return Object.keys(properties);
}

/**
 * The transform hook of a route: applies the strict reader before Elysia's own validation, and
 * returns `queryOf`, which types the handler's query from the same schema.
 */
export function strictQuery<S extends TObject>(schema: S) {
  const names = defaultsOf(schema);
  const known = new Set(names);
  for (const name of names) declared.add(name);
  const read = readerOf(schema);
  // The reader is the schema's one validation pass: Elysia skips its own check of a schema marked
  // noValidate (it would check again what the reader has just checked, more leniently).
  (schema as TObject & { noValidate?: boolean }).noValidate = true;
  return {
    transform({ request, query }: { request: Request; query: Record<string, unknown> }) {
      const { read: parsed, stated } = read(request);
      statedQueries.set(request, stated);
      const unknown = [...queryOfRequest(request).values.keys()].filter((name) => !known.has(name));
      if (unknown.length > 0) unknownWarnings.set(request, unknownParameterWarning(unknown, names)!);
      for (const key of Object.keys(query)) if (!(key in parsed)) delete query[key];
      Object.assign(query, parsed);
    },
    /** The query the transform filled in, every parameter present. */
    queryOf(query: Static<S>): QueryOf<S> {
      for (const name of names) {
        if ((query as Record<string, unknown>)[name] === undefined) throw new Error(`Query parameter '${name}' was not read.`);
      }
      // Checked just above: every parameter of the schema is present.
      return query as QueryOf<S>;
    },
  };
}
