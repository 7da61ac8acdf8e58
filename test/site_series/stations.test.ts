/**
 * usda_scan in snapshot mode through the site_series routes (docs/decisions.md#site-series): expected
 * values from datasets/scan read by the test's own readers (./reference.ts).
 */
import { describe, expect, test } from "bun:test";
import { DATA_DIR, useLoam } from "../support/server";
import { parseRfc4180 } from "../support/csv";
import { pyprojAvailable, pyprojDistancesKm } from "../support/geodesic";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inventory, ismn, metadata, percent } from "./reference";

const { loam, contract } = useLoam();
const series = (triplet: string, query: string) => loam.json(`/v1/stations/${triplet}/series?${query}`);
const SM = "element=soil_moisture&depth_cm=5.08";
const scanRows = () => metadata().filter((r) => r.Network === "SCAN");

describe("GET /v1/stations/{station_triplet}/series (hourly)", () => {
  test("2092's first value is the file's first line as % vol at 2007-01-01T00:00:00Z, flags as reported", async () => {
    const first = ismn("Abrams").lines[0]!;
    expect(first).toEqual({ time: "2007-01-01T00:00:00Z", raw: 0.154, flags: ["D02", "M"] });
    const { status, body } = await series("2092:KS:SCAN", `${SM}&start=2007-01-01&end=2007-01-01`);
    expect(status).toBe(200);
    contract.assert("StationSeriesResponse", body);
    expect(body.values[0]).toEqual({ time: first.time, value: 15.4, unit: "% vol", flags: first.flags });
    expect(body.clock.utc_offset_hours).toBe(0);
    expect(body.transformations[0]).toMatchObject({ from_unit: "m3/m3", to_unit: "% vol" });
  });

  test("a week of values is every line of the file in the range, in order, as % vol", async () => {
    const expected = ismn("Abrams").lines.filter((l) => l.time >= "2010-07-01" && l.time < "2010-07-08");
    const { body } = await series("2092:KS:SCAN", `${SM}&start=2010-07-01&end=2010-07-07`);
    expect(body.values.map((v: any) => [v.time, v.value, v.flags])).toEqual(expected.map((l) => [l.time, percent(l.raw), l.flags]));
    expect(body.values.find((v: any) => v.time === "2010-07-01T00:00:00Z").value).toBe(8.9);
  });

  test("gaps stay gaps: 2057 has no record at 2013-06-01 12:00, and none is invented", async () => {
    const lines = ismn("AAMU-jtg").lines.filter((l) => l.time >= "2013-05-14" && l.time < "2013-07-27");
    expect(lines.some((l) => l.time === "2013-06-01T12:00:00Z")).toBe(false);
    expect(lines.length).toBeGreaterThan(0);
    const { body } = await series("2057:AL:SCAN", `${SM}&start=2013-05-14&end=2013-07-26`);
    expect(body.values.map((v: any) => v.time)).toEqual(lines.map((l) => l.time));
    expect(body.values.some((v: any) => v.time === "2013-06-01T12:00:00Z")).toBe(false);
  });

  test("AAMU-jtg's last lines have 4 tokens: one flag, as reported", async () => {
    const last = ismn("AAMU-jtg").lines.at(-1)!;
    expect(last.flags).toEqual(["U"]);
    const { body } = await series("2057:AL:SCAN", `${SM}&start=2013-09-01&end=2013-09-30`);
    expect(body.values.at(-1)).toEqual({ time: last.time, value: percent(last.raw), unit: "% vol", flags: ["U"] });
  });

  test("every answer built from the ISMN files carries both citations and says the U flag is undocumented", async () => {
    const { body } = await series("2092:KS:SCAN", `${SM}&start=2010-07-01&end=2010-07-01`);
    expect(body.source.citations.some((c: string) => c.startsWith("Schaefer, G.L., Cosh, M.H., and Jackson, T.J., 2007"))).toBe(true);
    expect(body.source.citations.some((c: string) => c.startsWith("Dorigo, W., and others, 2021"))).toBe(true);
    expect(body.warnings.join(" ")).toContain("the meaning of ISMN's 'U' flag is not documented");
    const station = await loam.json("/v1/stations/2092:KS:SCAN");
    expect(station.body.source.citations).toEqual(body.source.citations);
  });

  test("CSV has one row per time with the same values", async () => {
    const response = await loam.get(`/v1/stations/2092:KS:SCAN/series?${SM}&start=2010-07-01&end=2010-07-01&format=csv`);
    const [header, ...rows] = parseRfc4180(await response.text());
    const expected = ismn("Abrams").lines.filter((l) => l.time.startsWith("2010-07-01"));
    expect(rows.length).toBe(expected.length);
    const at = (name: string) => header!.indexOf(name);
    expect(rows.map((r) => [r[at("time")], Number(r[at("value")]), r[at("flags")]])).toEqual(expected.map((l) => [l.time, percent(l.raw), l.flags.join(" ")]));
  });
});

