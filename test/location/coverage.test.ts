/**
 * Honest coverage messages (issue 28, docs/decisions.md#coverage-messages), through HTTP: a point with
 * no map unit says why. The survey areas and their extents come from datasets (folder names and
 * the shapefiles' own header boxes), not from Loam.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR, useSnapshotAndFakeSda } from "../support/server";

const { snapshot, viaSda, contract } = useSnapshotAndFakeSda();

/** Survey-area symbols of the shared SSURGO exports (folder "IA073-aoi" → "IA073"). */
const AREAS = readdirSync(join(DATA_DIR, "ssurgo"), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name.split("-")[0]!.toUpperCase())
  .sort();

/** The box a shapefile's main header states (bytes 36-67: xmin, ymin, xmax, ymax, little-endian doubles). */
function shapefileBox(path: string): [number, number, number, number] {
  const header = new DataView(readFileSync(path).buffer, 0, 100);
  return [header.getFloat64(36, true), header.getFloat64(44, true), header.getFloat64(52, true), header.getFloat64(60, true)];
}

const NEBRASKA = { lat: 41.0, lon: -99.5 };
const PARIS = { lat: 48.8566, lon: 2.3522 };
/** Open water between MH936's atolls: inside the survey area's polygons' box, in no polygon. */
const MH936_GAP = { lat: 7.6, lon: 171.4 };

async function warningsAt(loam: typeof snapshot, path: string, point: { lat: number; lon: number }): Promise<string> {
  const { status, body } = await loam.json(`${path}?latitude=${point.lat}&longitude=${point.lon}&properties=clay`);
  expect(status).toBe(200);
  contract.assert(path === "/v1/soil/location" ? "LocationResponse" : "SummaryResponse", body);
  return body.warnings.join(" ");
}

describe("why a point has no map unit", () => {
  test("the shared data holds the four survey areas the messages name", () => {
    expect(AREAS).toEqual(["IA015", "IA073", "IA183", "MH936"]);
    const [w, s, e, n] = shapefileBox(join(DATA_DIR, "ssurgo/MH936/spatial/soilmu_a_mh936.shp"));
    expect(MH936_GAP.lon > w && MH936_GAP.lon < e && MH936_GAP.lat > s && MH936_GAP.lat < n).toBe(true);
  });

  for (const path of ["/v1/soil/location", "/v1/soil/summary"]) {
    test(`${path}: Nebraska is outside this offline snapshot, which names its areas and live mode`, async () => {
      const text = await warningsAt(snapshot, path, NEBRASKA);
      expect(text).toContain(`outside this offline snapshot (areas: ${AREAS.join(", ")}); live mode (LOAM_UPSTREAM=sda) covers every US survey`);
      expect(text).not.toContain("no completed soil survey covers it");
      expect(text).not.toContain("no map unit here");
    });

    test(`${path}: Paris is outside the United States: SSURGO covers the United States and territories only`, async () => {
      const text = await warningsAt(snapshot, path, PARIS);
      expect(text).toContain("France");
      expect(text).toContain("SSURGO covers the United States and territories only");
      expect(text).not.toContain("outside this offline snapshot");
      // The same in live mode: no survey area anywhere covers France.
      expect(await warningsAt(viaSda, path, PARIS)).toContain("SSURGO covers the United States and territories only");
    });

    test(`${path}: a gap inside survey area MH936 is "no map unit here"`, async () => {
      const text = await warningsAt(snapshot, path, MH936_GAP);
      expect(text).toContain("no map unit here, inside survey area MH936");
      expect(text).not.toContain("outside this offline snapshot");
      expect(text).not.toContain("SSURGO covers the United States");
    });
  }

  test("live mode says nothing of the snapshot for a US point with no map unit", async () => {
    const text = await warningsAt(viaSda, "/v1/soil/location", NEBRASKA);
    expect(text).toContain("falls in no usda_ssurgo map unit");
    expect(text).not.toContain("offline snapshot");
  });

  test("/v1 names the coverage: every area of the snapshot, the lab pedons, and what live mode covers", async () => {
    const { status, body } = await snapshot.json("/v1");
    expect(status).toBe(200);
    contract.assert("ApiMetadata", body);
    for (const area of AREAS) expect(body.warning).toContain(`SSURGO ${area}`);
    expect(body.warning).toContain("KSSL Kansas lab pedons");
    expect(body.warning).toContain("live mode (LOAM_UPSTREAM=sda) covers every US survey");
    const live = await viaSda.json("/v1");
    expect(live.body.warning).toContain("live Soil Data Access");
    expect(live.body.warning).not.toContain("offline snapshot");
  });

  test("the OpenAPI description (what /docs shows first) lists every path, by family", async () => {
    const { body } = await snapshot.json("/openapi.json");
    const description: string = body.info.description;
    for (const path of Object.keys(body.paths)) expect(`${path}: ${description.includes("`" + path + "`")}`).toBe(`${path}: true`);
    expect(description).toContain("Laboratory pedons");
    expect(description).toContain("Mapped soil survey");
    // Each family's line holds only its own paths (a /v1/soil path is not under the service's line).
    const lines = description.split("\n").filter((l: string) => l.startsWith("- **"));
    for (const line of lines) {
      const paths = [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      const families = new Set(paths.map((p) => (p.startsWith("/v1/") ? p.split("/")[2] : ["/health", "/metrics", "/v1"].includes(p) ? "meta" : p.split("/")[1])));
      expect(`${line.slice(0, 40)}: ${families.size}`).toBe(`${line.slice(0, 40)}: 1`);
    }
  });
});
