/**
 * The SSURGO polygon query: map-unit polygons (delineations) that meet a box, one row per polygon
 * with its map unit and its geometry as WKT, ordered by polygon key, one row more than the page so
 * the caller can tell that more exist. The SDA form is the query soilDB's `SDA_spatialQuery` sends
 * for `what = "mupolygon"` (`mupolygongeo.STIntersects(geometry::STGeomFromText(..., 4326)) = 1`,
 * geometry by `STAsText()`); the snapshot form finds candidates in the R*Tree, keeps those whose
 * rings meet the box and writes their rings as WKT, so one decoder reads both.
 */
import type { Database } from "bun:sqlite";
import { ValidationError } from "../../errors";
import { encodedRingsMeetBox, polygonsOfRings, signedArea2 } from "../../upstream/snapshot-polygon-parts";
import { decodeRings } from "../../upstream/snapshot-geometry";
import { answerAsSda, decodeSdaTable, type Cell, type SdaAnswer, type SqlType } from "../../upstream/sda/payload";
import { sqlInteger, sqlNumber } from "../../upstream/sda/sql";
import { Payload, type QueryKind } from "../../upstream/transport";
import type { SnapshotFile } from "../../upstream/snapshot";
import type { BboxParams, MapUnitPolygon } from "../provider";
import { parseWkt, writeWkt } from "./wkt";

export const SSURGO_POLYGON_COLUMNS = ["mupolygonkey", "areasymbol", "musym", "mukey", "muname", "geom"] as const;

/** SQL Server types SDA reports for these columns (mupolygon, mapunit; STAsText() is nvarchar(max)). */
const TYPES: SqlType[] = [
  "int",
  { name: "varchar", size: 20 },
  { name: "varchar", size: 6 },
  "int",
  { name: "varchar", size: 240 },
  { name: "nvarchar", size: 2147483647 },
];

/** Largest page the polygon query may ask for (the API allows 5000). */
const MAX_ROWS = 5000;

export function ssurgoPolygonSql({ bbox, limit }: BboxParams): string {
  const [minLon, minLat, maxLon, maxLat] = bbox;
  const w = sqlNumber(minLon, "bbox min_lon", -180, 180);
  const s = sqlNumber(minLat, "bbox min_lat", -90, 90);
  const e = sqlNumber(maxLon, "bbox max_lon", -180, 180);
  const n = sqlNumber(maxLat, "bbox max_lat", -90, 90);
  if (!(minLon < maxLon && minLat < maxLat)) throw new ValidationError("bbox minimum must be less than its maximum.");
  const top = sqlInteger(limit + 1, "limit", 2, MAX_ROWS + 1);
  return `SELECT TOP (${top})
  P.mupolygonkey,
  P.areasymbol,
  P.musym,
  P.mukey,
  mu.muname,
  mupolygongeo.STAsText() AS geom
FROM mupolygon AS P
INNER JOIN mapunit AS mu ON mu.mukey = P.mukey
WHERE mupolygongeo.STIntersects(geometry::STGeomFromText('POLYGON((${w} ${s}, ${e} ${s}, ${e} ${n}, ${w} ${n}, ${w} ${s}))', 4326)) = 1
ORDER BY P.mupolygonkey`;
}

type Row = { id: number; areasymbol: string | null; musym: string | null; mukey: string; muname: string | null; rings: Uint8Array };

function answer(rows: Cell[][]): Payload {
  return Payload.ofJson(answerAsSda(SSURGO_POLYGON_COLUMNS, TYPES, rows).payload);
}

function prepareSnapshot(file: SnapshotFile): (params: BboxParams) => Payload {
  const db: Database = file.db;
  if (!file.has("mupolygon") || !file.has("mapunit")) return () => answer([]);
  const candidates = db.prepare<Row, [number, number, number, number]>(
    `SELECT p.id, p.areasymbol, p.musym, p.mukey, mu.muname, p.rings
     FROM mupolygon_rtree r JOIN mupolygon p ON p.id = r.id JOIN mapunit mu ON mu.mukey = p.mukey
     WHERE r.max_x >= ?1 AND r.min_x <= ?3 AND r.max_y >= ?2 AND r.min_y <= ?4
     ORDER BY p.id`,
  );
  return ({ bbox: [w, s, e, n], limit }) => {
    const rows: Cell[][] = [];
    for (const row of candidates.iterate(w, s, e, n)) {
      if (!encodedRingsMeetBox(row.rings, w, s, e, n)) continue;
      const wkt = writeWkt(polygonsOfRings(decodeRings(row.rings)));
      rows.push([String(row.id), row.areasymbol, row.musym, row.mukey, row.muname, wkt]);
      if (rows.length > limit) break;
    }
    return answer(rows);
  };
}

export const polygonQuery: QueryKind<BboxParams, SdaAnswer> = {
  kind: "ssurgo_polygons",
  columns: SSURGO_POLYGON_COLUMNS,
  key: ({ bbox, limit }) => `${bbox.join(",")}:${limit}`,
  forms: { sda: ssurgoPolygonSql, snapshot: { prepare: prepareSnapshot } },
  decode: (payload) => decodeSdaTable(payload, SSURGO_POLYGON_COLUMNS),
  raw: (answer) => answer.payload,
};

/**
 * The answer's polygons, at most `limit` (`truncated` when the upstream sent more), rings wound as
 * RFC 7946 asks (outer counter-clockwise, holes clockwise); polygons whose WKT is EMPTY are left out.
 */
export function polygonsOf(answer: SdaAnswer, limit: number): { polygons: MapUnitPolygon[]; truncated: boolean } {
  const { columns, rows } = answer.table;
  const at = (name: (typeof SSURGO_POLYGON_COLUMNS)[number]) => columns.indexOf(name);
  const [key, area, symbol, mukey, name, geom] = [at("mupolygonkey"), at("areasymbol"), at("musym"), at("mukey"), at("muname"), at("geom")];
  const polygons: MapUnitPolygon[] = [];
  for (const row of rows.slice(0, limit)) {
    const shape = parseWkt(row[geom] ?? "POLYGON EMPTY").map(rfc7946Winding);
    if (shape.length === 0 || row[mukey] === null || row[mukey] === undefined) continue;
    polygons.push({ id: row[key] ?? "", mapUnitKey: row[mukey]!, mapUnitSymbol: row[symbol] ?? null, mapUnitName: row[name] ?? null, areaSymbol: row[area] ?? null, polygons: shape });
  }
  return { polygons, truncated: rows.length > limit };
}

function rfc7946Winding(polygon: number[][][]): number[][][] {
  return polygon.map((ring, i) => {
    const ccw = signedArea2(ring) > 0;
    return (i === 0) === ccw ? ring : [...ring].reverse();
  });
}
