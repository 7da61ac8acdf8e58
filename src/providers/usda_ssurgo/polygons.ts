/**
 * The SSURGO polygon query: map-unit polygons (delineations) that meet a box, one row per polygon
 * with its map unit and its geometry as WKT, ordered by polygon key, one row more than the page so
 * the caller can tell that more exist. The SDA form is the query soilDB's `SDA_spatialQuery` sends
 * for `what = "mupolygon"` (`mupolygongeo.STIntersects(geometry::STGeomFromText(..., 4326)) = 1`,
 * geometry by `STAsText()`); the snapshot form finds candidates in the R*Tree, keeps those whose
 * rings meet the box and writes their rings as WKT, so one decoder reads both.
 */
import type { Database } from "bun:sqlite";
import { UpstreamError, ValidationError } from "../../errors";
import { encodedRingsMeetBox, polygonsOfRings, signedArea2 } from "../../upstream/snapshot-polygon-parts";
import { decodeRings } from "../../upstream/snapshot-geometry";
import { answerAsSda, decodeSdaTable, type Cell, type SdaPayload, type SqlType } from "../../upstream/sda/payload";
import { sqlInteger, sqlNumber } from "../../upstream/sda/sql";
import { Payload, type QueryKind } from "../../upstream/transport";
import type { SnapshotFile } from "../../upstream/snapshot";
import type { BboxParams, MapUnitPolygon } from "../provider";
import { readWkt, writeWkt } from "./wkt";
import { upstreamMapUnitKey } from "./mapunit";

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

/**
 * The budget of one polygon answer (docs/decisions.md#polygon-budget): its WKT text and the points it
 * holds. Past it the answer is refused (502 upstream_error naming the budget) before it is stored, so
 * no request decodes, keeps or renders more. A page of 5,000 polygons of a dense survey stays within
 * it; SDA's own cap is 32 MiB of JSON per query.
 */
export const POLYGON_ANSWER_MAX_BYTES = 32 * 1024 * 1024;
export const POLYGON_ANSWER_MAX_POINTS = 1_250_000;
/** Decoding pauses for the event loop after this much work, so no answer holds it longer (docs/decisions.md#polygon-budget). */
const DECODE_SLICE_MS = 20;

/**
 * A polygon answer decoded once (docs/decisions.md#decode-once): every row's polygons read from its
 * WKT and wound as RFC 7946 asks, kept with the answer in the memory cache, so a hit or a 304 never
 * reads WKT again. `payload` is the upstream's own JSON (the raw form).
 */
export interface PolygonAnswer {
  polygons: MapUnitPolygon[];
  /** Rows the upstream sent (one more than the page when more exist; EMPTY geometries included). */
  rows: number;
  points: number;
  payload: SdaPayload;
}

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

function budgetError(what: string): UpstreamError {
  return new UpstreamError(`Soil Data Access answered with a map-unit polygon answer of ${what}; narrow the bbox or lower limit.`);
}

/** Decode a polygon answer: the table checked, then each row's WKT, in slices of at most DECODE_SLICE_MS. */
export async function decodePolygonAnswer(payload: Payload): Promise<PolygonAnswer> {
  const chars = payload.text().length;
  // A JS string's length counts UTF-16 units; WKT and keys are ASCII, so it is the byte count.
  if (chars > POLYGON_ANSWER_MAX_BYTES) throw budgetError(`${chars} bytes, over Loam's budget of ${POLYGON_ANSWER_MAX_BYTES} bytes per polygon answer`);
  const { table, payload: json } = decodeSdaTable(payload, SSURGO_POLYGON_COLUMNS);
  const at = (name: (typeof SSURGO_POLYGON_COLUMNS)[number]) => table.columns.indexOf(name);
  const [key, area, symbol, mukey, name, geom] = [at("mupolygonkey"), at("areasymbol"), at("musym"), at("mukey"), at("muname"), at("geom")];
  const polygons: MapUnitPolygon[] = [];
  let points = 0;
  let sliceStarted = performance.now();
  for (const row of table.rows) {
    const read = readWkt(row[geom] ?? "POLYGON EMPTY");
    points += read.points;
    if (points > POLYGON_ANSWER_MAX_POINTS) throw budgetError(`more than ${POLYGON_ANSWER_MAX_POINTS} points, over Loam's budget of ${POLYGON_ANSWER_MAX_POINTS} points per polygon answer`);
    const shape = read.polygons.map(rfc7946Winding);
    if (shape.length > 0 && row[mukey] !== null && row[mukey] !== undefined) {
      polygons.push({ id: row[key] ?? "", mapUnitKey: upstreamMapUnitKey(row[mukey]!), mapUnitSymbol: row[symbol] ?? null, mapUnitName: row[name] ?? null, areaSymbol: row[area] ?? null, polygons: shape });
    }
    if (performance.now() - sliceStarted > DECODE_SLICE_MS) {
      await pause();
      sliceStarted = performance.now();
    }
  }
  return { polygons, rows: table.rows.length, points, payload: json };
}

export const polygonQuery: QueryKind<BboxParams, PolygonAnswer> = {
  kind: "ssurgo_polygons",
  columns: SSURGO_POLYGON_COLUMNS,
  key: ({ bbox, limit }) => `${bbox.join(",")}:${limit}`,
  forms: { sda: ssurgoPolygonSql, snapshot: { prepare: prepareSnapshot } },
  decode: decodePolygonAnswer,
  raw: (answer) => answer.payload,
};

/**
 * The answer's polygons, at most `limit` (`truncated` when the upstream sent more), rings wound as
 * RFC 7946 asks (outer counter-clockwise, holes clockwise); polygons whose WKT is EMPTY are left out.
 * Decoded once per answer (decodePolygonAnswer): this only takes the page.
 */
export function polygonsOf(answer: PolygonAnswer, limit: number): { polygons: MapUnitPolygon[]; truncated: boolean } {
  const truncated = answer.rows > limit;
  return { polygons: truncated || answer.polygons.length > limit ? answer.polygons.slice(0, limit) : answer.polygons, truncated };
}
function rfc7946Winding(polygon: number[][][]): number[][][] {
  return polygon.map((ring, i) => {
    const ccw = signedArea2(ring) > 0;
    return (i === 0) === ccw ? ring : [...ring].reverse();
  });
}
