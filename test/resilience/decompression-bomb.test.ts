/**
 * Issue 37, item 8 (docs/decisions.md#decompression): a 1 MB gzip answer that inflates past the body
 * cap (a "gzip bomb") from an upstream made Loam's memory peak at hundreds of megabytes before the cap
 * refused it. The answer is decompressed as a stream and the reading stops at the cap: Loam answers 502
 * naming the provider, and its memory does not grow by anything near the inflated size. A stand-in on
 * 127.0.0.1 sends `Content-Encoding: gzip` of 1 GB of zeros (made here: about 1 MB compressed).
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import zlib, { createGzip } from "node:zlib";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SdaTransport } from "../../src/upstream/sda/client";
import { DATA_DIR, startLoam, testSnapshot, type RunningLoam } from "../support/server";

const INFLATED_BYTES = 1024 * 1024 * 1024;
/** Generous: the body cap itself (kept until the refusal), plus 100 MB for Loam's and the suite's own work meanwhile. */
const maxGrowth = (capBytes: number) => capBytes + 100 * 1024 * 1024;

let bomb: Uint8Array<ArrayBuffer>;
let realFile: Uint8Array<ArrayBuffer>;
let acceptedEncodings: string | null = null;

/** `bytes` zeros gzipped a megabyte at a time (the zeros themselves are never all in memory). */
async function gzipOfZeros(bytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const gzip = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gzip.on("data", (part: Buffer) => parts.push(part));
  const ended = new Promise((resolve) => gzip.on("end", resolve));
  const megabyte = Buffer.alloc(1024 * 1024);
  for (let written = 0; written < bytes; written += megabyte.length) {
    if (!gzip.write(megabyte)) await new Promise((resolve) => gzip.once("drain", resolve));
  }
  gzip.end();
  await ended;
  return new Uint8Array(Buffer.concat(parts));
}
let bomber: ReturnType<typeof Bun.serve>;
let bombUrl: string;
const started: RunningLoam[] = [];
const FILE_PATH = "/ds/801/downloads/Appendix_2b_Top5_18Sept2013.txt";

async function geochemLoam(url: string): Promise<RunningLoam> {
  const loam = await startLoam({
    source: new SdaTransport({ url: "http://127.0.0.1:9/Tabular/post.rest", timeoutMs: 500 }),
    env: { LOAM_UPSTREAM: "sda", GEOCHEM_URL: url, UPSTREAM_TIMEOUT_MS: "60000", LOAM_DATA_DIR: DATA_DIR },
  });
  started.push(loam);
  return loam;
}

beforeAll(async () => {
  bomb = await gzipOfZeros(INFLATED_BYTES);
  realFile = new Uint8Array(readFileSync(join(DATA_DIR, "geochem/Appendix_2b_Top5_18Sept2013.txt")));
  bomber = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      acceptedEncodings = request.headers.get("accept-encoding");
      // The real DS 801 file, compressed as a web server does when asked: whole, or cut short.
      if (path.startsWith("/real/")) return new Response(Bun.gzipSync(realFile), { headers: { "content-type": "text/plain", "content-encoding": "gzip" } });
      if (path.startsWith("/cut/")) return new Response(Bun.gzipSync(realFile).subarray(0, 100_000), { headers: { "content-type": "text/plain", "content-encoding": "gzip" } });
      if (path.startsWith("/brotli/")) return new Response(new Uint8Array(zlib.brotliCompressSync(realFile)), { headers: { "content-type": "text/plain", "content-encoding": "br" } });
      return new Response(bomb, { headers: { "content-type": "text/plain", "content-encoding": "gzip" } });
    },
  });
  bombUrl = `http://127.0.0.1:${bomber.port}${FILE_PATH}`;
  await testSnapshot();
}, 120_000);
afterEach(async () => {
  await Promise.all(started.splice(0).map((loam) => loam.stop()));
});
afterAll(() => bomber?.stop(true));

/** The process's resident memory at its highest while `work` runs (sampled every few ms, and after each step). */
async function peakRss<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  Bun.gc(true);
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growth: peak - before };
  } finally {
    clearInterval(sample);
  }
}

