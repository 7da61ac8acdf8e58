/**
 * Import one Web Soil Survey SSURGO download (a survey-area folder, or a .zip of one) into the
 * snapshot: the six data tables with every mstabcol column, `sacatalog`, and the map-unit polygons
 * (`mupolygon` + R*Tree). Rows are kept as they come; integrity problems become warnings.
 */
import type { Database, SQLQueryBindings } from "bun:sqlite";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import * as shapefile from "shapefile";
import { ringsBBox, type Ring } from "../../geometry/rings";
import { encodeRings } from "../../upstream/snapshot-geometry";
import { createBaseSchema, ensureIndexes, ensureTable, quoteIdent, tableExists } from "../../upstream/snapshot-schema";
import { decodeText } from "../decode";
import { normalizeDateTime, readSurveyAreaVersions } from "./wss-metadata";
import { areaKeyBase, POLYGONS_PER_AREA } from "./polygon-keys";
import {
  iterateWssRecords,
  readColumnDictionary,
  readTableFileNames,
  sqliteAffinity,
  sqlServerType,
  type SsurgoColumn,
} from "./wss-text";

/** SSURGO tables the snapshot keeps (table physical names). sacatalog only when the export has it. */
export const SSURGO_TABLES = ["legend", "mapunit", "component", "chorizon", "muaggatt", "chtexturegrp", "sacatalog"] as const;

export interface SurveyArea {
  areasymbol: string;
  areaname: string | null;
  lkey: string | null;
  saversion: number | null;
  saverest: string | null;
  /** The download is an area-of-interest clip, not the whole survey area. */
  aoi: boolean;
}

export interface SsurgoFolderReport {
  folder: string;
  areas: SurveyArea[];
  /** Rows imported per table, plus `mupolygon`. */
  rows: Record<string, number>;
  warnings: string[];
}

type Log = (line: string) => void;

function readText(path: string): string {
  return decodeText(readFileSync(path));
}

/**
 * usda_ssurgo's own tables besides the SSURGO ones (those take their columns from each download's
 * mstabcol): `ssurgo_columns`, the mstabcol dictionary with the SQL Server type SDA reports, and the
 * map-unit polygons `mupolygon` behind the `mupolygon_rtree` prefilter.
 */
export function createSsurgoTables(db: Database): void {
  createBaseSchema(db);
  db.run(`CREATE TABLE IF NOT EXISTS ssurgo_columns (
    tabphyname TEXT NOT NULL, colphyname TEXT NOT NULL, colsequence INTEGER NOT NULL,
    logicaldatatype TEXT NOT NULL, fieldsize INTEGER, precision INTEGER,
    sqltype TEXT NOT NULL, sqlsize INTEGER NOT NULL,
    PRIMARY KEY (tabphyname, colphyname))`);
  db.run(`CREATE TABLE IF NOT EXISTS mupolygon (
    id INTEGER PRIMARY KEY, mukey TEXT, areasymbol TEXT, musym TEXT, spatialver INTEGER,
    min_x REAL NOT NULL, min_y REAL NOT NULL, max_x REAL NOT NULL, max_y REAL NOT NULL,
    rings BLOB NOT NULL)`);
  db.run("CREATE VIRTUAL TABLE IF NOT EXISTS mupolygon_rtree USING rtree(id, min_x, max_x, min_y, max_y)");
  db.run("CREATE INDEX IF NOT EXISTS mupolygon_areasymbol ON mupolygon (areasymbol)");
  db.run("CREATE INDEX IF NOT EXISTS mupolygon_mukey ON mupolygon (mukey)");
}

/** Area symbols of a survey folder's legend (to replace them before a re-import). */
export function legendAreaSymbols(folder: string): string[] {
  const path = join(folder, "tabular", "legend.txt");
  if (!existsSync(path)) throw new Error(`${folder}: tabular/legend.txt is missing`);
  const columns = readColumnDictionary(readText(join(folder, "tabular", "mstabcol.txt"))).get("legend") ?? [];
  const at = columns.findIndex((c) => c.name === "areasymbol");
  return [...iterateWssRecords(readText(path), "legend.txt")].map((r) => r[at] ?? "").filter((s) => s !== "");
}

