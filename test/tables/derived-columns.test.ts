/**
 * Every table's columns are derived from the models of what its rows flatten (docs/decisions.md#csv-columns):
 * each leaf member of a model is a column or declared omitted with a why; each column with no member
 * declares its why; the header a route sends is the derived list; and a member added to a model is a
 * column without anyone restating the list.
 */
import { describe, expect, test } from "bun:test";
import { Type, type TSchema } from "@sinclair/typebox";
import { useLoam } from "../support/server";
import { parseRfc4180 } from "../support/csv";
import { columnNames, deriveColumns, type TableSpec } from "../../src/tables/derive";
import { LAB_OBSERVATION_SPEC, LOCATION_SPEC, PEDON_FEATURE_SPEC } from "../../src/tables/flatten";
import { SERIES_SPEC } from "../../src/tables/series";
import { SUMMARY_SPEC } from "../../src/tables/summary";
import { SummaryResponse } from "../../src/summaries/model";
import { AOI_SPEC, POINTS_SPEC } from "../../src/tables/areas";
import { AoiReport, PointsResponse } from "../../src/areas/model";
import { MAP_UNIT_FEATURE_SPEC } from "../../src/tables/mapunits";
import { MapUnitCollection } from "../../src/mapunits/model";
import { LAYER_TABLE_SPEC } from "../../src/tables/layers";
import { LayerTable } from "../../src/pedons/layers-model";
import { MODELED_SPEC } from "../../src/shapes/point_values/table";
import { STATION_SERIES_SPEC, STATION_SPEC } from "../../src/shapes/site_series/table";
import { LocationResponse } from "../../src/location/model";
import { PedonCollection, PedonResponse } from "../../src/pedons/model";
import { SeriesResponse } from "../../src/domain/series";
import { GeochemSiteCollection, GeochemSiteResponse } from "../../src/geochem/model";
import { ModeledResponse } from "../../src/shapes/point_values/model";
import { StationCollection, StationSeriesResponse } from "../../src/shapes/site_series/model";
import { GEOCHEM_OBSERVATION_SPEC, GEOCHEM_SITE_SPEC } from "../../src/geochem/table";
import { EVIDENCE_SPEC } from "../../src/evidence/table";
import { EvidenceResponse } from "../../src/evidence/model";

/** The leaves of a TypeBox object, walked here (not by the helper): nested and nullable objects entered, arrays and scalars kept. */
function leaves(schema: TSchema, path: string[] = []): string[] {
  const object = schema.type === "object" ? schema : (schema.anyOf as TSchema[] | undefined)?.find((s) => s.type === "object");
  if (!object?.properties) return [path.join(".")];
  return Object.entries(object.properties as Record<string, TSchema>).flatMap(([key, child]) => leaves(child, [...path, key]));
}

/**
 * The body's leaves, walked into array items (`name[]`); an array of scalars, or a union of arrays, is a leaf.
 * A union of objects is walked as the variant a part reads (`read`: the parts' models), else its first.
 */
function bodyLeaves(schema: TSchema, read: readonly TSchema[] = [], path: string[] = []): string[] {
  const items = schema.type === "array" ? (schema.items as TSchema) : undefined;
  if (items && (items.type === "object" || (items.anyOf as TSchema[] | undefined)?.some((s) => s.type === "object"))) return bodyLeaves(items, read, [...path.slice(0, -1), `${path[path.length - 1]}[]`]);
  const variants = (schema.anyOf as TSchema[] | undefined) ?? [];
  const object = schema.type === "object" ? schema : (variants.find((s) => read.includes(s)) ?? variants.find((s) => s.type === "object"));
  if (!object?.properties) return [path.join(".")];
  return Object.entries(object.properties as Record<string, TSchema>).flatMap(([key, child]) => bodyLeaves(child, read, [...path, key]));
}

const under = (leaf: string, member: string) => leaf === member || leaf.startsWith(`${member}.`) || leaf.startsWith(`${member}[]`);

