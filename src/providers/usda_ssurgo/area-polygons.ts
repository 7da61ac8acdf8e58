/**
 * The SSURGO area query (GET /v1/soil/aoi, docs/decisions.md#areas): the map-unit polygons that meet an
 * area of interest, each cut to it, one row per polygon with its map unit and the cut geometry as WKT,
 * in polygon-key order, one row more than the page so the caller can tell that more exist.
 *
 * The SDA form is the query soilDB's `SDA_spatialQuery(geom, what = "mupolygon", geomIntersection =
 * TRUE)` sends: `mupolygongeo.STIntersection(<area>).STAsText()` over the rows where
 * `mupolygongeo.STIntersects(<area>) = 1`, bounded by TOP. SQL Server's `geometry` type is planar in
 * longitude and latitude, as the snapshot form is: it finds candidates in the R*Tree and cuts each with
 * polygon-clipping (Martinez-Rueda-Feito sweep with robust predicates), so one decoder reads both.
 * The area's numbers reach the SQL only through `sqlNumber` (range-checked plain decimals).
 */
import type { Database } from "bun:sqlite";
// The package's ES module exports only a default object (its CommonJS build also names the functions).
import polygonClipping, { type Polygon as ClipPolygon } from "polygon-clipping";
import { polygonsOfRings } from "../../upstream/snapshot-polygon-parts";
import { decodeRings } from "../../upstream/snapshot-geometry";
import { answerAsSda, decodeSdaTable, type Cell, type SdaAnswer } from "../../upstream/sda/payload";
import { sqlInteger, sqlNumber } from "../../upstream/sda/sql";
import { Payload, type QueryKind } from "../../upstream/transport";
import type { SnapshotFile } from "../../upstream/snapshot";
import type { AreaParams, MapUnitPolygon } from "../provider";
import { MAX_POLYGON_ROWS, SSURGO_POLYGON_COLUMNS, SSURGO_POLYGON_TYPES, polygonSelect, rfc7946Winding } from "./polygons";
import { parsePolygonalWkt, writeWkt } from "./wkt";


/** The area as WKT, every number range-checked: POLYGON ((lon lat, ...), (...)). */
export function areaWkt(rings: readonly (readonly (readonly number[])[])[]): string {
  const ring = (points: readonly (readonly number[])[]) =>
    `(${points.map(([lon, lat], i) => `${sqlNumber(lon!, `area vertex ${i + 1} longitude`, -180, 180)} ${sqlNumber(lat!, `area vertex ${i + 1} latitude`, -90, 90)}`).join(", ")})`;
  return `POLYGON (${rings.map(ring).join(", ")})`;
}

export function ssurgoAreaSql({ rings, limit }: AreaParams): string {
  const area = `geometry::STGeomFromText('${areaWkt(rings)}', 4326)`;
  const top = sqlInteger(limit + 1, "limit", 2, MAX_POLYGON_ROWS + 1);
  return `${polygonSelect(top, `mupolygongeo.STIntersection(${area}).STAsText()`)}
WHERE mupolygongeo.STIntersects(${area}) = 1
ORDER BY P.mupolygonkey`;
}

type Row = { id: number; areasymbol: string | null; musym: string | null; mukey: string; muname: string | null; rings: Uint8Array };

function boundsOf(rings: readonly (readonly (readonly number[])[])[]): [number, number, number, number] {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const ring of rings) {
    for (const [x, y] of ring) {
      w = Math.min(w, x!);
      e = Math.max(e, x!);
      s = Math.min(s, y!);
      n = Math.max(n, y!);
    }
  }
  return [w, s, e, n];
}

