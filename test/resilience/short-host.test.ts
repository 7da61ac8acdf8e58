/**
 * Elysia reads a request's path from its URL at a fixed offset: by default it skips the first 11
 * characters, as if every host were at least `http://a.bc`. With `Host: a` Bun's URL is
 * `http://a/health`, the path was never found and every route answered 404; a bare request target
 * (an odd Host, or HTTP/1.0 without one) lost the path's start on deeper paths. Raw TCP requests.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startLoam, type RunningLoam } from "../support/server";
import { rawGet } from "./raw-http";

const SERIES = "/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-01-01&end=2010-01-03";

describe("short and missing Host headers reach their routes (raw TCP)", () => {
  let loam: RunningLoam;
  let port: number;
  beforeAll(async () => {
    loam = await startLoam();
    port = Number(new URL(loam.base).port);
  });
  afterAll(() => loam.stop());

  test("GET /health with `Host: a` is 200 with the health document", async () => {
    const expected = await (await loam.get("/health")).json();
    for (const host of ["a", "ab", "abc"]) {
      const answer = await rawGet(port, "/health", host);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual(expected);
    }
  });

  test("GET /v1 with `Host: a` links to that host", async () => {
    const answer = await rawGet(port, "/v1", "a");
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body);
    expect(body.documentation_url).toBe("http://a/docs");
    expect(body.openapi_url).toBe("http://a/openapi.json");
  });

  test("a station's series is found with `Host: a`, with an odd Host and with none (HTTP/1.0)", async () => {
    const expected = await loam.json(SERIES);
    expect(expected.status).toBe(200);
    for (const [host, version] of [["a", "1.1"], ["a/b", "1.1"], [null, "1.0"]] as const) {
      const answer = await rawGet(port, SERIES, host, version);
      expect(answer.status).toBe(200);
      const body = JSON.parse(answer.body);
      expect(body.station.station_triplet).toBe("2092:KS:SCAN");
      expect(body.query).toEqual(expected.body.query);
      expect(body.values).toEqual(expected.body.values);
      expect(body.values.length).toBeGreaterThan(0);
    }
  });
});
