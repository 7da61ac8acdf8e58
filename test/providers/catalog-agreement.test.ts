/**
 * One fact, one place: every provider's column table, its catalog record and /v1/properties agree
 * (docs/decisions.md#column-tables).
 */
import { describe, expect, test } from "bun:test";
import { PROPERTIES } from "../../src/catalog/properties";
import type { ProviderRecord } from "../../src/catalog/model";
import { DEFAULT_PROVIDERS } from "../../src/providers/registry";
import { fixtureProvider } from "../fixtures/fixture_points";
import { useLoam } from "../support/server";

const { loam } = useLoam();
const operational = [...DEFAULT_PROVIDERS, fixtureProvider].filter((p) => p.role !== "planned");

describe("column tables, catalog and vocabulary agree", () => {
  for (const provider of operational) {
    test(`${provider.id}: supported_properties is its column table's properties, each in the vocabulary with its unit`, async () => {
      const served = [...new Set(provider.columns.map((c) => c.property))];
      expect(provider.record.supported_properties).toEqual(served);
      const { body } = await loam.json("/v1/properties");
      const vocabulary = new Map<string, { standard_unit: string | null }>(body.properties.map((p: any) => [p.id, p]));
      for (const column of provider.columns) {
        expect(vocabulary.has(column.property)).toBe(true);
        expect(vocabulary.get(column.property)!.standard_unit).toBe(column.unit);
      }
    });
  }

  for (const provider of operational) {
    if (provider.role !== "mapped_location" || !provider.mapUnits) continue;
    const { mapUnits } = provider;
    test(`${provider.id}: map-unit summary properties agree with the vocabulary and the column table`, async () => {
      const { body } = await loam.json("/v1/properties");
      const vocabulary = new Map<string, { name: string; standard_unit: string | null }>(body.properties.map((p: any) => [p.id, p]));
      const columns = new Map(provider.columns.map((c) => [c.property, c]));
      const summaries = mapUnits.properties;
      expect(new Set(summaries.map((p) => p.id)).size).toBe(summaries.length);
      for (const property of summaries) {
        expect(vocabulary.get(property.id)?.name).toBe(property.name);
        expect(vocabulary.get(property.id)!.standard_unit).toBe(property.unit);
        const column = columns.get(property.id);
        if (!column) continue;
        // A property the point query also serves reads the same column (its representative value), in the same unit.
        expect(`${property.table}.${property.column}`).toBe(`${column.table}.${column.column}_r`);
        expect(property.unit).toBe(column.unit);
      }
      // Every served horizon property of the column table can be summarized.
      for (const id of columns.keys()) expect(summaries.some((p) => p.id === id)).toBe(true);
      // A derivation is stated once: the summary carries the column table's warning, word for word.
      for (const property of summaries.filter((p) => p.derived)) {
        expect((columns.get(property.id) as { derivedFrom?: { warning: string } } | undefined)?.derivedFrom?.warning).toBe(property.derived!.warning);
      }
    });
  }

  test("/v1/providers serves the registered records, each coverage followed by what the snapshot holds of it", async () => {
    const { body } = await loam.json("/v1/providers");
    const { body: layers } = await loam.json("/v1/layers");
    expect(body.providers.map((p: ProviderRecord) => ({ ...p, coverage: "" }))).toEqual(DEFAULT_PROVIDERS.map((p) => ({ ...p.record, coverage: "" })));
    for (const [i, provider] of DEFAULT_PROVIDERS.entries()) {
      const served = body.providers[i].coverage as string;
      expect(served.startsWith(provider.record.coverage)).toBe(true);
      if (provider.role === "planned") expect(served).toBe(provider.record.coverage);
    }
    // The held sentence names the snapshot's datasets of each provider (the layers list their places).
    const survey = layers.layers.find((l: { id: string }) => l.id === DEFAULT_PROVIDERS[0]!.id);
    for (const place of survey.coverage.places) expect(body.providers[0].coverage).toContain(place.label);
  });

  test("/v1/properties is the vocabulary module", async () => {
    const { body } = await loam.json("/v1/properties");
    expect(body.properties).toEqual([...PROPERTIES]);
  });

  test("every query's answer columns are those its SQL and snapshot forms produce (checked on every answer)", () => {
    for (const provider of operational) {
      // Tabular (SDA-shaped) queries; a JSON document (a series description) is checked by its decoder instead.
      for (const query of Object.values(provider.queries).filter((q) => q.forms.sda)) expect(query.columns.length).toBeGreaterThan(0);
    }
  });
});
