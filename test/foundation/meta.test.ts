import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";

const { loam, contract } = useLoam();

describe("GET /health", () => {
  test("reports healthy with the service name and version 0.6.0", async () => {
    const { status, body } = await loam.json("/health");
    expect(status).toBe(200);
    expect(body).toEqual({ status: "healthy", service: "loam", version: "0.6.0" });
    contract.assert("HealthResponse", body);
  });
});

describe("GET /v1", () => {
  test("describes the API with absolute documentation and OpenAPI URLs that resolve", async () => {
    const { status, body } = await loam.json("/v1");
    expect(status).toBe(200);
    contract.assert("ApiMetadata", body);
    expect(body.project_status).toBe("experimental");
    expect(body.version).toBe("0.6.0");
    expect(body.supported_providers).toEqual(["usda_ssurgo", "usda_kssl", "usda_osd", "usgs_geochem", "isric_soilgrids", "usda_scan"]);
    expect(body.documentation_url).toBe(`${loam.base}/docs`);
    expect(body.openapi_url).toBe(`${loam.base}/openapi.json`);
    expect((await fetch(body.openapi_url)).status).toBe(200);
    expect((await fetch(body.documentation_url)).headers.get("content-type")).toContain("text/html");
  });
});

describe("GET /v1/providers", () => {
  test("lists every provider of docs/decisions.md#providers with truthful operational flags", async () => {
    const { status, body } = await loam.json("/v1/providers");
    expect(status).toBe(200);
    contract.assert("ProvidersResponse", body);
    const byId = Object.fromEntries(body.providers.map((p: any) => [p.id, p]));
    expect(Object.keys(byId).sort()).toEqual(["isric_soilgrids", "usda_kssl", "usda_osd", "usda_scan", "usda_ssurgo", "usgs_geochem"]);
    expect(byId.usda_ssurgo.operational).toBe(true);
    expect(byId.usda_kssl.operational).toBe(true);
    expect(byId.usda_osd).toMatchObject({ operational: true, status: "experimental", data_kind: "mapped_survey" });
    expect(byId.usgs_geochem).toMatchObject({ operational: true, status: "experimental", data_kind: "observed" });
    expect(byId.isric_soilgrids).toMatchObject({ operational: true, status: "experimental", data_kind: "modeled", license: expect.stringContaining("CC BY 4.0") });
    expect(byId.isric_soilgrids.supported_properties).toEqual(expect.arrayContaining(["clay", "organic_carbon", "coarse_fragments_volume", "organic_carbon_stock"]));
    expect(byId.usda_scan).toMatchObject({ operational: true, status: "experimental", data_kind: "observed" });
    for (const id of [] as string[]) {
      expect(byId[id].operational).toBe(false);
      expect(byId[id].status).toBe("planned");
    }
    const sda = byId.usda_ssurgo.limitations.join(" ");
    expect(sda).toContain("100,000");
    expect(sda).toContain("32 MB");
    expect(sda).toMatch(/maintenance/i);
    expect(sda).toContain("STATSGO2");
    const kssl = byId.usda_kssl.limitations.join(" ");
    expect(kssl).toMatch(/coordinate/i);
    expect(kssl).toMatch(/censored/i);
    expect(kssl).toMatch(/Walkley-Black/);
  });
});

describe("GET /v1/properties", () => {
  test("publishes the vocabulary with aliases, units and a method warning for each id", async () => {
    const { status, body } = await loam.json("/v1/properties");
    expect(status).toBe(200);
    contract.assert("PropertiesResponse", body);
    const byId = Object.fromEntries(body.properties.map((p: any) => [p.id, p]));
    for (const id of ["ph", "organic_carbon", "organic_matter", "sand", "silt", "clay", "bulk_density", "cec", "total_nitrogen", "ec", "phosphorus", "calcium", "magnesium", "potassium", "sodium", "iron", "manganese", "zinc", "copper", "boron", "selenium", "arsenic"]) {
      expect(byId[id]).toBeDefined();
      expect(byId[id].method_dependency_warning.length).toBeGreaterThan(20);
    }
    expect(byId.organic_carbon.accepted_aliases).toEqual(expect.arrayContaining(["soc", "oc"]));
    expect(byId.ph.accepted_aliases).toEqual(expect.arrayContaining(["phh2o", "ph_h2o"]));
    expect(byId.ph.method_dependency_warning).toMatch(/CaCl2/);
    expect(byId.phosphorus.method_dependency_warning).toMatch(/Bray/);
    expect(byId.phosphorus.method_dependency_warning).toMatch(/Olsen/);
    expect(byId.phosphorus.method_dependency_warning).toMatch(/Mehlich/);
    expect(body.warning.length).toBeGreaterThan(20);
  });
});

describe("OpenAPI document", () => {
  test("is OpenAPI 3.1.0, version 0.5.0, and documents every API route with its statuses", () => {
    const doc = contract.doc;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("0.6.0");
    for (const path of ["/health", "/v1", "/v1/providers", "/v1/properties", "/v1/soil/location", "/v1/providers/{provider_id}/raw/location", "/v1/pedons", "/v1/pedons/{pedon_key}", "/v1/providers/{provider_id}/raw/pedons/{pedon_key}"]) {
      const get = doc.paths[path]?.get;
      expect(get).toBeDefined();
      expect(get.summary.length).toBeGreaterThan(3);
      expect(get.responses["200"].description.length).toBeGreaterThan(3);
      expect(get.responses["429"].content["application/json"].schema.$ref).toBe("#/components/schemas/ErrorResponse");
    }
    const location = doc.paths["/v1/soil/location"].get;
    for (const status of ["200", "304", "409", "422", "502", "504"]) expect(location.responses[status]).toBeDefined();
    const latitude = location.parameters.find((p: any) => p.name === "latitude");
    expect(latitude.required).toBe(true);
    expect(latitude.schema).toMatchObject({ type: "number", minimum: -90, maximum: 90 });
    const bottom = location.parameters.find((p: any) => p.name === "depth_bottom_cm");
    expect(bottom.schema).toMatchObject({ exclusiveMinimum: 0, maximum: 200, default: 200 });
  });

  test("keeps additionalProperties false on the response models", () => {
    const schemas = contract.doc.components.schemas;
    const closedModels = Object.entries(schemas).filter(([, schema]: [string, any]) => schema.type === "object").map(([name]) => name);
    expect(closedModels.length).toBeGreaterThan(20);
    for (const name of closedModels) {
      expect(schemas[name].additionalProperties).toBe(false);
    }
    expect(schemas.RawProviderResponse.properties.upstream_response.additionalProperties).toBe(true);
  });

  test("the validator rejects a body with an extra field (the check can fail)", () => {
    expect(() => contract.assert("HealthResponse", { status: "healthy", service: "loam", version: "0.5.0", extra: 1 })).toThrow();
  });
});

describe("docs UI", () => {
  test("is served from Loam's own assets, with no CDN reference", async () => {
    const html = await (await loam.get("/docs")).text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThan(2);
    for (const source of sources) expect(source.startsWith("/")).toBe(true);
    for (const source of sources.filter((s) => s.startsWith("/docs/"))) {
      const response = await loam.get(source);
      expect(response.status).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(50);
    }
  });
});
