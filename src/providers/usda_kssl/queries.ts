/**
 * The laboratory queries: pedons in a bounding box, and one pedon with its layers and results.
 * Both forms (SDA T-SQL, snapshot SQLite) select the columns of `columns.ts` in order.
 *
 * The chemical and physical tables are 1:1 with lab_layer, so they are joined on labsampnum alone:
 * a filter on their prep_code would blank real results; the label is returned instead
 * (docs/decisions.md#prep-code). User input enters only as validated numbers or a pedlabsampnum that
 * matched PEDLABSAMPNUM_PATTERN.
 */
import { ValidationError } from "../../errors";
import { LAB_COLLECTION_DATASETS, quoteIdent } from "../../upstream/snapshot-schema";
import type { SqlType } from "../../upstream/sda/payload";
import { answerWithRows, byColumn, decodeRows, mergeSnapshotRows, snapshotRows, someRows, sqliteTextOrder, type ColumnKind, type RowAnswer, type RowColumn, type SnapshotRow, type Value } from "../../upstream/sda/rows";
import { selectList, sqlBbox, sqlInteger, sqlNumber } from "../../upstream/sda/sql";
import type { Payload, QueryKind } from "../../upstream/transport";
import type { SnapshotFile } from "../../upstream/snapshot";
import type { BboxParams, NearestParams, PedonParams } from "../provider";
import type { PedonKey } from "../../domain/pedon-key";
import { PEDLABSAMPNUM_PATTERN } from "../../domain/pedon-key";
import { BBOX_COLUMNS, LAB_BBOX_COLUMNS, LAB_PEDON_COLUMNS, LAB_TABLES, PEDON_COLUMNS, type LabAnswerColumn } from "./columns";

/** SDA caps a lab pedon at this many layers; real pedons have a few dozen at most. */
export const LAB_PEDON_MAX_LAYERS = 1000;
/** Largest page the lab bbox query may ask for (the API allows 500). */
export const LAB_BBOX_MAX_LIMIT = 10_000;

const sdaSelect = (columns: readonly LabAnswerColumn[]) =>
  selectList(columns.map((c) => ({ as: c.column, sql: c.sdaSql ?? `${c.alias}.${c.column}` })));

/**
 * Pedons with site coordinates inside a bbox (edges inclusive), ordered by pedon_key, after the
 * cursor's key when paging (docs/decisions.md#cursors); one row more than the page, so the caller can
 * tell that more exist.
 */
export function labBboxSql({ bbox, limit, after }: BboxParams): string {
  const [minLon, minLat, maxLon, maxLat] = bbox;
  const [west, south, east, north] = sqlBbox(bbox);
  if (minLon > maxLon || minLat > maxLat) throw new ValidationError("bbox minimum must not exceed its maximum.");
  sqlInteger(limit, "limit", 1, LAB_BBOX_MAX_LIMIT);
  const top = sqlInteger(limit + 1, "limit + 1", 2, LAB_BBOX_MAX_LIMIT + 1);
  return `SELECT TOP (${top})
${sdaSelect(BBOX_COLUMNS)}
FROM lab_combine_nasis_ncss AS p
WHERE p.latitude_decimal_degrees IS NOT NULL
  AND p.longitude_decimal_degrees IS NOT NULL
  AND p.longitude_decimal_degrees BETWEEN ${west} AND ${east}
  AND p.latitude_decimal_degrees BETWEEN ${south} AND ${north}${after == null ? "" : `
  AND p.pedon_key > ${sqlInteger(Number(after), "cursor position (pedon_key)", 0, 2_147_483_647)}`}
ORDER BY p.pedon_key`;
}

export const LAB_EXTENT_COLUMNS = ["min_lon", "min_lat", "max_lon", "max_lat"] as const;
/** The located pedons of a box, and the source's pedons with no site coordinates (never in a box; the OGC collection says how many). */
export const LAB_COUNT_COLUMNS = ["matched", "unlocated"] as const;

