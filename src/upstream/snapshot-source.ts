/**
 * The offline upstream: answers each logical query from the snapshot SQLite file, in the very shape
 * Soil Data Access would send (column list of queries.ts, SDA metadata row, every value a string).
 *
 * Snapshot specifics: lab pedons have no numeric keys, so `pedon_key` is the pedlabsampnum and
 * `layer_key` the labsampnum; columns the exports do not carry (corr_name, method codes, ...) are null.
 */
import { Database, type Statement } from "bun:sqlite";
import { existsSync } from "node:fs";
import { LoamError, UpstreamError } from "../errors";
import { pointInEncodedRings } from "../snapshot/geometry";
import { quoteIdent, readSnapshotInfo, tableColumns } from "../snapshot/schema";
import { LAB_BBOX_COLUMNS, LAB_PEDON_COLUMNS, LAB_PROPERTY_COLUMNS, SSURGO_POINT_COLUMNS, type LogicalQuery } from "./queries";
import { answerAsSda, sdaCell, type SqlType } from "./sda-payload";
import type { SourceDescription, UpstreamSource } from "./source";
import type { Cell, UpstreamAnswer } from "./table";

type Row = Record<string, unknown>;

/** Which SSURGO table each point column comes from (ambiguous names like lkey, mukey are pinned). */
const POINT_OWNER: Record<string, [alias: string, table: string]> = {
  areasymbol: ["l", "legend"],
  areaname: ["l", "legend"],
  saverest: ["sc", "sacatalog"],
  saversion: ["sc", "sacatalog"],
  lkey: ["l", "legend"],
  mukey: ["mu", "mapunit"],
  musym: ["mu", "mapunit"],
  muname: ["mu", "mapunit"],
  cokey: ["co", "component"],
  compname: ["co", "component"],
  comppct_r: ["co", "component"],
  majcompflag: ["co", "component"],
  compkind: ["co", "component"],
};

/** SQL Server types of the LDM columns as SDA reports them; snapshot keys are text (pedlabsampnum, labsampnum). */
const LAB_TYPES: Record<string, SqlType> = {
  pedon_key: { name: "varchar", size: 20 },
  layer_key: { name: "varchar", size: 20 },
  pedlabsampnum: { name: "varchar", size: 128 },
  labsampnum: { name: "varchar", size: 20 },
  upedonid: { name: "varchar", size: 128 },
  samp_name: { name: "varchar", size: 128 },
  corr_name: { name: "varchar", size: 128 },
  site_obsdate: "datetime",
  latitude_decimal_degrees: "float",
  longitude_decimal_degrees: "float",
  layer_count: "int",
  layer_type: { name: "varchar", size: 15 },
  hzn_top: "real",
  hzn_bot: "real",
  hzn_desgn: { name: "varchar", size: 12 },
};
const labType = (column: string): SqlType => LAB_TYPES[column] ?? (column.endsWith("_method") ? { name: "varchar", size: 8 } : "real");

const typeName = (t: SqlType) => (typeof t === "string" ? t : t.name);

/** Numeric-string keys (mukey, cokey) sort as numbers, as SDA's int keys do. */
const byKey = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

export class SnapshotSource implements UpstreamSource {
  readonly kind = "snapshot" as const;
  private readonly db: Database;
  private readonly candidates: Statement<Row> | null;
  private readonly mapUnitRows: Statement<Row> | null;
  private readonly pointTypes: SqlType[];
  private readonly bboxRows: Statement<Row> | null;
  private readonly pedonRows: Statement<Row> | null;
  private readonly pedonTypes: SqlType[];
  private readonly description: SourceDescription;

