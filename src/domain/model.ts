/**
 * Models every data answer shares: its cache metadata and the depth interval (the same bounds and
 * defaults for the point query and the pedon detail, docs/decisions.md#depth).
 */
import { t, type Static } from "elysia";
import { Kind, Type, TypeRegistry, type IntegerOptions, type NumberOptions, type TProperties, type TSchema } from "@sinclair/typebox";
import { DECIMAL_PATTERN_TEXT } from "../decimal";

/**
 * A number or an integer in a query string. The OpenAPI document says `type: number` (or integer) with
 * its bounds, as for t.Number; but Elysia turns a query's t.Number into a decoding type and runs
 * TypeBox's decoder over every request's query (twice), although the route's strict reader
 * (`strictQuery`, src/http/query.ts) has already read and checked the value from the schema's bounds.
 * These kinds only ask that the value is the number that reader made (docs/decisions.md#query-parameters).
 */
const QUERY_NUMBER = "LoamQueryNumber";
TypeRegistry.Set<{ type: string }>(QUERY_NUMBER, (schema, value) => typeof value === "number" && (schema.type !== "integer" || Number.isInteger(value)));
export const queryNumber = (options: NumberOptions = {}) => Type.Unsafe<number>({ ...options, [Kind]: QUERY_NUMBER, type: "number" });
export const queryInteger = (options: IntegerOptions = {}) => Type.Unsafe<number>({ ...options, [Kind]: QUERY_NUMBER, type: "integer" });

/** Every object model is closed: a field the contract does not name is an error. */
export const closed = { additionalProperties: false } as const;
/** A model or null (a documented absence, never a missing field). */
export const nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);

export const CacheMetadata = t.Object(
  {
    hit: t.Boolean({ description: "True when the upstream answer came from Loam's cache." }),
    stored_at: t.String({ format: "date-time", description: "When the upstream answer was retrieved and stored." }),
    // TypeBox's own Integer: Elysia's t.Integer also admits numeric strings, which the document would then say.
    age_seconds: Type.Integer({ minimum: 0 }),
  },
  { ...closed, title: "CacheMetadata" },
);
export type CacheMetadata = Static<typeof CacheMetadata>;

/**
 * A data answer's envelope, declared once (docs/architecture.md#answers): `api_version` and `status` first,
 * the answer's own members, then `cache` and `warnings` last; a closed object named `title`.
 */
export function envelope<T extends TProperties>(title: string, members: T, options: { description?: string } = {}) {
  return t.Object(
    { api_version: t.String(), status: t.Literal("experimental"), ...members, cache: CacheMetadata, warnings: t.Array(t.String()) },
    { ...closed, title, ...options },
  );
}

export const DepthInterval = t.Object(
  { top_cm: t.Number(), bottom_cm: t.Number() },
  { ...closed, title: "DepthInterval", description: "Depth below the soil surface, centimetres." },
);

/** The point a query asks about (the point query and the point summary). */
/**
 * The `pattern` of a `bbox` parameter: four decimals as `parseBbox` reads them (src/pedons/bbox.ts),
 * which checks more (ranges, box size), so the document never promises less than the API does.
 * Documentation only: the strict reader and parseBbox are the checks (docs/decisions.md#query-parameters).
 */
export const BBOX_PATTERN = `^${DECIMAL_PATTERN_TEXT},${DECIMAL_PATTERN_TEXT},${DECIMAL_PATTERN_TEXT},${DECIMAL_PATTERN_TEXT}$`;

export const COORDINATE_PARAMETERS = {
  latitude: queryNumber({ minimum: -90, maximum: 90, description: "WGS84 latitude, decimal degrees, -90 to 90.", examples: [41.944131] }),
  longitude: queryNumber({ minimum: -180, maximum: 180, description: "WGS84 longitude, decimal degrees, -180 to 180.", examples: [-94.359608] }),
};

/**
 * Query parameters of the depth interval, shared by the point query and the pedon detail (the same
 * bounds and defaults). depth_bottom_cm > depth_top_cm is checked by `checkDepthInterval`.
 */
export const DEPTH_PARAMETERS = {
  depth_top_cm: t.Optional(queryNumber({ minimum: 0, maximum: 199, default: 0, description: "Top of the depth interval, cm, 0 to 199." })),
  depth_bottom_cm: t.Optional(
    queryNumber({ exclusiveMinimum: 0, maximum: 200, default: 200, description: "Bottom of the depth interval, cm, greater than 0 and at most 200, and greater than depth_top_cm." }),
  ),
};

/**
 * `format` of the routes that also answer as a table (docs/architecture.md#tables): in the route's
 * query schema, so a value other than json or csv is refused (422) before the service runs, and the
 * parameter is documented with the route. The response pipeline reads it (with Accept) to choose.
 */
/**
 * `cursor` on every paged route (docs/decisions.md#cursors): the token a `next` link carries as its own
 * `cursor` parameter. A `next` link is a path (or URL), not a cursor; given whole, its token is read
 * from it (src/domain/cursor.ts), so passing either works.
 */
export const CURSOR_PARAMETER = {
  cursor: t.Optional(
    t.String({
      maxLength: 2048,
      default: "",
      description:
        "Where a page continues: the `cursor` parameter of the previous page's `next` link (or Link header), an opaque token such as WzEsIjIwOTIiLC4uLl0. `next` itself is the whole path of the next page; given whole (path or URL), its `cursor` is read from it. The token belongs to its query: another bbox, provider, properties or collection with it is a 422 (400 on /ogc), as is an edited one. Empty or absent: the first page.",
    }),
  ),
};

export const FORMAT_PARAMETER = {
  format: t.Optional(
    t.UnionEnum(["json", "csv"], {
      default: "json",
      description:
        "json (default) or csv: RFC 4180, UTF-8, a header row, one row per record, provenance as columns, warnings last. Accept: text/csv does the same when format is absent. Errors stay JSON.",
    }),
  ),
};

/**
 * An RFC 7946 FeatureCollection with Loam's foreign members (provider, the effective query, cache,
 * truncated, warnings): the one shape of every bbox route (pedons, map-unit polygons).
 */
export function featureCollection<Q extends TSchema, F extends TSchema>(
  query: Q,
  feature: F,
  doc: { title: string; description: string; truncated: string },
) {
  return t.Object(
    {
      type: t.Literal("FeatureCollection"),
      provider: t.String(),
      query,
      cache: CacheMetadata,
      truncated: t.Boolean({ description: doc.truncated }),
      warnings: t.Array(t.String()),
      features: t.Array(feature),
    },
    { ...closed, title: doc.title, description: doc.description },
  );
}

/** GeoJSON polygons in WGS84 (map-unit polygons, areas of interest). */
export const PolygonGeometry = t.Object(
  {
    type: t.Literal("Polygon"),
    coordinates: t.Array(t.Array(t.Array(t.Number(), { minItems: 2, maxItems: 2 }), { minItems: 4 }), {
      description: "Rings of [longitude, latitude] positions, WGS84: the outer ring (counter-clockwise) first, then its holes (clockwise).",
    }),
  },
  { ...closed, title: "PolygonGeometry" },
);

export const MultiPolygonGeometry = t.Object(
  {
    type: t.Literal("MultiPolygon"),
    coordinates: t.Array(t.Array(t.Array(t.Array(t.Number(), { minItems: 2, maxItems: 2 }), { minItems: 4 })), {
      description: "Polygons, each as a Polygon's coordinates.",
    }),
  },
  { ...closed, title: "MultiPolygonGeometry" },
);
