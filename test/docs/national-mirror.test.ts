/**
 * docs/operations.md "A national mirror", walked through: the lines of its "Try it with the repository's
 * files" blocks run as written (`bun src/cli.ts` for `loam`, the mirror directory in a temporary folder):
 * each `loam import` writes the file it names and no other, each `LOAM_SNAPSHOT=mirror loam serve` starts
 * a real server on the directory, and what it serves is compared with the one-file test snapshot, which
 * holds the same datasets: the same answers but for what differs between any two servers (port, clock,
 * request id), the cache member and the coverage warning naming each file's imports.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as shapefile from "shapefile";
import { DATA_DIR, startLoam, type RunningLoam } from "../support/server";
import { masked, withoutCoverage } from "../support/mirror";
import { pollUntil, spawnLoam } from "../support/spawn";

const ROOT = join(import.meta.dir, "../..");
const GUIDE = readFileSync(join(ROOT, "docs/operations.md"), "utf8");
// datasets README §1.3: a point of IA073's AOI on map unit 2765528.
const KNOWN = "latitude=41.944131&longitude=-94.359608&properties=clay,ph,om&depth_bottom_cm=30";

/** The command lines of the section's fenced blocks, in order. */
function walkThrough(): string[] {
  const section = GUIDE.slice(GUIDE.indexOf("## A national mirror"));
  const walk = section.slice(section.indexOf("### Try it with the repository's files"), section.indexOf("\n## ", 1));
  return [...walk.matchAll(/```\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split("\n").filter((line) => line.trim() !== ""));
}

type Facts = Record<string, [bytes: number, mtimeMs: number]>;
const facts = (dir: string): Facts => Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith(".sqlite")).map((f) => [f, [statSync(join(dir, f)).size, statSync(join(dir, f)).mtimeMs]]));

interface Imported { line: string; file: string; code: number; stdout: string; before: Facts; after: Facts }
interface Served { files: string[]; answers: Map<string, { status: number; etag: string | null; body: any }> }

/** The requests each start of the mirror is asked (the same to the one-file snapshot). */
const requests = (areas: Record<string, number[]>) => [
  `/v1/soil/location?${KNOWN}`,
  ...Object.values(areas).map((b) => `/v1/soil/mapunits?bbox=${b.join(",")}&property=clay`),
  "/v1/pedons/01N0167?properties=clay,ph,organic_carbon",
  "/v1/series/CLARION",
  "/v1/geochem/sites?bbox=-96,37,-94,39&limit=20",
];

/** A survey area's box, from its shapefile (the test's own reader). */
async function areaBox(area: string): Promise<number[]> {
  const spatial = join(DATA_DIR, "ssurgo", area, "spatial");
  const shp = readdirSync(spatial).find((f) => /^soilmu_a_.*\.shp$/i.test(f))!;
  return [...(await shapefile.open(join(spatial, shp))).bbox];
}

/**
 * A body but for what differs between two servers (`masked`: port, clock, request id), the cache member
 * (whether this server was asked before) and the coverage warning (it names each file's imports).
 */
const comparable = (body: unknown) => withoutCoverage(JSON.parse(masked(JSON.stringify(body)), (key, value) => (key === "cache" ? undefined : value)));

let dir: string;
let one: RunningLoam;
const imports: Imported[] = [];
const serves: Served[] = [];
let areas: Record<string, number[]>;
// `loam import` with --snapshot, in the suite's environment but for a LOAM_SNAPSHOT it may carry.
const { LOAM_SNAPSHOT: _, ...importEnv } = process.env;

async function serve(mirror: string): Promise<Served> {
  const child = spawnLoam({ env: { LOAM_SNAPSHOT: mirror, LOAM_DB: join(dir, `state-${serves.length}.sqlite`), CACHE_TTL_SECONDS: "0" } });
  try {
    await pollUntil("the mirror answers /health", async () => {
      try {
        return (await fetch(`${child.base}/health`)).status === 200;
      } catch {
        return undefined; // not listening yet
      }
    });
    const answers: Served["answers"] = new Map();
    for (const path of requests(areas)) {
      const response = await fetch(child.base + path);
      answers.set(path, { status: response.status, etag: response.headers.get("etag"), body: await response.json() });
    }
    return { files: readdirSync(mirror).filter((f) => f.endsWith(".sqlite")).sort(), answers };
  } finally {
    child.proc.kill();
    await child.proc.exited;
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "loam-national-"));
  const mirror = join(dir, "mirror");
  areas = Object.fromEntries(await Promise.all(["IA073-aoi", "IA183-aoi", "IA015-aoi"].map(async (a) => [a, await areaBox(a)] as const)));
  for (const line of walkThrough()) {
    const words = line.split(/\s+/).map((w) => w.replace(/^mirror(?=\/|$)/, mirror));
    if (line.startsWith("LOAM_SNAPSHOT=mirror loam serve")) {
      serves.push(await serve(mirror));
      continue;
    }
    expect(words[0]).toBe("loam");
    const file = words[words.indexOf("--snapshot") + 1]!;
    const before = safeFacts(mirror);
    const run = Bun.spawnSync([process.execPath, join(ROOT, "src/cli.ts"), ...words.slice(1)], { cwd: ROOT, env: { ...importEnv, LOAM_DATA_DIR: DATA_DIR } });
    imports.push({ line, file, code: run.exitCode, stdout: run.stdout.toString(), before, after: safeFacts(mirror) });
  }
  one = await startLoam({ env: { CACHE_TTL_SECONDS: "0" } });
}, 240_000);

function safeFacts(mirror: string): Facts {
  try {
    return facts(mirror);
  } catch {
    return {}; // not made yet
  }
}

afterAll(async () => {
  await one?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("docs/operations.md, a national mirror with the repository's files", () => {
  test("the guide writes two survey files, a national file, then a third survey file, each import succeeding", () => {
    expect(imports.map((i) => [i.line.split(/\s+/)[2], i.file.split("/").pop()])).toEqual([
      ["usda_ssurgo", "state-ia073.sqlite"],
      ["usda_ssurgo", "state-ia183.sqlite"],
      ["usda_kssl", "lab.sqlite"],
      ["usda_osd", "lab.sqlite"],
      ["usgs_geochem", "lab.sqlite"],
      ["usda_ssurgo", "state-ia015.sqlite"],
    ]);
    for (const i of imports) expect([i.line, i.code]).toEqual([i.line, 0]);
    expect(serves.map((s) => s.files)).toEqual([
      ["lab.sqlite", "state-ia073.sqlite", "state-ia183.sqlite"],
      ["lab.sqlite", "state-ia015.sqlite", "state-ia073.sqlite", "state-ia183.sqlite"],
    ]);
  });

  test("each import writes the file it names and no other (adding a state rebuilds none)", () => {
    for (const i of imports) {
      const name = i.file.split("/").pop()!;
      const others = (f: Facts) => Object.fromEntries(Object.entries(f).filter(([n]) => n !== name));
      expect([i.line, others(i.after)]).toEqual([i.line, others(i.before)]);
      expect(i.after[name]).toBeDefined();
    }
  });

  test("the mirror answers every request as the one-file snapshot holding the same datasets does", async () => {
    for (const [n, served] of serves.entries()) {
      for (const [path, answer] of served.answers) {
        // IA015 is in the mirror only after it was added.
        if (n === 0 && path.includes(String(areas["IA015-aoi"]![0]))) continue;
        const expected = await one.json(path);
        expect([path, answer.status]).toEqual([path, 200]);
        expect([path, comparable(answer.body)]).toEqual([path, comparable(expected.body)]);
      }
    }
  });

  test("before IA015's file is added, its box answers no map units; after, its map units; other answers stay", () => {
    const ia015 = [...serves[0]!.answers.keys()].find((p) => p.includes(String(areas["IA015-aoi"]![0])))!;
    expect(serves[0]!.answers.get(ia015)!.body.features).toEqual([]);
    expect(serves[1]!.answers.get(ia015)!.body.features.length).toBeGreaterThan(0);
    expect(comparable(serves[1]!.answers.get(`/v1/soil/location?${KNOWN}`)!.body)).toEqual(comparable(serves[0]!.answers.get(`/v1/soil/location?${KNOWN}`)!.body));
  });

  test("adding a file changes the mirror's identity: the same answer carries another entity tag", () => {
    const path = `/v1/soil/location?${KNOWN}`;
    const [before, after] = serves.map((s) => s.answers.get(path)!.etag);
    expect(before).toBeTruthy();
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
  });
});
