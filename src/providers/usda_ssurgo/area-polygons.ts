/**
 * The SSURGO area query (GET /v1/soil/aoi, docs/decisions.md#areas): the map-unit polygons that meet an
 * area of interest, each cut to it, one row per polygon with its map unit and the cut geometry as WKT,
 * in polygon-key order, one row more than the page so the caller can tell that more exist.
 *
 * The SDA form is the query soilDB's `SDA_spatialQuery(geom, what = "mupolygon", geomIntersection =
 * TRUE)` sends: `mupolygongeo.STIntersection(<area>).STAsText()` over the rows where
 * `mupolygongeo.STIntersects(<area>) = 1`, bounded by TOP. SQL Server's `geometry` type is planar in
 * longitude and latitude, as the snapshot form is: it finds candidates in the R*Tree and cuts each
 * (geometry/clip.ts), handing the cut polygons over as coordinate arrays, which SDA's WKT becomes at its
 * edge (docs/decisions.md#decode-once): one decoder reads both.
 * The area's numbers reach the SQL only through `sqlNumber` (range-checked plain decimals).
 */
import type { Database } from "bun:sqlite";
import { intersection } from "../../geometry/clip";
import { polygonsOfRings, rfc7946Winding, ringsBBox, type Ring } from "../../geometry/rings";
import { readPolygonalWkt, writeWkt } from "../../geometry/wkt";
import { decodeRings } from "../../upstream/snapshot-geometry";
import type { SdaPayload } from "../../upstream/sda/payload";
import { sqlInteger, sqlNumber } from "../../upstream/sda/sql";
import { SURVEY_AREA_DATASETS } from "../../upstream/snapshot-schema";
import type { Payload, QueryKind } from "../../upstream/transport";
import type { SnapshotFile } from "../../upstream/snapshot";
import type { AreaParams, MapUnitPolygon } from "../provider";
import { MAX_POLYGON_ROWS, SSURGO_POLYGON_COLUMNS, mergePolygonPages, nativeAnswer, polygonRow, polygonRowsOf, polygonSelect, sdaGeometry, type PolygonRow } from "./polygons";

const AXES = ["longitude", "latitude"] as const;

/** The area as WKT, every number range-checked: POLYGON ((lon lat, ...), (...)). */
export function areaWkt(rings: readonly Ring[]): string {
  return writeWkt([rings], (value, axis, i) => sqlNumber(value, `area vertex ${i + 1} ${AXES[axis]}`, axis === 0 ? -180 : -90, axis === 0 ? 180 : 90));
}

export function ssurgoAreaSql({ rings, limit }: AreaParams): string {
  const area = `geometry::STGeomFromText('${areaWkt(rings)}', 4326)`;
  const top = sqlInteger(limit + 1, "limit", 2, MAX_POLYGON_ROWS + 1);
  return `${polygonSelect(top, `mupolygongeo.STIntersection(${area}).STAsText()`)}
WHERE mupolygongeo.STIntersects(${area}) = 1
ORDER BY P.mupolygonkey`;
}

type Row = { id: number; areasymbol: string | null; musym: string | null; mukey: string; muname: string | null; rings: Uint8Array };

function prepareSnapshot(file: SnapshotFile): (params: AreaParams) => Payload {
  const db: Database = file.db;
  if (!file.has("mupolygon") || !file.has("mapunit")) return () => nativeAnswer([]);
  const candidates = db.prepare<Row, [number, number, number, number]>(
    `SELECT p.id, p.areasymbol, p.musym, p.mukey, mu.muname, p.rings
     FROM mupolygon_rtree r JOIN mupolygon p ON p.id = r.id JOIN mapunit mu ON mu.mukey = p.mukey
     WHERE r.max_x >= ?1 AND r.min_x <= ?3 AND r.max_y >= ?2 AND r.min_y <= ?4
     ORDER BY p.id`,
  );
  return ({ rings, limit }) => {
    const { minX: w, minY: s, maxX: e, maxY: n } = ringsBBox(rings);
    const rows: PolygonRow[] = [];
    for (const row of candidates.iterate(w, s, e, n)) {
      const cut = intersection(polygonsOfRings(decodeRings(row.rings)), rings);
      // Polygons that only touch the area have no part inside it; SDA would send their line or point.
      if (cut.length === 0) continue;
      rows.push(polygonRow(row, cut));
      if (rows.length > limit) break;
    }
    return nativeAnswer(rows);
  };
}

/** The answer with its cut polygons read once, when it is decoded: a geometry that does not read fails the answer before it is cached. */
export interface AreaAnswer {
  cut: MapUnitPolygon[];
  /** Rows the upstream sent (one more than the page when more exist). */
  rows: number;
  /** The upstream's own JSON (the raw form): SDA's as it came, the snapshot's written from its rows. */
  raw(): SdaPayload;
}

/** What SQL Server's STIntersection sends, read once at SDA's edge (lines and points of a touch hold no soil). */
const sdaCut = (text: string) => sdaGeometry(readPolygonalWkt, text, "the intersection of a map-unit polygon and an area");

export const areaPolygonQuery: QueryKind<AreaParams, AreaAnswer> = {
  kind: "ssurgo_area_polygons",
  columns: SSURGO_POLYGON_COLUMNS,
  // The area may have up to 1,000 vertices: its text is hashed into the key, with its vertex count.
  key: ({ rings, limit }) => {
    const text = rings.map((ring) => ring.map((p) => `${p[0]} ${p[1]}`).join(",")).join("|");
    return `${new Bun.CryptoHasher("sha256").update(text).digest("hex")}:${rings.reduce((n, r) => n + r.length, 0)}:${limit}`;
  },
  forms: {
    sda: ssurgoAreaSql,
    snapshot: {
      prepare: prepareSnapshot,
      // The files whose survey areas meet the area's box (docs/decisions.md#national-mirror).
      datasets: SURVEY_AREA_DATASETS,
      reach: ({ rings }) => {
        const { minX, minY, maxX, maxY } = ringsBBox(rings);
        return [minX, minY, maxX, maxY];
      },
      merge: (answers, { limit }) => mergePolygonPages(answers, limit),
    },
  },
  decode: async (payload) => {
    const { rows, raw } = await polygonRowsOf(payload, sdaCut);
    return { cut: cutPolygonsOf(rows), rows: rows.length, raw };
  },
  raw: (answer) => answer.raw(),
};

/**
 * The answer's cut polygons, rings wound as RFC 7946 asks; rows whose cut has no area (a shared edge
 * or corner) are left out.
 */
function cutPolygonsOf(rows: readonly PolygonRow[]): MapUnitPolygon[] {
  const polygons: MapUnitPolygon[] = [];
  for (const [key, area, symbol, mukey, name, cut] of rows) {
    const shape = cut.map(rfc7946Winding);
    if (shape.length === 0 || mukey === null) continue;
    polygons.push({ id: key ?? "", mapUnitKey: mukey, mapUnitSymbol: symbol, mapUnitName: name, areaSymbol: area, polygons: shape });
  }
  return polygons;
}

/** At most `limit` rows' polygons; `truncated` when the upstream sent more rows than that. */
export function areaPolygonsOf(answer: AreaAnswer, limit: number): { polygons: MapUnitPolygon[]; truncated: boolean } {
  const truncated = answer.rows > limit;
  return { polygons: truncated ? answer.cut.slice(0, limit) : answer.cut, truncated };
}
