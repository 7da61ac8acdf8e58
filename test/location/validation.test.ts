import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";

const { loam, contract } = useLoam();

const OK = "latitude=41.944131&longitude=-94.359608";

// [query, status, code, words the message must contain]
const MATRIX: [string, number, string, string[]][] = [
  ["longitude=-94", 422, "validation_error", ["latitude", "required"]],
  ["latitude=41", 422, "validation_error", ["longitude", "required"]],
  ["latitude=&longitude=-94", 422, "validation_error", ["latitude", "-90 to 90"]],
  ["latitude=NaN&longitude=-94", 422, "validation_error", ["latitude"]],
  ["latitude=Infinity&longitude=-94", 422, "validation_error", ["latitude"]],
  ["latitude=-Infinity&longitude=-94", 422, "validation_error", ["latitude"]],
  ["latitude=0x10&longitude=-94", 422, "validation_error", ["latitude"]],
  ["latitude=1e400&longitude=-94", 422, "validation_error", ["latitude"]],
  ["latitude=90.0001&longitude=-94", 422, "validation_error", ["latitude", "-90 to 90"]],
  ["latitude=-90.5&longitude=-94", 422, "validation_error", ["latitude"]],
  ["latitude=41&longitude=180.5", 422, "validation_error", ["longitude", "-180 to 180"]],
  ["latitude=41&longitude=abc", 422, "validation_error", ["longitude"]],
  ["latitude=41&latitude=42&longitude=-94", 422, "validation_error", ["latitude", "repeated"]],
  [`${OK}&properties=ph&properties=clay`, 422, "validation_error", ["properties", "repeated"]],
  [`${OK}&depth_top_cm=-1`, 422, "validation_error", ["depth_top_cm", "0 to 199"]],
  [`${OK}&depth_top_cm=200&depth_bottom_cm=200`, 422, "validation_error", ["depth_top_cm"]],
  [`${OK}&depth_bottom_cm=0`, 422, "validation_error", ["depth_bottom_cm", "greater than 0"]],
  [`${OK}&depth_bottom_cm=201`, 422, "validation_error", ["depth_bottom_cm", "200"]],
  [`${OK}&depth_top_cm=50&depth_bottom_cm=50`, 422, "validation_error", ["depth_bottom_cm", "greater than", "depth_top_cm"]],
  [`${OK}&depth_top_cm=60&depth_bottom_cm=30`, 422, "validation_error", ["depth_bottom_cm", "depth_top_cm"]],
  [`${OK}&depth_top_cm=abc`, 422, "validation_error", ["depth_top_cm"]],
  [`${OK}&properties=`, 422, "validation_error", ["properties", "empty"]],
  [`${OK}&properties=ph,,clay`, 422, "validation_error", ["properties", "empty"]],
  [`${OK}&properties=ph,unobtainium`, 422, "validation_error", ["properties", "unobtainium", "/v1/properties"]],
  [`${OK}&properties=ph,sand,silt,clay,om,oc,bulk_density,cec,ec`, 422, "validation_error", ["properties", "9", "8"]],
  [`${OK}&properties=${"ph,".repeat(67)}ph`, 422, "validation_error", ["properties", "200"]],
  [`${OK}&providers=`, 422, "validation_error", ["providers"]],
  [`${OK}&providers=usda_ssurgo,usda_kssl`, 422, "validation_error", ["providers", "exactly one"]],
  [`${OK}&providers=usda_kssl`, 422, "validation_error", ["laboratory pedons", "/v1/pedons"]],
  [`${OK}&providers=kssl`, 422, "validation_error", ["usda_kssl", "laboratory"]],
  [`${OK}&providers=nobody`, 422, "validation_error", ["providers", "nobody", "/v1/providers"]],
  [`${OK}&providers=${"x".repeat(41)}`, 422, "validation_error", ["providers", "40"]],
  [`${OK}&providers=isric_soilgrids`, 422, "validation_error", ["isric_soilgrids", "GET /v1/soil/modeled"]],
];