describe("GET /v1/stations/{station_triplet}/series (daily)", () => {
  test("daily values are the mean, count, min and max of each UTC day's reported hours", async () => {
    const lines = ismn("AAMU-jtg").lines.filter((l) => l.time >= "2013-01-20" && l.time < "2013-02-06");
    const days = new Map<string, number[]>();
    for (const l of lines) days.set(l.time.slice(0, 10), [...(days.get(l.time.slice(0, 10)) ?? []), percent(l.raw)]);
    const { status, body } = await series("2057:AL:SCAN", `${SM}&interval=daily&start=2013-01-20&end=2013-02-05`);
    expect(status).toBe(200);
    contract.assert("StationSeriesResponse", body);
    expect(body.values.map((v: any) => [v.date, v.count, v.min, v.max])).toEqual([...days].map(([d, vs]) => [d, vs.length, Math.min(...vs), Math.max(...vs)]));
    for (const v of body.values) {
      const vs = days.get(v.date)!;
      // The readings are 0.1 % (0.001 m3/m3): the mean to the tenth (docs/decisions.md#precision), not 9.013.
      expect(v.value).toBe(Math.round((vs.reduce((a, b) => a + b, 0) / vs.length) * 10) / 10);
      expect(v.time).toBe(`${v.date}T00:00:00Z`);
    }
    // The sparse stretch: days with fewer than 24 reported hours keep their count; nothing is filled in.
    expect(body.values.some((v: any) => v.count < 24)).toBe(true);
    expect(body.values.some((v: any) => v.count === 24)).toBe(true);
    expect(body.transformations.map((t: any) => t.operation)).toContain("daily_mean_of_hourly_values");
    expect([body.data_kind, body.interval, body.native_interval]).toEqual(["derived", "daily", "hourly"]);
  });

  test("a daily mean carries every flag its hours carry; the flags' meanings and the UTC day are said", async () => {
    // 2092's first days: hours flagged D02 (negative air temperature) among U hours.
    const lines = ismn("Abrams").lines.filter((l) => l.time < "2007-01-08");
    const flagsOf = (day: string) => [...new Set(lines.filter((l) => l.time.startsWith(day)).flatMap((l) => l.flags))].sort();
    const { body } = await series("2092:KS:SCAN", `${SM}&interval=daily&start=2007-01-01&end=2007-01-07`);
    contract.assert("StationSeriesResponse", body);
    expect(body.values.map((v: any) => [v.date, v.flags])).toEqual([...new Set(lines.map((l) => l.time.slice(0, 10)))].map((d) => [d, flagsOf(d)]));
    expect(body.values.some((v: any) => v.flags.includes("D02"))).toBe(true);
    expect(body.flag_fields[0]).toContain("D02 negative in-situ air temperature");
    expect(body.flag_fields[0]).toContain("C = exceeding the plausible geophysical range");
    expect(body.warnings.join(" ")).toContain("NRCS's own daily values use the station's standard-time day");
  });

  test("daily values carry the US water year and the day in it (October 1 is day 1), as fetchSCAN's", async () => {
    const { body } = await series("2092:KS:SCAN", `${SM}&interval=daily&start=2010-09-29&end=2010-10-02`);
    contract.assert("StationSeriesResponse", body);
    // The test's own count: days since October 1 of the water year's first calendar year, plus one.
    const expected = (date: string) => {
      const [y, m] = [Number(date.slice(0, 4)), Number(date.slice(5, 7))];
      const wy = m >= 10 ? y + 1 : y;
      return [date, wy, (Date.parse(date) - Date.parse(`${wy - 1}-10-01`)) / 86_400_000 + 1];
    };
    expect(body.values.map((v: any) => [v.date, v.water_year, v.water_day])).toEqual(body.values.map((v: any) => expected(v.date)));
    expect(body.values.find((v: any) => v.date === "2010-10-01")).toMatchObject({ water_year: 2011, water_day: 1 });
    expect(body.values.find((v: any) => v.date === "2010-09-30")).toMatchObject({ water_year: 2010, water_day: 365 });
  });

  test("every series answer names its sensor (Hydraprobe) and the dielectric calibration caveat", async () => {
    for (const interval of ["hourly", "daily"]) {
      const { body } = await series("2092:KS:SCAN", `${SM}&interval=${interval}&start=2010-07-01&end=2010-07-02`);
      expect(body.sensor).toMatchObject({ element: "soil_moisture", depth_cm: 5.08, instrument: "Hydraprobe-Analog-(2.5-Volt)" });
      expect(body.warnings.join(" ")).toContain("calibrated for typical mineral soils");
    }
  });

  test("retrieved_at of an ISMN series is its file's date in the ISMN download (2019), not the snapshot's build", async () => {
    // The test's own reader: the zip's local file header of the Abrams file (time at +10, date at +12, name at +30).
    const zip = readFileSync(join(DATA_DIR, "scan/ismn/Data_header_values.zip"));
    const name = Buffer.from(`SCAN/Abrams/${readdirSync(join(DATA_DIR, "scan/ismn")).find((f) => f.startsWith("SCAN_SCAN_Abrams_"))}`);
    const header = zip.indexOf(name) - 30;
    expect(zip.readUInt32LE(header)).toBe(0x04034b50);
    const [time, date] = [zip.readUInt16LE(header + 10), zip.readUInt16LE(header + 12)];
    const expected = new Date(Date.UTC((date >> 9) + 1980, ((date >> 5) & 15) - 1, date & 31, time >> 11, (time >> 5) & 63, (time & 31) * 2)).toISOString().replace(".000Z", "Z");
    expect(expected.slice(0, 4)).toBe("2019");
    const { body } = await series("2092:KS:SCAN", `${SM}&start=2010-07-01&end=2010-07-01`);
    expect(body.source.retrieved_at).toBe(expected);
  });

  test("a date-only end is echoed as the day's last second: sent back, it returns the same hours", async () => {
    const first = await series("2092:KS:SCAN", `${SM}&start=2010-07-01&end=2010-07-01`);
    expect(first.body.query.end).toBe("2010-07-01T23:59:59Z");
    const again = await series("2092:KS:SCAN", `${SM}&start=${first.body.query.start}&end=${first.body.query.end}`);
    expect(again.body.values).toEqual(first.body.values);
    expect(first.body.values).toHaveLength(ismn("Abrams").lines.filter((l) => l.time.startsWith("2010-07-01")).length);
  });

  test("depth_cm=5 is read as the nearest sensor depth, 5.08, and says so", async () => {
    const { status, body } = await series("2092:KS:SCAN", "element=soil_moisture&depth_cm=5&start=2010-07-01&end=2010-07-01");
    expect(status).toBe(200);
    expect(body.query.depth_cm).toBe(5.08);
    expect(body.values.length).toBeGreaterThan(0);
    expect(body.warnings.join(" ")).toContain("depth_cm=5 is read as the nearest sensor depth, 5.08 cm (2 in)");
  });

  test("a 20-year daily range is read in fixed yearly windows: a shifted range reuses them", async () => {
    const a = await series("2092:KS:SCAN", `${SM}&interval=daily&start=1994-01-01&end=2013-12-31`);
    expect(a.status).toBe(200);
    const days = new Set(ismn("Abrams").lines.map((l) => l.time.slice(0, 10)));
    expect(a.body.values.map((v: any) => v.date)).toEqual([...days]);
    // The same years shifted by a day: every window is already kept.
    const b = await series("2092:KS:SCAN", `${SM}&interval=daily&start=1994-01-02&end=2013-12-30`);
    expect(b.body.cache.hit).toBe(true);
    expect(b.body.values).toEqual(a.body.values.filter((v: any) => v.date >= "1994-01-02" && v.date <= "2013-12-30"));
  });
});

