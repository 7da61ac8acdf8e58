/**
 * The SSURGO polygon query: map-unit polygons (delineations) that meet a box, one row per polygon
 * with its map unit and its geometry as WKT, ordered by polygon key, one row more than the page so
 * the caller can tell that more exist. The SDA form is the query soilDB's `SDA_spatialQuery` sends
 * for `what = "mupolygon"` (`mupolygongeo.STIntersects(geometry::STGeomFromText(..., 4326)) = 1`,
 * geometry by `STAsText()`); the snapshot form finds candidates in the R*Tree, keeps those whose
 * rings meet the box and hands their polygons over as coordinate arrays (PolygonRow), which SDA's WKT
 * becomes at its edge (docs/decisions.md#decode-once): one decoder reads both, and no polygon is
 * written as WKT to be read back.
 */
import type { Database } from "bun:sqlite";
import { UpstreamError, ValidationError } from "../../errors";
import { flatRingsMeetBox, polygonsOfRings, ringsOfFlat, rfc7946Winding, type Polygons } from "../../geometry/rings";
import { readWkt, WktError, writeWkt } from "../../geometry/wkt";
import { decodeRings, flatRingsOf } from "../../upstream/snapshot-geometry";
import { answerAsSda, decodeSdaTable, type Cell, type SdaPayload, type SqlType } from "../../upstream/sda/payload";
import { decodeRows, mergeSnapshotRows, snapshotRows, type RowAnswer, type RowColumn, type SnapshotRow } from "../../upstream/sda/rows";
import { sqlBbox, sqlInteger } from "../../upstream/sda/sql";
import { SURVEY_AREA_DATASETS } from "../../upstream/snapshot-schema";
import { Payload, type QueryKind } from "../../upstream/transport";
import type { SnapshotFile } from "../../upstream/snapshot";
import type { BboxParams, MapUnitPolygon } from "../provider";
import { upstreamMapUnitKey } from "./mapunit";
import { MAX_POLYGON_KEY } from "./polygon-keys";

export const SSURGO_POLYGON_COLUMNS = ["mupolygonkey", "areasymbol", "musym", "mukey", "muname", "geom"] as const;

/** SQL Server types SDA reports for these columns (mupolygon, mapunit; STAsText() is nvarchar(max)). */
export const SSURGO_POLYGON_TYPES: SqlType[] = [
  "int",
  { name: "varchar", size: 20 },
  { name: "varchar", size: 6 },
  "int",
  { name: "varchar", size: 240 },
  { name: "nvarchar", size: 2147483647 },
];

/** Largest page a polygon query may ask for (the API allows 5000). */
export const MAX_POLYGON_ROWS = 5000;

/**
 * The SELECT of every polygon query (a box, one key, an area's cut): SSURGO_POLYGON_COLUMNS in that
 * order, the geometry as `geom` WKT, so all of them read back through the one decoder.
 */
export function polygonSelect(top: string | number, geom: string): string {
  return `SELECT TOP (${top})
  P.mupolygonkey,
  P.areasymbol,
  P.musym,
  P.mukey,
  mu.muname,
  ${geom} AS geom
FROM mupolygon AS P
INNER JOIN mapunit AS mu ON mu.mukey = P.mukey`;
}

export function ssurgoPolygonSql({ bbox, limit, after }: BboxParams): string {
  const [minLon, minLat, maxLon, maxLat] = bbox;
  const [w, s, e, n] = sqlBbox(bbox);
  if (!(minLon < maxLon && minLat < maxLat)) throw new ValidationError("bbox minimum must be less than its maximum.");
  const top = sqlInteger(limit + 1, "limit", 2, MAX_POLYGON_ROWS + 1);
  return `${polygonSelect(top, "mupolygongeo.STAsText()")}
WHERE mupolygongeo.STIntersects(geometry::STGeomFromText('POLYGON((${w} ${s}, ${e} ${s}, ${e} ${n}, ${w} ${n}, ${w} ${s}))', 4326)) = 1${
    after == null ? "" : `\n  AND P.mupolygonkey > ${afterKey(after)}`
  }
ORDER BY P.mupolygonkey`;
}

/**
 * A polygon key: SDA's mupolygonkey (an int) or the snapshot's key made from the survey area
 * (polygon-keys.ts, below 2^53): digits, at most MAX_POLYGON_KEY; null otherwise.
 */
