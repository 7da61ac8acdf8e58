/**
 * What the access log keeps of a query (docs/decisions.md#contract-lists): the parameters some route
 * declares in its query schema, coordinates rounded to 0.1 degree; anything else by name only, its
 * digits masked. No table to keep in step: a parameter a route declares is logged.
 */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";
import { pollUntil } from "../support/spawn";

const { loam } = useLoam();

async function logged(path: string, requestId: string): Promise<Record<string, any>> {
  const response = await loam.get(path, { headers: { "x-request-id": requestId } });
  await response.arrayBuffer();
  // The line is written once the response has gone.
  return pollUntil(`the access-log line of ${requestId}`, () => loam.accessLog.find((entry) => entry.request_id === requestId), 10_000);
}

describe("the access log's form of a query", () => {
  test("every parameter a route declares is kept: summary method, property and format too", async () => {
    const line = await logged("/v1/soil/mapunits?bbox=-94.369608,41.934131,-94.349608,41.954131&property=clay&method=weighted_average&format=csv&limit=20", "log-declared-1");
    expect(line.status).toBe(200);
    expect(line.route).toBe("/v1/soil/mapunits");
    expect(line.query).toEqual({ bbox: [-94.4, 41.9, -94.3, 42], property: "clay", method: "weighted_average", format: "csv", limit: "20" });
  });

  test("coordinates are rounded to 0.1 degree; a parameter no route declares is named only, digits masked", async () => {
    const line = await logged("/v1/soil/location?latitude=41.944131&longitude=-94.359608&session42=secret-41.94", "log-declared-2");
    expect(line.query.latitude).toBe(41.9);
    expect(line.query.longitude).toBe(-94.4);
    expect(line.query._other_parameters).toEqual(["session##"]);
    expect(JSON.stringify(line)).not.toContain("secret");
    expect(JSON.stringify(line)).not.toContain("41.944131");
  });
});

describe("the access-log line", () => {
  test("is exactly the JSON of its entry in the documented order, whatever the values hold", async () => {
    const { createAccessLog } = await import("../../src/http/access-log");
    const lines: string[] = [];
    const log = createAccessLog("info", (line) => lines.push(line));
    const entries = [
      { request_id: 'id-"quoted"\\', method: "GET", route: "/v1/soil/location", status: 200, duration_ms: 0.05, cache: "hit" as const, upstream_ms: 1.23, client: "2001:db8::/64", query: { latitude: 41.9, note: "line\u2028sep \"q\" é", bbox: [-94.4, 41.9] } },
      { request_id: "r2", method: "HEAD", route: "unmatched", status: 503, duration_ms: 1e-7, cache: null, upstream_ms: null, client: "unknown" },
      { request_id: "r3", method: "GET", route: "/health", status: 429, duration_ms: 12, cache: "stale" as const, upstream_ms: 0, client: "10.0.0.1", query: {} },
    ];
    for (const entry of entries) log.record(entry);
    expect(lines).toHaveLength(entries.length);
    lines.forEach((line, i) => {
      const entry = entries[i]!;
      const time = JSON.parse(line).time;
      expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const expected = JSON.stringify({ time, level: entry.status >= 500 ? "error" : "info", msg: "request", ...entry });
      expect(line).toBe(`${expected}\n`);
    });
  });
});