/** The extent of every pedon with site coordinates (the OGC collection's spatial extent). */
export function labExtentSql(): string {
  return `SELECT MIN(p.longitude_decimal_degrees) AS min_lon, MIN(p.latitude_decimal_degrees) AS min_lat,
  MAX(p.longitude_decimal_degrees) AS max_lon, MAX(p.latitude_decimal_degrees) AS max_lat
FROM lab_combine_nasis_ncss AS p
WHERE p.latitude_decimal_degrees IS NOT NULL AND p.longitude_decimal_degrees IS NOT NULL`;
}

/** The WHERE clause naming one pedon by either key form. */
function pedonFilter(pedonKey: PedonKey): string {
  if (pedonKey.form === "pedon_key") {
    return `p.pedon_key = ${sqlInteger(pedonKey.value, "pedon_key", 1, 2_147_483_647)}`;
  }
  if (typeof pedonKey.value !== "string" || !PEDLABSAMPNUM_PATTERN.test(pedonKey.value)) {
    throw new ValidationError("pedlabsampnum must look like 02N0245 (two digits, a letter, four digits or letters).");
  }
  return `p.pedlabsampnum = '${pedonKey.value}'`;
}

/** One lab pedon with its layers and their results, one row per layer; a pedon without layers still answers one row (LEFT JOIN). */
export function labPedonSql({ pedonKey }: PedonParams): string {
  return `SELECT TOP (${LAB_PEDON_MAX_LAYERS})
${sdaSelect(PEDON_COLUMNS)}
FROM lab_combine_nasis_ncss AS p
LEFT JOIN lab_layer AS ly ON ly.pedon_key = p.pedon_key
LEFT JOIN lab_physical_properties AS ph ON ph.labsampnum = ly.labsampnum
LEFT JOIN lab_chemical_properties AS ch ON ch.labsampnum = ly.labsampnum
WHERE ${pedonFilter(pedonKey)}
ORDER BY ly.hzn_top, ly.labsampnum`;
}

/** A degree of longitude in degrees of latitude at the point (its parallel's shortening). */
const cosOf = (latitude: number) => Math.cos((latitude * Math.PI) / 180);

/** Pedons a nearest-pedons query may list (the evidence route lists a few). */
export const LAB_NEAREST_MAX = 50;

/**
 * Columns of the nearest-pedons answer: the pedon answer's (one row per layer), then what the bbox
 * answer adds (the correlated name, the observation date, the layer count), so both read it by name.
 */
export const NEAREST_COLUMNS: readonly LabAnswerColumn[] = [...PEDON_COLUMNS, ...BBOX_COLUMNS.filter((c) => !PEDON_COLUMNS.some((p) => p.column === c.column))];
export const LAB_NEAREST_COLUMNS: readonly string[] = NEAREST_COLUMNS.map((c) => c.column);

/**
 * The squared equirectangular distance in degrees of latitude from the point: the order the nearest
 * are picked in, before the caller measures each geodesically (within a 50 km radius the two orders
 * differ only between pedons whose distances differ by less than about 2 %: docs/decisions.md#evidence).
 */
function approximateDistance(lat: string, lon: string, cos: string, alias: string, real: (column: string) => string): string {
  const dLat = `(${real(`${alias}.latitude_decimal_degrees`)} - ${lat})`;
  const dLon = `((${real(`${alias}.longitude_decimal_degrees`)} - ${lon}) * ${cos})`;
  return `${dLat} * ${dLat} + ${dLon} * ${dLon}`;
}

/**
 * The `limit` pedons with coordinates in the box nearest the point, each with its layers and their
 * results, one row per layer, nearest first (docs/decisions.md#evidence): the list and the nearest's
 * layers in one upstream call.
 */
