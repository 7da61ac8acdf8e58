import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { PropertiesResponse, PropertyRecord, ProviderRecord, ProvidersResponse } from "../../src/catalog/model";
import { createRegistry } from "../../src/providers/registry";
import { USDA_ACKNOWLEDGEMENT } from "../../src/providers/usda";
import {
  PROPERTIES,
  SERVED_PROPERTY_IDS,
  VOCABULARY_WARNING,
  findProperty,
  resolvePropertyId,
} from "../../src/catalog/properties";

// The catalog as the registry serves it.
const registry = createRegistry();
const PROVIDERS = registry.all.map((p) => p.record);
const SURVEY_PROVIDER_ID = registry.defaultFor("mapped_location")!.id;
const LAB_PROVIDER_ID = registry.defaultFor("lab_pedons")!.id;
const SERIES_PROVIDER_ID = registry.defaultFor("series")!.id;
const SAMPLE_SITE_PROVIDER_ID = registry.defaultFor("sample_sites")!.id;
const STATION_PROVIDER_ID = registry.defaultFor("site_series")!.id;
const LAB_PROVIDER_ALIASES = registry.find(LAB_PROVIDER_ID)!.aliases;
const OPERATIONAL_PROVIDER_IDS = registry.operational.map((p) => p.id);
const PROVIDER_ROLES: Record<string, string> = Object.fromEntries(registry.all.map((p) => [p.id, p.role]));
const findProvider = (idOrAlias: string) => registry.find(idOrAlias)?.record;
const canonicalProviderId = (idOrAlias: string) => registry.find(idOrAlias)?.id;
const providerRole = (idOrAlias: string) => registry.find(idOrAlias)?.role;

const PLANNED: string[] = [];
const MODELED_PROVIDER_ID = registry.defaultFor("point_values")!.id;
/** docs/decisions.md#isric-soilgrids: modeled quantities with no laboratory counterpart in the vocabulary. */
const MODELED_ONLY = ["coarse_fragments_volume", "organic_carbon_density", "organic_carbon_stock"];
/**
 * docs/decisions.md#geochem-vocabulary: the total contents of the 44 DS 801 elements (served by usgs_geochem).
 * Totals of elements whose plain id is exchangeable or extractable are `<element>_total`.
 */
const GEOCHEM_SERVED = [
  "silver", "aluminum", "arsenic", "barium", "beryllium", "bismuth", "calcium_total", "cadmium", "cerium", "cobalt", "chromium",
  "cesium", "copper_total", "iron_total", "gallium", "mercury", "indium", "potassium_total", "lanthanum", "lithium",
  "magnesium_total", "manganese_total", "molybdenum", "sodium_total", "niobium", "nickel", "phosphorus_total", "lead",
  "rubidium", "sulfur", "antimony", "scandium", "selenium", "tin", "strontium", "tellurium", "thorium", "titanium",
  "thallium", "uranium", "vanadium", "tungsten", "yttrium", "zinc_total",
];
/** docs/decisions.md#site-series: the sensor series' properties (served by site_series providers). */
const SERIES_SERVED = ["soil_moisture", "soil_temperature"];
const SERVED = ["ph", "organic_carbon", "organic_matter", "sand", "silt", "clay", "bulk_density", "cec", "total_nitrogen", "ec", "calcium", "potassium", "phosphorus_mehlich3", "phosphorus_olsen"];
/** 0.3.0: served in map-unit summaries (the class properties only there). */
const SUMMARY_SERVED = [
  "available_water_capacity",
  "available_water_storage",
  "ksat",
  "slope",
  "drainage_class",
  "hydrologic_group",
  "taxonomic_class",
  "texture_class",
];
const NOT_SERVED = [
  "phosphorus",
  "magnesium",
  "sodium",
  "iron",
  "manganese",
  "zinc",
  "copper",
  "boron",
];

/** docs/decisions.md#vocabulary: canonical units of the served vocabulary. */
const DESIGN_UNITS: Record<string, string> = {
  ph: "pH",
  organic_carbon: "% (by weight)",
  organic_matter: "% (by weight)",
  sand: "%",
  silt: "%",
  clay: "%",
  bulk_density: "g/cm3",
  cec: "cmol(+)/kg",
  total_nitrogen: "%",
  ec: "dS/m",
  available_water_capacity: "cm/cm",
  available_water_storage: "cm",
  ksat: "µm/s",
  slope: "%",
};

function expectHttpsUrl(raw: string): void {
  expect(raw).not.toMatch(/\s/);
  const url = new URL(raw); // throws when malformed
  expect(url.protocol).toBe("https:");
  expect(url.hostname).toContain(".");
  expect(url.username).toBe("");
  expect(url.password).toBe("");
}

