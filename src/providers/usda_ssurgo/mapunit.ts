/**
 * The SSURGO map-unit query (kind `ssurgo_mapunit`): one map unit by mukey, with every component
 * (with or without horizons) and every horizon with the summary columns and its representative
 * texture. One row per map unit x component x horizon; the LEFT JOINs keep a map unit without
 * components and a component without horizons (Urban land, Water) as rows with null keys.
 *
 * The column table below is the single description (docs/decisions.md#column-tables): the SDA T-SQL
 * and the snapshot SELECT are generated from it and return the same columns in the same order, so
 * one decoder (with the column check) reads both.
 */
import type { Database } from "bun:sqlite";
import { UpstreamError, ValidationError } from "../../errors";
import { isoDay } from "../../upstream/sda/dates";
import { answerWithRows, dateIn, decodeRows, numberIn, someRows, trimmedIn, type ColumnKind, type RowAnswer, type Value } from "../../upstream/sda/rows";
import { commentFree, selectList } from "../../upstream/sda/sql";
import type { Payload, QueryKind, SourceDescription } from "../../upstream/transport";
import type { SnapshotFile } from "../../upstream/snapshot";
import { SURVEY_AREA_DATASETS } from "../../upstream/snapshot-schema";
import type { SummaryComponent, SummaryHorizon } from "../../domain/component";
import type { AnswerContext, MapUnitData, MapUnitParams, PointParams } from "../provider";
import { atPointMirror, mapUnitKeysUnder, mukeysAtPointSql } from "./queries";
import { SSURGO_ID, SSURGO_ORGANIZATION, SSURGO_SOURCE_URL } from "./catalog";
import { retrievedAt } from "../../domain/retrieved-at";
import { surveyVersionWarning } from "./normalize";
import { snapshotSelect } from "./snapshot-select";

/** Tables by the alias both dialects give them. */
const TABLES = { l: "legend", sc: "sacatalog", mu: "mapunit", c: "component", ch: "chorizon", tg: "chtexturegrp" } as const;
type Alias = keyof typeof TABLES;

export interface MapUnitColumn {
  column: string;
  alias: Alias;
  meaning: string;
  /** What the decoded answer holds (docs/decisions.md#decode-once); keys stay text. */
  kind: ColumnKind;
}

const col = (alias: Alias, column: string, meaning: string, kind: ColumnKind = "text"): MapUnitColumn => ({ column, alias, meaning, kind });

/** Horizon property columns, each as low / representative / high value (the summaries read _r). */
const HORIZON_PROPERTY_STEMS: ReadonlyArray<[stem: string, meaning: string]> = [
  ["ph1to1h2o", "pH, 1:1 soil:water"],
  ["om", "organic matter, % by weight"],
  ["sandtotal", "total sand, % of the <2 mm fraction"],
  ["silttotal", "total silt, % of the <2 mm fraction"],
  ["claytotal", "total clay, % of the <2 mm fraction"],
  ["dbthirdbar", "bulk density at 1/3 bar, g/cm3"],
  ["cec7", "CEC by NH4OAc at pH 7, meq/100 g (= cmol(+)/kg)"],
  ["ec", "electrical conductivity of the saturation extract, dS/m"],
  ["awc", "available water capacity, cm/cm"],
  ["ksat", "saturated hydraulic conductivity, micrometers per second"],
];