describe("a series the snapshot lacks", () => {
  test("is 200 with no values and a warning naming what the snapshot holds and how to go live", async () => {
    for (const [triplet, query] of [
      ["2092:KS:SCAN", "element=soil_temperature&depth_cm=5.08&start=2010-07-01&end=2010-07-02"],
      ["2092:KS:SCAN", "element=soil_moisture&depth_cm=20.32&start=2010-07-01&end=2010-07-02"],
      ["2022:OK:SCAN", `${SM}&start=2010-07-01&end=2010-07-02`],
    ] as const) {
      const { status, body } = await series(triplet, query);
      expect(status).toBe(200);
      contract.assert("StationSeriesResponse", body);
      expect(body.values).toEqual([]);
      const warning = body.warnings.find((w: string) => w.startsWith("The offline snapshot holds no"));
      expect(warning).toContain("2057:AL:SCAN");
      expect(warning).toContain("2015:NM:SCAN");
      expect(warning).toContain(`${ismn("Abrams").lines.length} hourly values`);
      expect(warning).toContain("LOAM_UPSTREAM=sda");
    }
    const temperature = await series("2092:KS:SCAN", "element=soil_temperature&depth_cm=5.08&start=2010-07-01&end=2010-07-02");
    expect([temperature.body.unit, temperature.body.transformations]).toEqual(["°C", []]);
  });
});