export function ssurgoPolygonKey(raw: string): string | null {
  return /^\d{1,16}$/.test(raw) && Number(raw) <= MAX_POLYGON_KEY ? raw : null;
}

function afterKey(after: string): string {
  return sqlInteger(/^\d{1,16}$/.test(after) ? Number(after) : Number.NaN, "cursor position (polygon key)", 0, MAX_POLYGON_KEY);
}

export const SSURGO_EXTENT_COLUMNS = ["min_lon", "min_lat", "max_lon", "max_lat"] as const;

/**
 * The extent of SSURGO's map-unit polygons, from the survey-area boundaries (sapolygon: a few
 * thousand rows, where mupolygon has tens of millions): STEnvelope's first point is its south-west
 * corner, its third the north-east.
 */
export function ssurgoExtentSql(): string {
  return `SELECT MIN(sapolygongeo.STEnvelope().STPointN(1).STX) AS min_lon, MIN(sapolygongeo.STEnvelope().STPointN(1).STY) AS min_lat,
  MAX(sapolygongeo.STEnvelope().STPointN(3).STX) AS max_lon, MAX(sapolygongeo.STEnvelope().STPointN(3).STY) AS max_lat
FROM sapolygon`;
}

const EXTENT_ROWS: RowColumn[] = SSURGO_EXTENT_COLUMNS.map((column) => ({ column, kind: "number" }));

/** The R*Tree's own numbers as the answer's typed rows (docs/decisions.md#decode-once): nothing written as text. */
function prepareExtent(file: SnapshotFile): () => Payload {
  const types: SqlType[] = ["float", "float", "float", "float"];
  if (!file.has("mupolygon")) return () => snapshotRows(EXTENT_ROWS, types, []);
  const statement = file.db.prepare<Record<string, number | null>, []>(
    `SELECT min(min_x) AS min_lon, min(min_y) AS min_lat, max(max_x) AS max_lon, max(max_y) AS max_lat FROM mupolygon_rtree`,
  );
  return () => {
    const row = statement.get();
    return snapshotRows(EXTENT_ROWS, types, row && row.min_lon !== null ? [row] : []);
  };
}

/** One polygon by its key (an OGC single item): the same columns and decoder as the box query. */
export function ssurgoPolygonByKeySql({ key }: { key: string }): string {
  return `${polygonSelect(1, "mupolygongeo.STAsText()")}
WHERE P.mupolygonkey = ${afterKey(key)}`;
}

function prepareByKey(file: SnapshotFile): (params: { key: string }) => Payload {
  if (!file.has("mupolygon") || !file.has("mapunit")) return () => nativeAnswer([]);
  const statement = file.db.prepare<Row, [number]>(
    `SELECT p.id, p.areasymbol, p.musym, p.mukey, mu.muname, p.rings FROM mupolygon p JOIN mapunit mu ON mu.mukey = p.mukey WHERE p.id = ?1`,
  );
  return ({ key }) => {
    const row = statement.get(Number(afterKey(key)));
    return nativeAnswer(row ? [polygonRow(row, polygonsOfRings(decodeRings(row.rings)))] : []);
  };
}

/** The extents of several files' polygons as one: the box around them (docs/decisions.md#national-mirror). */
function extentUnion(rows: SnapshotRow[]): SnapshotRow[] {
  if (rows.length === 0) return [];
  const at = (i: number) => rows.map((row) => row[i] as number);
  return [[Math.min(...at(0)), Math.min(...at(1)), Math.max(...at(2)), Math.max(...at(3))]];
}

export const polygonByKeyQuery: QueryKind<{ key: string }, PolygonAnswer> = {
  kind: "ssurgo_polygon",
  columns: SSURGO_POLYGON_COLUMNS,
  key: ({ key }) => key,
  // A key, no place: every file of survey areas is asked; the one holding it answers (docs/decisions.md#national-mirror).
  forms: { sda: ssurgoPolygonByKeySql, snapshot: { prepare: prepareByKey, datasets: SURVEY_AREA_DATASETS, merge: polygonAnswerWithRows } },
  decode: decodePolygonAnswer,
  raw: (answer) => answer.raw(),
};

export const extentQuery: QueryKind<Record<string, never>, RowAnswer> = {
  kind: "ssurgo_polygon_extent",
  columns: SSURGO_EXTENT_COLUMNS,
  key: () => "all",
  forms: { sda: ssurgoExtentSql, snapshot: { prepare: prepareExtent, datasets: SURVEY_AREA_DATASETS, merge: (answers) => mergeSnapshotRows(answers, EXTENT_ROWS, extentUnion) } },
  decode: (payload) => decodeRows(payload, EXTENT_ROWS),
  raw: (answer) => answer.payload,
};

