/**
 * Bounded work for long live series (issue 43, item 3; docs/decisions.md#series-windows): what a
 * 20-year daily request costs a live Loam, alone and six at once with shifted ranges. Loam runs as a
 * child process (live mode, SCAN_URL at a stand-in for AWDB on 127.0.0.1 in this process) and is
 * measured from /proc: its resident memory after start, its peak (VmHWM) after the requests, the bytes
 * and entries of its cache (LOAM_DB's cache_entries), the values AWDB sent and the calls it had.
 *
 * The stand-in answers `/data` for any range with one value per hour: 2092's real ISMN values (as
 * AWDB's pct, test/site_series/fake-awdb.ts) repeated in turn, so 20 years are 175,320 hours. These are
 * load, not data: nothing measured here is a value.
 *
 * Usage: bun bench/long-series.ts [checkout ...]   (default: this one; another path, e.g. /work/main,
 * measures that checkout's code against the same stand-in: its own snapshot and node_modules are used)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { awdbStation, smsValues } from "../test/site_series/fake-awdb";
import { metadata } from "../test/site_series/reference";
import { memoryOf, ROOT, startLoamServer, type Child } from "./lib";

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const TRIPLET = "2092:KS:SCAN";
const sms = smsValues().map((v) => v.value);
const station = awdbStation(metadata().find((r) => r.stationTriplet === TRIPLET)!);
const stats = { calls: 0, values: 0, bytes: 0 };

/** AWDB's `YYYY-MM-DD HH:MM` (the station's clock) as ms on that clock. */
const clockMs = (text: string) => Date.parse(`${text.replace(" ", "T")}:00Z`);
const clockText = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

const awdb = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request) {
    const url = new URL(request.url);
    stats.calls++;
    if (url.pathname.endsWith("/stations")) return Response.json([station]);
    const [begin, end] = [clockMs(url.searchParams.get("beginDate")!), clockMs(url.searchParams.get("endDate")!)];
    const values: string[] = [];
    for (let t = Math.ceil(begin / HOUR) * HOUR; t <= end; t += HOUR) values.push(`{"date":"${clockText(t)}","value":${sms[(t / HOUR) % sms.length]}}`);
    const element = { elementCode: "SMS", ordinal: 1, heightDepth: -2, durationName: "HOURLY", storedUnitCode: "pct" };
    const body = `[{"stationTriplet":"${TRIPLET}","data":[{"stationElement":${JSON.stringify(element)},"values":[${values.join(",")}]}]}]`;
    stats.values += values.length;
    stats.bytes += body.length;
    return new Response(body, { headers: { "content-type": "application/json" } });
  },
});

/** A 20-year (7,305-day) daily range starting `shift` days after 1994-01-01. */
function twentyYears(shift: number): string {
  const start = Date.UTC(1994, 0, 1) + shift * DAY;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return `/v1/stations/${TRIPLET}/series?element=soil_moisture&depth_cm=5.08&interval=daily&start=${day(start)}&end=${day(start + 7304 * DAY)}`;
}

function cacheOf(dbPath: string): { entries: number; bytes: number } {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.query<{ entries: number; bytes: number }, []>("SELECT count(*) AS entries, coalesce(sum(bytes), 0) AS bytes FROM cache_entries").get()!;
  } finally {
    db.close();
  }
}

async function measured(checkout: string, requests: string[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "loam-long-series-"));
  const dbPath = join(dir, "loam.db");
  let loam: Child | undefined;
  try {
    loam = await startLoamServer(dbPath, {
      cwd: checkout,
      env: { LOAM_UPSTREAM: "sda", SCAN_URL: `http://127.0.0.1:${awdb.port}/awdbRestApi/services/v1`, SDA_URL: "http://127.0.0.1:9/Tabular/post.rest", UPSTREAM_TIMEOUT_MS: "120000" },
    });
    const before = memoryOf(loam.pid).rssMb;
    Object.assign(stats, { calls: 0, values: 0, bytes: 0 });
    const started = performance.now();
    const answers = await Promise.all(requests.map(async (path) => (await fetch(`${loam!.base}${path}`, { headers: { "x-forwarded-for": `10.0.0.${requests.indexOf(path) + 1}` } })).json() as Promise<{ values?: unknown[] }>));
    const seconds = (performance.now() - started) / 1000;
    const after = memoryOf(loam.pid);
    const cache = cacheOf(dbPath);
    const days = answers.map((a) => a.values?.length ?? "error").join(", ");
    return `| ${requests.length} | ${before.toFixed(0)} | ${after.peakMb.toFixed(0)} | ${(after.peakMb - before).toFixed(0)} | ${cache.entries} | ${(cache.bytes / 1048576).toFixed(2)} | ${stats.calls} | ${stats.values} | ${(stats.bytes / 1048576).toFixed(1)} | ${seconds.toFixed(1)} | ${days} |`;
  } finally {
    await loam?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const checkouts = process.argv.length > 2 ? process.argv.slice(2) : [ROOT];
console.log(`load average ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")} on ${navigator.hardwareConcurrency} cores, ${new Date().toISOString()}`);
for (const checkout of checkouts) {
  console.log(`\n${checkout}\n`);
  console.log("| requests at once | RSS after start MB | peak RSS MB | growth MB | cache entries | cache MB | AWDB calls | hourly values sent | MB sent | seconds | days served |");
  console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  console.log(await measured(checkout, [twentyYears(0)]));
  console.log(await measured(checkout, [0, 1, 2, 3, 4, 5].map(twentyYears)));
}
awdb.stop(true);
process.exit(0);