describe("bad input", () => {
  const cases: [string, number, string][] = [
    ["/v1/stations/2092-KS-SCAN", 422, "station triplet"],
    ["/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-07-01T25:00Z&end=2010-07-02", 422, "'start' must be a date"],
    ["/v1/stations/9999:KS:SCAN", 404, "9999:KS:SCAN"],
    ["/v1/stations/9999:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-07-01&end=2010-07-02", 404, "9999:KS:SCAN"],
    ["/v1/stations/2092:KS:SCAN/series?element=ph&depth_cm=5.08", 422, "soil_moisture, soil_temperature"],
    ["/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=7", 422, "5.08 (2 in), 10.16 (4 in), 20.32 (8 in), 50.8 (20 in), 101.6 (40 in)"],
    ["/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-07-02&end=2010-07-01", 422, "must come before"],
    ["/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2009-01-01&end=2010-07-01", 422, "one year (366 days) of hourly values"],
    ["/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&interval=daily&start=1980-01-01&end=2010-07-01", 422, "20 years (7305 days) of daily values"],
    ["/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=2010-13-01&end=2010-07-01", 422, "'start' must be a date"],
    ["/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&interval=weekly", 422, "interval"],
    ["/v1/stations?bbox=-100,35,-94", 422, "four comma-separated numbers"],
    ["/v1/stations?bbox=-94,35,-100,40", 422, "min_lon"],
    ["/v1/stations?limit=0", 422, "limit"],
    ["/v1/stations?limit=1001", 422, "limit"],
    ["/v1/stations?cursor=nonsense", 422, "cursor"],
    ["/v1/stations?provider=usda_kssl", 422, "sensor stations"],
    ["/v1/stations?provider=nope", 404, "nope"],
    ["/v1/stations?provider=", 422, "'provider' must not be empty"],
    ["/v1/stations/2092:KS:SCAN?provider=usda_osd", 422, "series descriptions"],
  ];
  for (const [path, status, words] of cases) {
    test(`${path} is ${status} naming ${words}`, async () => {
      const response = await loam.json(path);
      expect(response.status).toBe(status);
      contract.assert("ErrorResponse", response.body);
      expect(response.body.error.message).toContain(words);
    });
  }

  test("a one-year hourly range is accepted (8,760 values at most)", async () => {
    const { status, body } = await series("2092:KS:SCAN", `${SM}&start=2010-01-01&end=2010-12-31`);
    expect(status).toBe(200);
    expect(body.values.length).toBe(ismn("Abrams").lines.filter((l) => l.time.startsWith("2010-")).length);
  });

  test("a cursor from another box is refused", async () => {
    const first = await loam.json("/v1/stations?bbox=-100,35,-94,40&limit=1");
    const cursor = new URL(first.body.next, loam.base).searchParams.get("cursor");
    const other = await loam.json(`/v1/stations?bbox=-101,35,-94,40&limit=1&cursor=${cursor}`);
    expect(other.status).toBe(422);
    expect(other.body.error.message).toContain("another query");
  });
});