function prepareSnapshot(file: SnapshotFile): (params: AreaParams) => Payload {
  const db: Database = file.db;
  const answer = (rows: Cell[][]) => Payload.ofJson(answerAsSda(SSURGO_POLYGON_COLUMNS, SSURGO_POLYGON_TYPES, rows).payload);
  if (!file.has("mupolygon") || !file.has("mapunit")) return () => answer([]);
  const candidates = db.prepare<Row, [number, number, number, number]>(
    `SELECT p.id, p.areasymbol, p.musym, p.mukey, mu.muname, p.rings
     FROM mupolygon_rtree r JOIN mupolygon p ON p.id = r.id JOIN mapunit mu ON mu.mukey = p.mukey
     WHERE r.max_x >= ?1 AND r.min_x <= ?3 AND r.max_y >= ?2 AND r.min_y <= ?4
     ORDER BY p.id`,
  );
  return ({ rings, limit }) => {
    const [w, s, e, n] = boundsOf(rings);
    const area = rings as ClipPolygon;
    const rows: Cell[][] = [];
    for (const row of candidates.iterate(w, s, e, n)) {
      const cut = polygonClipping.intersection(polygonsOfRings(decodeRings(row.rings)) as ClipPolygon[], area);
      // Polygons that only touch the area have no part inside it; SDA would send their line or point.
      if (cut.length === 0) continue;
      rows.push([String(row.id), row.areasymbol, row.musym, row.mukey, row.muname, writeWkt(cut)]);
      if (rows.length > limit) break;
    }
    return answer(rows);
  };
}

/** The answer with its cut polygons read once, when it is decoded: a geometry that does not read fails the answer before it is cached. */
export interface AreaAnswer extends SdaAnswer {
  cut: MapUnitPolygon[];
}

export const areaPolygonQuery: QueryKind<AreaParams, AreaAnswer> = {
  kind: "ssurgo_area_polygons",
  columns: SSURGO_POLYGON_COLUMNS,
  // The area may have up to 1,000 vertices: its text is hashed into the key, with its vertex count.
  key: ({ rings, limit }) => {
    const text = rings.map((ring) => ring.map((p) => `${p[0]} ${p[1]}`).join(",")).join("|");
    return `${new Bun.CryptoHasher("sha256").update(text).digest("hex")}:${rings.reduce((n, r) => n + r.length, 0)}:${limit}`;
  },
  forms: { sda: ssurgoAreaSql, snapshot: { prepare: prepareSnapshot } },
  decode: (payload) => {
    const answer = decodeSdaTable(payload, SSURGO_POLYGON_COLUMNS);
    return { ...answer, cut: cutPolygonsOf(answer) };
  },
  raw: (answer) => answer.payload,
};

/**
 * The answer's cut polygons, rings wound as RFC 7946 asks; rows whose cut has no area (a shared edge
 * or corner) are left out.
 */
function cutPolygonsOf(answer: SdaAnswer): MapUnitPolygon[] {
  const { columns, rows } = answer.table;
  const at = (name: (typeof SSURGO_POLYGON_COLUMNS)[number]) => columns.indexOf(name);
  const [key, area, symbol, mukey, name, geom] = [at("mupolygonkey"), at("areasymbol"), at("musym"), at("mukey"), at("muname"), at("geom")];
  const polygons: MapUnitPolygon[] = [];
  for (const row of rows) {
    const shape = parsePolygonalWkt(row[geom] ?? "POLYGON EMPTY").map(rfc7946Winding);
    if (shape.length === 0 || row[mukey] === null || row[mukey] === undefined) continue;
    polygons.push({ id: row[key] ?? "", mapUnitKey: row[mukey]!, mapUnitSymbol: row[symbol] ?? null, mapUnitName: row[name] ?? null, areaSymbol: row[area] ?? null, polygons: shape });
  }
  return polygons;
}

/** At most `limit` rows' polygons; `truncated` when the upstream sent more rows than that. */
export function areaPolygonsOf(answer: AreaAnswer, limit: number): { polygons: MapUnitPolygon[]; truncated: boolean } {
  const truncated = answer.table.rows.length > limit;
  return { polygons: truncated ? answer.cut.slice(0, limit) : answer.cut, truncated };
}
