/**
 * What Loam in SDA mode sends to and makes of Soil Data Access, seen from both ends over HTTP: every
 * data endpoint's T-SQL as the fake SDA received it (no comments, every query kind reached, the lab
 * results joined without a prep_code filter), and the captured KS053 answer, whose columns are not
 * the ones a point query asks for, refused by the column check on the served and the raw endpoint.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { answerAsSda } from "../../src/upstream/sda/payload";
import { logicalQueryFromSql } from "../support/fake-sda";
import { runQuery } from "../support/queries";
import { useUncachedSda } from "../support/sda-mode";

/** Every data endpoint, with the query kind its SQL must be (IA073's known point, KSSL pedon 02N0245 and its bbox). */
const ENDPOINTS: [path: string, kind: string][] = [
  ["/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph,clay,bulk_density", "ssurgo_point"],
  ["/v1/soil/location?latitude=41.944131&longitude=-94.359608&format=csv", "ssurgo_point"],
  ["/v1/providers/usda_ssurgo/raw/location?latitude=41.944131&longitude=-94.359608", "ssurgo_point"],
  ["/v1/soil/mapunits/2765528?properties=clay,drainage_class", "ssurgo_mapunit"],
  ["/v1/soil/mapunits?bbox=-94.37,41.93,-94.35,41.95", "ssurgo_polygons"],
  // The cut polygons alone (the report would also load its map units).
  ["/v1/soil/aoi?bbox=-94.361846,41.943158,-94.358198,41.945788&format=geojson", "ssurgo_area_polygons"],
  ["/v1/pedons?bbox=-95.78,39.07,-95.76,39.09&limit=5", "lab_bbox"],
  ["/v1/pedons/02N0245?properties=ph,clay,bulk_density", "lab_pedon"],
  ["/v1/pedons/52", "lab_pedon"],
  ["/v1/providers/usda_kssl/raw/pedons/02N0245", "lab_pedon"],
  ["/ogc/collections/mapunits", "ssurgo_polygon_extent"],
  ["/ogc/collections/pedons", "lab_extent"],
  // IA073's first polygon: its key is made from the survey area (docs/decisions.md#national-mirror).
  ["/ogc/collections/mapunits/items/2080730000001", "ssurgo_polygon"],
];

/**
 * Kinds only GET /v1/soil/evidence sends: it also asks SoilGrids, AWDB and the other remote sources,
 * whose stand-ins test/evidence/live.test.ts starts, and that test reads each kind the fake SDA received
 * (test/providers/sda-sql.test.ts checks their SQL carries no comment).
 */
const SENT_ELSEWHERE: Record<string, string> = { ssurgo_mapunits_at_point: "test/evidence/live.test.ts", lab_nearest: "test/evidence/live.test.ts" };

// No cache: every request reaches the fake, so each one's SQL can be read there.
const { fake, snapshot, loam, contract } = useUncachedSda();

afterEach(() => fake.respondWith(null));

/** GET `path`; the answer and the SQL texts the fake received for it. */
async function ask(path: string) {
  const before = fake.calls;
  const answer = await loam.get(path);
  const body = await answer.text();
  const received = fake.lastQueries.slice(fake.lastQueries.length - (fake.calls - before));
  return { status: answer.status, body, received };
}

describe("the SQL as SDA receives it", () => {
  test("every data endpoint sends SQL without comments, and together they reach every query kind", async () => {
    const reached = new Set<string>();
    for (const [path, kind] of ENDPOINTS) {
      const { status, received } = await ask(path);
      expect([path, status]).toEqual([path, path.endsWith("/52") ? 404 : 200]);
      expect(received.length).toBeGreaterThan(0);
      for (const sql of received) {
        expect(sql).not.toContain("--");
        expect(sql).not.toContain("/*");
        // The words SDA refuses outside quoted text, which Loam's old comments held.
        expect(sql).not.toMatch(/\b(user|bulk)\b/i);
        expect(logicalQueryFromSql(sql)?.kind).toBe(kind);
        reached.add(kind);
      }
    }
    // A new query kind with an SDA form needs an endpoint above that sends it, or a live test of its own.
    const kinds = DEFAULT_PROVIDERS.flatMap((p) => (p.role === "planned" ? [] : Object.values(p.queries)))
      .filter((query) => query.forms.sda !== undefined && !(query.kind in SENT_ELSEWHERE))
      .map((query) => query.kind);
    expect([...reached].sort()).toEqual([...new Set(kinds)].sort());
  });

  test("the lab results are joined on labsampnum alone, with their prep_code returned, not filtered", async () => {
    const { status, received } = await ask("/v1/pedons/02N0245");
    expect(status).toBe(200);
    const [sql] = received;
    expect(sql).toMatch(/COALESCE\(ch\.prep_code, ph\.prep_code\) AS prep_code/);
    expect(sql).not.toMatch(/prep_code\s*(=|IN\b|<>|LIKE)/i);
  });

  test("a layer SDA labels with another preparation than 'S' is served, with a warning naming it", async () => {
    // The pedon as SDA would send it, its first layer's results labelled N (not the <2 mm sieved sample).
    const { table } = await runQuery(snapshot, { kind: "lab_pedon", pedonKey: { form: "pedlabsampnum", value: "02N0245" } });
    const at = table.columns.indexOf("prep_code");
    const firstLayer = table.rows[0]![table.columns.indexOf("labsampnum")];
    const rows = table.rows.map((row) => row.map((v, i) => (i === at ? (row[table.columns.indexOf("labsampnum")] === firstLayer ? "N" : "S") : v)));
    fake.respondWith({ status: 200, contentType: "application/json; charset=utf-8", body: JSON.stringify(answerAsSda(table.columns, table.types, rows).payload) });
    const { status, body } = await ask("/v1/pedons/02N0245?properties=ph,clay");
    expect(status).toBe(200);
    const pedon = JSON.parse(body);
    contract.assert("PedonResponse", pedon);
    const warning = pedon.warnings.find((w: string) => w.includes("preparation other than 'S'"));
    expect(warning).toContain(`${firstLayer} (N)`);
    expect(pedon.layers.some((layer: { lab_sample_key: string }) => layer.lab_sample_key === firstLayer)).toBe(true);
  });
});

describe("a captured answer with other columns than the query asked for", () => {
  // ks053_awc_metadata.json: 13 columns of a KS053 AWC query (localphase, awc_r, ...), recorded from SDA.
  for (const path of ["/v1/soil/location?latitude=41.944131&longitude=-94.359608&properties=ph", "/v1/providers/usda_ssurgo/raw/location?latitude=41.944131&longitude=-94.359608"]) {
    test(`is a 502 upstream_error naming the missing and unexpected columns, not a 200 of nulls: ${path.split("?")[0]}`, async () => {
      fake.serveCapture("ks053_awc_metadata.json");
      const { status, body } = await ask(path);
      expect(status).toBe(502);
      const error = JSON.parse(body);
      contract.assert("ErrorResponse", error);
      expect(error.error).toMatchObject({ code: "upstream_error", provider: "usda_ssurgo", retryable: true });
      expect(error.error.message).toMatch(/other columns than the query asked for: missing saverest, saversion, lkey, .*; unexpected localphase\.$/);
    });
  }
});
