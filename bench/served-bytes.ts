/**
 * What Loam serves, as text to diff before and after a change that must not change it: for 24 paths
 * (data routes as JSON and CSV, documents, pages, errors) under four Accept/Accept-Encoding variants,
 * twice (the clock 2.5 s apart), each answer's status, headers (request id, Date and the rate-limit
 * counters left out; Server-Timing durations masked) and a hash of its bytes, then the same request
 * with If-None-Match of its tag; and the OpenAPI document, pretty-printed. In-process, a fixed clock.
 *
 * Usage: bun bench/served-bytes.ts <out.txt>   (writes <out.txt> and <out.txt>.openapi.json)
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig } from "../src/config";
import { openDatabase } from "../db/client";
import { createApp } from "../src/app";
import { SnapshotTransport } from "../src/upstream/snapshot";
const ROOT = resolve(import.meta.dir, "..");
const config = loadConfig({ RATE_LIMIT_PER_MINUTE: "1000000", LOAM_DB: join(mkdtempSync(join(tmpdir(), "loam-snap-")), "loam.sqlite") });
const db = openDatabase(config.dbPath);
let clock = Date.parse("2026-11-25T12:00:00Z");
const app = createApp({ config, db, upstreams: { snapshot: new SnapshotTransport(join(ROOT, "data", "snapshot.sqlite")) }, writeLine: () => {}, now: () => clock });
const paths = [
  "/health", "/v1", "/v1/providers", "/v1/properties", "/openapi.json", "/", "/docs", "/map",
  "/v1/soil/location?latitude=41.944131&longitude=-94.359608",
  "/v1/soil/location?latitude=41.944131&longitude=-94.359608&format=csv",
  "/v1/pedons?bbox=-96,38.5,-95,39.5&limit=100",
  "/v1/pedons?bbox=-96,38.5,-95,39.5&limit=100&format=csv",
  "/v1/pedons/02N0245", "/v1/pedons/02N0245?format=csv",
  "/v1/soil/mapunits/2765528?properties=aws,drainage_class,hydrologic_group&depth_bottom_cm=100",
  "/v1/soil/mapunits/2765528?properties=clay&format=csv",
  "/v1/soil/summary?latitude=41.944131&longitude=-94.359608&properties=clay&depth_bottom_cm=30",
  "/v1/soil/mapunits?bbox=-94.369608,41.934131,-94.349608,41.954131&property=clay",
  "/v1/series/clarion", "/v1/providers/usda_ssurgo/raw/location?latitude=41.944131&longitude=-94.359608",
  "/v1/pedons?bbox=1,2,3", "/v1/soil/mapunits/abc", "/v1/pedons?bbox=-96,38.5,-95,39.5&format=xml", "/nope",
];
const variants: Record<string, string>[] = [{}, { "accept-encoding": "gzip" }, { "accept-encoding": "br, gzip" }, { accept: "text/csv" }];
const out: string[] = [];
for (const path of paths) {
  for (const headers of variants) {
    for (let round = 0; round < 2; round++) {
      if (round === 1) clock += 2500;
      const r = await app.handle(new Request(`http://127.0.0.1${path}`, { headers }));
      let body: Uint8Array = new Uint8Array(await r.arrayBuffer());
      const rid = r.headers.get("x-request-id");
      if (r.status >= 400 && rid) body = new TextEncoder().encode(new TextDecoder().decode(body).replaceAll(rid, "RID"));
      const hs = [...r.headers].filter(([k]) => !["x-request-id", "date", "ratelimit-remaining", "ratelimit-reset"].includes(k)).map(([k, v]) => `${k}: ${k === "server-timing" ? v.replace(/dur=[0-9.]+/g, "dur=X") : v}`);
      out.push(`${path} ${JSON.stringify(headers)} r${round} -> ${r.status} ${body.length} ${Bun.hash(body).toString(36)}\n  ${hs.sort().join("\n  ")}`);
      const etag = r.headers.get("etag");
      if (etag) {
        const c = await app.handle(new Request(`http://127.0.0.1${path}`, { headers: { ...headers, "if-none-match": etag } }));
        const cb = await c.arrayBuffer();
        const chs = [...c.headers].filter(([k]) => !["x-request-id", "date", "ratelimit-remaining", "ratelimit-reset"].includes(k)).map(([k, v]) => `${k}: ${k === "server-timing" ? v.replace(/dur=[0-9.]+/g, "dur=X") : v}`);
        out.push(`  INM -> ${c.status} ${cb.byteLength}\n    ${chs.sort().join("\n    ")}`);
      }
    }
  }
}
await Bun.write(process.argv[2]!, out.join("\n") + "\n");
const doc = await (await app.handle(new Request("http://127.0.0.1/openapi.json"))).text();
await Bun.write(process.argv[2]! + ".openapi.json", JSON.stringify(JSON.parse(doc), null, 1));
process.exit(0);