export const MAP_UNIT_COLUMNS: readonly MapUnitColumn[] = [
  col("l", "areasymbol", "survey area symbol, e.g. IA073"),
  col("l", "areaname", "survey area name"),
  col("sc", "saverest", "survey area version date (citation)", "date"),
  col("sc", "saversion", "survey area version number (citation)"),
  col("l", "lkey", "legend key"),
  col("mu", "mukey", "map unit key"),
  col("mu", "musym", "map unit symbol on the survey map"),
  col("mu", "muname", "map unit name"),
  col("c", "cokey", "component key; null when the map unit has no component"),
  col("c", "compname", "component name (series or miscellaneous area)"),
  col("c", "comppct_r", "component share of the map unit, percent (representative value)", "number"),
  col("c", "majcompflag", "'Yes' or 'No ' (char(3)): major component"),
  col("c", "compkind", "Series, Taxadjunct, Miscellaneous area, ..."),
  col("c", "taxclname", "Soil Taxonomy family name"),
  col("c", "slope_l", "slope gradient, %, low", "number"),
  col("c", "slope_r", "slope gradient, %, representative", "number"),
  col("c", "slope_h", "slope gradient, %, high", "number"),
  col("c", "drainagecl", "natural drainage class"),
  col("c", "hydgrp", "hydrologic soil group (A, B, C, D, A/D, B/D, C/D)"),
  col("ch", "chkey", "horizon key; null when the component has no horizon"),
  col("ch", "hzname", "horizon designation, e.g. Ap"),
  col("ch", "hzdept_r", "horizon top depth, cm", "number"),
  col("ch", "hzdepb_r", "horizon bottom depth, cm", "number"),
  ...HORIZON_PROPERTY_STEMS.flatMap(([stem, meaning]) =>
    (["l", "r", "h"] as const).map((s) => col("ch", `${stem}_${s}`, `${meaning}, ${{ l: "low", r: "representative", h: "high" }[s]}`, "number")),
  ),
  col("tg", "chtgkey", "key of the representative texture group (rvindicator 'Yes'); null when there is none"),
  col("tg", "texture", "texture of the representative texture group, e.g. L, SIL, GR-L"),
];

export const MAP_UNIT_COLUMN_NAMES: readonly string[] = MAP_UNIT_COLUMNS.map((c) => c.column);

/** The representative horizon columns the summaries read, by column name (awc_r, claytotal_r, ...). */
const HORIZON_VALUE_COLUMNS: readonly string[] = HORIZON_PROPERTY_STEMS.map(([stem]) => `${stem}_r`);

/** SSURGO keys are digit strings; SDA's mapunit.mukey is an int, so anything longer is not a key. */
export const MAP_UNIT_KEY_PATTERN = /^[1-9][0-9]{0,9}$/;

/** The mukey as it may enter SQL: digits only, at most an SQL Server int, or a ValidationError (422). */
/** A map unit key in words, for the route's document (checkMapUnitKey also bounds it at 2147483647). */
export const MAP_UNIT_KEYS = { syntax: "a SSURGO map unit key (mukey): digits, without a leading zero", pattern: MAP_UNIT_KEY_PATTERN.source, example: "2765528" };

export function checkMapUnitKey(mukey: string): string {
  if (typeof mukey !== "string" || !MAP_UNIT_KEY_PATTERN.test(mukey) || Number(mukey) > 2_147_483_647) {
    throw new ValidationError("map_unit_key must be a SSURGO map unit key: digits only, without a leading zero, at most 2147483647 (e.g. 2765528).");
  }
  return mukey;
}

/** The 404 of a map unit key SSURGO does not hold: STATSGO2 is not served; a snapshot says which survey areas it holds. */
export function mapUnitNotFound(key: string, source: SourceDescription): string {
  // Its own places among the snapshot's datasets, in area-symbol order (docs/decisions.md#provider-words).
  const places = (source.datasets ?? []).filter((d) => d.kind === SURVEY_AREA_DATASETS).sort((a, b) => a.id.localeCompare(b.id)).map((d) => d.label);
  const coverage = source.kind !== "snapshot" ? "" : places.length > 0 ? ` The offline snapshot holds only ${places.join("; ")}.` : " The offline snapshot holds no survey area.";
  return `No map unit with key ${key} in ${SSURGO_ID} (STATSGO2 map units are not served).${coverage}`;
}