describe("GET /v1/stations", () => {
  test("pages over every SCAN station in station-id order, the metadata's values served", async () => {
    const expected = scanRows()
      .sort((a, b) => Number(a.Site) - Number(b.Site))
      .map((r) => r.stationTriplet!);
    const seen: string[] = [];
    let path: string | null = "/v1/stations?limit=50";
    while (path) {
      const { status, body, headers }: any = await loam.json(path);
      expect(status).toBe(200);
      contract.assert("StationCollection", body);
      seen.push(...body.features.map((f: any) => f.id));
      if (body.next) expect(headers.get("link")).toBe(`<${body.next}>; rel="next"`);
      path = body.next;
    }
    expect(seen).toEqual(expected);
  });

  test("a box holds exactly the stations inside it; a station's properties are the CSV's", async () => {
    const inBox = scanRows().filter((r) => Number(r.Longitude) >= -100 && Number(r.Longitude) <= -94 && Number(r.Latitude) >= 35 && Number(r.Latitude) <= 40);
    const { body } = await loam.json("/v1/stations?bbox=-100,35,-94,40");
    expect(body.features.map((f: any) => f.id).sort()).toEqual(inBox.map((r) => r.stationTriplet).sort());
    const row = inBox.find((r) => r.Site === "2092")!;
    const abrams = body.features.find((f: any) => f.id === "2092:KS:SCAN");
    expect(abrams.geometry.coordinates).toEqual([Number(row.Longitude), Number(row.Latitude)]);
    expect(abrams.properties).toMatchObject({
      name: row.Name,
      state: row.stateCode,
      county: row.countyName,
      huc: row.HUC,
      elevation_ft: Number(row.Elevation_ft),
      elevation_m: Math.round(Number(row.Elevation_ft) * 0.3048 * 10) / 10,
      data_time_zone: Number(row.dataTimeZone),
      begin_date: row.beginDate!.slice(0, 10),
      end_date: null,
      pedon_key: row.pedlabsampnum,
      representative_of_bbox: false,
    });
    expect(abrams.properties.series_offline).toEqual([{ element: "soil_moisture", depth_cm: 5.08, start: "2007-01-01T00:00:00Z", end: "2013-12-31T23:00:00Z", values: ismn("Abrams").lines.length }]);
  });

  test("near lists the nearest stations first with their distances", async () => {
    const { body } = await loam.json("/v1/stations?near=37.1313,-97.0859&limit=3");
    contract.assert("StationCollection", body);
    expect(body.features[0].id).toBe("2092:KS:SCAN");
    expect(body.features[0].properties.distance_km).toBe(0);
    const d = body.features.map((f: any) => f.properties.distance_km);
    expect([...d].sort((a, b) => a - b)).toEqual(d);
  });

  test.skipIf(!pyprojAvailable())("near ranks every station by its geodesic distance on WGS84 (pyproj's), served to the metre", async () => {
    const near: [number, number] = [44.2, -104.1];
    const { body: all } = await loam.json("/v1/stations?bbox=-180,-90,180,90&limit=1000");
    expect(all.truncated).toBe(false);
    const stations = all.features.map((f: any) => ({ id: f.id as string, at: [f.geometry.coordinates[1], f.geometry.coordinates[0]] as [number, number] }));
    const km = pyprojDistancesKm(near, stations.map((s: { at: [number, number] }) => s.at));
    const ranked = stations.map((s: { id: string }, i: number) => ({ id: s.id, km: km[i]! })).sort((a: { km: number }, b: { km: number }) => a.km - b.km);
    const { body } = await loam.json(`/v1/stations?near=${near.join(",")}&limit=10`);
    expect(body.features.map((f: any) => f.id)).toEqual(ranked.slice(0, 10).map((r: { id: string }) => r.id));
    body.features.forEach((f: any, i: number) => expect(Math.abs(f.properties.distance_km - ranked[i]!.km)).toBeLessThanOrEqual(0.0005 + 1e-9));
  });

  test("CSV has one row per station with the model's members", async () => {
    const text = await (await loam.get("/v1/stations?bbox=-100,35,-94,40&format=csv")).text();
    const [header, ...rows] = parseRfc4180(text);
    expect(header!.slice(0, 3)).toEqual(["station_triplet", "station_id", "name"]);
    expect(rows.find((r) => r[0] === "2092:KS:SCAN")![header!.indexOf("pedon_key")]).toBe("04N0873");
  });
});