export function labNearestSql({ latitude, longitude, bbox, limit }: NearestParams): string {
  const [west, south, east, north] = sqlBbox(bbox);
  const lat = sqlNumber(latitude, "latitude", -90, 90);
  const lon = sqlNumber(longitude, "longitude", -180, 180);
  const top = sqlInteger(limit, "limit", 1, LAB_NEAREST_MAX);
  return `SELECT TOP (${LAB_PEDON_MAX_LAYERS})
${sdaSelect(NEAREST_COLUMNS)}
FROM (SELECT TOP (${top}) n.pedon_key, ${approximateDistance(lat, lon, sqlNumber(cosOf(latitude), "cos(latitude)", 0, 1), "n", (c) => c)} AS distance
  FROM lab_combine_nasis_ncss AS n
  WHERE n.latitude_decimal_degrees IS NOT NULL
    AND n.longitude_decimal_degrees IS NOT NULL
    AND n.longitude_decimal_degrees BETWEEN ${west} AND ${east}
    AND n.latitude_decimal_degrees BETWEEN ${south} AND ${north}
  ORDER BY distance, n.pedon_key) AS near
INNER JOIN lab_combine_nasis_ncss AS p ON p.pedon_key = near.pedon_key
LEFT JOIN lab_layer AS ly ON ly.pedon_key = p.pedon_key
LEFT JOIN lab_physical_properties AS ph ON ph.labsampnum = ly.labsampnum
LEFT JOIN lab_chemical_properties AS ch ON ch.labsampnum = ly.labsampnum
ORDER BY near.distance, p.pedon_key, ly.hzn_top, ly.labsampnum`;
}

// ---- the snapshot forms ----------------------------------------------------------------------------

type Row = Record<string, unknown>;

/** SQL Server types of the LDM columns as SDA reports them; snapshot keys are text (pedlabsampnum, labsampnum). */
const LAB_TYPES: Record<string, SqlType> = {
  pedon_key: { name: "varchar", size: 20 },
  layer_key: { name: "varchar", size: 20 },
  pedlabsampnum: { name: "varchar", size: 128 },
  labsampnum: { name: "varchar", size: 20 },
  upedonid: { name: "varchar", size: 128 },
  samp_name: { name: "varchar", size: 128 },
  samp_taxgrtgroup: { name: "varchar", size: 60 },
  corr_name: { name: "varchar", size: 128 },
  site_obsdate: "datetime",
  latitude_decimal_degrees: "float",
  longitude_decimal_degrees: "float",
  layer_count: "int",
  layer_type: { name: "varchar", size: 15 },
  hzn_top: "real",
  hzn_bot: "real",
  hzn_desgn: { name: "varchar", size: 12 },
  prep_code: { name: "varchar", size: 2 },
};
const labType = (column: string): SqlType => LAB_TYPES[column] ?? (column.endsWith("_method") ? { name: "varchar", size: 8 } : "real");

/** Columns read as numbers and dates; keys and labels stay text, lab results the string reported (docs/decisions.md#censored). */
const LAB_NUMBERS = new Set(["latitude_decimal_degrees", "longitude_decimal_degrees", "layer_count", "hzn_top", "hzn_bot", ...LAB_EXTENT_COLUMNS, ...LAB_COUNT_COLUMNS]);
const labKind = (column: string): ColumnKind => {
  if (LAB_NUMBERS.has(column)) return "number";
  if (column === "site_obsdate") return "date";
  return labType(column) === "real" ? "reported" : "text";
};
/** The typed columns of a lab answer (docs/decisions.md#decode-once). */
const rowColumns = (columns: readonly string[]): RowColumn[] => columns.map((column) => ({ column, kind: labKind(column) }));
const BBOX_ROWS = rowColumns(LAB_BBOX_COLUMNS);
const PEDON_ROWS = rowColumns(LAB_PEDON_COLUMNS);
const EXTENT_ROWS = rowColumns(LAB_EXTENT_COLUMNS);
const COUNT_ROWS = rowColumns(LAB_COUNT_COLUMNS);
const NEAREST_ROWS = rowColumns(LAB_NEAREST_COLUMNS);

/** The snapshot's rows as the answer: its TEXT values as stored, the declared numbers read once. */
function answer(columns: readonly RowColumn[], rows: Row[], types: readonly SqlType[] = columns.map((c) => labType(c.column))): Payload {
  return snapshotRows(columns, types, rows);
}