/** Remove every row of survey area `areasymbol` (children first, by key). */
export function deleteSsurgoArea(db: Database, areasymbol: string): void {
  const has = (t: string) => tableExists(db, t);
  const lkeys = "SELECT lkey FROM legend WHERE areasymbol = ?1";
  const mukeys = `SELECT mukey FROM mapunit WHERE lkey IN (${lkeys})`;
  const cokeys = `SELECT cokey FROM component WHERE mukey IN (${mukeys})`;
  const chkeys = `SELECT chkey FROM chorizon WHERE cokey IN (${cokeys})`;
  if (has("legend") && has("mapunit")) {
    if (has("component") && has("chorizon")) {
      if (has("chtexturegrp")) db.query(`DELETE FROM chtexturegrp WHERE chkey IN (${chkeys})`).run(areasymbol);
      db.query(`DELETE FROM chorizon WHERE cokey IN (${cokeys})`).run(areasymbol);
    }
    if (has("component")) db.query(`DELETE FROM component WHERE mukey IN (${mukeys})`).run(areasymbol);
    if (has("muaggatt")) db.query(`DELETE FROM muaggatt WHERE mukey IN (${mukeys})`).run(areasymbol);
    db.query(`DELETE FROM mapunit WHERE lkey IN (${lkeys})`).run(areasymbol);
  }
  if (has("legend")) db.query("DELETE FROM legend WHERE areasymbol = ?").run(areasymbol);
  if (has("sacatalog")) db.query("DELETE FROM sacatalog WHERE areasymbol = ?").run(areasymbol);
  db.query("DELETE FROM mupolygon_rtree WHERE id IN (SELECT id FROM mupolygon WHERE areasymbol = ?)").run(areasymbol);
  db.query("DELETE FROM mupolygon WHERE areasymbol = ?").run(areasymbol);
}