/** A key is valid as checkMapUnitKey asks. */
export function isMapUnitKey(mukey: string): boolean {
  return typeof mukey === "string" && MAP_UNIT_KEY_PATTERN.test(mukey) && Number(mukey) <= 2_147_483_647;
}

/**
 * A map-unit key the upstream sent (docs/decisions.md#upstream-keys): one that fails the key rule is
 * the upstream's fault, a 502 upstream_error, never a 422 blaming the client.
 */
export function upstreamMapUnitKey(mukey: string): string {
  if (!isMapUnitKey(mukey)) {
    // Upstream text is logged, not echoed (docs/decisions.md#errors): the key goes to the detail.
    throw new UpstreamError("Soil Data Access answered with a map-unit key that is not a SSURGO map unit key (digits, at most 2147483647).", null, {
      detail: `map-unit key from upstream: ${JSON.stringify(mukey.slice(0, 40))}`,
    });
  }
  return mukey;
}

/**
 * The joins and order, the same in both dialects. The representative texture group is joined on
 * rvindicator 'Yes' (a Boolean stored as 'Yes'/'No '), at most one per horizon in SSURGO. STATSGO2
 * (areasymbol 'US') is excluded as in the point query.
 */
function fromClause(mukeyPredicate: string, order: string): string {
  return `FROM mapunit AS mu
INNER JOIN legend AS l ON l.lkey = mu.lkey
LEFT JOIN sacatalog AS sc ON sc.areasymbol = l.areasymbol
LEFT JOIN component AS c ON c.mukey = mu.mukey
LEFT JOIN chorizon AS ch ON ch.cokey = c.cokey
LEFT JOIN chtexturegrp AS tg ON tg.chkey = ch.chkey AND tg.rvindicator = 'Yes'
WHERE ${mukeyPredicate} AND l.areasymbol <> 'US'
ORDER BY ${order}`;
}

/** The snapshot's rows of one map unit: the same SELECT over the snapshot (keys are TEXT there: cast to sort as SDA's ints); null without its tables. */
function snapshotMapUnit(file: SnapshotFile): { rows: ((mukey: string) => Row[]) | null; answer: (rows: Row[]) => Payload } {
  const db: Database = file.db;
  const { select, answer } = snapshotSelect(file, MAP_UNIT_COLUMNS, TABLES);
  if (!Object.values(TABLES).every((t) => file.has(t))) return { rows: null, answer };
  const statement = db.prepare<Row, [string]>(
    `SELECT ${select.join(", ")}\n${fromClause("mu.mukey = ?1", "c.comppct_r DESC, CAST(c.cokey AS INTEGER), c.cokey, ch.hzdept_r, CAST(ch.chkey AS INTEGER)")}`,
  );
  return { rows: (mukey) => statement.all(mukey), answer };
}

/** The snapshot form of one map unit. */
function prepareSnapshot(file: SnapshotFile): (params: MapUnitParams) => Payload {
  const { rows, answer } = snapshotMapUnit(file);
  return ({ mapUnitKey }) => answer(rows ? rows(checkMapUnitKey(mapUnitKey)) : []);
}

// ---- every map unit at a point, in one query ---------------------------------------------------

/**
 * The map-unit query's columns for every map unit holding a point (kind `ssurgo_mapunits_at_point`):
 * the point query's predicate with the map-unit query's joins, one row per map unit x component x
 * horizon, by map unit key and then as the map-unit query orders them. Its answer holds both the point
 * answer (every point column is one of these) and each map unit's answer, so a caller that needs both
 * makes one upstream call (docs/decisions.md#evidence).
 */
export function mapUnitsAtPointSql(point: PointParams): string {
  const select = selectList(MAP_UNIT_COLUMNS.map((c) => ({ as: c.column, sql: `${c.alias}.${c.column}` })));
  return commentFree(`SELECT\n${select}\n${fromClause(`mu.mukey IN (${mukeysAtPointSql(point)})`, "mu.mukey, c.comppct_r DESC, c.cokey, ch.hzdept_r, ch.chkey")}`);
}