type Row = { id: number; areasymbol: string | null; musym: string | null; mukey: string; muname: string | null; rings: Uint8Array };

/**
 * One polygon row in native types: the columns of SSURGO_POLYGON_COLUMNS, the geometry as polygons
 * ([outer, ...holes], as SQL Server's WKT lists them). The snapshot form hands these to the decoder;
 * SDA's rows become these at its edge (sdaPolygonRows).
 */
export type PolygonRow = [key: Cell, areaSymbol: Cell, symbol: Cell, mapUnitKey: Cell, mapUnitName: Cell, polygons: Polygons];

export const polygonRow = (row: Row, polygons: Polygons): PolygonRow => [String(row.id), row.areasymbol, row.musym, row.mukey, row.muname, polygons];

/** The rows in SDA's wire shape, each geometry written as WKT (what SDA would send: the store and the raw route). */
function polygonWire(rows: readonly PolygonRow[]): SdaPayload {
  return answerAsSda(SSURGO_POLYGON_COLUMNS, SSURGO_POLYGON_TYPES, rows.map((row) => [row[0], row[1], row[2], row[3], row[4], writeWkt(row[5])])).payload;
}

/** A snapshot answer: its rows in native types, its wire JSON written only when asked. */
export function nativeAnswer(rows: PolygonRow[]): Payload {
  return Payload.ofValue(rows, { tag: STORED_ROWS, text: () => JSON.stringify(polygonWire(rows)), stored: () => JSON.stringify(rows) });
}

/** The native rows a snapshot's polygon answer was made of (what a mirror merges). */
function madeRows(payload: Payload): PolygonRow[] {
  const made = payload.value();
  if (!Array.isArray(made)) throw new UpstreamError("The snapshot mirror was handed an answer that is not a snapshot's polygon rows.");
  return made as PolygonRow[];
}

/**
 * Several files' answers of polygons in key order, one more than the page (a box's, an area's cut) as
 * one file holding them all answers (docs/decisions.md#national-mirror): the rows in key order (keys are
 * unique across files: polygon-keys.ts), cut to `limit + 1`. The budget is held when it is decoded, as
 * for any answer.
 */
export function mergePolygonPages(answers: readonly Payload[], limit: number): Payload {
  const rows = answers.flatMap(madeRows).sort((a, b) => Number(a[0]) - Number(b[0]));
  return nativeAnswer(rows.slice(0, limit + 1));
}

/** A lookup by polygon key across a mirror's files: the answer that has the polygon, else the first. */
function polygonAnswerWithRows(answers: readonly Payload[]): Payload {
  return answers.find((payload) => madeRows(payload).length > 0) ?? answers[0]!;
}

/** The tag of the cache's text of native polygon rows (Payload.ofValue); SDA's text is JSON and never starts so. */
const STORED_ROWS = "loam-polygons ";

/** Where an answer's rows came from, as a budget refusal names it. */
const SDA_SOURCE = "Soil Data Access answered with";
const SNAPSHOT_SOURCE = "The offline snapshot answered with";
const STORED_SOURCE = "A snapshot answer stored in the cache is";

/** The native rows of a payload (made by the snapshot, or stored by the cache) and their source; undefined for an upstream's text. */
function nativeRows(payload: Payload): { rows: unknown; source: string } | undefined {
  const made = payload.value();
  if (made !== undefined) return { rows: made, source: SNAPSHOT_SOURCE };
  const stored = payload.storedValue(STORED_ROWS);
  return stored === undefined ? undefined : { rows: JSON.parse(stored), source: STORED_SOURCE };
}

