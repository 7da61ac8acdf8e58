/**
 * The SSURGO point query: map units, components and horizons under one WGS84 point, one row per
 * map unit x component x horizon. Both forms (SDA T-SQL, snapshot SQLite) select the columns of
 * `columns.ts` in order, so one decoder and one normalizer serve both: the decoder yields typed rows
 * (the snapshot's as read, SDA's strings converted once by their declared kinds).
 */
import type { Database } from "bun:sqlite";
import { pointInEncodedRings } from "../../upstream/snapshot-geometry";
import { byColumn, decodeRows, mergeSnapshotRows, type RowAnswer, type RowColumn } from "../../upstream/sda/rows";
import { selectList, sqlNumber } from "../../upstream/sda/sql";
import { SURVEY_AREA_DATASETS } from "../../upstream/snapshot-schema";
import type { Box, Payload, QueryKind, SnapshotForm } from "../../upstream/transport";
import type { SnapshotFile } from "../../upstream/snapshot";
import type { PointParams } from "../provider";
import { POINT_COLUMNS, POINT_TABLES, SSURGO_POINT_COLUMNS } from "./columns";
import { snapshotSelect } from "./snapshot-select";

/** The map units under a point, as SDA finds them (WKT is lon-lat order); the checked numbers only. */
export function mukeysAtPointSql({ latitude, longitude }: PointParams): string {
  const lat = sqlNumber(latitude, "latitude", -90, 90);
  const lon = sqlNumber(longitude, "longitude", -180, 180);
  return `SELECT mukey FROM SDA_Get_Mukey_from_intersection_with_WktWgs84('POINT(${lon} ${lat})')`;
}

/**
 * T-SQL for SDA. WKT is lon-lat order. STATSGO2 (areasymbol 'US') overlaps every SSURGO area at
 * 1:250,000 and would add a second, coarser map unit at each point, so it is excluded. The LEFT JOINs
 * keep components without horizons and map units without components, with null keys.
 */
export function ssurgoPointSql(point: PointParams): string {
  return `SELECT
${selectList(POINT_COLUMNS.map((c) => ({ as: c.column, sql: `${c.alias}.${c.column}` })))}
FROM legend AS l
INNER JOIN mapunit AS mu ON mu.lkey = l.lkey
LEFT JOIN sacatalog AS sc ON sc.areasymbol = l.areasymbol
LEFT JOIN component AS c ON c.mukey = mu.mukey
LEFT JOIN chorizon AS ch ON ch.cokey = c.cokey
WHERE mu.mukey IN (${mukeysAtPointSql(point)})
  AND l.areasymbol <> 'US'
ORDER BY mu.mukey, c.comppct_r DESC, c.cokey, ch.hzdept_r`;
}

type Row = Record<string, unknown>;

/** Numeric-string keys (mukey, cokey) sort as numbers, as SDA's int keys do. */
const byKey = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/**
 * The snapshot's map units holding a point, in key order: candidate polygons from the R-tree, then an
 * exact point-in-polygon test. Shared with the map-unit query's point form (mapunit.ts).
 */
export function mapUnitKeysUnder(file: SnapshotFile): (longitude: number, latitude: number) => string[] {
  const candidates = file.db.prepare<Row, [number, number]>(
    `SELECT p.mukey, p.rings FROM mupolygon_rtree r JOIN mupolygon p ON p.id = r.id
     WHERE r.min_x <= ?1 AND r.max_x >= ?1 AND r.min_y <= ?2 AND r.max_y >= ?2`,
  );
  return (longitude, latitude) => {
    const mukeys = new Set<string>();
    for (const c of candidates.all(longitude, latitude)) {
      if (typeof c.mukey === "string" && pointInEncodedRings(c.rings as Uint8Array, longitude, latitude)) mukeys.add(c.mukey);
    }
    return [...mukeys].sort(byKey);
  };
}

/**
 * A national mirror's part of a snapshot form of rows by map unit under a point (docs/decisions.md#national-mirror):
 * the files whose survey areas' boxes hold the point; their rows by map unit key in key order (a map unit
 * is one survey area's, so in one file), each map unit's rows as its file ordered them: one file's answer.
 */
export function atPointMirror(columns: readonly RowColumn[]): Pick<SnapshotForm<PointParams>, "datasets" | "reach" | "merge"> {
  const order = byColumn(columns, "mukey", (a, b) => byKey(String(a ?? ""), String(b ?? "")));
  return {
    datasets: SURVEY_AREA_DATASETS,
    reach: ({ longitude, latitude }): Box => [longitude, latitude, longitude, latitude],
    merge: (answers) => mergeSnapshotRows(answers, columns, order),
  };
}

/** The snapshot form: the map units holding the point, then the same joins as SDA. */
function prepareSnapshot(file: SnapshotFile): (params: PointParams) => Payload {
  const db: Database = file.db;
  const { select, answer } = snapshotSelect(file, POINT_COLUMNS, POINT_TABLES);
  if (![...Object.values(POINT_TABLES), "mupolygon"].every((t) => file.has(t))) return () => answer([]);
  const under = mapUnitKeysUnder(file);
  const mapUnitRows = db.prepare<Row, [string]>(
    `SELECT ${select.join(", ")}
     FROM mapunit mu
     JOIN legend l ON l.lkey = mu.lkey
     LEFT JOIN sacatalog sc ON sc.areasymbol = l.areasymbol
     LEFT JOIN component c ON c.mukey = mu.mukey
     LEFT JOIN chorizon ch ON ch.cokey = c.cokey
     WHERE mu.mukey = ? AND l.areasymbol <> 'US'
     ORDER BY c.comppct_r DESC, CAST(c.cokey AS INTEGER), c.cokey, ch.hzdept_r, CAST(ch.chkey AS INTEGER)`,
  );
  return ({ longitude, latitude }) => answer(under(longitude, latitude).flatMap((mukey) => mapUnitRows.all(mukey)));
}

export const pointQuery: QueryKind<PointParams, RowAnswer> = {
  kind: "ssurgo_point",
  columns: SSURGO_POINT_COLUMNS,
  key: ({ longitude, latitude }) => `${longitude},${latitude}`,
  forms: { sda: ssurgoPointSql, snapshot: { prepare: prepareSnapshot, ...atPointMirror(POINT_COLUMNS) } },
  // Typed rows, straight from the snapshot or from SDA's strings once (docs/decisions.md#decode-once).
  decode: (payload) => decodeRows(payload, POINT_COLUMNS),
  raw: (answer) => answer.payload,
};