/** A snapshot column as selected: a date is read by SQLite as epoch milliseconds (no date text parsed in JavaScript). */
const selected = (sql: string, column: string) => `${labKind(column) === "date" ? `unixepoch(${sql}) * 1000` : sql} AS ${quoteIdent(column)}`;

function prepareBbox(file: SnapshotFile): (params: BboxParams) => Payload {
  const p = LAB_TABLES.p;
  if (!file.has(p, "pedlabsampnum") || !file.has(p, "latitude_decimal_degrees") || !file.has(p, "longitude_decimal_degrees")) return () => answer(BBOX_ROWS, []);
  const layerCount = layerCountSql(file);
  const select = LAB_BBOX_COLUMNS.map((c) => {
    if (c === "pedon_key") return "p.pedlabsampnum AS pedon_key";
    if (c === "layer_count") return `${layerCount} AS layer_count`;
    return file.has(p, c) ? selected(`p.${quoteIdent(c)}`, c) : `NULL AS ${quoteIdent(c)}`;
  });
  // Same expressions as the lon/lat index built by the importer, so SQLite can use it.
  // Keyset paging: the snapshot's pedon key is the pedlabsampnum, compared as SQLite compares text (the ORDER BY's order).
  const statement = file.db.prepare<Row, [number, number, number, number, number, string | null]>(
    `SELECT ${select.join(", ")} FROM ${p} p
     WHERE p.latitude_decimal_degrees IS NOT NULL AND p.longitude_decimal_degrees IS NOT NULL
       AND CAST(p.longitude_decimal_degrees AS REAL) BETWEEN ?1 AND ?3
       AND CAST(p.latitude_decimal_degrees AS REAL) BETWEEN ?2 AND ?4
       AND (?6 IS NULL OR p.pedlabsampnum > ?6)
     ORDER BY p.pedlabsampnum LIMIT ?5`,
  );
  return ({ bbox: [minLon, minLat, maxLon, maxLat], limit, after }) =>
    answer(BBOX_ROWS, statement.all(minLon, minLat, maxLon, maxLat, limit + 1, after ?? null));
}

function prepareExtent(file: SnapshotFile): () => Payload {
  const p = LAB_TABLES.p;
  const types: SqlType[] = ["float", "float", "float", "float"];
  const empty = () => answer(EXTENT_ROWS, [], types);
  if (!file.has(p, "latitude_decimal_degrees") || !file.has(p, "longitude_decimal_degrees")) return empty;
  const statement = file.db.prepare<Row, []>(
    `SELECT MIN(CAST(p.longitude_decimal_degrees AS REAL)) AS min_lon, MIN(CAST(p.latitude_decimal_degrees AS REAL)) AS min_lat,
            MAX(CAST(p.longitude_decimal_degrees AS REAL)) AS max_lon, MAX(CAST(p.latitude_decimal_degrees AS REAL)) AS max_lat
     FROM ${p} p WHERE p.latitude_decimal_degrees IS NOT NULL AND p.longitude_decimal_degrees IS NOT NULL`,
  );
  return () => answer(EXTENT_ROWS, statement.all(), types);
}

/** How many located pedons a box holds (numberMatched of the OGC pedons collection): one COUNT over the same condition as prepareBbox. */
function prepareCount(file: SnapshotFile): (params: Pick<BboxParams, "bbox">) => Payload {
  const p = LAB_TABLES.p;
  const types: SqlType[] = ["int", "int"];
  const of = (rows: Row[]) => answer(COUNT_ROWS, rows, types);
  if (!file.has(p, "latitude_decimal_degrees") || !file.has(p, "longitude_decimal_degrees")) return () => of([{ matched: 0, unlocated: 0 }]);
  const statement = file.db.prepare<Row, [number, number, number, number]>(
    `SELECT count(*) AS matched,
       (SELECT count(*) FROM ${p} u WHERE u.latitude_decimal_degrees IS NULL OR u.longitude_decimal_degrees IS NULL) AS unlocated
     FROM ${p} p
     WHERE p.latitude_decimal_degrees IS NOT NULL AND p.longitude_decimal_degrees IS NOT NULL
       AND CAST(p.longitude_decimal_degrees AS REAL) BETWEEN ?1 AND ?3
       AND CAST(p.latitude_decimal_degrees AS REAL) BETWEEN ?2 AND ?4`,
  );
  return ({ bbox: [minLon, minLat, maxLon, maxLat] }) => of(statement.all(minLon, minLat, maxLon, maxLat));
}

