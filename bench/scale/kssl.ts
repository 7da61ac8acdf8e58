/**
 * A generated Lab Data Mart table set for the scale bench: the Kansas CSV tables of datasets/kssl/KS
 * repeated, each copy with renumbered pedons (`pedlabsampnum` 99Z + base 36 counter: the "Z" marks
 * them synthetic) and layers, and its coordinates shifted to tile the country at Kansas's density.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { iterateCsvRecords } from "../../src/providers/usda_kssl/ldm-import";

const TABLES = ["lab_combine_nasis_ncss", "lab_layer", "lab_chemical_properties", "lab_physical_properties", "extra_source_fields_pedon"] as const;
/** Kansas spans about 7.7 degrees of longitude and 3.1 of latitude: copies sit side by side. */
const COPY_STEP: [number, number] = [7.7, 3.1];
const COPIES_PER_ROW = 12;

export const pedonNumber = (n: number) => `99Z${n.toString(36).toUpperCase().padStart(4, "0")}`;
export const layerNumber = (n: number) => `99Z${n.toString(36).toUpperCase().padStart(5, "0")}`;
export const copyShift = (copy: number): [number, number] => [(copy % COPIES_PER_ROW) * COPY_STEP[0], Math.floor(copy / COPIES_PER_ROW) * COPY_STEP[1]];

function csvCell(v: string | null | undefined): string {
  if (v === null || v === undefined) return "";
  return /[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

export interface KsslPlan {
  pedons: number;
  layers: number;
  /** The first generated pedon of each source pedon: its number in the copy, for read-back. */
  sourcePedons: string[];
}

/** Write `<out>/<collection>/*.csv` with `pedons` pedons (the source's repeated, the last copy cut short). */
export function writeLabTables(datasets: string, out: string, pedons: number): KsslPlan {
  const source = join(datasets, "kssl", "KS");
  const read = (t: string) => [...iterateCsvRecords(readFileSync(join(source, `${t}.csv`), "utf8"))];
  const tables = Object.fromEntries(TABLES.map((t) => [t, read(t)])) as Record<(typeof TABLES)[number], (string | null)[][]>;
  const col = (t: (typeof TABLES)[number], name: string) => tables[t][0]!.indexOf(name);
  const sourcePedons = tables.lab_combine_nasis_ncss.slice(1).map((r) => r[col("lab_combine_nasis_ncss", "pedlabsampnum")]!);
  const folder = join(out, "ZZ");
  mkdirSync(folder, { recursive: true });
  const lines: Record<string, string[]> = Object.fromEntries(TABLES.map((t) => [t, [tables[t][0]!.map(csvCell).join(",")]]));
  let pedonCount = 0;
  let layerCount = 0;
  for (let copy = 0; pedonCount < pedons; copy++) {
    const pedonOf = new Map<string, string>();
    const layerOf = new Map<string, string>();
    for (const p of sourcePedons) {
      if (pedonCount >= pedons) break;
      pedonOf.set(p, pedonNumber(pedonCount++));
    }
    const [dx, dy] = copyShift(copy);
    const emit = (t: (typeof TABLES)[number], change: (row: (string | null)[]) => boolean) => {
      for (const row of tables[t].slice(1)) {
        const next = [...row];
        if (change(next)) lines[t]!.push(next.map(csvCell).join(","));
      }
    };
    const pedonAt = (t: (typeof TABLES)[number]) => col(t, "pedlabsampnum");
    emit("lab_combine_nasis_ncss", (r) => {
      const id = pedonOf.get(r[pedonAt("lab_combine_nasis_ncss")]!);
      if (!id) return false;
      r[pedonAt("lab_combine_nasis_ncss")] = id;
      r[col("lab_combine_nasis_ncss", "upedonid")] = `SYNTH-${id}`;
      const lat = col("lab_combine_nasis_ncss", "latitude_decimal_degrees");
      const lon = col("lab_combine_nasis_ncss", "longitude_decimal_degrees");
      if (r[lat]) r[lat] = String(Number(r[lat]) + dy);
      if (r[lon]) r[lon] = String(Number(r[lon]) + dx);
      return true;
    });
    emit("extra_source_fields_pedon", (r) => {
      const id = pedonOf.get(r[pedonAt("extra_source_fields_pedon")]!);
      return id ? ((r[pedonAt("extra_source_fields_pedon")] = id), true) : false;
    });
    emit("lab_layer", (r) => {
      const id = pedonOf.get(r[pedonAt("lab_layer")]!);
      if (!id) return false;
      r[pedonAt("lab_layer")] = id;
      const layer = layerNumber(layerCount++);
      layerOf.set(r[col("lab_layer", "labsampnum")]!, layer);
      r[col("lab_layer", "labsampnum")] = layer;
      return true;
    });
    for (const t of ["lab_chemical_properties", "lab_physical_properties"] as const) {
      emit(t, (r) => {
        const layer = layerOf.get(r[col(t, "labsampnum")]!);
        return layer ? ((r[col(t, "labsampnum")] = layer), true) : false;
      });
    }
  }
  for (const t of TABLES) writeFileSync(join(folder, `${t}.csv`), `${lines[t]!.join("\n")}\n`);
  return { pedons: pedonCount, layers: layerCount, sourcePedons };
}
