/**
 * The real KSSL export holds 462 Kansas pedons, and no legal /v1/pedons box (at most 5 degrees a side
 * and 4 square degrees) holds more than about 190 of them, so a 500-feature answer cannot be produced
 * from it. For that one scenario the benchmark serves a copy of the snapshot with synthetic pedons
 * added: copies of real pedons (with their layers) under keys `99S0001`, `99S0002`, ... placed on a
 * grid inside the benchmark box. The copy lives in bench/tmp and is never served outside the bench.
 */
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, rmSync } from "node:fs";

export function densifySnapshot(from: string, to: string, box: [number, number, number, number], extra: number): void {
  for (const suffix of ["", "-wal", "-shm"]) if (existsSync(to + suffix)) rmSync(to + suffix);
  copyFileSync(from, to);
  const db = new Database(to);
  try {
    const pedonColumns = db.query<{ name: string }, []>("SELECT name FROM pragma_table_info('lab_combine_nasis_ncss')").all().map((c) => c.name);
    const layerColumns = db.query<{ name: string }, []>("SELECT name FROM pragma_table_info('lab_layer')").all().map((c) => c.name);
    const templates = db.query<Record<string, string | null>, []>("SELECT * FROM lab_combine_nasis_ncss ORDER BY pedlabsampnum").all();
    const layersOf = db.query<Record<string, string | null>, [string]>("SELECT * FROM lab_layer WHERE pedlabsampnum = ?");
    const insertPedon = db.prepare(`INSERT INTO lab_combine_nasis_ncss (${pedonColumns.map((c) => `"${c}"`).join(", ")}) VALUES (${pedonColumns.map(() => "?").join(", ")})`);
    const insertLayer = db.prepare(`INSERT INTO lab_layer (${layerColumns.map((c) => `"${c}"`).join(", ")}) VALUES (${layerColumns.map(() => "?").join(", ")})`);
    const [minLon, minLat, maxLon, maxLat] = box;
    const side = Math.ceil(Math.sqrt(extra));
    let layerSerial = 0;
    db.transaction(() => {
      for (let i = 0; i < extra; i++) {
        const template = templates[i % templates.length]!;
        const key = `99S${String(i + 1).padStart(4, "0")}`;
        const lon = minLon + ((i % side) + 0.5) * ((maxLon - minLon) / side);
        const lat = minLat + (Math.floor(i / side) + 0.5) * ((maxLat - minLat) / side);
        const pedon: Record<string, string | null> = { ...template, pedlabsampnum: key, upedonid: `BENCH-${key}`, longitude_decimal_degrees: lon.toFixed(6), latitude_decimal_degrees: lat.toFixed(6) };
        insertPedon.run(...pedonColumns.map((c) => pedon[c] ?? null));
        for (const layer of layersOf.all(template.pedlabsampnum!)) {
          layerSerial++;
          const copy: Record<string, string | null> = { ...layer, pedlabsampnum: key, labsampnum: `99S${String(layerSerial).padStart(5, "0")}` };
          insertLayer.run(...layerColumns.map((c) => copy[c] ?? null));
        }
      }
    })();
  } finally {
    db.close();
  }
}
