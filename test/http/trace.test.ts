import { describe, expect, test } from "bun:test";
import { serverTiming, tenths } from "../../src/http/trace";

describe("Server-Timing durations", () => {
  test("tenths rounds a duration to a tenth and always writes one decimal", () => {
    const samples = [0, 0.04, 0.05, 0.06, 0.149, 0.25, 0.95, 0.99, 1, 9.96, 12.34, 99.95, 1234.56, 30_000];
    for (let ms = 0; ms < 50; ms += 0.0137) samples.push(ms);
    for (const ms of samples) {
      const text = tenths(ms);
      expect(text).toMatch(/^\d+\.\d$/);
      expect(Math.abs(Number(text) - ms)).toBeLessThanOrEqual(0.05 + 1e-9);
    }
    expect([tenths(0), tenths(0.04), tenths(1), tenths(9.96), tenths(1234.56)]).toEqual(["0.0", "0.0", "1.0", "10.0", "1234.6"]);
  });

  test("a cache hit's header names the outcome and both durations", () => {
    expect(serverTiming({ startedAt: 0, requestId: "r", client: "c", cache: "hit", upstreamMs: 0, normalizeMs: 0.0421 })).toBe('cache;desc="hit", upstream;dur=0.0, normalize;dur=0.0');
    expect(serverTiming({ startedAt: 0, requestId: "r", client: "c", cache: "miss", upstreamMs: 12.35, normalizeMs: 3.04 })).toBe('cache;desc="miss", upstream;dur=12.4, normalize;dur=3.0');
  });
});