describe("providers", () => {
  test("every record passes the TypeBox model, and the list passes ProvidersResponse", () => {
    for (const p of PROVIDERS) {
      const errors = [...Value.Errors(ProviderRecord, p)].map((e) => `${p.id}${e.path}: ${e.message}`);
      expect(errors).toEqual([]);
      expect(Value.Check(ProviderRecord, p)).toBe(true);
    }
    expect(Value.Check(ProvidersResponse, { providers: PROVIDERS })).toBe(true);
  });

  test("the providers of docs/decisions.md#providers are present with the right operational flag and status", () => {
    expect(PROVIDERS.map((p) => p.id).sort()).toEqual([SURVEY_PROVIDER_ID, LAB_PROVIDER_ID, SERIES_PROVIDER_ID, SAMPLE_SITE_PROVIDER_ID, MODELED_PROVIDER_ID, STATION_PROVIDER_ID, ...PLANNED].sort());
    expect(SURVEY_PROVIDER_ID).toBe("usda_ssurgo");
    expect(LAB_PROVIDER_ID).toBe("usda_kssl");
    expect(SERIES_PROVIDER_ID).toBe("usda_osd");
    expect(SAMPLE_SITE_PROVIDER_ID).toBe("usgs_geochem");
    expect(STATION_PROVIDER_ID).toBe("usda_scan");
    for (const id of [SURVEY_PROVIDER_ID, LAB_PROVIDER_ID, SERIES_PROVIDER_ID, SAMPLE_SITE_PROVIDER_ID, STATION_PROVIDER_ID]) {
      const p = findProvider(id)!;
      expect(p.operational).toBe(true);
      expect(p.status).toBe("experimental");
    }
    for (const id of PLANNED) {
      const p = findProvider(id)!;
      expect(p.operational).toBe(false);
      expect(p.status).toBe("planned");
    }
    expect([...OPERATIONAL_PROVIDER_IDS].sort()).toEqual([LAB_PROVIDER_ID, SURVEY_PROVIDER_ID, SERIES_PROVIDER_ID, SAMPLE_SITE_PROVIDER_ID, MODELED_PROVIDER_ID, STATION_PROVIDER_ID].sort());
  });

  test("ids are unique", () => {
    expect(new Set(PROVIDERS.map((p) => p.id)).size).toBe(PROVIDERS.length);
  });

  test("data kinds", () => {
    expect(findProvider(SURVEY_PROVIDER_ID)!.data_kind).toBe("mapped_survey");
    expect(findProvider(LAB_PROVIDER_ID)!.data_kind).toBe("observed");
    expect(findProvider("isric_soilgrids")!.data_kind).toBe("modeled");
  });

  test("lab aliases resolve to the canonical record; lookups are case-sensitive", () => {
    expect([...LAB_PROVIDER_ALIASES].sort()).toEqual(["kssl", "ncss_kssl", "ncss_lab"]);
    for (const alias of LAB_PROVIDER_ALIASES) {
      expect(findProvider(alias)).toBe(findProvider(LAB_PROVIDER_ID)!);
      expect(findProvider(alias)!.id).toBe(LAB_PROVIDER_ID);
      expect(canonicalProviderId(alias)).toBe(LAB_PROVIDER_ID);
      expect(providerRole(alias)).toBe("lab_pedons");
      expect(findProvider(alias.toUpperCase())).toBeUndefined();
    }
    expect(findProvider("USDA_SSURGO")).toBeUndefined();
    expect(findProvider(" usda_ssurgo")).toBeUndefined();
    expect(findProvider("ssurgo")).toBeUndefined();
    expect(findProvider("")).toBeUndefined();
    expect(findProvider("__proto__")).toBeUndefined();
    expect(providerRole("nope")).toBeUndefined();
  });

  test("roles: one mapped-location provider, one lab provider, one series provider, one sample-site provider, the rest planned", () => {
    expect(Object.keys(PROVIDER_ROLES).sort()).toEqual(PROVIDERS.map((p) => p.id).sort());
    expect(providerRole(SURVEY_PROVIDER_ID)).toBe("mapped_location");
    expect(providerRole(LAB_PROVIDER_ID)).toBe("lab_pedons");
    expect(providerRole(SERIES_PROVIDER_ID)).toBe("series");
    expect(providerRole(SAMPLE_SITE_PROVIDER_ID)).toBe("sample_sites");
    expect(providerRole(STATION_PROVIDER_ID)).toBe("site_series");
    for (const id of PLANNED) expect(providerRole(id)).toBe("planned");
    for (const p of PROVIDERS) expect(providerRole(p.id) === "planned").toBe(!p.operational);
  });

  test("URLs are https and well-formed", () => {
    for (const p of PROVIDERS) {
      expectHttpsUrl(p.documentation_url);
      expectHttpsUrl(p.source_url);
    }
  });

  test("every field is filled: text non-empty, limitations and license present", () => {
    for (const p of PROVIDERS) {
      for (const key of ["name", "organization", "coverage", "data_kind", "access_method", "authentication"] as const) {
        expect(p[key].trim().length).toBeGreaterThan(0);
      }
      expect(typeof p.license).toBe("string");
      expect(p.license!.length).toBeGreaterThan(0);
      expect(p.limitations!.length).toBeGreaterThan(0);
      for (const l of p.limitations!) expect(l.trim().length).toBeGreaterThan(0);
      if (!p.operational) expect(p.limitations!.some((l) => l.startsWith("Not live yet"))).toBe(true);
    }
  });

  test("USDA records carry the required acknowledgement; SoilGrids is CC BY 4.0", () => {
    expect(findProvider(SURVEY_PROVIDER_ID)!.license).toContain(USDA_ACKNOWLEDGEMENT);
    expect(findProvider(LAB_PROVIDER_ID)!.license).toContain(USDA_ACKNOWLEDGEMENT);
    expect(findProvider("isric_soilgrids")!.license).toContain("CC BY 4.0");
  });

  test("the SDA-backed providers state the real SDA access method and limits", () => {
    for (const id of [SURVEY_PROVIDER_ID, LAB_PROVIDER_ID]) {
      const p = findProvider(id)!;
      expect(p.access_method).toContain("JSON+COLUMNNAME+METADATA");
      const text = p.limitations!.join(" ");
      expect(text).toContain("100,000 rows");
      expect(text).toContain("32 MB");
      expect(text).toContain("12:30 to 12:45 AM US Central");
    }
    expect(findProvider(SURVEY_PROVIDER_ID)!.limitations!.join(" ")).toContain("STATSGO2");
  });

  test("supported_properties name canonical vocabulary ids only", () => {
    for (const p of PROVIDERS) {
      for (const id of p.supported_properties ?? []) expect(findProperty(id)?.id).toBe(id);
    }
    expect(findProvider(SURVEY_PROVIDER_ID)!.supported_properties!.slice().sort()).toEqual(
      ["ph", "organic_matter", "organic_carbon", "sand", "silt", "clay", "bulk_density", "cec", "ec", "available_water_capacity", "ksat"].sort(),
    );
    expect(findProvider(LAB_PROVIDER_ID)!.supported_properties!.slice().sort()).toEqual([...SERVED].sort());
    expect(findProvider(SAMPLE_SITE_PROVIDER_ID)!.supported_properties!.slice().sort()).toEqual([...GEOCHEM_SERVED].sort());
    // Operational providers serve only served properties.
    for (const p of PROVIDERS.filter((x) => x.operational)) {
      for (const id of p.supported_properties ?? []) expect(SERVED_PROPERTY_IDS).toContain(id);
    }
  });
});