function recordColumns(db: Database, table: string, columns: SsurgoColumn[]): void {
  const upsert = db.query(
    `INSERT OR REPLACE INTO ssurgo_columns (tabphyname, colphyname, colsequence, logicaldatatype, fieldsize, precision, sqltype, sqlsize)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const c of columns) {
    const sql = sqlServerType(c);
    upsert.run(table, c.name, c.sequence, c.logicalType, c.fieldSize, c.precision, sql.name, sql.size);
  }
  ensureTable(db, table, columns.map((c) => ({ name: c.name, affinity: sqliteAffinity(c.logicalType) })));
}

/** Insert every record of one WSS table file; returns the row count. */
function importTableFile(db: Database, table: string, path: string, columns: SsurgoColumn[]): number {
  const names = columns.map((c) => quoteIdent(c.name)).join(", ");
  const insert = db.prepare(`INSERT INTO ${quoteIdent(table)} (${names}) VALUES (${columns.map(() => "?").join(", ")})`);
  const dateAt = columns.flatMap((c, i) => (c.logicalType === "Date/Time" ? [i] : []));
  const file = basename(path);
  let count = 0;
  db.transaction(() => {
    for (const record of iterateWssRecords(readText(path), file)) {
      if (record.length !== columns.length) {
        throw new Error(`${path}: record ${count + 1} has ${record.length} fields, mstabcol.txt defines ${columns.length} for ${table}`);
      }
      for (const i of dateAt) record[i] = record[i] == null ? null : (normalizeDateTime(record[i]) ?? record[i]!);
      insert.run(...(record as SQLQueryBindings[]));
      count++;
    }
  })();
  insert.finalize();
  return count;
}

/** Rings of a GeoJSON Polygon / MultiPolygon, flattened: even-odd needs no outer/hole labels. */
function geometryRings(geometry: { type: string; coordinates: unknown } | null): Ring[] {
  if (!geometry) return [];
  if (geometry.type === "Polygon") return geometry.coordinates as Ring[];
  if (geometry.type === "MultiPolygon") return (geometry.coordinates as Ring[][]).flat();
  return [];
}

/**
 * The key of each next polygon of a survey area (docs/decisions.md#national-mirror): the area's band
 * (polygon-keys.ts), numbered on from what the band holds (nothing, as an area is replaced whole). A band
 * holding another area's polygons (two symbols of another shape hashed alike) stops the import.
 */
function polygonKeys(db: Database): (areasymbol: string | null) => number {
  const next = new Map<string | null, number>();
  const held = db.prepare<{ id: number | null; other: string | null }, [number, number, string | null]>(
    "SELECT max(id) AS id, max(CASE WHEN areasymbol IS NOT ?3 THEN coalesce(areasymbol, '(none)') END) AS other FROM mupolygon WHERE id > ?1 AND id < ?2",
  );
  return (areasymbol) => {
    let key = next.get(areasymbol);
    if (key === undefined) {
      const base = areaKeyBase(areasymbol);
      const band = held.get(base, base + POLYGONS_PER_AREA, areasymbol);
      if (band?.other != null) throw new Error(`survey areas ${areasymbol ?? "(none)"} and ${band.other} would share polygon keys; a snapshot holds only one of them`);
      key = band?.id ?? base;
    }
    key += 1;
    if (key % POLYGONS_PER_AREA === 0) throw new Error(`survey area ${areasymbol ?? "(none)"} has ${POLYGONS_PER_AREA} polygons or more; its polygon keys hold ${POLYGONS_PER_AREA - 1}`);
    next.set(areasymbol, key);
    return key;
  };
}

async function importPolygons(db: Database, folder: string, log: Log, warnings: string[]): Promise<number> {
  const spatial = join(folder, "spatial");
  const files = existsSync(spatial) ? readdirSync(spatial).filter((n) => /^soilmu_a_.*\.shp$/i.test(n)).sort() : [];
  if (files.length === 0) warnings.push(`${basename(folder)}: no spatial/soilmu_a_*.shp; its map units cannot be found by point`);
  const insertPolygon = db.prepare(
    "INSERT INTO mupolygon (id, mukey, areasymbol, musym, spatialver, min_x, min_y, max_x, max_y, rings) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const keyOf = polygonKeys(db);
  const insertBox = db.prepare("INSERT INTO mupolygon_rtree (id, min_x, max_x, min_y, max_y) VALUES (?, ?, ?, ?, ?)");
  let total = 0;
  for (const name of files) {
    const source = await shapefile.open(join(spatial, name), undefined, { encoding: "windows-1252" });
    const batch: Array<{ props: Record<string, unknown>; rings: Ring[] }> = [];
    const flush = db.transaction(() => {
      for (const { props, rings } of batch) {
        const box = ringsBBox(rings);
        const text = (k: string) => (props[k] == null ? null : String(props[k]).trim());
        const areasymbol = text("AREASYMBOL");
        const id = keyOf(areasymbol);
        insertPolygon.run(
          id, text("MUKEY"), areasymbol, text("MUSYM"), props.SPATIALVER == null ? null : Number(props.SPATIALVER),
          box.minX, box.minY, box.maxX, box.maxY, encodeRings(rings),
        );
        insertBox.run(id, box.minX, box.maxX, box.minY, box.maxY);
      }
      batch.length = 0;
    });
    let empty = 0;
    for (;;) {
      const next = await source.read();
      if (next.done) break;
      const rings = geometryRings(next.value.geometry);
      if (rings.length === 0) {
        empty++;
        continue;
      }
      batch.push({ props: next.value.properties ?? {}, rings });
      total++;
      if (batch.length >= 5000) flush();
    }
    flush();
    if (empty > 0) warnings.push(`${name}: ${empty} record(s) without polygon geometry skipped`);
    log(`  ${name}: ${total} polygon(s)`);
  }
  insertPolygon.finalize();
  insertBox.finalize();
  return total;
}

/** Import one survey folder (tabular/ + spatial/) into `db`. Existing rows of its areas are not touched. */
export async function importSsurgoFolder(db: Database, folder: string, log: Log = () => {}): Promise<SsurgoFolderReport> {
  createSsurgoTables(db);
  const tabular = join(folder, "tabular");
  for (const f of ["mstab.txt", "mstabcol.txt", "legend.txt"]) {
    if (!existsSync(join(tabular, f))) throw new Error(`${folder}: tabular/${f} is missing; is this a Web Soil Survey SSURGO export?`);
  }
  const dictionary = readColumnDictionary(readText(join(tabular, "mstabcol.txt")));
  const fileNames = readTableFileNames(readText(join(tabular, "mstab.txt")));
  const rows: Record<string, number> = {};
  const warnings: string[] = [];
  log(`SSURGO ${basename(folder)}`);
  for (const table of SSURGO_TABLES) {
    const columns = dictionary.get(table);
    const file = fileNames.get(table);
    if (!columns || !file) throw new Error(`${folder}: mstab/mstabcol do not describe table ${table}`);
    recordColumns(db, table, columns);
    const path = join(tabular, `${file}.txt`);
    if (!existsSync(path)) {
      if (table !== "sacatalog") warnings.push(`${basename(folder)}: tabular/${file}.txt missing; no ${table} rows`);
      continue;
    }
    rows[table] = importTableFile(db, table, path, columns);
    log(`  ${table}: ${rows[table]} row(s)`);
  }
  const areas = describeAreas(db, folder, rows.sacatalog !== undefined, warnings);
  rows.mupolygon = await importPolygons(db, folder, log, warnings);
  ensureIndexes(db);
  return { folder, areas, rows, warnings };
}

/** Survey areas of the folder's legend, with sacatalog rows synthesised when the export has none. */
function describeAreas(db: Database, folder: string, hasSacatalog: boolean, warnings: string[]): SurveyArea[] {
  const versions = readSurveyAreaVersions(folder);
  const aoi = existsSync(join(folder, "spatial")) && readdirSync(join(folder, "spatial")).some((n) => /^aoi_a_.*\.shp$/i.test(n));
  const legendRows = legendAreaSymbols(folder);
  const areas: SurveyArea[] = [];
  for (const areasymbol of legendRows) {
    const legend = db.query<{ areaname: string | null; lkey: string | null }, [string]>(
      "SELECT areaname, lkey FROM legend WHERE areasymbol = ? LIMIT 1",
    ).get(areasymbol);
    const catalog = hasSacatalog
      ? db.query<{ saversion: number | null; saverest: string | null }, [string]>(
          "SELECT saversion, saverest FROM sacatalog WHERE areasymbol = ? LIMIT 1",
        ).get(areasymbol)
      : null;
    const meta = versions.get(areasymbol);
    const area: SurveyArea = {
      areasymbol,
      areaname: legend?.areaname ?? null,
      lkey: legend?.lkey ?? null,
      saversion: catalog?.saversion ?? meta?.saversion ?? null,
      saverest: catalog?.saverest ?? meta?.saverest ?? null,
      aoi,
    };
    if (!catalog) {
      db.query("INSERT INTO sacatalog (areasymbol, areaname, saversion, saverest) VALUES (?, ?, ?, ?)").run(
        areasymbol, area.areaname, area.saversion, area.saverest,
      );
      if (area.saversion === null) warnings.push(`${areasymbol}: survey area version not stated in ${meta?.source ?? "the export"} (no sacatlog.txt or readme.txt); sacatalog.saversion is NULL`);
      if (area.saverest === null) warnings.push(`${areasymbol}: survey area version date not found; sacatalog.saverest is NULL`);
    }
    areas.push(area);
  }
  return areas;
}
