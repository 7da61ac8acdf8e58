/**
 * The tests' own reader of the Web Soil Survey text files in datasets/ (deliberately not Loam's
 * importer): pipe-delimited records, no header, column n = colsequence n of mstabcol.txt, quoted
 * strings, NULL = empty unquoted field. It turns a map unit into the typed components the
 * summaries take, so the tests compare Loam's aggregation with NRCS's own muaggatt values.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { SummaryComponent } from "../../src/domain/component";

export const DATA_DIR = resolve(process.env.LOAM_DATA_DIR ?? "datasets");
export const AREAS = ["IA073-aoi", "IA015-aoi", "IA183-aoi", "MH936"] as const;

/** muaggatt's available water storage columns by the bottom of their interval (top 0 cm). */
export const MUAGGATT_AWS = [
  [25, "aws025wta"],
  [50, "aws050wta"],
  [100, "aws0100wta"],
  [150, "aws0150wta"],
] as const;
/** muaggatt's dominant-condition class columns by the summary property that reproduces them. */
export const MUAGGATT_CLASSES = [
  ["drainage_class", "drclassdcd"],
  ["hydrologic_group", "hydgrpdcd"],
] as const;

/** muaggatt prints two decimals: a value (or a muaggatt text field) at that precision, compared exactly. */
export const twoDecimals = (v: number | string | null | undefined) => (v === null || v === undefined ? null : (Math.round(Number(v) * 100) / 100).toFixed(2));

type Row = Record<string, string | null>;

/** Split one record on | outside quotes; "x" → x (with "" → "), empty unquoted → null. */
function splitRecord(line: string): Array<string | null> {
  const out: Array<string | null> = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let text = "";
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (line[q + 1] === '"') {
          text += line.slice(i, q + 1);
          i = q + 2;
          continue;
        }
        text += line.slice(i, q);
        i = q + 1;
        break;
      }
      out.push(text);
    } else {
      const end = line.indexOf("|", i);
      const raw = line.slice(i, end === -1 ? undefined : end);
      out.push(raw === "" ? null : raw.trim());
      i = end === -1 ? line.length : end;
    }
    if (i >= line.length) return out;
    i++; // the |
  }
}

const columnCache = new Map<string, Map<string, string[]>>();

/** Column names per table from mstabcol.txt (its quoted descriptions may span lines: match records by their start). */
function columns(area: string, table: string): string[] {
  let dict = columnCache.get(area);
  if (!dict) {
    dict = new Map();
    const text = readFileSync(join(DATA_DIR, "ssurgo", area, "tabular", "mstabcol.txt"), "latin1");
    const seq = new Map<string, Array<[number, string]>>();
    for (const m of text.matchAll(/^"([a-z_]+)"\|(\d+)\|"([a-z0-9_]+)"\|/gm)) {
      const list = seq.get(m[1]!) ?? [];
      list.push([Number(m[2]), m[3]!]);
      seq.set(m[1]!, list);
    }
    for (const [t, list] of seq) dict.set(t, list.sort((a, b) => a[0] - b[0]).map(([, n]) => n));
    columnCache.set(area, dict);
  }
  const names = dict.get(table);
  if (!names) throw new Error(`${area}: mstabcol has no ${table}`);
  return names;
}

const FILES: Record<string, string> = { mapunit: "mapunit", component: "comp", chorizon: "chorizon", muaggatt: "muaggatt", chtexturegrp: "chtexgrp" };

export function readTable(area: string, table: keyof typeof FILES | string): Row[] {
  const names = columns(area, table);
  const text = readFileSync(join(DATA_DIR, "ssurgo", area, "tabular", `${FILES[table]}.txt`), "latin1");
  return text
    .split(/\r?\n/)
    .filter((l) => l !== "")
    .map((line) => {
      const fields = splitRecord(line);
      if (fields.length !== names.length) throw new Error(`${area} ${table}: ${fields.length} fields, expected ${names.length}`);
      return Object.fromEntries(names.map((n, i) => [n, fields[i] ?? null]));
    });
}

const num = (v: string | null | undefined) => (v == null ? null : Number(v));

export interface SourceMapUnit {
  area: string;
  mukey: string;
  musym: string;
  muaggatt: Row;
  components: SummaryComponent[];
  /** The raw rows, for expected values computed straight from the files. */
  componentRows: Row[];
  horizonRows: Row[];
}

/** Every map unit of the four survey areas, with its components built from the source files. */
export function sourceMapUnits(): SourceMapUnit[] {
  const out: SourceMapUnit[] = [];
  for (const area of AREAS) {
    const mapunits = readTable(area, "mapunit");
    const muaggatt = readTable(area, "muaggatt");
    const comps = readTable(area, "component");
    const horizons = readTable(area, "chorizon");
    const textures = readTable(area, "chtexturegrp").filter((t) => t.rvindicator === "Yes");
    for (const mu of mapunits) {
      const componentRows = comps.filter((c) => c.mukey === mu.mukey);
      const horizonRows = horizons.filter((h) => componentRows.some((c) => c.cokey === h.cokey));
      const components: SummaryComponent[] = componentRows.map((c) => ({
        key: c.cokey!,
        name: c.compname!,
        kind: c.compkind ?? null,
        percent: num(c.comppct_r),
        major: c.majcompflag === "Yes",
        taxonomic_class: c.taxclname ?? null,
        slope: num(c.slope_r),
        drainage_class: c.drainagecl ?? null,
        hydrologic_group: c.hydgrp ?? null,
        horizons: horizonRows
          .filter((h) => h.cokey === c.cokey)
          .map((h) => ({
            key: h.chkey!,
            name: h.hzname ?? null,
            top: num(h.hzdept_r),
            bottom: num(h.hzdepb_r),
            values: Object.fromEntries(
              ["ph1to1h2o_r", "om_r", "sandtotal_r", "silttotal_r", "claytotal_r", "dbthirdbar_r", "cec7_r", "ec_r", "awc_r", "ksat_r"].map((k) => [k, num(h[k] ?? null)]),
            ),
            texture: textures.find((t) => t.chkey === h.chkey)?.texture ?? null,
          })),
      }));
      const agg = muaggatt.find((m) => m.mukey === mu.mukey);
      if (!agg) throw new Error(`${area}: no muaggatt row for ${mu.mukey}`);
      out.push({ area, mukey: mu.mukey!, musym: mu.musym!, muaggatt: agg, components, componentRows, horizonRows });
    }
  }
  return out;
}
