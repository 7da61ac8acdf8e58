/**
 * A table's columns derived from the models of what its rows flatten (docs/decisions.md#csv-columns):
 * a column per leaf member of each model, in the model's order, named by its path joined with `_`.
 * What the CSV does otherwise is declared next to the derivation, each with its why: a nested member
 * named without its parent's prefix, a renamed leaf, a leaf computed (an array joined as text), a leaf
 * read as two columns, a leaf or body member left out, a column with no member in the model
 * (`answer_warnings`), and the header's order where today's CSV (docs/api.md) is not the model's. So a
 * member added to a model is a column (appended after the ordered ones) unless a table declares why
 * not; a declaration naming no member is refused when the table is made; and
 * test/tables/derived-columns.test.ts holds every table to its models and its route's body model.
 */
import type { TSchema } from "@sinclair/typebox";
import type { Cell, Column } from "./csv";

/** One model a row flattens, and how to reach its object from a row. */
export interface Part<Row> {
  model: TSchema;
  /** Where the model sits in the route's body model (dotted, `[]` for an array's items; `""`: the body itself). */
  at: string;
  /** Other places of the body whose members of the same names these columns also read (the area's own summaries beside its map units'). */
  alsoAt?: readonly string[];
  /** The object the model describes (null or undefined: every cell of the part is empty). */
  of: (row: Row) => unknown;
  /** The prefix of a nested object's members where it is not its path (`""`: the members' own names), by dotted path. */
  prefix?: Readonly<Record<string, string>>;
  /** A leaf's column name where the path does not give it, by dotted path. */
  rename?: Readonly<Record<string, string>>;
  /** A leaf whose cell is computed (an array joined as text, a value from elsewhere), by dotted path. */
  cells?: Readonly<Record<string, (row: Row) => Cell>>;
  /** A leaf read as several columns (a point's coordinates as longitude and latitude), by dotted path, in its place. */
  split?: Readonly<Record<string, readonly (readonly [header: string, read: (row: Row) => Cell])[]>>;
  /** How an array member becomes one cell where no `cells` entry says (default: its items space-separated). */
  arrays?: (value: readonly unknown[]) => Cell;
  /** Leaves that are not columns, by the dotted path of the leaf or of an object above it, each with why. */
  omit?: Readonly<Record<string, string>>;
}

/**
 * A column with no member in the parts' models: its name, its reader, why it exists, and the body's
 * member it reads where it reads one (the answer's own members of a body whose model is a feature's,
 * which this room does not import: docs/architecture.md#rooms).
 */
export type Extra<Row> = readonly [header: string, read: (row: Row) => Cell, why: string, member?: string];

export interface TableSpec<Row> {
  parts: readonly Part<Row>[];
  extra?: readonly Extra<Row>[];
  /** The body's members no part and no extra reads, by dotted path (`[]` for items), each with why. */
  bodyOmit?: Readonly<Record<string, string>>;
  /** The header's order where it is not the parts' (then the extras'); a column not listed follows, in derived order. */
  order?: readonly string[];
}

/** A row of a point collection: the GeoJSON feature it flattens. */
type PointFeatureRow = { feature: { geometry: { coordinates: readonly number[] } } };

/**
 * The part of a point collection's row that flattens its feature (`features[]`): the properties by their
 * own names, the point as longitude and latitude (latitude first where the route's CSV has it so), and
 * the feature's `type`, `id` (held by the key column) and `geometry.type` left out.
 */
export function pointFeaturePart<Row extends PointFeatureRow>(
  model: TSchema,
  keyColumn: string,
  options: { latitudeFirst?: boolean; arrays?: Part<Row>["arrays"]; omit?: Readonly<Record<string, string>> } = {},
): Part<Row> {
  const longitude = ["longitude", (row: Row) => row.feature.geometry.coordinates[0]] as const;
  const latitude = ["latitude", (row: Row) => row.feature.geometry.coordinates[1]] as const;
  return {
    model,
    at: "features[]",
    of: (row) => row.feature,
    prefix: { properties: "" },
    ...(options.arrays ? { arrays: options.arrays } : {}),
    split: { "geometry.coordinates": options.latitudeFirst ? [latitude, longitude] : [longitude, latitude] },
    omit: { type: "always Feature", id: `equals ${keyColumn}, which is the column`, "geometry.type": "always Point", ...options.omit },
  };
}

/** Why an answer envelope's own members are not columns (docs/architecture.md#answers). */
export const ENVELOPE_OMITTED = {
  api_version: "the same on every answer: in the JSON",
  status: "the same on every answer: in the JSON",
} as const;

/** Why the cache is not a column: its members change under one ETag, or say when Loam stored the answer, not when its source read it. */
export const CACHE_WHY = "changes under one ETag, or says when Loam stored the answer: a table must not read it (docs/architecture.md#tables)";

