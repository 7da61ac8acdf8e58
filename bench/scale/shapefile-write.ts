/**
 * A minimal ESRI shapefile writer (polygons: .shp, .shx, .dbf) for the scale bench's generated Web
 * Soil Survey areas. Rings are written as given (the reader's rings, shifted), one part per ring.
 */
import { writeFileSync } from "node:fs";

export type Ring = [number, number][];
export interface PolygonRecord {
  rings: Ring[];
  /** DBF attributes, in `fields` order; text, or an integer for a numeric field. */
  values: (string | number | null)[];
}
export interface DbfField {
  name: string;
  type: "C" | "N";
  size: number;
}

function boxOf(rings: Ring[]): [number, number, number, number] {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const ring of rings) for (const [x, y] of ring) [w, s, e, n] = [Math.min(w, x), Math.min(s, y), Math.max(e, x), Math.max(n, y)];
  return [w, s, e, n];
}

function header(view: DataView, fileBytes: number, box: [number, number, number, number]): void {
  view.setInt32(0, 9994, false);
  view.setInt32(24, fileBytes / 2, false);
  view.setInt32(28, 1000, true);
  view.setInt32(32, 5, true);
  box.forEach((v, i) => view.setFloat64(36 + i * 8, v, true));
}

function writeDbf(path: string, fields: DbfField[], records: PolygonRecord[]): void {
  const recordBytes = 1 + fields.reduce((s, f) => s + f.size, 0);
  const headerBytes = 32 + 32 * fields.length + 1;
  const out = Buffer.alloc(headerBytes + recordBytes * records.length + 1, 0x20);
  out.fill(0, 0, headerBytes);
  out[0] = 3;
  out[1] = 126;
  out[2] = 1;
  out[3] = 1;
  out.writeUInt32LE(records.length, 4);
  out.writeUInt16LE(headerBytes, 8);
  out.writeUInt16LE(recordBytes, 10);
  fields.forEach((f, i) => {
    const at = 32 + i * 32;
    out.write(f.name, at, 11, "latin1");
    out[at + 11] = f.type.charCodeAt(0);
    out[at + 16] = f.size;
  });
  out[headerBytes - 1] = 0x0d;
  records.forEach((r, i) => {
    let at = headerBytes + i * recordBytes + 1;
    fields.forEach((f, j) => {
      const v = r.values[j];
      const text = v === null || v === undefined ? "" : String(v);
      out.write(f.type === "N" ? text.padStart(f.size) : text.padEnd(f.size), at, f.size, "latin1");
      at += f.size;
    });
  });
  out[out.length - 1] = 0x1a;
  writeFileSync(path, out);
}

/** Write `<base>.shp`, `.shx`, `.dbf` and `.prj` (WGS 84 geographic, as WSS ships). */
export function writePolygonShapefile(base: string, fields: DbfField[], records: PolygonRecord[], prj: string): void {
  const contents = records.map((r) => {
    const points = r.rings.reduce((s, ring) => s + ring.length, 0);
    return 44 + 4 * r.rings.length + 16 * points;
  });
  const shpBytes = 100 + contents.reduce((s, c) => s + 8 + c, 0);
  const shp = new DataView(new ArrayBuffer(shpBytes));
  const shx = new DataView(new ArrayBuffer(100 + 8 * records.length));
  const all = boxOf(records.flatMap((r) => r.rings));
  header(shp, shpBytes, all);
  header(shx, shx.byteLength, all);
  let at = 100;
  records.forEach((r, i) => {
    shx.setInt32(100 + i * 8, at / 2, false);
    shx.setInt32(104 + i * 8, contents[i]! / 2, false);
    shp.setInt32(at, i + 1, false);
    shp.setInt32(at + 4, contents[i]! / 2, false);
    let p = at + 8;
    shp.setInt32(p, 5, true);
    boxOf(r.rings).forEach((v, k) => shp.setFloat64(p + 4 + k * 8, v, true));
    shp.setInt32(p + 36, r.rings.length, true);
    shp.setInt32(p + 40, r.rings.reduce((s, ring) => s + ring.length, 0), true);
    p += 44;
    let start = 0;
    for (const ring of r.rings) {
      shp.setInt32(p, start, true);
      p += 4;
      start += ring.length;
    }
    for (const ring of r.rings) {
      for (const [x, y] of ring) {
        shp.setFloat64(p, x, true);
        shp.setFloat64(p + 8, y, true);
        p += 16;
      }
    }
    at += 8 + contents[i]!;
  });
  writeFileSync(`${base}.shp`, new Uint8Array(shp.buffer));
  writeFileSync(`${base}.shx`, new Uint8Array(shx.buffer));
  writeDbf(`${base}.dbf`, fields, records);
  writeFileSync(`${base}.prj`, prj);
}