/** The snapshot's layer count of a pedon, as the bbox form counts it. */
const layerCountSql = (file: SnapshotFile) =>
  file.has("lab_layer", "pedlabsampnum") ? "(SELECT count(*) FROM lab_layer ll WHERE ll.pedlabsampnum = p.pedlabsampnum)" : "NULL";

/** One pedon's rows in the snapshot, with `columns` (the pedon answer's, or the nearest answer's); null without the tables. */
function snapshotPedonRows(file: SnapshotFile, columns: readonly LabAnswerColumn[]): ((pedlabsampnum: string) => Row[]) | null {
  if (!file.has(LAB_TABLES.p, "pedlabsampnum") || !file.has(LAB_TABLES.ly, "pedlabsampnum")) return null;
  const select = columns.map(({ column, alias }) => {
    if (column === "pedon_key") return "p.pedlabsampnum AS pedon_key";
    if (column === "layer_key") return "ly.labsampnum AS layer_key";
    if (column === "layer_count") return `${layerCountSql(file)} AS layer_count`;
    // Results may sit in either lab table of an export; the first that has the column answers.
    const candidates: (keyof typeof LAB_TABLES)[] = alias === "ph" || alias === "ch" ? ["ph", "ch"] : [alias];
    const hit = candidates.find((a) => file.has(LAB_TABLES[a], column));
    return hit ? selected(`${hit}.${quoteIdent(column)}`, column) : `NULL AS ${quoteIdent(column)}`;
  });
  const joins = (["ph", "ch"] as const)
    .filter((a) => file.has(LAB_TABLES[a], "labsampnum"))
    .map((a) => `LEFT JOIN ${LAB_TABLES[a]} ${a} ON ${a}.labsampnum = ly.labsampnum`);
  const statement = file.db.prepare<Row, [string]>(
    `SELECT ${select.join(", ")} FROM lab_combine_nasis_ncss p
     LEFT JOIN lab_layer ly ON ly.pedlabsampnum = p.pedlabsampnum
     ${joins.join("\n")}
     WHERE p.pedlabsampnum = ?
     ORDER BY CAST(ly.hzn_top AS REAL), ly.labsampnum`,
  );
  return (pedlabsampnum) => statement.all(pedlabsampnum);
}

/** Snapshot pedons have no numeric keys: pedon_key is the pedlabsampnum, layer_key the labsampnum; absent columns (prep_code, method codes) are null. */
function preparePedon(file: SnapshotFile): (params: PedonParams) => Payload {
  const rows = snapshotPedonRows(file, PEDON_COLUMNS);
  return ({ pedonKey }) => answer(PEDON_ROWS, rows && pedonKey.form === "pedlabsampnum" ? rows(pedonKey.value) : []);
}

/** The snapshot form of the nearest pedons: the box's nearest keys in the same order as SDA's, then each pedon's rows. */
function prepareNearest(file: SnapshotFile): (params: NearestParams) => Payload {
  const rows = snapshotPedonRows(file, NEAREST_COLUMNS);
  const p = LAB_TABLES.p;
  if (!rows || !file.has(p, "latitude_decimal_degrees") || !file.has(p, "longitude_decimal_degrees")) return () => answer(NEAREST_ROWS, []);
  const real = (column: string) => `CAST(${column} AS REAL)`;
  const keys = file.db.prepare<{ key: string }, [number, number, number, number, number, number, number, number]>(
    `SELECT p.pedlabsampnum AS key FROM ${p} p
     WHERE p.latitude_decimal_degrees IS NOT NULL AND p.longitude_decimal_degrees IS NOT NULL
       AND CAST(p.longitude_decimal_degrees AS REAL) BETWEEN ?1 AND ?3
       AND CAST(p.latitude_decimal_degrees AS REAL) BETWEEN ?2 AND ?4
     ORDER BY ${approximateDistance("?5", "?6", "?8", "p", real)}, p.pedlabsampnum LIMIT ?7`,
  );
  return ({ latitude, longitude, bbox: [minLon, minLat, maxLon, maxLat], limit }) =>
    answer(NEAREST_ROWS, keys.all(minLon, minLat, maxLon, maxLat, latitude, longitude, limit, cosOf(latitude)).flatMap(({ key }) => rows(key)));
}

