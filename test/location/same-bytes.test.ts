/**
 * GET /v1/soil/location, its CSV and the spec's raw route are fixed by the spec, and /v1/soil/modeled by
 * its declared model: moving both onto one point_values service (docs/architecture.md#shapes) must not
 * change a byte of what they send. `same-bytes.json` holds, per request, the status, the content type
 * and the length and SHA-256 of the body as the routes sent it before the move (what follows the clock
 * masked). Record again with LOAM_RECORD_BYTES=1 only when a change of the bodies is meant.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { useSnapshotAndFakeSda } from "../support/server";
import { knownPoints } from "./known-answers";

const RECORD = join(import.meta.dir, "same-bytes.json");
const { snapshot, viaSda } = useSnapshotAndFakeSda();

const POINTS = knownPoints();
const point = (i: number) => `latitude=${POINTS[i]!.lat}&longitude=${POINTS[i]!.lon}`;

/** Every kind of answer the two routes and the raw route give: known points of each survey area, properties, depths, CSV, no data, out of coverage, refusals. */
const PATHS: string[] = [
  ...POINTS.map((_, i) => `/v1/soil/location?${point(i)}`),
  ...POINTS.map((_, i) => `/v1/soil/location?${point(i)}&properties=ph,om,clay,sand,bd,cec,ksat,awc&depth_top_cm=10&depth_bottom_cm=60`),
  ...POINTS.map((_, i) => `/v1/soil/location?${point(i)}&format=csv`),
  ...POINTS.map((_, i) => `/v1/providers/usda_ssurgo/raw/location?${point(i)}`),
  `/v1/soil/location?${point(0)}&properties=drainage_class,available_water_storage,clay`,
  `/v1/soil/location?${point(0)}&properties=clay&depth_top_cm=150&depth_bottom_cm=200`,
  `/v1/soil/location?${point(0)}&properties=clay&depth_top_cm=0&depth_bottom_cm=1`,
  `/v1/soil/location?${point(0)}&providers=ssurgo&properties=clay`,
  "/v1/soil/location?latitude=41.95&longitude=-94.35",
  "/v1/soil/location?latitude=41.95&longitude=-94.35&format=csv",
  "/v1/soil/location?latitude=7.6&longitude=171.4",
  "/v1/soil/location?latitude=7.6&longitude=171.4&format=csv",
  "/v1/soil/location?latitude=0&longitude=0",
  "/v1/soil/location?latitude=48.85&longitude=2.35&format=csv",
  "/v1/providers/usda_ssurgo/raw/location?latitude=41.95&longitude=-94.35",
  "/v1/providers/usda_ssurgo/raw/location?latitude=0&longitude=0",
  // Refusals.
  "/v1/soil/location?latitude=91&longitude=0",
  "/v1/soil/location?longitude=0",
  "/v1/soil/location?latitude=abc&longitude=0",
  `/v1/soil/location?${point(0)}&properties=nonsense`,
  `/v1/soil/location?${point(0)}&depth_top_cm=50&depth_bottom_cm=10`,
  `/v1/soil/location?${point(0)}&providers=nope`,
  `/v1/soil/location?${point(0)}&providers=usda_kssl`,
  `/v1/soil/location?${point(0)}&providers=isric_soilgrids`,
  `/v1/soil/location?${point(0)}&providers=usda_ssurgo,usda_kssl`,
  `/v1/soil/location?${point(0)}&format=xml`,
  `/v1/soil/location?${point(0)}&extra=1`,
  `/v1/providers/usda_kssl/raw/location?${point(0)}`,
  `/v1/providers/nope/raw/location?${point(0)}`,
  `/v1/providers/usda_ssurgo/raw/location?latitude=91&longitude=0`,
  `/v1/providers/usda_ssurgo/raw/location?${point(0)}&format=csv`,
];

/** The modeled route, its CSV and its raw answers, from the snapshot's clips (the live provider is not on loopback). */
const MODELED_PATHS: string[] = [
  "/v1/soil/modeled?latitude=18.65&longitude=-71.6",
  "/v1/soil/modeled?latitude=18.65&longitude=-71.6&properties=clay,silt&depth_bottom_cm=15",
  "/v1/soil/modeled?latitude=18.65&longitude=-71.6&properties=clay,silt&depth_bottom_cm=30&method=weighted_average",
  "/v1/soil/modeled?latitude=18.65&longitude=-71.6&properties=clay,ph,drainage_class&depth_bottom_cm=15",
  "/v1/soil/modeled?latitude=18.65&longitude=-71.6&properties=clay&depth_bottom_cm=5&format=csv",
  "/v1/soil/modeled?latitude=0&longitude=0",
  "/v1/soil/modeled?latitude=18.65&longitude=-71.6&properties=drainage_class",
  "/v1/soil/modeled?latitude=18.65&longitude=-71.6&provider=usda_ssurgo",
  "/v1/providers/isric_soilgrids/raw/location?latitude=18.65&longitude=-71.6&properties=silt",
  "/v1/providers/isric_soilgrids/raw/location?latitude=0&longitude=0",
  "/v1/soil/modeled/grid?property=clay&depth=0-5cm",
];

/**
 * The body with what follows the clock masked: instants (cache metadata; retrieved_at, when the test's
 * snapshot was built or the fake SDA answered), the days citations were retrieved and the snapshot built,
 * cache ages, and request ids. Nothing recorded may depend on the day the suite runs (docs/decisions.md#test-readiness).
 */
const masked = (text: string): string =>
  text
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "T")
    .replace(/built \d{4}-\d\d-\d\d/g, "built D")
    .replace(/Retrieved \d{4}-\d\d-\d\d/g, "Retrieved D")
    .replace(/"age_seconds":\d+/g, '"age_seconds":0')
    .replace(/"request_id":"[0-9a-f-]+"/g, '"request_id":"R"');

async function digests(loam: typeof snapshot, paths: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of paths) {
    const response = await loam.get(path);
    const type = response.headers.get("content-type") ?? "";
    const text = masked(await response.text());
    out[path] = `${response.status} ${type} ${text.length} ${createHash("sha256").update(text).digest("hex")}`;
  }
  return out;
}

describe("the point routes send the same bytes as before the point_values move", () => {
  const modes = [["snapshot", () => snapshot, [...PATHS, ...MODELED_PATHS]], ["fake SDA", () => viaSda, PATHS]] as const;
  for (const [mode, loam, paths] of modes) {
    test(`${mode}: every recorded request answers with the recorded status, type, length and body digest`, async () => {
      const now = await digests(loam(), paths);
      if (process.env.LOAM_RECORD_BYTES === "1") {
        let all: Record<string, Record<string, string>> = {};
        try { all = JSON.parse(readFileSync(RECORD, "utf8")); } catch { /* first record */ }
        all[mode] = now;
        writeFileSync(RECORD, `${JSON.stringify(all, null, 1)}\n`);
      }
      const recorded = JSON.parse(readFileSync(RECORD, "utf8"))[mode];
      expect(now).toEqual(recorded);
    });
  }
});