/** The snapshot form: the map units holding the point (as the point query finds them), each as the map-unit query reads it. */
function prepareSnapshotAtPoint(file: SnapshotFile): (params: PointParams) => Payload {
  const { rows, answer } = snapshotMapUnit(file);
  if (!rows || !file.has("mupolygon")) return () => answer([]);
  const under = mapUnitKeysUnder(file);
  return ({ longitude, latitude }) => answer(under(longitude, latitude).flatMap(rows));
}

export const mapUnitsAtPointQuery: QueryKind<PointParams, RowAnswer> = {
  kind: "ssurgo_mapunits_at_point",
  columns: MAP_UNIT_COLUMN_NAMES,
  key: ({ longitude, latitude }) => `${longitude},${latitude}`,
  forms: { sda: mapUnitsAtPointSql, snapshot: { prepare: prepareSnapshotAtPoint, ...atPointMirror(MAP_UNIT_COLUMNS) } },
  decode: (payload) => decodeRows(payload, MAP_UNIT_COLUMNS),
  raw: (answer) => answer.payload,
};

/**
 * The point query's answer within an answer of `mapUnitsAtPointQuery`: its rows, each horizon once (the
 * representative texture group the map-unit joins add is at most one per horizon; a second would repeat
 * it). The point normalizer reads columns by name, and these are a superset of the point query's.
 */