/** The body's members no part, extra or declared omission accounts for. */
function unaccounted(spec: TableSpec<any>, body: TSchema): string[] {
  return bodyLeaves(body, spec.parts.map((part) => part.model)).filter((leaf) => {
    const inPart = spec.parts.some((part) =>
      [part.at, ...(part.alsoAt ?? [])].some((at) => {
        const prefix = at === "" ? "" : `${at}.`;
        if (!leaf.startsWith(prefix)) return false;
        const rest = leaf.slice(prefix.length);
        return leaves(part.model).some((own) => under(rest, own));
      }),
    );
    const inExtra = (spec.extra ?? []).some(([, , , member]) => member !== undefined && under(leaf, member));
    const omitted = Object.keys(spec.bodyOmit ?? {}).some((member) => under(leaf, member));
    return !inPart && !inExtra && !omitted;
  });
}

/** Each table: its spec, the model of the body its route sends, and a route whose CSV it renders (every table route of docs/architecture.md#tables). */
const TABLES: { name: string; spec: TableSpec<any>; body: TSchema; route: string }[] = [
  { name: "location", spec: LOCATION_SPEC, body: LocationResponse, route: "/v1/soil/location?latitude=41.944131&longitude=-94.359608&format=csv" },
  { name: "pedon list", spec: PEDON_FEATURE_SPEC, body: PedonCollection, route: "/v1/pedons?bbox=-96,38.5,-95,39.5&format=csv" },
  { name: "pedon layers", spec: LAYER_TABLE_SPEC, body: LayerTable, route: "/v1/pedons/layers?bbox=-96,38.5,-95,39.5&properties=clay,organic_matter&format=csv" },
  { name: "pedon", spec: LAB_OBSERVATION_SPEC, body: PedonResponse, route: "/v1/pedons/02N0245?format=csv" },
  { name: "summary", spec: SUMMARY_SPEC, body: SummaryResponse, route: "/v1/soil/summary?latitude=41.944131&longitude=-94.359608&format=csv" },
  { name: "map unit", spec: SUMMARY_SPEC, body: SummaryResponse, route: "/v1/soil/mapunits/2765528?properties=drainage_class,clay,ph&format=csv" },
  // Without a summarized property: with one, its flat columns follow summary_unit (test/tables/mapunits.test.ts).
  { name: "map-unit polygons", spec: MAP_UNIT_FEATURE_SPEC, body: MapUnitCollection, route: "/v1/soil/mapunits?bbox=-94.37,41.934,-94.35,41.954&format=csv" },
  { name: "area", spec: AOI_SPEC, body: AoiReport, route: "/v1/soil/aoi?bbox=-94.37,41.934,-94.35,41.954&properties=clay,ph,drainage_class&depth_bottom_cm=30&format=csv" },
  { name: "points", spec: POINTS_SPEC, body: PointsResponse, route: "/v1/soil/points?points=41.944131,-94.359608;0,0&properties=clay,ph&format=csv" },
  { name: "series", spec: SERIES_SPEC, body: SeriesResponse, route: "/v1/series/Clarion?format=csv" },
  { name: "geochemistry sites", spec: GEOCHEM_SITE_SPEC, body: GeochemSiteCollection, route: "/v1/geochem/sites?bbox=-96.7,40.3,-90.1,43.6&property=lead&format=csv" },
  { name: "geochemistry site", spec: GEOCHEM_OBSERVATION_SPEC, body: GeochemSiteResponse, route: "/v1/geochem/sites/3560?format=csv" },
  { name: "modeled", spec: MODELED_SPEC, body: ModeledResponse, route: "/v1/soil/modeled?latitude=18.65&longitude=-71.6&properties=clay,silt&depth_bottom_cm=15&format=csv" },
  { name: "stations", spec: STATION_SPEC, body: StationCollection, route: "/v1/stations?bbox=-100,35,-94,40&format=csv" },
  { name: "station series", spec: STATION_SERIES_SPEC, body: StationSeriesResponse, route: "/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-07-01&end=2010-07-01&format=csv" },
  { name: "evidence", spec: EVIDENCE_SPEC, body: EvidenceResponse, route: "/v1/soil/evidence?latitude=41.944131&longitude=-94.359608&properties=clay,ph&depth_bottom_cm=30&format=csv" },
];