function prepareSnapshot(file: SnapshotFile): (params: BboxParams) => Payload {
  const db: Database = file.db;
  if (!file.has("mupolygon") || !file.has("mapunit")) return () => nativeAnswer([]);
  const candidates = db.prepare<Row, [number, number, number, number, number]>(
    `SELECT p.id, p.areasymbol, p.musym, p.mukey, mu.muname, p.rings
     FROM mupolygon_rtree r JOIN mupolygon p ON p.id = r.id JOIN mapunit mu ON mu.mukey = p.mukey
     WHERE r.max_x >= ?1 AND r.min_x <= ?3 AND r.max_y >= ?2 AND r.min_y <= ?4 AND p.id > ?5
     ORDER BY p.id`,
  );
  return ({ bbox: [w, s, e, n], limit, after }) => {
    const rows: PolygonRow[] = [];
    for (const row of candidates.iterate(w, s, e, n, after == null ? -1 : Number(afterKey(after)))) {
      // Decoded once for the box test and the answer (docs/decisions.md#ring-encoding).
      const flat = flatRingsOf(row.rings);
      if (!flatRingsMeetBox(flat, w, s, e, n)) continue;
      rows.push(polygonRow(row, polygonsOfRings(ringsOfFlat(flat))));
      if (rows.length > limit) break;
    }
    return nativeAnswer(rows);
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
 * A polygon answer decoded once (docs/decisions.md#decode-once): every row's polygons wound as RFC 7946
 * asks, kept with the answer in the memory cache, so a hit or a 304 never reads a geometry again.
 */
export interface PolygonAnswer {
  polygons: MapUnitPolygon[];
  /** The row each polygon came from (its index in the upstream's order). */
  polygonRows: number[];
  /** Each row's polygon key, in the upstream's order (a page's cursor is its last row's key). */
  rowKeys: (string | null)[];
  /** Rows the upstream sent (one more than the page when more exist; EMPTY geometries included). */
  rows: number;
  points: number;
  /** The upstream's own JSON (the raw form): SDA's as it came, the snapshot's written from its rows. */
  raw(): SdaPayload;
}

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Gives the event loop back after DECODE_SLICE_MS of work (docs/decisions.md#polygon-budget). */
function slicer(): () => Promise<void> {
  let started = performance.now();
  return async () => {
    if (performance.now() - started <= DECODE_SLICE_MS) return;
    await pause();
    started = performance.now();
  };
}

/** A refusal over the budget, naming where the answer came from (SDA, the snapshot, or the cache's stored copy). */
function budgetError(source: string, what: string): UpstreamError {
  return new UpstreamError(`${source} a map-unit polygon answer of ${what}; narrow the bbox or lower limit.`);
}

function countPoints(points: number, source: string): number {
  if (points > POLYGON_ANSWER_MAX_POINTS) throw budgetError(source, `more than ${POLYGON_ANSWER_MAX_POINTS} points, over Loam's budget of ${POLYGON_ANSWER_MAX_POINTS} points per polygon answer`);
  return points;
}

const pointsOf = (polygons: Polygons) => polygons.reduce((sum, polygon) => polygon.reduce((n, ring) => n + ring.length, sum), 0);

/** Native rows as the snapshot made them or the cache stored them, checked as any stored answer is: rows of polygons of finite positions. */
function checkedRows(value: unknown): { rows: PolygonRow[]; points: number } {
  const bad = (): never => {
    throw new UpstreamError("A stored map-unit polygon answer is not rows of polygons.");
  };
  if (!Array.isArray(value)) bad();
  let points = 0;
  for (const row of value as unknown[]) {
    if (!Array.isArray(row) || row.length !== 6 || !Array.isArray(row[5])) return bad();
    for (let i = 0; i < 5; i++) if (row[i] !== null && typeof row[i] !== "string") bad();
    for (const polygon of row[5] as unknown[]) {
      if (!Array.isArray(polygon)) bad();
      for (const ring of polygon as unknown[]) {
        if (!Array.isArray(ring)) bad();
        for (const p of ring as unknown[]) if (!Array.isArray(p) || p.length !== 2 || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) bad();
        points += (ring as unknown[]).length;
      }
    }
  }
  return { rows: value as PolygonRow[], points };
}

/** SDA's WKT read once, at its edge: a text that does not read is the upstream's fault (502). */
export function sdaGeometry<T>(read: (text: string) => T, text: string, expected: string): T {
  try {
    return read(text);
  } catch (error) {
    if (!(error instanceof WktError)) throw error;
    const type = error.detail.type;
    if (error.kind === "type" && type) throw new UpstreamError(`Soil Data Access sent a ${type.slice(0, 30)} where ${expected} was expected.`);
    throw new UpstreamError(`Soil Data Access sent a polygon whose WKT does not parse (${error.message}).`);
  }
}

/**
 * The rows of an SDA answer in native types (its edge: each WKT read here, once), or of the snapshot's
 * (already native), with the raw form of the answer; both held to the budget.
 */
export async function polygonRowsOf(
  payload: Payload,
  readGeometry: (text: string) => Polygons,
): Promise<{ rows: PolygonRow[]; points: number; raw: () => SdaPayload }> {
  const native = nativeRows(payload);
  if (native !== undefined) {
    const { rows, points } = checkedRows(native.rows);
    return { rows, points: countPoints(points, native.source), raw: () => polygonWire(rows) };
  }
  const chars = payload.text().length;
  // A JS string's length counts UTF-16 units; WKT and keys are ASCII, so it is the byte count.
  if (chars > POLYGON_ANSWER_MAX_BYTES) throw budgetError(SDA_SOURCE, `${chars} bytes, over Loam's budget of ${POLYGON_ANSWER_MAX_BYTES} bytes per polygon answer`);
  const { table, payload: json } = decodeSdaTable(payload, SSURGO_POLYGON_COLUMNS);
  const at = (name: (typeof SSURGO_POLYGON_COLUMNS)[number]) => table.columns.indexOf(name);
  const [key, area, symbol, mukey, name, geom] = [at("mupolygonkey"), at("areasymbol"), at("musym"), at("mukey"), at("muname"), at("geom")];
  const rows: PolygonRow[] = [];
  let points = 0;
  const breathe = slicer();
  for (const row of table.rows) {
    const polygons = readGeometry(row[geom] ?? "POLYGON EMPTY");
    points = countPoints(points + pointsOf(polygons), SDA_SOURCE);
    rows.push([row[key] ?? null, row[area] ?? null, row[symbol] ?? null, row[mukey] ?? null, row[name] ?? null, polygons]);
    await breathe();
  }
  return { rows, points, raw: () => json };
}

const sdaPolygons = (text: string) => sdaGeometry(readWkt, text, "a map-unit polygon");

/** Decode a polygon answer: its rows read once (polygonRowsOf), then wound, in slices of at most DECODE_SLICE_MS. */
export async function decodePolygonAnswer(payload: Payload): Promise<PolygonAnswer> {
  const { rows, points, raw } = await polygonRowsOf(payload, sdaPolygons);
  const polygons: MapUnitPolygon[] = [];
  const polygonRows: number[] = [];
  const rowKeys: (string | null)[] = [];
  const breathe = slicer();
  for (const [index, [key, area, symbol, mukey, name, shapes]] of rows.entries()) {
    rowKeys.push(key);
    if (shapes.length > 0 && mukey !== null) {
      polygons.push({ id: key ?? "", mapUnitKey: upstreamMapUnitKey(mukey), mapUnitSymbol: symbol, mapUnitName: name, areaSymbol: area, polygons: shapes.map(rfc7946Winding) });
      polygonRows.push(index);
    }
    await breathe();
  }
  return { polygons, polygonRows, rowKeys, rows: rows.length, points, raw };
}

export const polygonQuery: QueryKind<BboxParams, PolygonAnswer> = {
  kind: "ssurgo_polygons",
  columns: SSURGO_POLYGON_COLUMNS,
  key: ({ bbox, limit, after }) => `${bbox.join(",")}:${limit}${after == null ? "" : `:after=${after}`}`,
  forms: {
    sda: ssurgoPolygonSql,
    snapshot: { prepare: prepareSnapshot, datasets: SURVEY_AREA_DATASETS, reach: ({ bbox }) => bbox, merge: (answers, { limit }) => mergePolygonPages(answers, limit) },
  },
  decode: decodePolygonAnswer,
  raw: (answer) => answer.raw(),
};

/**
 * The answer's polygons, at most `limit` (`truncated` when the upstream sent more), rings wound as
 * RFC 7946 asks (outer counter-clockwise, holes clockwise); polygons whose WKT is EMPTY are left out.
 * Decoded once per answer (decodePolygonAnswer): this only takes the page.
 */
export function polygonsOf(answer: PolygonAnswer, limit: number): { polygons: MapUnitPolygon[]; truncated: boolean; last: string | null } {
  const truncated = answer.rows > limit;
  const listed = answer.rows > limit ? answer.polygons.filter((_, i) => answer.polygonRows[i]! < limit) : answer.polygons;
  // The page ends at its last row, listed or not (an EMPTY one is skipped on the next page too).
  const last = answer.rowKeys[Math.min(limit, answer.rows) - 1] ?? null;
  return { polygons: listed, truncated, last };
}