export function pointAnswerOf(answer: RowAnswer): RowAnswer {
  const chkey = answer.typed.columns.indexOf("chkey");
  const seen = new Set<Value>();
  return someRows(answer, (row) => {
    const key = row[chkey] ?? null;
    if (key === null) return true;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One map unit's answer within an answer of `mapUnitsAtPointQuery`: its rows, as `mapUnitQuery` answers for its key. */
export function mapUnitAnswerOf(answer: RowAnswer, mapUnitKey: string): RowAnswer {
  const mukey = answer.typed.columns.indexOf("mukey");
  return someRows(answer, (row) => trimmedIn(row[mukey] ?? null) === mapUnitKey);
}

/** T-SQL for Soil Data Access (docs/decisions.md#sda-sql): the checked mukey as a plain integer. */
export function mapUnitSql({ mapUnitKey }: MapUnitParams): string {
  const select = selectList(MAP_UNIT_COLUMNS.map((c) => ({ as: c.column, sql: `${c.alias}.${c.column}` })));
  return commentFree(`SELECT\n${select}\n${fromClause(`mu.mukey = ${checkMapUnitKey(mapUnitKey)}`, "c.comppct_r DESC, c.cokey, ch.hzdept_r, ch.chkey")}`);
}

type Row = Record<string, unknown>;


export const mapUnitQuery: QueryKind<MapUnitParams, RowAnswer> = {
  kind: "ssurgo_mapunit",
  columns: MAP_UNIT_COLUMN_NAMES,
  key: ({ mapUnitKey }) => checkMapUnitKey(mapUnitKey),
  // A key, no place: every file of survey areas is asked; the one holding it answers (docs/decisions.md#national-mirror).
  forms: { sda: mapUnitSql, snapshot: { prepare: prepareSnapshot, datasets: SURVEY_AREA_DATASETS, merge: answerWithRows } },
  // Typed rows, straight from the snapshot or from SDA's strings once (docs/decisions.md#decode-once).
  decode: (payload) => decodeRows(payload, MAP_UNIT_COLUMNS),
  raw: (answer) => answer.payload,
};


function citation(areaName: string | null, areaSymbol: string | null, version: string | null, versionDate: Date | null, retrievedAt: string): string {
  const v = version ? `survey area version ${version}` : "survey area version unknown";
  const date = versionDate ? ` of ${isoDay(versionDate)}` : "";
  return `Soil Survey Staff, Natural Resources Conservation Service, United States Department of Agriculture. Soil Survey Geographic (SSURGO) Database for ${areaName ?? areaSymbol} (${areaSymbol}), ${v}${date}. Available online at ${SSURGO_SOURCE_URL}. Retrieved ${retrievedAt.slice(0, 10)}.`;
}

/**
 * The map unit in an answer of `mapUnitQuery`, typed for the summaries; null when the answer has no
 * rows (an unknown mukey). Components come highest percent first (tie: lowest key), as queried.
 */
export function readMapUnit(answer: RowAnswer, context: AnswerContext): MapUnitData | null {
  const { columns, rows } = answer.typed;
  const at = new Map(columns.map((name, i) => [name, i]));
  const get = (row: readonly Value[], name: string): Value => row[at.get(name)!] ?? null;
  const first = rows[0];
  if (!first) return null;
  const components = new Map<string, SummaryComponent & { horizons: SummaryHorizon[] }>();
  for (const row of rows) {
    const cokey = trimmedIn(get(row, "cokey"));
    if (cokey === null) continue;
    let component = components.get(cokey);
    if (!component) {
      component = {
        key: cokey,
        name: trimmedIn(get(row, "compname")) ?? "",
        kind: trimmedIn(get(row, "compkind")),
        percent: numberIn(get(row, "comppct_r")),
        major: trimmedIn(get(row, "majcompflag")) === "Yes",
        taxonomic_class: trimmedIn(get(row, "taxclname")),
        slope: numberIn(get(row, "slope_r")),
        drainage_class: trimmedIn(get(row, "drainagecl")),
        hydrologic_group: trimmedIn(get(row, "hydgrp")),
        horizons: [],
      };
      components.set(cokey, component);
    }
    const chkey = trimmedIn(get(row, "chkey"));
    // A second representative texture group of one horizon would repeat it: the first row wins.
    if (chkey === null || component.horizons.some((h) => h.key === chkey)) continue;
    component.horizons.push({
      key: chkey,
      name: trimmedIn(get(row, "hzname")),
      top: numberIn(get(row, "hzdept_r")),
      bottom: numberIn(get(row, "hzdepb_r")),
      values: Object.fromEntries(HORIZON_VALUE_COLUMNS.map((c) => [c, numberIn(get(row, c))])),
      texture: trimmedIn(get(row, "texture")),
    });
  }
  const areaSymbol = trimmedIn(get(first, "areasymbol"));
  const versionDate = dateIn(get(first, "saverest"));
  // When Loam's source read the data; the survey's version date is its own warning (docs/decisions.md#retrieved-at).
  const retrieved = retrievedAt(context.source, context.storedAt);
  return {
    provider: SSURGO_ID,
    area_symbol: areaSymbol ?? "",
    map_unit_key: trimmedIn(get(first, "mukey")) ?? "",
    map_unit_symbol: trimmedIn(get(first, "musym")) ?? "",
    map_unit_name: trimmedIn(get(first, "muname")) ?? "",
    components: [...components.values()],
    source: {
      organization: SSURGO_ORGANIZATION,
      retrieved_at: retrieved,
      citation: citation(trimmedIn(get(first, "areaname")), areaSymbol, trimmedIn(get(first, "saversion")), versionDate, retrieved),
      source_url: SSURGO_SOURCE_URL,
      survey_version: surveyVersionWarning(areaSymbol ?? "", trimmedIn(get(first, "areaname")), trimmedIn(get(first, "saversion")), versionDate),
    },
  };
}

/** Map unit keys of a point answer (the point query's rows), in its order, each once. */
export function mapUnitKeysAtPoint(answer: RowAnswer): string[] {
  const { columns, rows } = answer.typed;
  const i = columns.indexOf("mukey");
  if (i < 0) return [];
  return [...new Set(rows.map((row) => row[i]).filter((k): k is string => typeof k === "string" && k !== ""))].map(upstreamMapUnitKey);
}