describe("each table's columns are its models' members", () => {
  for (const { name, spec, body } of TABLES) {
    test(`${name}: every leaf of its models is a column or declared omitted with a why; every omission names a member`, () => {
      let expected = 0;
      for (const part of spec.parts) {
        const all = leaves(part.model);
        const omitted = (leaf: string) => Object.keys(part.omit ?? {}).some((key) => leaf === key || leaf.startsWith(`${key}.`));
        for (const [key, why] of Object.entries(part.omit ?? {})) {
          expect(all.some((leaf) => leaf === key || leaf.startsWith(`${key}.`))).toBe(true);
          expect(why.trim().length).toBeGreaterThan(0);
        }
        for (const leaf of all.filter((l) => !omitted(l))) expected += part.split?.[leaf]?.length ?? 1;
      }
      for (const [, , why] of spec.extra ?? []) expect(why.trim().length).toBeGreaterThan(0);
      expected += spec.extra?.length ?? 0;
      expect(columnNames(spec).length).toBe(expected);
      expect(new Set(columnNames(spec)).size).toBe(expected);
    });

    test(`${name}: every member of the body its route sends is read by a part or a column, or declared omitted with a why`, () => {
      expect(unaccounted(spec, body)).toEqual([]);
      for (const [member, why] of Object.entries(spec.bodyOmit ?? {})) {
        expect(bodyLeaves(body).some((leaf) => under(leaf, member))).toBe(true);
        expect(why.trim().length).toBeGreaterThan(0);
      }
    });
  }

  test("a member added to a body's model and read by no part fails the check until it is declared", () => {
    const grown = Type.Object({ ...(PedonResponse.properties as Record<string, TSchema>), added: Type.String() });
    expect(unaccounted(LAB_OBSERVATION_SPEC, grown)).toEqual(["added"]);
    expect(unaccounted({ ...LAB_OBSERVATION_SPEC, bodyOmit: { ...LAB_OBSERVATION_SPEC.bodyOmit, added: "why" } }, grown)).toEqual([]);
  });
});

describe("the header a route sends is the model-derived list", () => {
  const { loam } = useLoam();
  for (const { name, spec, route } of TABLES) {
    test(`${name}: GET ${route.split("?")[0]} as CSV has the derived header, and rows`, async () => {
      const response = await loam.get(route);
      expect(response.status).toBe(200);
      const [header, ...rows] = parseRfc4180(await response.text());
      expect(header).toEqual(columnNames(spec));
      expect(rows.length).toBeGreaterThan(0);
    });
  }
});

describe("a member added to a model is a column", () => {
  const Model = Type.Object({ id: Type.String(), depth: Type.Object({ top_cm: Type.Number(), bottom_cm: Type.Number() }), note: Type.Union([Type.Object({ text: Type.String() }), Type.Null()]) });
  const spec = (model: TSchema): TableSpec<{ v: any }> => ({ parts: [{ model, at: "", of: (row) => row.v, prefix: { note: "" } }], order: ["depth_top_cm", "id"] });

  test("the leaves in the model's order, nested names joined with _, the declared order first", () => {
    expect(columnNames(spec(Model))).toEqual(["depth_top_cm", "id", "depth_bottom_cm", "text"]);
  });

  test("a new member is a column after the ordered ones, read from the row", () => {
    const Grown = Type.Object({ ...Model.properties, added: Type.Number() });
    const columns = deriveColumns(spec(Grown));
    expect(columns.map(([name]) => name)).toEqual(["depth_top_cm", "id", "depth_bottom_cm", "text", "added"]);
    const row = { v: { id: "a", depth: { top_cm: 0, bottom_cm: 5 }, note: null, added: 7 } };
    expect(columns.map(([, read]) => read(row))).toEqual([0, "a", 5, undefined, 7]);
  });

  test("an ordered name no member gives, a name derived twice, or a declaration naming no member is refused when the table is made", () => {
    expect(() => deriveColumns({ parts: [{ model: Model, at: "", of: (row: any) => row }], order: ["nowhere"] })).toThrow("nowhere");
    expect(() => deriveColumns({ parts: [{ model: Model, at: "", of: (row: any) => row, rename: { id: "depth_top_cm" } }] })).toThrow("depth_top_cm");
    expect(() => deriveColumns({ parts: [{ model: Model, at: "", of: (row: any) => row, omit: { "depth.middle_cm": "gone" } }] })).toThrow("depth.middle_cm");
  });
});
