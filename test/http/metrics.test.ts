/**
 * The Prometheus text of the request counters and latency histograms (src/http/metrics.ts): buckets
 * are cumulative (`le` counts every request at or under its bound), +Inf and _count are all requests.
 */
import { describe, expect, test } from "bun:test";
import { createMetrics } from "../../src/http/metrics";

const BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function sample(text: string, name: string, labels: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe("request metrics", () => {
  test("counts by route and status, and a cumulative latency histogram per route", () => {
    const metrics = createMetrics();
    const durations = [0.0004, 0.001, 0.003, 0.2, 0.2, 2.5, 45];
    for (const seconds of durations) metrics.observeRequest("/v1/pedons", 200, seconds);
    metrics.observeRequest("/v1/pedons", 404, 0.002);
    metrics.observeRequest("/health", 200, 0.0001);
    const text = metrics.render({ kind: "sda", location: "http://127.0.0.1/" });
    expect(sample(text, "loam_requests_total", 'route="/v1/pedons",status="200"')).toBe(durations.length);
    expect(sample(text, "loam_requests_total", 'route="/v1/pedons",status="404"')).toBe(1);
    expect(sample(text, "loam_requests_total", 'route="/health",status="200"')).toBe(1);
    const all = [...durations, 0.002];
    for (const bound of BOUNDS) {
      expect(sample(text, "loam_request_duration_seconds_bucket", `route="/v1/pedons",le="${bound}"`)).toBe(all.filter((s) => s <= bound).length);
    }
    expect(sample(text, "loam_request_duration_seconds_bucket", 'route="/v1/pedons",le="+Inf"')).toBe(all.length);
    expect(sample(text, "loam_request_duration_seconds_count", 'route="/v1/pedons"')).toBe(all.length);
    expect(sample(text, "loam_request_duration_seconds_sum", 'route="/v1/pedons"')).toBeCloseTo(all.reduce((a, b) => a + b, 0), 5);
    expect(sample(text, "loam_request_duration_seconds_bucket", 'route="/health",le="0.001"')).toBe(1);
  });
});