describe("GET /v1/stations/{station_triplet}", () => {
  test("2057 names where its sources disagree: 800 ft (AWDB) vs 860 ft (NWCC inventory) vs 262.13 m (ISMN header)", async () => {
    const row = scanRows().find((r) => r.Site === "2057")!;
    const inv = inventory("2057");
    const header = ismn("AAMU-jtg").header;
    const { status, body } = await loam.json("/v1/stations/2057:AL:SCAN");
    expect(status).toBe(200);
    contract.assert("StationResponse", body);
    const elevation = body.disagreements.find((d: any) => d.field === "elevation");
    expect(elevation.served).toMatchObject({ value: Number(row.Elevation_ft), unit: "ft" });
    expect(elevation.others.map((o: any) => [o.value, o.unit])).toEqual([
      [Number(inv.elev), "ft"],
      [Number(header[5]), "m"],
    ]);
    expect(body.station.properties.elevation_ft).toBe(800);
    expect(body.warnings.join(" ")).toContain("The sources disagree on the station's elevation");
  });

  test("2092 lists its 2-in sensor and links its lab pedon 04N0873, which the lab provider serves", async () => {
    const { body } = await loam.json("/v1/stations/2092:KS:SCAN");
    contract.assert("StationResponse", body);
    expect(body.sensors).toEqual([
      expect.objectContaining({ element: "soil_moisture", depth_cm: 5.08, ordinal: 1, unit: "% vol", source_unit: "m3/m3", start: "2007-01-01T00:00:00Z", end: "2013-12-31T23:00:00Z" }),
    ]);
    expect(body.links.pedon).toEqual({ pedon_key: "04N0873", provider: "usda_kssl", href: "/v1/pedons/04N0873" });
    const pedon = await loam.json(body.links.pedon.href);
    expect(pedon.status).toBe(200);
    expect(body.links.survey.href).toBe("/v1/soil/location?latitude=37.1313&longitude=-97.0859");
    // The series link names an element, a depth and the last week the snapshot holds: followed, it has data.
    const held = body.station.properties.series_offline[0];
    const weekBefore = new Date(Date.parse(held.end) - 6 * 86_400_000).toISOString().slice(0, 10);
    expect(body.links.series).toBe(`/v1/stations/2092:KS:SCAN/series?element=soil_moisture&depth_cm=5.08&start=${weekBefore}&end=${held.end.slice(0, 10)}`);
    const followed = await loam.json(body.links.series);
    expect(followed.status).toBe(200);
    expect(followed.body.values.length).toBe(ismn("Abrams").lines.filter((l) => l.time >= weekBefore).length);
  });

  test("the NWCC inventory's coordinates, written to 2 decimals (30.30), disagree where they do not round from AWDB's: 2009 latitude, 2088 longitude", async () => {
    for (const [triplet, id, field, cell] of [["2009:FL:SCAN", "2009", "latitude", "lat"], ["2088:VA:SCAN", "2088", "longitude", "lon"]] as const) {
      const row = metadata().find((r) => r.stationTriplet === triplet)!;
      const written = inventory(id)[cell]!;
      const served = Number(row[field === "latitude" ? "Latitude" : "Longitude"]);
      // The test's own rounding: AWDB's value to the inventory's written decimals differs from the inventory's.
      const decimals = written.split(".")[1]!.length;
      expect(served.toFixed(decimals)).not.toBe(written);
      const { body } = await loam.json(`/v1/stations/${triplet}`);
      contract.assert("StationResponse", body);
      const found = body.disagreements.find((d: any) => d.field === field);
      expect(found).toMatchObject({ served: { value: served, unit: "degrees" }, others: [{ source: "NWCC station inventory", value: Number(written), unit: "degrees" }] });
    }
  });

  test("a triplet in any case is the station, answered in canonical upper case", async () => {
    for (const path of ["/v1/stations/2092:ks:scan", "/v1/stations/2092:Ks:Scan/series?element=soil_moisture&depth_cm=5.08&start=2010-07-01&end=2010-07-01"]) {
      const { status, body } = await loam.json(path);
      expect(status).toBe(200);
      expect(body.query.station_triplet).toBe("2092:KS:SCAN");
    }
  });

  test("a station whose lab pedon the lab provider lacks gets no link, and a warning naming the pedon", async () => {
    const { body } = await loam.json("/v1/stations/2057:AL:SCAN");
    const pedon = await loam.json("/v1/pedons/02N0184");
    expect(pedon.status).toBe(404);
    expect(body.links.pedon).toBeNull();
    expect(body.warnings.join(" ")).toContain("02N0184");
  });

  test("the raw route serves the metadata CSV's row as written", async () => {
    const row = scanRows().find((r) => r.Site === "2092")!;
    const { status, body } = await loam.json("/v1/providers/usda_scan/raw/stations/2092:KS:SCAN");
    expect(status).toBe(200);
    contract.assert("RawStationResponse", body);
    expect(body.upstream_response).toEqual(row);
    // The row's pedon_key (AWDB's pedonCode) is not the station's (the lab number): the warnings name both.
    const station = await loam.json("/v1/stations/2092:KS:SCAN");
    expect(station.body.station.properties.pedon_key).toBe(row.pedlabsampnum);
    expect(row.pedon_key).not.toBe(row.pedlabsampnum);
    const note = body.warnings.find((w: string) => w.includes("pedonCode"));
    expect(note).toContain(`2092: ${row.pedon_key}`);
    expect(note).toContain(`2092: ${row.pedlabsampnum}`);
  });
});

describe("catalog", () => {
  test("usda_scan is an operational, experimental provider of observed soil moisture and temperature", async () => {
    const { body } = await loam.json("/v1/providers");
    const scan = body.providers.find((p: any) => p.id === "usda_scan");
    expect(scan).toMatchObject({ operational: true, status: "experimental", data_kind: "observed", supported_properties: ["soil_moisture", "soil_temperature"] });
    const properties = await loam.json("/v1/properties");
    const ids = properties.body.properties.map((p: any) => [p.id, p.standard_unit]);
    expect(ids).toContainEqual(["soil_moisture", "% vol"]);
    expect(ids).toContainEqual(["soil_temperature", "°C"]);
  });
});