/** Why the cache's members are not columns: they change under one ETag, which a table must not read (docs/architecture.md#tables). */
export const CACHE_OMITTED = {
  "cache.hit": "changes under one ETag: a table must not read it (docs/architecture.md#tables)",
  "cache.age_seconds": "changes under one ETag: a table must not read it (docs/architecture.md#tables)",
} as const;

const objectOf = (schema: TSchema): TSchema | undefined => {
  if (schema.type === "object" && (schema as { properties?: unknown }).properties) return schema;
  return (schema as { anyOf?: TSchema[] }).anyOf?.find((variant) => variant.type === "object" && (variant as { properties?: unknown }).properties);
};

/** Every leaf of an object schema in the model's order, as its path (a nullable object is walked; an array is a leaf). */
function leavesOf(schema: TSchema, path: readonly string[] = []): (readonly string[])[] {
  const object = objectOf(schema);
  if (!object) return [path];
  return Object.entries((object as unknown as { properties: Record<string, TSchema> }).properties).flatMap(([key, child]) => leavesOf(child, [...path, key]));
}

/** A part's declarations that name no leaf or object of its model (a member renamed or gone: the declaration is stale). */
function staleDeclarations<Row>(part: Part<Row>): string[] {
  const known = new Set(leavesOf(part.model).flatMap((path) => path.map((_, i) => path.slice(0, i + 1).join("."))));
  const declared = [part.prefix, part.rename, part.cells, part.split, part.omit].flatMap((entries) => Object.keys(entries ?? {}));
  return declared.filter((dotted) => !known.has(dotted));
}

const at = (value: unknown, path: readonly string[]): unknown => path.reduce<unknown>((v, key) => (v && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined), value);

/** An array's items as text: scalars as written, objects as JSON. */
export const itemsOf = (value: readonly unknown[]): string[] => value.map((v) => (typeof v === "object" ? JSON.stringify(v) : String(v)));

/** An array member as one cell: its items space-separated (a `transformations`-like array declares its own cell). */
const spaced = (value: readonly unknown[]): Cell => itemsOf(value).join(" ");

const cellOf = (value: unknown, array: (value: readonly unknown[]) => Cell): Cell => (Array.isArray(value) ? array(value) : (value as Cell));

/** A leaf's header: each parent's prefix (declared, or its key), then the leaf's key. */
function headerOf<Row>(part: Part<Row>, path: readonly string[]): string {
  const dotted = path.join(".");
  const renamed = part.rename?.[dotted];
  if (renamed !== undefined) return renamed;
  const segments: string[] = [];
  for (let i = 0; i < path.length - 1; i += 1) {
    const declared = part.prefix?.[path.slice(0, i + 1).join(".")];
    if (declared !== undefined) segments.splice(0, segments.length, ...(declared === "" ? [] : [declared]));
    else segments.push(path[i]!);
  }
  return [...segments, path[path.length - 1]!].join("_");
}

/** Why a leaf is not a column (it or an object above it is declared omitted), or undefined. */
function omittedWhy<Row>(part: Part<Row>, path: readonly string[]): string | undefined {
  for (let i = path.length; i > 0; i -= 1) {
    const why = part.omit?.[path.slice(0, i).join(".")];
    if (why !== undefined) return why;
  }
  return undefined;
}

function partColumns<Row>(part: Part<Row>): Column<Row>[] {
  const stale = staleDeclarations(part);
  if (stale.length > 0) throw new Error(`declarations naming no member of ${String(part.model.title ?? "the model")}: ${stale.join(", ")}`);
  return leavesOf(part.model)
    .filter((path) => omittedWhy(part, path) === undefined)
    .flatMap((path): Column<Row>[] => {
      const dotted = path.join(".");
      const split = part.split?.[dotted];
      if (split) return split.map(([header, read]): Column<Row> => [header, read]);
      const computed = part.cells?.[dotted];
      const array = part.arrays ?? spaced;
      return [[headerOf(part, path), computed ?? ((row) => cellOf(at(part.of(row), path), array))]];
    });
}

/** The table's columns: every leaf not omitted, then the extras, in the declared order where there is one. */
export function deriveColumns<Row>(spec: TableSpec<Row>): readonly Column<Row>[] {
  const derived: Column<Row>[] = [...spec.parts.flatMap(partColumns), ...(spec.extra ?? []).map(([name, read]): Column<Row> => [name, read])];
  const names = derived.map(([name]) => name);
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  if (twice.length > 0) throw new Error(`columns derived twice: ${twice.join(", ")}`);
  if (!spec.order) return derived;
  const unknown = spec.order.filter((name) => !names.includes(name));
  if (unknown.length > 0) throw new Error(`ordered columns no model member or extra gives: ${unknown.join(", ")}`);
  const rank = (name: string) => {
    const i = spec.order!.indexOf(name);
    return i === -1 ? spec.order!.length + names.indexOf(name) : i;
  };
  return [...derived].sort(([a], [b]) => rank(a) - rank(b));
}

/** The header row a spec derives. */
export const columnNames = <Row>(spec: TableSpec<Row>): string[] => deriveColumns(spec).map(([name]) => name);