  constructor(readonly path: string) {
    if (!existsSync(path)) throw new Error(`Snapshot database not found at ${path}; build it with 'bun run snapshot:build'.`);
    let db: Database | null = null;
    try {
      db = new Database(path, { readonly: true });
      const info = readSnapshotInfo(db);
      this.db = db;
      [this.candidates, this.mapUnitRows, this.pointTypes] = this.preparePoint();
      this.bboxRows = this.prepareBbox();
      [this.pedonRows, this.pedonTypes] = this.preparePedon();
      this.description = {
        kind: "snapshot",
        location: path,
        builtAt: info.values.get("updated_at") ?? info.values.get("built_at"),
        // SSURGO areas first, then lab collections, each by id.
        coverage: [...info.datasets].sort((a, b) => b.kind.localeCompare(a.kind) || a.id.localeCompare(b.id)).map((d) => d.label),
      };
    } catch (error) {
      db?.close();
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`Snapshot database ${path} is corrupt or not a Loam snapshot (${reason}); rebuild it with 'bun run snapshot:build'.`);
    }
  }

  private has(table: string, column?: string): boolean {
    const columns = tableColumns(this.db, table);
    return column === undefined ? columns.length > 0 : columns.includes(column);
  }

  private preparePoint(): [Statement<Row> | null, Statement<Row> | null, SqlType[]] {
    const typeOf = this.db.query<{ sqltype: string; sqlsize: number }, [string, string]>(
      "SELECT sqltype, sqlsize FROM ssurgo_columns WHERE tabphyname = ? AND colphyname = ?",
    );
    const types: SqlType[] = [];
    const select = SSURGO_POINT_COLUMNS.map((column) => {
      const [alias, table] = POINT_OWNER[column] ?? ["ch", "chorizon"];
      const t = typeOf.get(table, column);
      types.push(t ? { name: t.sqltype, size: t.sqlsize } : { name: "varchar", size: 8000 });
      return this.has(table, column) ? `${alias}.${quoteIdent(column)} AS ${quoteIdent(column)}` : `NULL AS ${quoteIdent(column)}`;
    });
    if (!["legend", "mapunit", "component", "chorizon", "sacatalog", "mupolygon"].every((t) => this.has(t))) return [null, null, types];
    const candidates = this.db.prepare<Row, [number, number]>(
      `SELECT p.mukey, p.rings FROM mupolygon_rtree r JOIN mupolygon p ON p.id = r.id
       WHERE r.min_x <= ?1 AND r.max_x >= ?1 AND r.min_y <= ?2 AND r.max_y >= ?2`,
    );
    // SDA point queries exclude STATSGO2 (areasymbol 'US'); LEFT JOINs keep map units without
    // components and components without horizons (Beaches, Water, ...).
    const rows = this.db.prepare<Row, [string]>(
      `SELECT ${select.join(", ")}
       FROM mapunit mu
       JOIN legend l ON l.lkey = mu.lkey
       LEFT JOIN sacatalog sc ON sc.areasymbol = l.areasymbol
       LEFT JOIN component co ON co.mukey = mu.mukey
       LEFT JOIN chorizon ch ON ch.cokey = co.cokey
       WHERE mu.mukey = ? AND l.areasymbol <> 'US'
       ORDER BY co.comppct_r DESC, CAST(co.cokey AS INTEGER), co.cokey, ch.hzdept_r, CAST(ch.chkey AS INTEGER)`,
    );
    return [candidates, rows, types];
  }

  private prepareBbox(): Statement<Row> | null {
    const p = "lab_combine_nasis_ncss";
    if (!this.has(p, "pedlabsampnum") || !this.has(p, "latitude_decimal_degrees") || !this.has(p, "longitude_decimal_degrees")) return null;
    const layerCount = this.has("lab_layer", "pedlabsampnum")
      ? "(SELECT count(*) FROM lab_layer ll WHERE ll.pedlabsampnum = p.pedlabsampnum)"
      : "NULL";
    const select = LAB_BBOX_COLUMNS.map((c) => {
      if (c === "pedon_key") return "p.pedlabsampnum AS pedon_key";
      if (c === "layer_count") return `${layerCount} AS layer_count`;
      return this.has(p, c) ? `p.${quoteIdent(c)} AS ${quoteIdent(c)}` : `NULL AS ${quoteIdent(c)}`;
    });
    // Same expressions as the lon/lat index built by the importer, so SQLite can use it.
    return this.db.prepare<Row, [number, number, number, number, number]>(
      `SELECT ${select.join(", ")} FROM ${p} p
       WHERE p.latitude_decimal_degrees IS NOT NULL AND p.longitude_decimal_degrees IS NOT NULL
         AND CAST(p.longitude_decimal_degrees AS REAL) BETWEEN ?1 AND ?3
         AND CAST(p.latitude_decimal_degrees AS REAL) BETWEEN ?2 AND ?4
       ORDER BY p.pedlabsampnum LIMIT ?5`,
    );
  }

  private preparePedon(): [Statement<Row> | null, SqlType[]] {
    const types = LAB_PEDON_COLUMNS.map(labType);
    if (!this.has("lab_combine_nasis_ncss", "pedlabsampnum") || !this.has("lab_layer", "pedlabsampnum")) return [null, types];
    const sources: Array<[alias: string, table: string]> = [
      ["p", "lab_combine_nasis_ncss"],
      ["l", "lab_layer"],
      ["ph", "lab_physical_properties"],
      ["chm", "lab_chemical_properties"],
    ];
    const props = new Set<string>([...LAB_PROPERTY_COLUMNS.map((x) => x.column), ...LAB_PROPERTY_COLUMNS.flatMap((x) => (x.method ? [x.method] : []))]);
    const layerColumns = new Set(["layer_type", "hzn_top", "hzn_bot", "hzn_desgn"]);
    const select = LAB_PEDON_COLUMNS.map((c) => {
      if (c === "pedon_key") return "p.pedlabsampnum AS pedon_key";
      if (c === "layer_key") return "l.labsampnum AS layer_key";
      if (c === "labsampnum") return "l.labsampnum AS labsampnum";
      const candidates = props.has(c) ? sources.slice(2) : layerColumns.has(c) ? [sources[1]!] : [sources[0]!];
      const hit = candidates.find(([, table]) => this.has(table, c));
      return hit ? `${hit[0]}.${quoteIdent(c)} AS ${quoteIdent(c)}` : `NULL AS ${quoteIdent(c)}`;
    });
    const joins = sources
      .slice(2)
      .filter(([, table]) => this.has(table, "labsampnum"))
      .map(([alias, table]) => `LEFT JOIN ${table} ${alias} ON ${alias}.labsampnum = l.labsampnum`);
    // A pedon without layers still answers one row (layer columns null), so it is found, not 404.
    const statement = this.db.prepare<Row, [string]>(
      `SELECT ${select.join(", ")} FROM lab_combine_nasis_ncss p
       LEFT JOIN lab_layer l ON l.pedlabsampnum = p.pedlabsampnum
       ${joins.join("\n")}
       WHERE p.pedlabsampnum = ?
       ORDER BY CAST(l.hzn_top AS REAL), l.labsampnum`,
    );
    return [statement, types];
  }

  async run(query: LogicalQuery): Promise<UpstreamAnswer> {
    try {
      switch (query.kind) {
        case "ssurgo_point":
          return this.point(query.longitude, query.latitude);
        case "lab_bbox": {
          const [minLon, minLat, maxLon, maxLat] = query.bbox;
          const rows = this.bboxRows?.all(minLon, minLat, maxLon, maxLat, query.limit + 1) ?? [];
          return this.answer(LAB_BBOX_COLUMNS, LAB_BBOX_COLUMNS.map(labType), rows);
        }
        case "lab_pedon": {
          const key = query.pedonKey;
          const rows = key.form === "pedlabsampnum" && this.pedonRows ? this.pedonRows.all(key.value) : [];
          return this.answer(LAB_PEDON_COLUMNS, this.pedonTypes, rows);
        }
      }
    } catch (error) {
      if (error instanceof LoamError) throw error;
      throw new UpstreamError(`Snapshot query failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private point(longitude: number, latitude: number): UpstreamAnswer {
    const mukeys = new Set<string>();
    for (const c of this.candidates?.all(longitude, latitude) ?? []) {
      if (typeof c.mukey === "string" && pointInEncodedRings(c.rings as Uint8Array, longitude, latitude)) mukeys.add(c.mukey);
    }
    const rows = [...mukeys].sort(byKey).flatMap((mukey) => this.mapUnitRows?.all(mukey) ?? []);
    return this.answer(SSURGO_POINT_COLUMNS, this.pointTypes, rows);
  }

  private answer(columns: readonly string[], types: SqlType[], rows: Row[]): UpstreamAnswer {
    const names = types.map(typeName);
    const cells: Cell[][] = rows.map((row) => columns.map((c, i) => sdaCell(row[c], names[i])));
    return answerAsSda(columns, types, cells);
  }

  describe(): SourceDescription {
    return this.description;
  }

  close(): void {
    this.db.close();
  }
}