describe("GET /v1/soil/location invalid input", () => {
  for (const [query, status, code, words] of MATRIX) {
    test(`${query.slice(0, 90)} → ${status} ${code}`, async () => {
      const { status: got, body, headers } = await loam.json(`/v1/soil/location?${query}`);
      expect(got).toBe(status);
      contract.assert("ErrorResponse", body);
      expect(body.error.code).toBe(code);
      expect(body.error.request_id).toBe(headers.get("x-request-id")!);
      for (const word of words) expect(body.error.message).toContain(word);
    });
  }
});

describe("accepted input", () => {
  test("bounds are inclusive, aliases resolve, duplicates collapse, defaults fill the query echo", async () => {
    const edge = await loam.json(`/v1/soil/location?latitude=-90&longitude=180&depth_top_cm=199&depth_bottom_cm=200`);
    expect(edge.status).toBe(200);
    contract.assert("LocationResponse", edge.body);
    expect(edge.body.query).toEqual({ latitude: -90, longitude: 180, providers: ["usda_ssurgo"], properties: ["ph", "organic_matter", "sand", "silt", "clay"], depth_top_cm: 199, depth_bottom_cm: 200 });
    const aliased = await loam.json(`/v1/soil/location?${OK}&properties=%20PHH2O%20,ph_h2o,om,soc,oc,clay&providers=%20usda_ssurgo%20&unknown=ignored`);
    expect(aliased.status).toBe(200);
    expect(aliased.body.query.properties).toEqual(["ph", "organic_matter", "organic_carbon", "clay"]);
    expect(aliased.body.query.providers).toEqual(["usda_ssurgo"]);
    expect(new Set(aliased.body.observations.map((o: any) => o.property.id))).toEqual(new Set(["ph", "organic_matter", "organic_carbon", "clay"]));
  });

  test("a vocabulary id SSURGO does not report is answered with a warning, not invented", async () => {
    const { status, body } = await loam.json(`/v1/soil/location?${OK}&properties=total_nitrogen,ph`);
    expect(status).toBe(200);
    expect(body.observations.every((o: any) => o.property.id === "ph")).toBe(true);
    expect(body.warnings.join(" ")).toMatch(/Loam does not serve 'total_nitrogen' from usda_ssurgo/);
  });
});

describe("GET /v1/providers/{provider_id}/raw/location", () => {
  test("wraps the exact table in SDA's shape, with a snapshot warning", async () => {
    const { status, body } = await loam.json(`/v1/providers/usda_ssurgo/raw/location?${OK}&properties=ph`);
    expect(status).toBe(200);
    contract.assert("RawProviderResponse", body);
    expect(body.provider).toBe("usda_ssurgo");
    expect(body.query.providers).toEqual(["usda_ssurgo"]);
    const [names, metadata, ...rows] = body.upstream_response.Table;
    expect(names).toContain("chkey");
    expect(metadata[0]).toMatch(/DataTypeName=/);
    expect(rows.every((r: unknown[]) => r.every((v) => v === null || typeof v === "string"))).toBe(true);
    expect(rows.some((r: string[]) => r[names.indexOf("chkey")] === "59949744" && r[names.indexOf("ph1to1h2o_r")] === "6.2")).toBe(true);
    expect(body.warnings.join(" ")).toMatch(/built from the offline snapshot/);
  });

  test("the empty answer is SDA's {}", async () => {
    const { body } = await loam.json(`/v1/providers/usda_ssurgo/raw/location?latitude=7.6&longitude=171.4`);
    expect(body.upstream_response).toEqual({});
  });

  const cases: [string, string, number, string][] = [
    ["nobody", OK, 404, "unknown_provider"],
    ["usda_kssl", OK, 422, "validation_error"],
    ["kssl", OK, 422, "validation_error"],
    ["usda_scan", OK, 422, "validation_error"],
    ["usda_ssurgo", "latitude=100&longitude=0", 422, "validation_error"],
    ["usda_ssurgo", `${OK}&depth_top_cm=10&depth_bottom_cm=5`, 422, "validation_error"],
    ["usda_ssurgo", `${OK}&properties=nope`, 422, "validation_error"],
  ];
  for (const [provider, query, status, code] of cases) {
    test(`${provider} ${query.slice(0, 50)} → ${status} ${code}`, async () => {
      const { status: got, body } = await loam.json(`/v1/providers/${provider}/raw/location?${query}`);
      expect(got).toBe(status);
      contract.assert("ErrorResponse", body);
      expect(body.error.code).toBe(code);
    });
  }
});