// ---- a national mirror: several files' answers as one file's (docs/decisions.md#national-mirror) ----------

/** A cell as `CAST(cell AS REAL)` reads it (the export's coordinates are TEXT). */
const real = (cell: string | number | null | undefined) => (typeof cell === "number" ? cell : Number(cell ?? 0));
/** Pedon keys (pedlabsampnum) in the forms' ORDER BY order: SQLite's text order. */
const byPedonKey = (a: string | number | null, b: string | number | null) => sqliteTextOrder(String(a ?? ""), String(b ?? ""));
const at = (columns: readonly RowColumn[], column: string) => columns.findIndex((c) => c.column === column);

/** The box's pedons of every file, in pedon-key order, cut to the form's limit + 1 (the row that says more exist). */
function mergeBbox(answers: Payload[], { limit }: BboxParams): Payload {
  const ordered = byColumn(BBOX_ROWS, "pedon_key", byPedonKey);
  return mergeSnapshotRows(answers, BBOX_ROWS, (rows) => ordered(rows).slice(0, limit + 1));
}

/** The union of the files' extents; a file without located pedons answers a row of nulls, as one file without any does. */
const mergeExtent = (answers: Payload[]) =>
  mergeSnapshotRows(answers, EXTENT_ROWS, (rows) => {
    const located = rows.filter((row) => row.every((cell) => cell !== null));
    if (located.length === 0) return rows.slice(0, 1);
    const of = (column: string, pick: (...values: number[]) => number) => pick(...located.map((row) => real(row[at(EXTENT_ROWS, column)])));
    return [[of("min_lon", Math.min), of("min_lat", Math.min), of("max_lon", Math.max), of("max_lat", Math.max)]];
  });

/** The box's located pedons and the unlocated ones, each file's counted: summed. */
const mergeCount = (answers: Payload[]) =>
  mergeSnapshotRows(answers, COUNT_ROWS, (rows) => [COUNT_ROWS.map((_, i) => rows.reduce((total, row) => total + real(row[i]), 0))]);

/**
 * The `limit` nearest pedons of every file's nearest, each with its rows: ranked by the forms' own
 * distance (the same expression on the same doubles) and then pedon key, as one file's ORDER BY ranks them.
 */
function mergeNearest(answers: Payload[], { latitude, longitude, limit }: NearestParams): Payload {
  const cos = cosOf(latitude);
  const [key, lat, lon] = ["pedon_key", "latitude_decimal_degrees", "longitude_decimal_degrees"].map((column) => at(NEAREST_ROWS, column)) as [number, number, number];
  const distance = (row: SnapshotRow) => {
    const dLat = real(row[lat]) - latitude;
    const dLon = (real(row[lon]) - longitude) * cos;
    return dLat * dLat + dLon * dLon;
  };
  return mergeSnapshotRows(answers, NEAREST_ROWS, (rows) => {
    // A pedon's rows come together (one row per layer, in layer order): each run of one key is a pedon.
    const pedons: SnapshotRow[][] = [];
    for (const row of rows) {
      const last = pedons.at(-1);
      if (last && last[0]![key] === row[key]) last.push(row);
      else pedons.push([row]);
    }
    const ranked = pedons.map((pedon) => ({ pedon, distance: distance(pedon[0]!) }));
    ranked.sort((a, b) => a.distance - b.distance || byPedonKey(a.pedon[0]![key] ?? null, b.pedon[0]![key] ?? null));
    return ranked.slice(0, limit).flatMap((p) => p.pedon);
  });
}

