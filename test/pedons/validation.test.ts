import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";

const { loam, contract } = useLoam();

const BOX = "bbox=-96,38.5,-95,39.5";

async function expectError(path: string, status: number, code: string, words: string[]) {
  const { status: got, body, headers } = await loam.json(path);
  expect(got).toBe(status);
  contract.assert("ErrorResponse", body);
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toBe(headers.get("x-request-id")!);
  for (const word of words) expect(body.error.message).toContain(word);
}

// [query, status, code, words the message must contain]
const COLLECTION: [string, number, string, string[]][] = [
  ["", 422, "validation_error", ["bbox", "required"]],
  ["bbox=", 422, "validation_error", ["bbox", "four comma-separated numbers"]],
  ["bbox=-96,38.5,-95", 422, "validation_error", ["bbox", "four comma-separated numbers", "got 3 items"]],
  ["bbox=-96,38.5,-95,39.5,1", 422, "validation_error", ["bbox", "four", "got 5 items"]],
  ["bbox=west,south,east,north", 422, "validation_error", ["bbox", "min_lon", "decimal number", "west"]],
  ["bbox=-96,NaN,-95,39.5", 422, "validation_error", ["bbox", "min_lat", "NaN"]],
  ["bbox=-96,38.5,Infinity,39.5", 422, "validation_error", ["bbox", "max_lon", "Infinity"]],
  ["bbox=-96,38.5,-95,-Infinity", 422, "validation_error", ["bbox", "max_lat"]],
  ["bbox=0x10,38.5,-95,39.5", 422, "validation_error", ["bbox", "min_lon", "0x10"]],
  ["bbox=-96,,-95,39.5", 422, "validation_error", ["bbox", "min_lat", "decimal number"]],
  ["bbox=-96,38.5,-95,1e400", 422, "validation_error", ["bbox", "max_lat"]],
  ["bbox=-181,38,-179,39", 422, "validation_error", ["bbox", "min_lon", "-180 to 180"]],
  ["bbox=179,38,181,39", 422, "validation_error", ["bbox", "max_lon", "-180 to 180"]],
  ["bbox=-96,89,-95,91", 422, "validation_error", ["bbox", "max_lat", "-90 to 90"]],
  ["bbox=-96,-91,-95,-89", 422, "validation_error", ["bbox", "min_lat", "-90 to 90"]],
  ["bbox=-95,38.5,-96,39.5", 422, "validation_error", ["bbox", "min_lon (-95) must be less than max_lon (-96)"]],
  ["bbox=-96,39.5,-95,38.5", 422, "validation_error", ["bbox", "min_lat (39.5) must be less than max_lat (38.5)"]],
  ["bbox=-96,38.5,-96,39.5", 422, "validation_error", ["bbox", "min_lon", "less than max_lon"]],
  ["bbox=-102,38,-96,38.5", 422, "validation_error", ["bbox", "spans 6 degrees of longitude", "5 degrees per side"]],
  ["bbox=-96,33,-95.5,39", 422, "validation_error", ["bbox", "spans 6 degrees of latitude", "5 degrees per side"]],
  ["bbox=-98,38,-95.5,40", 422, "validation_error", ["bbox", "covers 5 square degrees (2.5 x 2)", "at most 4 square degrees"]],
  ["bbox=-100,38,-95,38.9", 422, "validation_error", ["bbox", "4.5 square degrees"]],
  [`${BOX}&bbox=-96,38.5,-95,39.5`, 422, "validation_error", ["bbox", "repeated"]],
  [`bbox=${"1".repeat(201)}`, 422, "validation_error", ["bbox", "200 characters"]],
  [`${BOX}&limit=0`, 422, "validation_error", ["limit", "an integer from 1 to 500", "'0'"]],
  [`${BOX}&limit=501`, 422, "validation_error", ["limit", "an integer from 1 to 500", "501"]],
  [`${BOX}&limit=1.5`, 422, "validation_error", ["limit", "an integer", "1.5"]],
  [`${BOX}&limit=abc`, 422, "validation_error", ["limit", "abc"]],
  [`${BOX}&limit=`, 422, "validation_error", ["limit"]],
  [`${BOX}&limit=0x10`, 422, "validation_error", ["limit", "0x10"]],
  [`${BOX}&limit=5&limit=6`, 422, "validation_error", ["limit", "repeated"]],
  [`${BOX}&provider=usda_ssurgo`, 422, "validation_error", ["provider", "usda_ssurgo", "/v1/soil/location"]],
  [`${BOX}&provider=usda_scan`, 422, "validation_error", ["usda_scan", "sensor stations", "/v1/stations"]],
  [`${BOX}&provider=isric_soilgrids`, 422, "validation_error", ["isric_soilgrids", "GET /v1/soil/modeled"]],
  [`${BOX}&provider=`, 422, "validation_error", ["provider", "empty"]],
  [`${BOX}&provider=nobody`, 404, "unknown_provider", ["nobody", "/v1/providers"]],
  [`${BOX}&provider=KSSL`, 404, "unknown_provider", ["KSSL"]],
  [`${BOX}&provider=${"x".repeat(41)}`, 422, "validation_error", ["provider", "40"]],
];

describe("GET /v1/pedons invalid input", () => {
  for (const [query, status, code, words] of COLLECTION) {
    test(`${query.slice(0, 80) || "(no query)"} → ${status} ${code}`, () => expectError(`/v1/pedons?${query}`, status, code, words));
  }
});

