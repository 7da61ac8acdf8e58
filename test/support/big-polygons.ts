/**
 * A large map-unit polygon answer in SDA's wire shape, as the hardening pass's attack used (issue 27,
 * finding 1): 5,001 rows, about 32.7 MB, under SDA's 32 MiB body cap. Its polygons are the snapshot's
 * real IA073 polygons for the box, repeated under new polygon keys, each edge densified with points on
 * the edge (the shape is the real one; only the vertex count grows), so every row is a valid polygon
 * of a real map unit.
 */
import { SnapshotTransport } from "../../src/upstream/snapshot";
import { queryKind } from "./queries";
import { testSnapshot } from "./server";

export const BIG_BBOX = [-94.48, 41.83, -94.23, 42.08] as const;
export const BIG_PATH = `/v1/soil/mapunits?bbox=${BIG_BBOX.join(",")}&limit=5000`;

/** Points added on each edge of the real rings so that each row's WKT is about `rowBytes`. */
function densify(wkt: string, rowBytes: number): string {
  const rings = [...wkt.matchAll(/\(([^()]+)\)/g)].map((m) => m[1]!.split(",").map((p) => p.trim().split(/\s+/).map(Number)));
  const vertices = rings.reduce((n, r) => n + r.length, 0);
  const per = Math.max(0, Math.ceil(rowBytes / 33.8 / vertices) - 1);
  const dense = rings.map((ring) => {
    const out: number[][] = [];
    for (let i = 0; i < ring.length - 1; i++) {
      const [x0, y0] = ring[i]!;
      const [x1, y1] = ring[i + 1]!;
      out.push([x0!, y0!]);
      for (let k = 1; k <= per; k++) out.push([x0! + ((x1! - x0!) * k) / (per + 1), y0! + ((y1! - y0!) * k) / (per + 1)]);
    }
    out.push(ring.at(-1)!);
    return `(${out.map((p) => `${p[0]!.toFixed(12)} ${p[1]!.toFixed(12)}`).join(", ")})`;
  });
  return wkt.startsWith("MULTIPOLYGON") ? `MULTIPOLYGON ((${dense.join(", ")}))` : `POLYGON (${dense.join(", ")})`;
}

/** The answer text: `rows` rows (default 5,001: a page of 5,000 and one more) of about `totalBytes` in all. */
export async function bigPolygonAnswer(rows = 5001, totalBytes = 32.7e6): Promise<string> {
  const snapshot = new SnapshotTransport(await testSnapshot());
  try {
    const payload = await snapshot.fetch(queryKind("ssurgo_polygons"), { bbox: [...BIG_BBOX], limit: 5000 });
    const [names, metadata, ...real] = (payload.json() as { Table: (string | null)[][] }).Table;
    const rowBytes = totalBytes / rows;
    const dense = real.map((row) => densify(row[5]!, rowBytes));
    const out = Array.from({ length: rows }, (_, i) => {
      const row = real[i % real.length]!;
      return [String(100_000_000 + i), row[1]!, row[2]!, row[3]!, row[4]!, dense[i % real.length]!];
    });
    return JSON.stringify({ Table: [names, metadata, ...out] });
  } finally {
    snapshot.close();
  }
}