export const bboxQuery: QueryKind<BboxParams, RowAnswer> = {
  kind: "lab_bbox",
  columns: LAB_BBOX_COLUMNS,
  key: ({ bbox, limit, after }) => `${bbox.join(",")}:${limit}${after == null ? "" : `:after=${after}`}`,
  forms: { sda: labBboxSql, snapshot: { prepare: prepareBbox, datasets: LAB_COLLECTION_DATASETS, reach: ({ bbox }) => bbox, merge: mergeBbox } },
  decode: (payload) => decodeRows(payload, BBOX_ROWS),
  raw: (answer) => answer.payload,
};

export const pedonQuery: QueryKind<PedonParams, RowAnswer> = {
  kind: "lab_pedon",
  columns: LAB_PEDON_COLUMNS,
  key: ({ pedonKey }) => `${pedonKey.form}:${pedonKey.value}`,
  forms: { sda: labPedonSql, snapshot: { prepare: preparePedon, datasets: LAB_COLLECTION_DATASETS, merge: answerWithRows } },
  decode: (payload) => decodeRows(payload, PEDON_ROWS),
  raw: (answer) => answer.payload,
};

export const extentQuery: QueryKind<Record<string, never>, RowAnswer> = {
  kind: "lab_extent",
  columns: LAB_EXTENT_COLUMNS,
  key: () => "all",
  forms: { sda: labExtentSql, snapshot: { prepare: prepareExtent, datasets: LAB_COLLECTION_DATASETS, merge: mergeExtent } },
  decode: (payload) => decodeRows(payload, EXTENT_ROWS),
  raw: (answer) => answer.payload,
};

/**
 * The located pedons of a box, counted: a snapshot form only. On Soil Data Access a count would be one
 * more spatial query per page, so the OGC collection leaves numberMatched out there
 * (docs/decisions.md#ogc-api-features).
 */
export const countQuery: QueryKind<Pick<BboxParams, "bbox">, RowAnswer> = {
  kind: "lab_count",
  columns: LAB_COUNT_COLUMNS,
  key: ({ bbox }) => bbox.join(","),
  // No reach: every collection's unlocated pedons are counted, whatever the box.
  forms: { snapshot: { prepare: prepareCount, datasets: LAB_COLLECTION_DATASETS, merge: mergeCount } },
  decode: (payload) => decodeRows(payload, COUNT_ROWS),
  raw: (answer) => answer.payload,
};

export const nearestQuery: QueryKind<NearestParams, RowAnswer> = {
  kind: "lab_nearest",
  columns: LAB_NEAREST_COLUMNS,
  key: ({ latitude, longitude, bbox, limit }) => `${latitude},${longitude}:${bbox.join(",")}:${limit}`,
  forms: { sda: labNearestSql, snapshot: { prepare: prepareNearest, datasets: LAB_COLLECTION_DATASETS, reach: ({ bbox }) => bbox, merge: mergeNearest } },
  decode: (payload) => decodeRows(payload, NEAREST_ROWS),
  raw: (answer) => answer.payload,
};

/** The list within a nearest-pedons answer: each pedon's first row, nearest first (what `page` reads by name). */
export function nearestList(answer: RowAnswer): RowAnswer {
  const key = answer.typed.columns.indexOf("pedon_key");
  const seen = new Set<Value>();
  return someRows(answer, (row) => !seen.has(row[key] ?? null) && Boolean(seen.add(row[key] ?? null)));
}

/** One pedon's answer within a nearest-pedons answer: its rows, as the pedon query answers for its key. */
export function nearestOne(answer: RowAnswer, pedonKey: string): RowAnswer {
  const key = answer.typed.columns.indexOf("pedon_key");
  return someRows(answer, (row) => String(row[key] ?? "") === pedonKey);
}