const DETAIL: [string, number, string, string[]][] = [
  ["abc", 422, "validation_error", ["pedon_key", "02N0245", "'abc'"]],
  ["02N0245'--", 422, "validation_error", ["pedon_key"]],
  ["02N0245%27%20OR%201=1", 422, "validation_error", ["pedon_key"]],
  ["99999999999", 422, "validation_error", ["pedon_key", "2147483647"]],
  ["0", 422, "validation_error", ["pedon_key"]],
  ["-5", 422, "validation_error", ["pedon_key"]],
  ["02N02450", 422, "validation_error", ["pedon_key"]],
  ["99Z9999", 404, "not_found", ["99Z9999", "KSSL Kansas"]],
  ["02N0245?properties=ph,unobtainium", 422, "validation_error", ["properties", "unobtainium", "/v1/properties"]],
  ["02N0245?properties=ph,sand,silt,clay,om,oc,bulk_density,cec,ec", 422, "validation_error", ["properties", "9", "8"]],
  ["02N0245?properties=", 422, "validation_error", ["properties", "empty"]],
  [`02N0245?properties=${"ph,".repeat(67)}ph`, 422, "validation_error", ["properties", "200"]],
  ["02N0245?properties=ph&properties=clay", 422, "validation_error", ["properties", "repeated"]],
  ["02N0245?depth_top_cm=50&depth_bottom_cm=50", 422, "validation_error", ["depth_bottom_cm", "greater than", "depth_top_cm"]],
  ["02N0245?depth_top_cm=60&depth_bottom_cm=30", 422, "validation_error", ["depth_bottom_cm", "depth_top_cm"]],
  // Pedon bounds are Loam's (the spec leaves them open): 0 to 999 and at most 1000 cm (docs/decisions.md#pedon-depth).
  ["02N0245?depth_top_cm=-1", 422, "validation_error", ["depth_top_cm", "0 to 999"]],
  ["02N0245?depth_bottom_cm=1001", 422, "validation_error", ["depth_bottom_cm", "1000"]],
  ["02N0245?depth_top_cm=1000", 422, "validation_error", ["depth_top_cm", "0 to 999"]],
  ["02N0245?depth_bottom_cm=0", 422, "validation_error", ["depth_bottom_cm", "greater than 0"]],
  ["02N0245?depth_top_cm=abc", 422, "validation_error", ["depth_top_cm"]],
];

describe("GET /v1/pedons/{pedon_key} invalid input", () => {
  for (const [path, status, code, words] of DETAIL) {
    test(`${path.slice(0, 80)} → ${status} ${code}`, () => expectError(`/v1/pedons/${path}`, status, code, words));
  }
});

const RAW: [string, number, string, string[]][] = [
  ["nobody/raw/pedons/02N0245", 404, "unknown_provider", ["nobody"]],
  ["usda_ssurgo/raw/pedons/02N0245", 422, "validation_error", ["provider_id", "usda_ssurgo"]],
  ["usda_osd/raw/pedons/02N0245", 422, "validation_error", ["provider_id", "usda_osd", "series descriptions"]],
  ["usda_scan/raw/pedons/02N0245", 422, "validation_error", ["provider_id", "usda_scan"]],
  ["usda_kssl/raw/pedons/abc", 422, "validation_error", ["pedon_key", "abc"]],
  ["kssl/raw/pedons/99999999999", 422, "validation_error", ["pedon_key"]],
  ["usda_kssl/raw/pedons/99Z9999", 404, "not_found", ["99Z9999"]],
];

describe("GET /v1/providers/{provider_id}/raw/pedons/{pedon_key} invalid input", () => {
  for (const [path, status, code, words] of RAW) {
    test(`${path} → ${status} ${code}`, () => expectError(`/v1/providers/${path}`, status, code, words));
  }
});

describe("accepted input", () => {
  test("bbox edges are inclusive of the limits: exactly 5 degrees wide and 4 square degrees; spaces around items are allowed", async () => {
    for (const bbox of ["-100,38,-95,38.8", "-98,37,-96,39", "%20-98%20,%2037%20,-96,39"]) {
      const { status, body } = await loam.json(`/v1/pedons?bbox=${bbox}&limit=500`);
      expect(status).toBe(200);
      contract.assert("PedonCollection", body);
    }
  });

  test("limit bounds 1 and 500 are accepted; unknown parameters are ignored", async () => {
    const one = await loam.json(`/v1/pedons?${BOX}&limit=1&color=red`);
    expect(one.status).toBe(200);
    expect(one.body.features).toHaveLength(1);
    expect(one.body.query.limit).toBe(1);
    const most = await loam.json(`/v1/pedons?${BOX}&limit=500`);
    expect(most.status).toBe(200);
    expect(most.body.query.limit).toBe(500);
  });

  test("property aliases resolve and duplicates collapse in the detail query echo", async () => {
    const { status, body } = await loam.json(`/v1/pedons/02N0245?properties=%20PHH2O%20,ph_h2o,soc,om,clay_total&depth_top_cm=0&depth_bottom_cm=30`);
    expect(status).toBe(200);
    contract.assert("PedonResponse", body);
    expect(body.query).toEqual({ pedon_key: "02N0245", properties: ["ph", "organic_carbon", "organic_matter", "clay"], depth_top_cm: 0, depth_bottom_cm: 30 });
  });
});