describe("properties", () => {
  test("every record passes the TypeBox model, and the list passes PropertiesResponse", () => {
    for (const p of PROPERTIES) {
      const errors = [...Value.Errors(PropertyRecord, p)].map((e) => `${p.id}${e.path}: ${e.message}`);
      expect(errors).toEqual([]);
    }
    expect(Value.Check(PropertiesResponse, { properties: PROPERTIES, warning: VOCABULARY_WARNING })).toBe(true);
  });

  test("the vocabulary is exactly docs/decisions.md#vocabulary, with served and unserved statuses", () => {
    expect(PROPERTIES.map((p) => p.id).sort()).toEqual([...SERVED, ...SUMMARY_SERVED, ...GEOCHEM_SERVED, ...MODELED_ONLY, ...SERIES_SERVED, ...NOT_SERVED].sort());
    expect(new Set(PROPERTIES.map((p) => p.id)).size).toBe(PROPERTIES.length);
    expect([...SERVED_PROPERTY_IDS].sort()).toEqual([...SERVED, ...SUMMARY_SERVED, ...GEOCHEM_SERVED, ...MODELED_ONLY, ...SERIES_SERVED].sort());
    for (const id of [...SERVED, ...SUMMARY_SERVED, ...GEOCHEM_SERVED, ...SERIES_SERVED]) expect(findProperty(id)!.status).toBe("experimental");
    expect([findProperty("soil_moisture")!.standard_unit, findProperty("soil_temperature")!.standard_unit]).toEqual(["% vol", "°C"]);
    for (const id of NOT_SERVED) expect(["planned", "researching"]).toContain(findProperty(id)!.status);
  });

  test("canonical units follow docs/decisions.md#vocabulary", () => {
    for (const [id, unit] of Object.entries(DESIGN_UNITS)) expect(findProperty(id)!.standard_unit).toBe(unit);
    for (const id of ["phosphorus", "iron", "manganese", "zinc", "copper", "boron", "selenium", "arsenic"]) {
      expect(findProperty(id)!.standard_unit).toBe("mg/kg");
    }
    for (const id of ["texture_class", "drainage_class", "hydrologic_group", "taxonomic_class"]) {
      expect(findProperty(id)!.standard_unit).toBeNull();
      expect(findProperty(id)!.description).toContain("summaries only");
    }
    expect(resolvePropertyId("awc")).toBe("available_water_capacity");
    expect(resolvePropertyId("AWS")).toBe("available_water_storage");
    expect(resolvePropertyId("hydgrp")).toBe("hydrologic_group");
  });

  test("aliases are lower case, unique, never a canonical id, and resolve to their canonical id", () => {
    const ids = new Set(PROPERTIES.map((p) => p.id));
    const seen = new Map<string, string>();
    for (const p of PROPERTIES) {
      expect(p.id).toMatch(/^[a-z][a-z0-9_]*$/);
      for (const alias of p.accepted_aliases) {
        expect(alias).toMatch(/^[a-z][a-z0-9_]*$/);
        expect(ids.has(alias)).toBe(false);
        expect(seen.get(alias)).toBeUndefined();
        seen.set(alias, p.id);
        expect(resolvePropertyId(alias)).toBe(p.id);
        expect(resolvePropertyId(` ${alias.toUpperCase()} `)).toBe(p.id);
      }
      expect(resolvePropertyId(p.id)).toBe(p.id);
    }
  });

  test("resolvePropertyId: case-insensitive and trimmed; unknown and method-mismatched names do not resolve", () => {
    expect(resolvePropertyId("SOC")).toBe("organic_carbon");
    expect(resolvePropertyId("  om ")).toBe("organic_matter");
    expect(resolvePropertyId("PhH2O")).toBe("ph");
    expect(resolvePropertyId("Clay")).toBe("clay");
    for (const bad of ["", " ", "ph_cacl2", "ecec", "total_carbon", "bulk_density_oven_dry", "ec_1to5", "soil", "__proto__"]) {
      expect(resolvePropertyId(bad)).toBeUndefined();
    }
  });

  test("findProperty takes canonical ids only", () => {
    expect(findProperty("ph")!.name).toBe("pH (1:1 water)");
    expect(findProperty("soc")).toBeUndefined();
    expect(findProperty("PH")).toBeUndefined();
  });

  test("every property has a real method warning and a description; served ones name their methods", () => {
    for (const p of PROPERTIES) {
      expect(p.method_dependency_warning.trim().length).toBeGreaterThan(60);
      expect(p.description.trim().length).toBeGreaterThan(0);
      expect(p.name.trim().length).toBeGreaterThan(0);
    }
    const warning = (id: string) => findProperty(id)!.method_dependency_warning;
    expect(warning("ph")).toContain("CaCl2");
    expect(warning("organic_carbon")).toContain("Walkley-Black");
    expect(warning("organic_carbon")).toContain("Dry combustion");
    expect(warning("clay")).toContain("pipette");
    expect(warning("bulk_density")).toContain("1/3 bar");
    expect(warning("cec")).toContain("pH 8.2");
    expect(warning("total_nitrogen")).toContain("Kjeldahl");
    expect(warning("ec")).toContain("1:5");
    expect(warning("phosphorus")).toContain("Olsen");
    expect(warning("zinc")).toContain("DTPA");
  });

  test("OM/OC conversion notes carry the 1.724 factor and Pribyl's range", () => {
    for (const id of ["organic_carbon", "organic_matter"]) {
      const notes = findProperty(id)!.conversion_notes!;
      expect(notes).toContain("1.724");
      expect(notes).toContain("Pribyl");
      expect(notes).toContain("1.9");
    }
    expect(findProperty("cec")!.conversion_notes).toContain("meq/100 g = cmol(+)/kg");
    expect(findProperty("bulk_density")!.conversion_notes).toContain("Mg/m3");
  });

  test("the vocabulary warning says methods are not interchangeable", () => {
    expect(VOCABULARY_WARNING).toContain("not interchangeable");
    expect(VOCABULARY_WARNING).toContain("measurement_method");
    expect(VOCABULARY_WARNING).toContain("transformations");
  });
});
