/**
 * A stand-in for the NRCS AWDB REST API on 127.0.0.1, answering `/stations` and `/data` in the shape
 * the format notes document (datasets/docs/awdb-and-soilgrids-formats.md Part A): the station
 * objects carry AWDB's own field names for the real metadata rows (soilDB's renames undone); `/data`
 * answers the real ISMN values of 2092 as AWDB stores SMS (pct, on the station's standard-time clock,
 * UTC-6) and the metloom mock's STO values (degF). Faults make it answer badly.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR } from "../support/server";
import { ismn, metadata } from "./reference";

export type AwdbFault = "http-500" | "not-json" | "not-array" | "hang" | "bad-values" | "huge-list" | null;

/** How many stations the "huge-list" fault's /stations answer holds (issue 43: 115,000). */
export const HUGE_LIST = 115_000;

/**
 * A /data answer no sensor makes, as text (JSON.stringify cannot write 1e309): the first four hours of
 * `begin` each sent twice and out of order (hours 0 and 1 twice with the same value, hour 2 with two
 * values), hour 3 as 1e309, hour 4 as 1e308; values taken from the real series (`sms`).
 */
function badValues(triplet: string, begin: string, sms: { date: string; value: number | null }[]): string {
  const day = begin.slice(0, 10);
  const at = (h: number) => `${day} 0${h}:00`;
  const real = sms.find((v) => v.date.startsWith(day))?.value ?? 10;
  const values = [
    `{"date":"${at(1)}","value":${real}}`,
    `{"date":"${at(0)}","value":${real}}`,
    `{"date":"${at(2)}","value":${real}}`,
    `{"date":"${at(0)}","value":${real}}`,
    `{"date":"${at(1)}","value":${real}}`,
    `{"date":"${at(2)}","value":${real + 1}}`,
    `{"date":"${at(3)}","value":1e309}`,
    `{"date":"${at(4)}","value":1e308}`,
  ];
  return `[{"stationTriplet":"${triplet}","data":[{"stationElement":${JSON.stringify(element("SMS", 1, "pct"))},"values":[${values.join(",")}]}]}]`;
}

export interface FakeAwdb {
  url: string;
  calls: number;
  requests: URL[];
  setFault(fault: AwdbFault): void;
  close(): void;
}

/** A metadata CSV row as AWDB's /stations writes it (soilDB renamed these fields). */
export function awdbStation(row: Record<string, string | null>): Record<string, unknown> {
  return {
    stationTriplet: row.stationTriplet,
    stationId: row.Site,
    stateCode: row.stateCode,
    networkCode: row.Network,
    name: row.Name,
    dcoCode: row.dcoCode,
    countyName: row.countyName,
    huc: row.HUC,
    elevation: Number(row.Elevation_ft),
    latitude: Number(row.Latitude),
    longitude: Number(row.Longitude),
    dataTimeZone: Number(row.dataTimeZone),
    pedonCode: row.pedon_key,
    shefId: row.shefId,
    beginDate: row.beginDate,
    endDate: row.endDate,
  };
}

const element = (code: string, ordinal: number, unit: string) => ({
  elementCode: code,
  ordinal,
  heightDepth: -2,
  durationName: "HOURLY",
  dataPrecision: 1,
  storedUnitCode: unit,
  originalUnitCode: unit,
  beginDate: "2004-06-21 00:00",
  endDate: "2100-01-01 00:00",
  derivedData: false,
});

/** 2092's ISMN values (UTC, m3/m3) as AWDB keeps SMS: pct, dated on the UTC-6 standard clock. */
export function smsValues(): { date: string; value: number | null }[] {
  return ismn("Abrams").lines.map((l) => ({
    date: new Date(Date.parse(l.time) - 6 * 3600_000).toISOString().slice(0, 16).replace("T", " "),
    value: Math.round(l.raw * 100 * 100) / 100,
  }));
}

export function startFakeAwdb(): FakeAwdb {
  const rows = metadata().filter((r) => r.Network === "SCAN");
  const sms = smsValues();
  const mock = JSON.parse(readFileSync(join(DATA_DIR, "scan/awdb_mock_examples/metloom_hourly_soil.json"), "utf8"))[0].data[0];
  let fault: AwdbFault = null;
  const state = { calls: 0, requests: [] as URL[] };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      state.calls++;
      state.requests.push(url);
      if (fault === "hang") return new Promise<Response>(() => {});
      if (fault === "http-500") return new Response("Internal Server Error", { status: 500 });
      if (fault === "not-json") return new Response("<html>maintenance</html>", { headers: { "content-type": "text/html" } });
      if (fault === "not-array") return Response.json({ error: "unexpected" });
      const triplets = url.searchParams.get("stationTriplets") ?? "";
      if (fault === "bad-values" && url.pathname.endsWith("/data")) {
        return new Response(badValues(triplets, url.searchParams.get("beginDate")!, sms), { headers: { "content-type": "application/json" } });
      }
      if (fault === "huge-list" && url.pathname.endsWith("/stations") && triplets === "*:*:SCAN") {
        // The real rows again and again under other ids: an AWDB that lists far more stations than SCAN has.
        const many = Array.from({ length: HUGE_LIST }, (_, i) => {
          // Only the members Loam reads, so the list stays under the byte cap: the station count is what is tested.
          const row = rows[i % rows.length]!;
          return { stationTriplet: `${100000 + i}:${row.stateCode}:SCAN`, stationId: String(100000 + i), name: row.Name, latitude: Number(row.Latitude), longitude: Number(row.Longitude) };
        });
        return Response.json(many);
      }
      if (url.pathname.endsWith("/stations")) {
        const chosen = triplets === "*:*:SCAN" ? rows : rows.filter((r) => triplets.split(",").includes(r.stationTriplet!));
        const withElements = url.searchParams.get("returnStationElements") === "true";
        return Response.json(
          chosen.map((r) => ({ ...awdbStation(r), ...(withElements ? { stationElements: [element("SMS", 1, "pct"), element("SMS", 2, "pct"), element("STO", 1, "degF")] } : {}) })),
        );
      }
      if (url.pathname.endsWith("/data")) {
        const [begin, end] = [url.searchParams.get("beginDate")!, url.searchParams.get("endDate")!];
        const within = (v: { date: string }) => v.date >= begin && v.date <= end;
        const code = (url.searchParams.get("elements") ?? "").split(":")[0];
        const data =
          code === "SMS"
            ? [
                // A missing value: null, and one with no value at all (both gaps, as the notes say).
                { stationElement: element("SMS", 1, "pct"), values: [...sms.filter(within), { date: begin, value: null }, { date: end }] },
                { stationElement: element("SMS", 2, "pct"), values: sms.filter(within).map((v) => ({ ...v, value: v.value! + 1 })) },
              ]
            : [{ stationElement: { ...mock.stationElement, heightDepth: -2 }, values: mock.values }];
        return Response.json(triplets.split(",").map((stationTriplet) => ({ stationTriplet, data })));
      }
      return new Response("not found", { status: 404 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/awdbRestApi/services/v1`,
    get calls() {
      return state.calls;
    },
    requests: state.requests,
    setFault: (f) => (fault = f),
    close: () => server.stop(true),
  };
}