test("a gzip bomb from the DS 801 file's host is a 502 naming usgs_geochem, read no further than the cap", async () => {
  expect(bomb.byteLength).toBeLessThan(1024 * 1024);
  const loam = await geochemLoam(bombUrl);
  const { result, growth } = await peakRss(() => loam.json("/v1/geochem/sites/3560"));
  expect([result.status, result.body.error?.code, result.body.error?.provider]).toEqual([502, "upstream_error", "usgs_geochem"]);
  expect(result.body.error.message).toContain("larger than 16777216 bytes");
  console.log(`RSS growth while the bomb was refused: ${(growth / 1048576).toFixed(1)} MB`);
  expect(growth).toBeLessThan(maxGrowth(16 * 1024 * 1024));
}, 120_000);

test("a gzip bomb from Soil Data Access is a 502 naming usda_ssurgo, read no further than its 32 MB cap", async () => {
  const loam = await startLoam({
    source: new SdaTransport({ url: `http://127.0.0.1:${bomber.port}/Tabular/post.rest`, timeoutMs: 60_000 }),
    env: { LOAM_UPSTREAM: "sda", UPSTREAM_TIMEOUT_MS: "60000", LOAM_DATA_DIR: DATA_DIR },
  });
  started.push(loam);
  const { result, growth } = await peakRss(() => loam.json("/v1/soil/location?latitude=41.944131&longitude=-94.359608"));
  expect([result.status, result.body.error?.code, result.body.error?.provider]).toEqual([502, "upstream_error", "usda_ssurgo"]);
  expect(result.body.error.message).toContain("larger than 33554432 bytes");
  console.log(`RSS growth while the SDA bomb was refused: ${(growth / 1048576).toFixed(1)} MB`);
  expect(growth).toBeLessThan(maxGrowth(32 * 1024 * 1024));
}, 120_000);

test("a gzip bomb from AWDB is a 502 naming usda_scan, read no further than its 8 MB cap", async () => {
  const loam = await startLoam({
    source: new SdaTransport({ url: "http://127.0.0.1:9/Tabular/post.rest", timeoutMs: 500 }),
    env: { LOAM_UPSTREAM: "sda", SCAN_URL: `http://127.0.0.1:${bomber.port}/awdbRestApi/services/v1`, UPSTREAM_TIMEOUT_MS: "60000", LOAM_DATA_DIR: DATA_DIR },
  });
  started.push(loam);
  const { result, growth } = await peakRss(() => loam.json("/v1/stations?bbox=-100,35,-94,40"));
  expect([result.status, result.body.error?.code, result.body.error?.provider]).toEqual([502, "upstream_error", "usda_scan"]);
  expect(result.body.error.message).toContain("more than 8388608 bytes");
  console.log(`RSS growth while the AWDB bomb was refused: ${(growth / 1048576).toFixed(1)} MB`);
  expect(growth).toBeLessThan(maxGrowth(8 * 1024 * 1024));
}, 120_000);

test("a gzip-compressed answer within the cap is asked for, inflated and served", async () => {
  const loam = await geochemLoam(`http://127.0.0.1:${bomber.port}/real${FILE_PATH}`);
  const { status, body } = await loam.json("/v1/geochem/sites/3560?properties=arsenic");
  expect(acceptedEncodings).toBe("gzip, deflate");
  expect(status).toBe(200);
  expect(body.observations[0]).toMatchObject({ value: 4.7, reported_value: "4.7" });
});

test("a gzip answer cut short is a 502 saying it does not decompress", async () => {
  const loam = await geochemLoam(`http://127.0.0.1:${bomber.port}/cut${FILE_PATH}`);
  const { status, body } = await loam.json("/v1/geochem/sites/3560");
  expect([status, body.error?.code, body.error?.provider]).toEqual([502, "upstream_error", "usgs_geochem"]);
  expect(body.error.message).toContain("does not decompress");
});

test("a content coding Loam did not ask for is a 502 naming it", async () => {
  const loam = await geochemLoam(`http://127.0.0.1:${bomber.port}/brotli${FILE_PATH}`);
  const { status, body } = await loam.json("/v1/geochem/sites/3560");
  expect([status, body.error?.code, body.error?.provider]).toEqual([502, "upstream_error", "usgs_geochem"]);
  expect(body.error.message).toContain("content coding 'br'");
});
